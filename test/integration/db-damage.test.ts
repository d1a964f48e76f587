/**
 * A database file with a valid header but damaged pages (a bad sector, a half-copied backup): the
 * Host still starts, says the file is damaged and where it is, leaves it untouched, and offers the
 * way out: the unsynced drafts and outbox items saved as files in a folder the person picks, and a
 * fresh start with the damaged file kept aside under a timestamped name (review M2).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHost, DB_FILE, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { DatabaseStatus, ErrorInfo, SalvageReport } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { tempDir } from '../support/tmp';
import { damageDatabase } from '../support/storage-faults';
import { until } from '../support/until';
import { moveAside } from '../../electron/db/aside';
import { readUnsynced } from '../../electron/db/salvage';

let fx: DemoHost | undefined;
let damagedHost: Host | undefined;
let out: ReturnType<typeof tempDir> | undefined;
afterEach(async () => {
  await damagedHost?.close();
  damagedHost = undefined;
  await fx?.close();
  fx = undefined;
  out?.remove();
  out = undefined;
});

/** The Host's database file in `dataDir`, damaged (see test/support/storage-faults.ts); answers its path. */
function damage(dataDir: string, offset: number | null = 12288): string {
  const file = join(dataDir, DB_FILE);
  damageDatabase(file, offset);
  return file;
}

