/**
 * Keeps a damaged database aside: the file and its WAL companions get a timestamped name beside
 * it (sitedesk.damaged-2026-11-24T03-12-05.db, …-wal, …-shm), so the person still has it and a
 * fresh file can take its place. Never deleted, never written over: each name is taken with a
 * hard link (which fails when the name exists) before the old name is removed.
 */
import { existsSync, linkSync, renameSync, unlinkSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';

const COMPANIONS = ['', '-wal', '-shm', '-journal'];

function stamp(now: Date): string {
  return now.toISOString().slice(0, 19).replace(/:/g, '-');
}

/** Moves `file` (and its companions) aside; answers the new file name (no folder). */
export function moveAside(file: string, now = new Date()): string {
  const dir = dirname(file);
  const ext = extname(file);
  const stem = basename(file, ext);
  for (let n = 1; ; n++) {
    const name = `${stem}.damaged-${stamp(now)}${n > 1 ? `-${n}` : ''}${ext}`;
    const target = join(dir, name);
    if (COMPANIONS.some((c) => existsSync(target + c))) continue;
    for (const c of COMPANIONS) {
      if (!existsSync(file + c)) continue;
      try {
        linkSync(file + c, target + c);
        unlinkSync(file + c);
      } catch (err) {
        // a file system without hard links: a rename, after the check above that the name is free
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
        renameSync(file + c, target + c);
      }
    }
    return name;
  }
}
