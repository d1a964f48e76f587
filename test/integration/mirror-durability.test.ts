/**
 * The mirror writes cache batches without an fsync each (synchronous=NORMAL for that transaction
 * only); every other write — drafts, the outbox — keeps synchronous=FULL.
 */
import { afterEach, expect, test } from 'vitest';
import { join } from 'node:path';
import { closeDatabase, openDatabase, type Db } from '../../electron/db';
import { mirrorRepo } from '../../electron/db/repos/mirror';
import { tempDir } from '../support/tmp';

let dir: ReturnType<typeof tempDir>;
let db: Db;
afterEach(() => {
  closeDatabase(db);
  dir.remove();
});

test('a mirror batch commits with NORMAL, and FULL is back right after; inside another transaction nothing changes', () => {
  dir = tempDir();
  db = openDatabase(join(dir.path, 'sitedesk.db'));
  const FULL = 2;
  const NORMAL = 1;
  const repo = mirrorRepo(db);
  expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
  expect(repo.transaction(() => db.pragma('synchronous', { simple: true }))).toBe(NORMAL);
  expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
  // a failing batch puts FULL back too
  expect(() => repo.transaction(() => {
    throw new Error('boom');
  })).toThrow('boom');
  expect(db.pragma('synchronous', { simple: true })).toBe(FULL);
  // within an outer transaction (which has its own durability) it is just part of it
  expect(db.transaction(() => repo.transaction(() => db.pragma('synchronous', { simple: true })))()).toBe(FULL);
});
