/**
 * One data folder, one app: browser mode started twice on one folder. The second copy says who
 * holds the folder in one line and exits with its own code; the first keeps serving. A lock left by
 * a process that is gone (killed) is taken over. The lock's decisions are tested on real files.
 */
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_FOLDER_IN_USE, LOCK_FILE, lockDataFolder } from '../../electron/db/folder-lock';
import { tempDir } from '../support/tmp';
import { removeWebBuild, spawnWeb, startWeb, type WebProcess } from '../support/web-process';

let dir: ReturnType<typeof tempDir> | undefined;
const running: WebProcess[] = [];

afterEach(async () => {
  for (const p of running.splice(0)) await p.stop('SIGKILL');
  dir?.remove();
  dir = undefined;
});
afterAll(() => removeWebBuild());

/** A pid that belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}

describe('browser mode twice on one data folder', () => {
  test('the second copy names the first and exits with its code; the first keeps serving', async () => {
    dir = tempDir();
    const first = await startWeb(dir.path);
    running.push(first);
    const second = await spawnWeb(dir.path);
    running.push(second);
    const code = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r('still running'), 15_000))]);
    expect(code, second.output()).toBe(EXIT_FOLDER_IN_USE);
    const lines = second.output().trim().split('\n');
    expect(lines.at(-1)).toContain(`Sitedesk is already running with the data folder ${dir.path}`);
    expect(lines.at(-1)).toContain(`process ${first.child.pid}`);
    expect(lines.at(-1)).toContain(`http://127.0.0.1:${first.port}/`);
    expect(lines.at(-1)).toContain(`If no Sitedesk is running, remove ${join(dir.path, LOCK_FILE)}.`);
    expect(second.output()).not.toContain('Sitedesk browser mode: http'); // it never served
    const res = await fetch(`http://127.0.0.1:${first.port}/`);
    expect([200, 404]).toContain(res.status);
    expect(first.child.exitCode).toBeNull();
  }, 60_000);

  test('a lock left by a killed copy is taken over; a clean stop removes the lock', async () => {
    dir = tempDir();
    const first = await startWeb(dir.path);
    await first.stop('SIGKILL');
    expect(existsSync(join(dir.path, LOCK_FILE))).toBe(true); // nobody removed it
    const second = await startWeb(dir.path);
    running.push(second);
    expect(JSON.parse(readFileSync(join(dir.path, LOCK_FILE), 'utf8'))).toMatchObject({ pid: second.child.pid, mode: 'browser', port: second.port });
    await second.stop('SIGTERM');
    expect(existsSync(join(dir.path, LOCK_FILE))).toBe(false);
  }, 60_000);
});

describe('the data-folder lock', () => {
  test('taken on a new folder (created owner-only), refused while held, free again once released', () => {
    dir = tempDir();
    const folder = join(dir.path, 'new');
    const a = lockDataFolder(folder, { mode: 'browser' });
    expect(a.ok).toBe(true);
    if (process.platform !== 'win32') {
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      expect(statSync(join(folder, LOCK_FILE)).mode & 0o777).toBe(0o600);
    }
    const b = lockDataFolder(folder, { mode: 'electron', pid: process.pid + 1, isAlive: () => true });
    expect(b).toMatchObject({ ok: false, holder: { pid: process.pid, mode: 'browser' } });
    if (a.ok) a.lock.release();
    expect(lockDataFolder(folder, { mode: 'electron' }).ok).toBe(true);
  });

  test('a dead pid, an unreadable lock and a pid equal to our own are stale and taken over', async () => {
    dir = tempDir();
    const path = join(dir.path, LOCK_FILE);
    writeFileSync(path, JSON.stringify({ pid: await deadPid(), mode: 'electron', startedAt: 'x' }));
    expect(lockDataFolder(dir.path, { mode: 'browser' }).ok).toBe(true);
    writeFileSync(path, '{"pid":');
    expect(lockDataFolder(dir.path, { mode: 'browser' }).ok).toBe(true);
    writeFileSync(path, JSON.stringify({ pid: 4242, mode: 'browser', startedAt: 'x' }));
    expect(lockDataFolder(dir.path, { mode: 'browser', pid: 4242, isAlive: () => true }).ok).toBe(true);
  });

  test('a live pid that started after the lock was written (the pid was reused) is stale; one that started before holds it', async () => {
    dir = tempDir();
    const path = join(dir.path, LOCK_FILE);
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    try {
      await new Promise((r) => other.once('spawn', r));
      writeFileSync(path, JSON.stringify({ pid: other.pid, mode: 'browser', startedAt: '2001-01-01T00:00:00.000Z' }));
      expect(lockDataFolder(dir.path, { mode: 'browser', pid: process.pid + 1 }).ok).toBe(process.platform === 'linux'); // only Linux says when a process started
      writeFileSync(path, JSON.stringify({ pid: other.pid, mode: 'browser', startedAt: new Date(Date.now() + 60_000).toISOString() }));
      expect(lockDataFolder(dir.path, { mode: 'browser', pid: process.pid + 1 })).toMatchObject({ ok: false, holder: { pid: other.pid } });
    } finally {
      other.kill('SIGKILL');
    }
  });

  test('release removes only our own lock', () => {
    dir = tempDir();
    const a = lockDataFolder(dir.path, { mode: 'browser' });
    if (!a.ok) throw new Error('not taken');
    const other = JSON.stringify({ pid: 1, mode: 'electron', startedAt: 'later' });
    writeFileSync(a.lock.path, other); // taken over meanwhile
    a.lock.release();
    expect(readFileSync(a.lock.path, 'utf8')).toBe(other);
  });
});
