/**
 * A file field's upload settings, sent as form fields beside the files (the real service's
 * Services/UploadFieldSettings.php): `random_name` (a random 15-character name, extension kept),
 * `avoid_overwriting` (a taken name gets a `YYYYMMDDHHMMSS-` prefix), `accept` (comma-separated
 * MIME patterns such as `image/*`, or name patterns such as `.pdf`; `*` takes anything) and
 * `filesize` (MB, a limit below the service's own). They apply on top of the fixed checks
 * (upload-names.ts).
 */
import { randomBytes } from 'node:crypto';
import { HttpProblem } from '../../http';
import { mimeOf } from '../content/serialize';

export interface UploadSettings {
  randomName: boolean;
  avoidOverwriting: boolean;
  accept: string[];
  filesizeMb: number | null;
}

const TRUE = ['1', 'true', 'yes', 'on'];

export function uploadSettings(fields: Record<string, string>): UploadSettings {
  const size = fields.filesize ?? '';
  return {
    randomName: TRUE.includes((fields.random_name ?? '').toLowerCase()),
    avoidOverwriting: TRUE.includes((fields.avoid_overwriting ?? '').toLowerCase()),
    accept: (fields.accept ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    filesizeMb: size.trim() !== '' && Number.isFinite(Number(size)) ? Number(size) : null,
  };
}

const unprocessable = (detail: string) => new HttpProblem(422, 'Unprocessable Entity', detail);

export function checkFilesize(s: UploadSettings, bytes: number): void {
  if (s.filesizeMb === null || s.filesizeMb <= 0) return;
  if (bytes > Math.round(s.filesizeMb * 1_048_576)) {
    const label = s.filesizeMb.toFixed(2).replace(/0+$/, '').replace(/\.$/, '');
    throw unprocessable(`File exceeds the maximum allowed size of ${label} MB for this field.`);
  }
}

export function checkAccepted(s: UploadSettings, filename: string): void {
  if (!s.accept.length) return;
  const mime = mimeOf(filename);
  for (const type of s.accept) {
    if (type === '*') return;
    const pattern = new RegExp(`${type.replace(/[.+]/g, (c) => `\\${c}`).replace(/\*/g, '.*')}$`);
    if (pattern.test(type.includes('/') ? mime : filename)) return;
  }
  throw unprocessable(`File '${filename}' does not match the accepted types for this field.`);
}

/** The name the file is saved under. */
export function finalName(s: UploadSettings, filename: string, taken: (name: string) => boolean, now: number): string {
  let name = filename;
  if (s.randomName) {
    const dot = filename.lastIndexOf('.');
    const random = randomBytes(12).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(15, 'x').slice(0, 15);
    name = (dot > 0 ? `${random}.${filename.slice(dot + 1)}` : random).toLowerCase();
  }
  if (s.avoidOverwriting && taken(name)) name = `${new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14)}-${name}`;
  return name;
}
