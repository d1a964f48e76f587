import Database from 'better-sqlite3';
import { openSync, readSync, closeSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type { DatabaseProblem } from '../contract';
import { AppError } from '../base/app-error';
import { faultError, storageFault } from './faults';
import { guardDatabase, type FaultListener } from './guard';
import { LATEST_VERSION, migrations, type Migration } from './migrations';
import { ownerOnly } from './private-files';

export type Db = Database.Database;

const SQLITE_MAGIC = 'SQLite format 3\0';

/** Reads the first 16 bytes without opening the file for writing, so a foreign file is never touched. */
function looksLikeSqlite(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(16);
    const n = readSync(fd, buf, 0, 16, 0);
    return n === 16 && buf.toString('latin1') === SQLITE_MAGIC;
  } finally {
    closeSync(fd);
  }
}

/** The database was refused at open; `problem` tells the Host which screen and which way out it gets. */
export class DatabaseRefused extends AppError {
  constructor(
    readonly problem: DatabaseProblem,
    info: AppError['info'],
    cause?: unknown,
  ) {
    super(info, { cause });
  }
}

function refuse(problem: DatabaseProblem, message: string, detail?: string, cause?: unknown): never {
  throw new DatabaseRefused(problem, { code: 'database', message, ...(detail ? { detail } : {}) }, cause);
}

/** A SQLite error met while opening: a damaged file is told apart (it has a way out in the app). */
function refuseFault(file: string, err: unknown, otherwise: () => never): never {
  const fault = storageFault(err, dirname(file));
  if (!fault) otherwise();
  throw new DatabaseRefused(fault === 'damaged' ? 'damaged' : 'other', faultError(fault, dirname(file), err).info, err);
}

/**
 * Opens (or creates) the app database and brings its schema up to date in one transaction.
 * Refuses — without writing a byte — a file that is not SQLite or that a newer Sitedesk wrote.
 */
export function openDatabase(file: string, list: Migration[] = migrations, onFault: FaultListener = () => {}): Db {
  // Messages name the file, never its folder: they reach the renderer (and its screenshots, and a
  // support request), and the folder's path holds the user's account name. The damaged-database
  // screen shows the place from DatabaseStatus.location, the one place it is shown.
  const name = basename(file);
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    // made below
  }
  if (size > 0 && !looksLikeSqlite(file)) {
    refuse('foreign', `The data file ${name} is not a Sitedesk database. Sitedesk left it untouched; move it away or choose another data folder.`);
  }
  try {
    ownerOnly(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    refuseFault(file, err, () =>
      refuse('other', `Sitedesk could not make its data folder or ${name} readable by you alone${code ? ` (${code})` : ''}. Check that the folder can be written, or choose another data folder.`, code, err),
    );
  }

  // A readonly look first: checking user_version must not create WAL files or change anything.
  if (size > 0) {
    let version = 0;
    try {
      const peek = new Database(file, { readonly: true, fileMustExist: true });
      try {
        version = peek.pragma('user_version', { simple: true }) as number;
      } finally {
        peek.close();
      }
    } catch (err) {
      refuseFault(file, err, () => refuse('unreadable', `The data file ${name} could not be read as a database. Sitedesk left it untouched.`, String((err as Error).message), err));
    }
    if (version > LATEST_VERSION) {
      refuse(
        'newer',
        `The data file was written by a newer version of Sitedesk (schema ${version}; this version knows up to ${LATEST_VERSION}). Update Sitedesk to open it; the file was left untouched.`,
      );
    }
  }

  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL'); // drafts must survive a power cut
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    // personal data removed (an account, the offline copy of a site's accounts) must not linger in freed pages
    db.pragma('secure_delete = ON');
    migrate(db, list);
  } catch (err) {
    db.close();
    if (err instanceof AppError) throw err;
    refuseFault(file, err, () => refuse('other', `The database could not be prepared: ${(err as Error).message}`, undefined, err));
  }
  return guardDatabase(db, dirname(file), onFault);
}

function migrate(db: Db, list: Migration[]): void {
  const latest = list.reduce((max, m) => Math.max(max, m.version), 0);
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > latest) {
    refuse('newer', `The data file was written by a newer version of Sitedesk (schema ${current}; this version knows up to ${latest}). The file was left untouched.`);
  }
  const pending = list.filter((m) => m.version > current).sort((a, b) => a.version - b.version);
  if (pending.length === 0) return;
  // All pending steps or none: a failure half-way leaves the file exactly as it was.
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }
  }).immediate();
}

export function closeDatabase(db: Db): void {
  if (!db.open) return;
  try {
    db.pragma('optimize');
  } catch {
    // statistics only: a full disk or a damaged file must not stop the close
  } finally {
    db.close();
  }
}
