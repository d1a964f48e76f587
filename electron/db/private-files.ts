/**
 * The data folder is its owner's alone: cached pages, drafts and the outbox are in it. The folder is
 * made (or made again) 0700 and the database 0600 before SQLite opens it; SQLite gives its -wal and
 * -shm files the database's own mode, and any that an older version left open are narrowed too.
 * On Windows the modes mean little (the profile folder's ACL applies), so failures there are not errors.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

export const FOLDER_MODE = 0o700;
export const FILE_MODE = 0o600;

/** The files SQLite keeps beside a database in WAL mode. */
const companions = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

/**
 * Makes the database's folder if missing and narrows it and the database files to their owner.
 * A missing database is created empty here, with its mode, so SQLite never makes it with the
 * umask's. Throws the fs error as it is (the caller says what failed without the path).
 */
export function ownerOnly(file: string): void {
  const folder = dirname(file);
  mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  narrow(folder, FOLDER_MODE);
  if (!existsSync(file)) closeSync(openSync(file, 'a', FILE_MODE));
  for (const f of companions(file)) if (existsSync(f)) narrow(f, FILE_MODE);
}

function narrow(path: string, mode: number): void {
  try {
    chmodSync(path, mode);
  } catch (err) {
    if (process.platform !== 'win32') throw err;
  }
}
