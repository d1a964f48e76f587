/**
 * What a failed SQLite call means for the person, decided once by SQLite's result code: the file
 * is damaged, the disk holding it is full, or it cannot be written. Every statement the app runs
 * goes through guard.ts, which turns these into one AppError each; the Host learns of them there
 * (a damaged file stops the app's use of it, a full disk is watched until space returns).
 * Messages never carry the data folder's path (it is shown on the damaged-database screen only).
 */
import { statfsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { AppError } from '../base/app-error';

export type StorageFault = 'damaged' | 'full' | 'readonly' | 'io';

/** Below this much free space an I/O error on a write is the disk being full (ENOSPC often surfaces as SQLITE_IOERR_WRITE). */
const NEARLY_FULL_BYTES = 1024 * 1024;

function sqliteCode(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : null;
}

/** The class of a SQLite error, or null for the errors the code handles itself (constraints, busy…). */
export function storageFault(err: unknown, folder?: string): StorageFault | null {
  const code = sqliteCode(err);
  if (!code) return (err as { code?: unknown } | null)?.code === 'ENOSPC' ? 'full' : null;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_READONLY')) return 'readonly';
  if (code.startsWith('SQLITE_IOERR')) return folder !== undefined && freeBytes(folder) < NEARLY_FULL_BYTES ? 'full' : 'io';
  return null;
}

/** Bytes an unprivileged writer may still use on the disk holding `folder` (Infinity when unknown). */
export function freeBytes(folder: string): number {
  try {
    const s = statfsSync(folder);
    return s.bavail * s.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * The disk named in words, never by the data path: the home folder's disk when the data folder is
 * on it (the usual case), otherwise "the disk holding Sitedesk's data folder".
 */
export function diskInWords(folder: string): string {
  try {
    if (statSync(folder).dev === statSync(homedir()).dev) return 'the disk holding your home folder';
  } catch {
    // a folder we cannot stat is named generally
  }
  return 'the disk holding Sitedesk’s data folder';
}

/** "The disk holding … is full", the start of every full-disk sentence. */
export function diskIsFull(folder: string): string {
  const disk = diskInWords(folder);
  return `${disk[0]!.toUpperCase()}${disk.slice(1)} is full`;
}

/** The error a fault reaches the renderer as; `detail` keeps SQLite's own words (no path in them). */
export function faultError(fault: StorageFault, folder: string, cause: unknown): AppError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  switch (fault) {
    case 'damaged':
      return new AppError(
        { code: 'database', message: 'Sitedesk’s database file is damaged: part of it can no longer be read. Sitedesk has stopped using it and leaves it where it is until you choose what to do.', detail },
        { cause },
      );
    case 'full':
      return new AppError({ code: 'disk_full', message: `${diskIsFull(folder)}, so this could not be saved. Nothing was lost; free some space on it.`, detail }, { cause });
    case 'readonly':
      return new AppError({ code: 'database', message: 'Sitedesk cannot write to its data folder (it is read-only). Nothing was changed.', detail }, { cause });
    case 'io':
      return new AppError({ code: 'database', message: 'The disk refused a write to Sitedesk’s database. Nothing was changed; try again.', detail }, { cause });
  }
}