async function openDamaged(dataDir: string): Promise<{ host: Host; events: { name: string; payload: unknown }[] }> {
  const events: { name: string; payload: unknown }[] = [];
  damagedHost = await createHost({ dataDir, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
  damagedHost.onEvent((name, payload) => events.push({ name, payload }));
  return { host: damagedHost, events };
}

async function status(host: Host): Promise<DatabaseStatus> {
  const r = await host.invoke('app.info', {});
  if (!r.ok) throw new Error(r.error.message);
  return (r.value as { database: DatabaseStatus }).database;
}

async function call<T>(host: Host, channel: string, input: unknown): Promise<T> {
  const r = await host.invoke(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.message}`), r.error);
  return r.value as T;
}

async function fails(host: Host, channel: string, input: unknown): Promise<ErrorInfo> {
  const r = await host.invoke(channel, input);
  if (r.ok) throw new Error(`${channel} should have failed`);
  return r.error;
}

/** The demo site with two unsynced drafts (one with a header key and a second language route). */
async function withDrafts(): Promise<DemoHost> {
  const h = await withHost();
  const siteId = h.site.id;
  for (const route of ['/home', '/blog']) await h.call('pages.get', { siteId, route });
  await h.call('drafts.save', { siteId, route: '/home', title: 'Home', header: { 'og.title': 'Hi', tags: ['a'] }, content: 'my unsynced words on home' });
  await h.call('drafts.save', { siteId, route: '/blog', title: 'Blog', header: {}, content: 'words for the blog, not sent yet' });
  return h;
}

describe('a damaged database', () => {
  test('the Host starts, says the file is damaged and where, and leaves it untouched', async () => {
    fx = await withDrafts();
    await fx.host.close();
    const file = damage(fx.dir.path);
    const before = readFileSync(file);

    const { host } = await openDamaged(fx.dir.path);
    const db = await until(() => status(host), (d) => !d.ok);
    expect(db).toMatchObject({ ok: false, problem: 'damaged', location: { folder: fx.dir.path, file: DB_FILE } });
    expect(db.ok === false && db.message).toMatch(/damaged/);
    expect(db.ok === false && db.message).not.toContain(fx.dir.path); // the path is in `location` only
    expect(await fails(host, 'sites.list', {})).toMatchObject({ code: 'database' });
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  test('a truncated file (half of it, as an interrupted copy leaves it) is damage too, with the same way out', async () => {
    fx = await withDrafts();
    await fx.host.close();
    const file = damage(fx.dir.path, null);
    const whole = readFileSync(file);
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length / 2 / 4096) * 4096));
    const { host } = await openDamaged(fx.dir.path);
    const db = await until(() => status(host), (d) => !d.ok);
    expect(db).toMatchObject({ ok: false, problem: 'damaged', location: { file: DB_FILE } });
    expect((await call<{ keptAs: string }>(host, 'database.startFresh', {})).keptAs).toMatch(/^sitedesk\.damaged-/);
    expect(await status(host)).toEqual({ ok: true });
  });

  test('damage where nothing reads at start is found by the check after start, and announced', async () => {
    fx = await withHost();
    // a big cache table: fill it so the middle of the file is only cached page text
    const raw = new Database(join(fx.dir.path, DB_FILE));
    const ins = raw.prepare(`INSERT INTO pages (site_id, route, lang, title, slug, template, published, visible, routable, parent, content, fetched_at) VALUES (?, ?, '', 'T', 's', 'default', 1, 1, 1, '/', ?, 't')`);
    raw.transaction(() => {
      for (let i = 0; i < 3000; i++) ins.run(fx!.site.id, `/filler-${i}`, 'x'.repeat(1500));
    })();
    raw.close();
    await fx.host.close();
    const file = damage(fx.dir.path, Math.floor(statSync(join(fx.dir.path, DB_FILE)).size / 2 / 4096) * 4096);

    const { host, events } = await openDamaged(fx.dir.path);
    expect((await call<unknown[]>(host, 'sites.list', {})).length).toBe(1); // the start read what it needed
    await until(async () => events.find((e) => e.name === 'database.status'), (e) => e !== undefined);
    expect(events.find((e) => e.name === 'database.status')?.payload).toMatchObject({ ok: false, problem: 'damaged' });
    expect(await fails(host, 'sites.list', {})).toMatchObject({ code: 'database' });
    expect(existsSync(file)).toBe(true);
  });

  test('save unsynced work: every readable draft and outbox item as files in a new folder; nothing written over', async () => {
    fx = await withDrafts();
    await fx.host.close();
    damage(fx.dir.path);
    const { host } = await openDamaged(fx.dir.path);
    await until(() => status(host), (d) => !d.ok);
    out = tempDir('sitedesk-salvage-');

    // browser mode has no system dialog: the screen asks for a path, which the Host checks
    expect(await call(host, 'database.chooseFolder', {})).toEqual({ unsupported: true });
    // the folder is checked: relative, missing, a file
    writeFileSync(join(out.path, 'a-file'), 'x');
    expect((await fails(host, 'database.saveUnsynced', { folder: 'relative/path' })).fields?.folder).toMatch(/full path/);
    expect((await fails(host, 'database.saveUnsynced', { folder: join(out.path, 'nope') })).fields?.folder).toMatch(/no folder/);
    expect((await fails(host, 'database.saveUnsynced', { folder: join(out.path, 'a-file') })).fields?.folder).toMatch(/not a folder/);

    const report = await call<SalvageReport>(host, 'database.saveUnsynced', { folder: out.path });
    expect(report).toMatchObject({ drafts: 2, outbox: 2 });
    const home = readFileSync(join(report.folder, 'drafts', 'Demo', 'home.md'), 'utf8');
    expect(home).toContain('my unsynced words on home');
    expect(home).toMatch(/^---\n[\s\S]*"og\.title": "Hi"[\s\S]*"title": "Home"[\s\S]*\n---\n/);
    expect(readFileSync(join(report.folder, 'drafts', 'Demo', 'blog.md'), 'utf8')).toContain('words for the blog, not sent yet');
    const items = readdirSync(join(report.folder, 'outbox'));
    expect(items).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(report.folder, 'outbox', items[0]!), 'utf8'))).toMatchObject({ site: 'Demo', op: 'save' });

    // a second save never writes over the first: a new folder beside it
    const again = await call<SalvageReport>(host, 'database.saveUnsynced', { folder: out.path });
    expect(again.folder).not.toBe(report.folder);
    expect(readFileSync(join(report.folder, 'drafts', 'Demo', 'home.md'), 'utf8')).toBe(home);
  });

  test('start fresh: the damaged file is kept aside under a timestamped name, a new one opens, the Host works again', async () => {
    fx = await withDrafts();
    await fx.host.close();
    const file = damage(fx.dir.path);
    const before = readFileSync(file);
    const { host, events } = await openDamaged(fx.dir.path);
    await until(() => status(host), (d) => !d.ok);

    const { keptAs } = await call<{ keptAs: string }>(host, 'database.startFresh', {});
    expect(keptAs).toMatch(/^sitedesk\.damaged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.db$/);
    expect(readFileSync(join(fx.dir.path, keptAs)).equals(before)).toBe(true);
    expect(await status(host)).toEqual({ ok: true });
    expect(events.filter((e) => e.name === 'database.status').at(-1)?.payload).toEqual({ ok: true });
    expect(await call(host, 'sites.list', {})).toEqual([]);
    // the recovery is offered only for a damaged file
    expect(await fails(host, 'database.startFresh', {})).toMatchObject({ code: 'conflict' });
    mkdirSync(join(fx.dir.path, 'x'));
    expect(await fails(host, 'database.saveUnsynced', { folder: join(fx.dir.path, 'x') })).toMatchObject({ code: 'conflict' });
  });
});

describe('keeping a file aside', () => {
  test('the file and its WAL companions get one timestamped name; a name already taken is never written over', () => {
    out = tempDir('sitedesk-aside-');
    const file = join(out.path, 'sitedesk.db');
    const now = new Date('2026-11-24T03:12:05.123Z');
    writeFileSync(join(out.path, 'sitedesk.damaged-2026-11-24T03-12-05.db'), 'an older one, kept');
    writeFileSync(file, 'main');
    writeFileSync(`${file}-wal`, 'wal');
    expect(moveAside(file, now)).toBe('sitedesk.damaged-2026-11-24T03-12-05-2.db');
    expect(readFileSync(join(out.path, 'sitedesk.damaged-2026-11-24T03-12-05.db'), 'utf8')).toBe('an older one, kept');
    expect(readFileSync(join(out.path, 'sitedesk.damaged-2026-11-24T03-12-05-2.db'), 'utf8')).toBe('main');
    expect(readFileSync(join(out.path, 'sitedesk.damaged-2026-11-24T03-12-05-2.db-wal'), 'utf8')).toBe('wal');
    expect(existsSync(file)).toBe(false);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  test('salvage reads a table whose pages are damaged row by row, and counts what it lost', () => {
    out = tempDir('sitedesk-salvage-rows-');
    const file = join(out.path, 'x.db');
    const db = new Database(file);
    db.exec('CREATE TABLE sites (id TEXT, name TEXT); CREATE TABLE outbox (id INTEGER PRIMARY KEY, site_id, op, route, payload, state, created_at);');
    db.exec(`CREATE TABLE drafts (id INTEGER PRIMARY KEY, site_id, route, lang, state, mine, updated_at)`);
    const ins = db.prepare('INSERT INTO drafts (site_id, route, lang, state, mine, updated_at) VALUES (?, ?, ?, ?, ?, ?)');
    const text = 'words '.repeat(3000); // about 18 KB a row: each row on pages of its own
    for (let i = 0; i < 40; i++) ins.run('s', `/p${i}`, '', 'pending', JSON.stringify({ title: `P${i}`, header: {}, content: text }), 't');
    db.close();
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(4096 * 3, 0x5a), 0, 4096 * 3, Math.floor(size / 2 / 4096) * 4096);
    closeSync(fd);
    const s = readUnsynced(file);
    expect(s.drafts.length).toBeGreaterThan(20);
    expect(s.drafts.length + s.unreadable).toBeGreaterThanOrEqual(39);
    expect(s.unreadable).toBeGreaterThan(0);
    expect(s.drafts.every((d) => d.mine === null || (d.mine.content as string).startsWith('words'))).toBe(true);
  });
});
