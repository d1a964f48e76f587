/**
 * Files on their way to a site arrive from the renderer in pieces (`media.uploadChunk`), so no
 * message over the bridge is larger than a few MB whatever the file. The pieces wait here, in
 * memory, until `media.upload` takes them. Bounded: per file by the site's limit, in total, and in
 * time (a renderer that went away mid-file does not leave its bytes behind for long).
 */
import { AppError } from '../base/app-error';
import { MAX_MEDIA_BYTES } from '../contract';

export interface StagingLimits {
  maxFileBytes?: number;
  maxTotalBytes?: number;
  ttlMs?: number;
  now?: () => number;
}

const mb = (n: number) => `${Math.round(n / (1024 * 1024))} MB`;

export function uploadStaging(limits: StagingLimits = {}) {
  const maxFile = limits.maxFileBytes ?? MAX_MEDIA_BYTES;
  const maxTotal = limits.maxTotalBytes ?? 4 * MAX_MEDIA_BYTES;
  const ttl = limits.ttlMs ?? 10 * 60_000;
  const now = limits.now ?? Date.now;
  const staged = new Map<string, { parts: Buffer[]; size: number; touched: number }>();
  let total = 0;

  function drop(uploadId: string): void {
    const s = staged.get(uploadId);
    if (!s) return;
    total -= s.size;
    staged.delete(uploadId);
  }

  function sweep(): void {
    const t = now();
    for (const [id, s] of staged) if (t - s.touched > ttl) drop(id);
  }

  return {
    /** Adds the bytes at `offset`; answers how many bytes of the file are staged now. */
    add(uploadId: string, offset: number, bytes: Buffer): number {
      sweep();
      const s = staged.get(uploadId) ?? { parts: [], size: 0, touched: now() };
      if (offset === 0 && s.size > 0) {
        // the same file again from its start (a retry): begin anew
        drop(uploadId);
        return this.add(uploadId, 0, bytes);
      }
      if (offset !== s.size) {
        throw new AppError({ code: 'invalid_input', message: `A piece of the file arrived out of order (at ${offset}, expected ${s.size}); send it again from the start.` });
      }
      if (s.size + bytes.length > maxFile) {
        drop(uploadId);
        throw new AppError({ code: 'invalid_input', message: `The file is larger than the site accepts (${mb(maxFile)} per file).`, fields: { file: `Larger than ${mb(maxFile)}, the most the site takes per file.` } });
      }
      if (total + bytes.length > maxTotal) {
        throw new AppError({ code: 'invalid_input', message: `Too many files are on their way at once (${mb(maxTotal)}); wait for some to finish.` });
      }
      s.parts.push(bytes);
      s.size += bytes.length;
      s.touched = now();
      total += bytes.length;
      staged.set(uploadId, s);
      return s.size;
    },

    /** The whole file, handed over once. */
    take(uploadId: string): Buffer {
      sweep();
      const s = staged.get(uploadId);
      if (!s) throw new AppError({ code: 'invalid_input', message: 'The file’s bytes are not here (they took too long or were never sent); add the file again.' });
      drop(uploadId);
      return Buffer.concat(s.parts, s.size);
    },

    drop,
    /** Bytes waiting, for tests and diagnostics. */
    get stagedBytes(): number {
      return total;
    },
  };
}

export type UploadStaging = ReturnType<typeof uploadStaging>;
