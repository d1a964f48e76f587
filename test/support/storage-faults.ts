/**
 * The storage faults the tests make for real, shared by the Host's and the end-to-end suites: a
 * damaged database file, and a disk filled until it refuses.
 */
import Database from 'better-sqlite3';
import { closeSync, copyFileSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Puts a consistent copy of the database `file` (VACUUM INTO, then WAL as the app keeps it) in its
 * place with 8 KiB overwritten at `offset` (12288: the tables read at start, as in the security
 * review); `offset` null leaves the copy whole. The app must not have it open.
 */
export function damageDatabase(file: string, offset: number | null = 12288): void {
  const copy = join(dirname(file), 'copy.db');
  const db = new Database(file, { readonly: true });
  db.exec(`VACUUM INTO '${copy}'`);
  db.close();
  for (const ext of ['', '-wal', '-shm']) rmSync(file + ext, { force: true });
  copyFileSync(copy, file);
  rmSync(copy);
  const wal = new Database(file);
  wal.pragma('journal_mode = WAL');
  wal.close();
  if (offset === null) return;
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(8192, 0x5a), 0, 8192, offset);
  closeSync(fd);
}

/** Writes to `file` until the disk refuses (ENOSPC). */
export function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}
