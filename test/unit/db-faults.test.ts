/** What a failed SQLite call means (db/faults.ts), and the file names a salvage makes (database/service.ts). */
import { describe, expect, test } from 'vitest';
import { faultError, storageFault } from '../../electron/db/faults';
import { safeName } from '../../electron/database/service';

const sqlite = (code: string) => Object.assign(new Error(code), { code });

describe('storage faults', () => {
  test('each SQLite code has one meaning; the codes the app handles itself have none', () => {
    expect(storageFault(sqlite('SQLITE_CORRUPT'))).toBe('damaged');
    expect(storageFault(sqlite('SQLITE_CORRUPT_INDEX'))).toBe('damaged');
    expect(storageFault(sqlite('SQLITE_NOTADB'))).toBe('damaged');
    expect(storageFault(sqlite('SQLITE_FULL'))).toBe('full');
    expect(storageFault(sqlite('SQLITE_READONLY_DBMOVED'))).toBe('readonly');
    expect(storageFault(sqlite('SQLITE_IOERR_WRITE'))).toBe('io');
    expect(storageFault(Object.assign(new Error('no space'), { code: 'ENOSPC' }))).toBe('full');
    for (const other of [sqlite('SQLITE_CONSTRAINT_UNIQUE'), sqlite('SQLITE_BUSY'), new Error('x'), null, 'text']) expect(storageFault(other)).toBeNull();
  });

  test('an I/O error with the disk (nearly) full is a full disk', () => {
    // '/' has room on any machine that runs the tests; a folder that cannot be looked at counts as roomy
    expect(storageFault(sqlite('SQLITE_IOERR_WRITE'), '/')).toBe('io');
    expect(storageFault(sqlite('SQLITE_IOERR_WRITE'), '/no/such/folder')).toBe('io');
  });

  test('the messages name no path', () => {
    const folder = '/home/someone/.config/Sitedesk';
    for (const f of ['damaged', 'full', 'readonly', 'io'] as const) {
      const e = faultError(f, folder, sqlite('SQLITE_X'));
      expect(e.message).not.toContain(folder);
      expect(e.info.detail).toBe('SQLITE_X');
    }
    expect(faultError('full', folder, sqlite('SQLITE_FULL')).code).toBe('disk_full');
    expect(faultError('damaged', folder, sqlite('SQLITE_CORRUPT')).code).toBe('database');
  });
});

describe('salvaged file names', () => {
  test('they cannot climb, hide or carry separators and control characters', () => {
    expect(safeName('..')).toBe('_');
    expect(safeName('.hidden')).toBe('hidden');
    expect(safeName('a/b\\c')).toBe('a-b-c');
    expect(safeName('tab\there\u0000')).toBe('tab-here');
    expect(safeName('Über uns (2)')).toBe('Über uns (2)');
    expect(safeName('x'.repeat(200))).toHaveLength(80);
    expect(safeName('', 'site')).toBe('site');
  });
});
