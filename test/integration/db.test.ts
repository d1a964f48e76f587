import { afterEach, describe, expect, test } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { closeDatabase, openDatabase, repositories } from '../../electron/db';
import { LATEST_VERSION, migrations } from '../../electron/db/migrations';
import { tempDir } from '../support/tmp';

let dir: ReturnType<typeof tempDir>;
afterEach(() => dir?.remove());

describe('the database file', () => {
  test('an empty folder gets a new file with every migration, WAL, foreign keys and FULL sync', () => {
    dir = tempDir();
    const file = join(dir.path, 'sub', 'sitedesk.db');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    closeDatabase(db);
  });

  test('an empty (0-byte) file is treated as new', () => {
    dir = tempDir();
    const file = join(dir.path, 'sitedesk.db');
    writeFileSync(file, '');
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    closeDatabase(db);
  });

  test('re-opening keeps the data and applies nothing twice', () => {
    dir = tempDir();
    const file = join(dir.path, 'sitedesk.db');
    let db = openDatabase(file);
    repositories(db).sites.insert({
      id: 'a',
      name: 'Blog',
      kind: 'cms',
      baseUrl: 'https://x.test/api/v1',
      environment: null,
      authMode: 'password',
      hasApiKey: false,
    });
    closeDatabase(db);
    db = openDatabase(file);
    expect(repositories(db).sites.list().map((s) => s.name)).toEqual(['Blog']);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    closeDatabase(db);
  });

  test('a file written by a newer version is refused and left byte-for-byte untouched', () => {
    dir = tempDir();
    const file = join(dir.path, 'sitedesk.db');
    const newer = new Database(file);
    newer.exec('CREATE TABLE future (x)');
    newer.pragma(`user_version = ${LATEST_VERSION + 5}`);
    newer.close();
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(/newer version of Sitedesk/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test('a file that is not SQLite is refused with a clear message and never overwritten', () => {
    dir = tempDir();
    const file = join(dir.path, 'sitedesk.db');
    writeFileSync(file, 'these are my notes, not a database\n'.repeat(20));
    const before = readFileSync(file);
    expect(() => openDatabase(file)).toThrow(/is not a Sitedesk database/);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test('a migration that fails half-way leaves the file as it was (one transaction)', () => {
    dir = tempDir();
    const file = join(dir.path, 'sitedesk.db');
    closeDatabase(openDatabase(file));
    const broken = [...migrations, { version: LATEST_VERSION + 1, name: 'broken', sql: 'CREATE TABLE t1 (x); THIS IS NOT SQL;' }];
    expect(() => openDatabase(file, broken)).toThrow(/could not be prepared/);
    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name = 't1'").get()).toBeUndefined();
    closeDatabase(db);
  });

  test('site names are unique regardless of case and surrounding spaces', () => {
    dir = tempDir();
    const db = openDatabase(join(dir.path, 'sitedesk.db'));
    const sites = repositories(db).sites;
    const base = { kind: 'cms' as const, baseUrl: 'https://x.test/api/v1', environment: null, authMode: 'password' as const, hasApiKey: false };
    sites.insert({ ...base, id: '1', name: 'Blog' });
    expect(() => sites.insert({ ...base, id: '2', name: ' blog ' })).toThrow(/UNIQUE/);
    closeDatabase(db);
  });
});
