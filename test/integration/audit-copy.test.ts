/**
 * The audit trail kept offline through the Host against the sandbox's trail (both flavours): keep
 * a copy (all of it the first time), keep again (nothing moves), new events after a page save come
 * in the next keep; import the CSV and JSON files the sandbox's /audit/export wrote (into the
 * site's copy: nothing twice; into a copy of their own); search every copy at once with the site
 * not answering, with every filter, full text and keyset paging; export again and import that; the
 * person's retention; forget a copy; removing the site removes its copy; a keep cut short (a
 * cancel, a restart) goes on and keeps nothing twice.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import type { AuditCopy, AuditCopyJob, AuditCopyPage, Site } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { until } from '../support/until';

const SEEDED = 2_500;

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED, audit: { enabled: true, pruneEvery: 0 }, auditSeed: SEEDED } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;
  const siteCount = () => fx.cms.audit.store.count();

  /** The job's end, as the Host reports it. */
  const finished = (jobId: string, ms = 60_000): Promise<AuditCopyJob> =>
    until(
      async () => (await fx.call('auditCopy.jobs', {})).find((j) => j.id === jobId)!,
      (j) => j.state !== 'running',
      ms,
    );
  const keep = async () => finished((await fx.call('auditCopy.keep', { siteId: siteId() })).id);
  const copyOf = async (pred: (c: AuditCopy) => boolean) => (await fx.call('auditCopy.copies', {})).find(pred);
  const siteCopy = () => copyOf((c) => c.siteId === siteId());

  /** An export file the sandbox writes (its own /audit/export), saved where the person would. */
  async function exported(format: 'csv' | 'json', query = ''): Promise<string> {
    const res = await fetch(`${fx.cms.url}/audit/export?format=${format}${query}`, { headers: { 'X-API-Key': fx.cms.seeded!.adminApiKey! } });
    expect(res.status).toBe(200);
    const file = join(fx.dir.path, `site-export-${Date.now()}.${format}`);
    writeFileSync(file, await res.text());
    return file;
  }

  /** A page save through the Host: one new event on the site's trail. */
  async function savePage(title: string): Promise<void> {
    const page = await fx.call('pages.get', { siteId: siteId(), route: '/blog' });
    const saved = await fx.call('drafts.submit', { siteId: siteId(), route: '/blog', title, header: { ...page.header, title }, content: page.content ?? '' });
    expect(saved.outcome).toBe('pushed');
  }

  test('the first keep pulls the whole trail; a second moves no event; a page save comes in the next', async () => {
    const first = await keep();
    expect(first).toMatchObject({ state: 'done', kind: 'keep', error: null, unreadable: 0, duplicates: 0 });
    expect(first.added).toBe(siteCount());
    expect(first.added).toBeGreaterThanOrEqual(SEEDED);
    const copy = (await siteCopy())!;
    expect(copy).toMatchObject({ kind: 'site', name: 'Demo', events: siteCount(), resumable: false, retention: { kind: 'all' }, keptAt: expect.any(String) });
    expect(copy.oldest).toBeLessThan(copy.newest!);

    const second = await keep();
    expect(second).toMatchObject({ state: 'done', transferred: 0, added: 0, duplicates: 0 });

    await savePage('Kept offline');
    const third = await keep();
    expect(third).toMatchObject({ state: 'done', added: 1 });
    expect(third.transferred).toBeLessThan(50); // the new event and the last minute's, not the trail
    const found = await fx.call('auditCopy.search', { event: 'page.update', q: '/blog', limit: 5 });
    expect(found.events[0]).toMatchObject({ event: 'page.update', targetId: '/blog', copyId: copy.id, actorName: expect.any(String) });
    expect((await siteCopy())!.events).toBe(siteCount());
    expect(await keep()).toMatchObject({ transferred: 0, added: 0 });
  });

  test('search every copy offline: filters, full text, keyset pages newest first, totals, facets, marked with the time kept', async () => {
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = (await siteCopy())!;
      const all = await fx.call('auditCopy.search', { limit: 100 });
      expect(all.total).toBe(copy.events);
      expect(all.copies).toEqual([{ copyId: copy.id, siteId: siteId(), name: 'Demo', keptAt: copy.keptAt }]);
      // keyset paging: newest first, no event twice, every one once
      const seen = new Set<number>();
      let page: AuditCopyPage = all;
      let last = Infinity;
      for (;;) {
        for (const e of page.events) {
          expect(e.key).toBeLessThan(last);
          last = e.key;
          seen.add(e.key);
        }
        if (page.next === null) break;
        page = await fx.call('auditCopy.search', { limit: 500, before: page.next });
      }
      expect(seen.size).toBe(copy.events);

      // every filter, checked against the events themselves
      const facets = await fx.call('auditCopy.facets', {});
      expect(facets.copies).toEqual([{ copyId: copy.id, count: copy.events }]);
      expect(facets.severities.map((s) => s.value).sort()).toEqual(['info', 'notice', 'warning']);
      const editor = facets.actors.find((a) => a.id === 'editor')!;
      expect(editor).toMatchObject({ name: 'Eddie Editor', count: expect.any(Number) });
      const byActor = await fx.call('auditCopy.search', { actor: 'Eddie Editor', severity: 'notice', limit: 500 });
      expect(byActor.events.every((e) => e.actorId === 'editor' && e.severity === 'notice')).toBe(true);
      expect(byActor.total).toBeGreaterThan(0);
      const byId = await fx.call('auditCopy.search', { actor: 'editor', severity: 'notice', limit: 1 });
      expect(byId.total).toBe(byActor.total);
      const pages = await fx.call('auditCopy.search', { targetType: 'package', event: 'gpm.install', limit: 1 });
      expect(pages.total).toBe(facets.events.find((e) => e.value === 'gpm.install')!.count);
      // a time window that cuts hours: the total agrees with the events in it
      const mid = Math.round((copy.oldest! + copy.newest!) / 2);
      const windowed = await fx.call('auditCopy.search', { from: mid - 3 * 3_600_000 + 123, to: mid + 5 * 3_600_000 - 77, limit: 500 });
      expect(windowed.events.every((e) => e.ts >= mid - 3 * 3_600_000 + 123 && e.ts <= mid + 5 * 3_600_000 - 77)).toBe(true);
      expect(windowed.total).toBe(windowed.events.length);
      expect(windowed.total).toBeGreaterThan(0);

      // full text: the address, a route, the user agent, context words; FTS syntax is only words
      const ip = await fx.call('auditCopy.search', { q: '203.0.113.7', limit: 500 });
      expect(ip.total).toBeGreaterThan(0);
      expect(ip.events.every((e) => e.ip === '203.0.113.7')).toBe(true);
      const moved = await fx.call('auditCopy.search', { q: 'drafts', event: 'page.move', limit: 3 });
      expect(moved.events[0]!.context).toMatchObject({ old_route: expect.stringMatching(/^\/drafts\//) });
      expect((await fx.call('auditCopy.search', { q: 'curl', limit: 1 })).events[0]!.userAgent).toMatch(/^curl/);
      expect(await fx.call('auditCopy.search', { q: 'NEAR( AND "', limit: 1 })).toMatchObject({ total: 0 });
      expect(await fx.call('auditCopy.search', { actor: 'nobody-at-all', limit: 1 })).toMatchObject({ total: 0, events: [] });
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('import the site’s own CSV and JSON exports: into the site’s copy nothing twice; into a copy of their own all of it', async () => {
    const before = (await siteCopy())!.events;
    for (const format of ['csv', 'json'] as const) {
      const file = await exported(format);
      const job = await finished((await fx.call('auditCopy.import', { file, into: { kind: 'site', siteId: siteId() } })).id);
      expect(job).toMatchObject({ state: 'done', kind: 'import', added: 0, duplicates: before, unreadable: 0, file: expect.stringMatching(new RegExp(`\\.${format}$`)) });
      const own = await finished((await fx.call('auditCopy.import', { file, into: { kind: 'file', name: `Export ${format}` } })).id);
      expect(own).toMatchObject({ state: 'done', added: before, duplicates: 0, unreadable: 0 });
      // the words of rows stored without them were all added before the job ended (into the
      // site's copy: none new; into their own: the same times as the site copy's, so most were
      // indexed with their batch, key by key)
      expect(job.indexing).toBeNull();
      expect(own.indexing?.done).toBe(own.indexing?.total);
    }
    const copies = await fx.call('auditCopy.copies', {});
    expect(copies.map((c) => [c.kind, c.name, c.events])).toEqual([
      ['site', 'Demo', before],
      ['file', 'Export csv', before],
      ['file', 'Export json', before],
    ]);
    // all copies searched at once; the same event read from the three copies: identical but for its copy and key
    const a = await fx.call('auditCopy.search', { q: '203.0.113.7', limit: 3 });
    expect(a.indexing).toBeNull(); // every event's words are in the index
    expect(a.total).toBe(3 * (await fx.call('auditCopy.search', { q: '203.0.113.7', copies: [copies[0]!.id], limit: 1 })).total);
    expect(a.copies.map((c) => c.copyId)).toEqual(copies.map((c) => c.id));
    const one = (await fx.call('auditCopy.search', { copies: [copies[0]!.id], limit: 1 })).events[0]!;
    for (const other of copies.slice(1)) {
      const twin = (await fx.call('auditCopy.search', { copies: [other.id], limit: 1 })).events[0]!;
      expect({ ...twin, key: 0, copyId: 0 }).toEqual({ ...one, key: 0, copyId: 0 });
    }
  });

  test('rows that cannot be read are counted with their line; the rest are imported; a file that is no export is refused', async () => {
    const file = join(fx.dir.path, 'damaged.csv');
    writeFileSync(
      file,
      [
        'id,ts,event,severity,actor_id,actor_name,actor_roles,auth_method,ip,user_agent,target_type,target_id,status,context',
        `900001,1700000000000,page.update,info,admin,"Ada ""A"" Admin","[""administrators""]",apikey,192.0.2.1,"'=cmd|' /C calc",page,/x,,"{""lang"":""en""}"`,
        'x,1700000000001,page.update,info,,,,,,,,,,',
        '900002,1700000000002,page.update,info,,,,,,,,,,{broken',
        '900003,1700000000003,page.delete,notice,,,,,,,,,,',
        '900004,1700000000004,too,few',
      ].join('\n'),
    );
    const job = await finished((await fx.call('auditCopy.import', { file, into: { kind: 'file', name: 'Damaged' } })).id);
    expect(job).toMatchObject({ state: 'done', added: 2, unreadable: 3 });
    expect(job.problems).toEqual([
      { line: 3, problem: 'id is not a whole number' },
      { line: 4, problem: 'context is not JSON' },
      { line: 6, problem: '4 values where the first line names 14 columns' },
    ]);
    const copy = (await copyOf((c) => c.name === 'Damaged'))!;
    const [newest, oldest] = (await fx.call('auditCopy.search', { copies: [copy.id], limit: 5 })).events;
    expect(oldest).toMatchObject({ id: 900001, actorName: 'Ada "A" Admin', actorRoles: ['administrators'], userAgent: "=cmd|' /C calc", context: { lang: 'en' } });
    expect(newest).toMatchObject({ id: 900003, event: 'page.delete', actorId: null, context: null });

    const notExport = join(fx.dir.path, 'people.csv');
    writeFileSync(notExport, 'name,email\nA,a@example.com\n');
    const refused = await finished((await fx.call('auditCopy.import', { file: notExport, into: { kind: 'file', name: 'People' } })).id);
    expect(refused).toMatchObject({ state: 'failed', error: expect.stringMatching(/not an audit export/) });
    expect(await copyOf((c) => c.name === 'People')).toBeUndefined();
    expect((await fx.fails('auditCopy.import', { file: 'relative.csv', into: { kind: 'file', name: 'X' } })).fields).toEqual({ file: expect.stringMatching(/full path/) });
    expect((await fx.fails('auditCopy.import', { file: join(fx.dir.path, 'none.csv'), into: { kind: 'file', name: 'X' } })).fields).toEqual({ file: 'There is no file at that path.' });
  });

  test('export again (CSV with the apostrophe, JSON), with progress; re-imported it is the same copy', async () => {
    const copy = (await copyOf((c) => c.name === 'Damaged'))!;
    const file = join(fx.dir.path, 'again.csv');
    const job = await finished((await fx.call('auditCopy.export', { file, format: 'csv', copies: [copy.id] })).id);
    expect(job).toMatchObject({ state: 'done', kind: 'export', done: 2, total: 2 });
    const text = readFileSync(file, 'utf8');
    expect(text.split('\n')[0]).toBe('id,ts,event,severity,actor_id,actor_name,actor_roles,auth_method,ip,user_agent,target_type,target_id,status,context');
    expect(text).toContain(`"'=cmd|' /C calc"`);
    const taken = await fx.fails('auditCopy.export', { file, format: 'csv' });
    expect(taken.code).toBe('conflict');
    expect(taken.fields).toEqual({ file: expect.stringMatching(/already there/) });
    const again = await finished((await fx.call('auditCopy.import', { file, into: { kind: 'file', name: 'Damaged again' } })).id);
    expect(again).toMatchObject({ state: 'done', added: 2, unreadable: 0 });
    const twin = (await copyOf((c) => c.name === 'Damaged again'))!;
    const strip = (p: AuditCopyPage) => p.events.map(({ key: _k, copyId: _c, ...e }) => e);
    expect(strip(await fx.call('auditCopy.search', { copies: [twin.id], limit: 5 }))).toEqual(strip(await fx.call('auditCopy.search', { copies: [copy.id], limit: 5 })));

    const json = join(fx.dir.path, 'again.json');
    await finished((await fx.call('auditCopy.export', { file: json, format: 'json', copies: [copy.id], event: 'page.delete' })).id);
    expect(JSON.parse(readFileSync(json, 'utf8'))).toEqual([expect.objectContaining({ id: 900003, event: 'page.delete', actor_roles: [], context: null, status: null })]);
  });

  test('retention is the person’s: at most N events, the last N days, applied now and after each keep', async () => {
    const copy = (await siteCopy())!;
    const kept = await fx.call('auditCopy.setRetention', { copyId: copy.id, retention: { kind: 'count', events: 100 } });
    expect(kept).toMatchObject({ events: 100, newest: copy.newest, retention: { kind: 'count', events: 100 } });
    expect((await fx.call('auditCopy.search', { copies: [copy.id], limit: 1 })).total).toBe(100);
    expect((await fx.call('auditCopy.facets', { copies: [copy.id] })).copies).toEqual([{ copyId: copy.id, count: 100 }]);
    await savePage('Retained');
    const job = await keep();
    expect(job).toMatchObject({ added: 1, removed: 1 });
    expect((await siteCopy())!.events).toBe(100);

    const days = await fx.call('auditCopy.setRetention', { copyId: copy.id, retention: { kind: 'days', days: 1 } });
    expect(days.oldest).toBeGreaterThanOrEqual(Date.now() - 86_400_000 - 60_000);
    expect(days.events).toBeGreaterThan(0);
    expect(days.events).toBeLessThanOrEqual(100);
    const everything = await fx.call('auditCopy.setRetention', { copyId: copy.id, retention: { kind: 'all' } });
    expect(everything.events).toBe(days.events); // what was removed is gone; everything from now on
  });

  test('forget a copy: gone from the list and every search, its events overwritten in the file', async () => {
    // a copy holding a name and an address nothing else holds
    const file = join(fx.dir.path, 'forget-me.json');
    writeFileSync(file, JSON.stringify([{ id: 1, ts: Date.now() - 5000, event: 'user.login.failed', severity: 'warning', actor_id: 'zelda', actor_name: 'Zelda Forgettable', actor_roles: [], auth_method: 'session', ip: '198.51.100.77', user_agent: 'Forgettable/1.0', target_type: 'user', target_id: 'zelda', status: null, context: { reason: 'password' } }]));
    const imported = await finished((await fx.call('auditCopy.import', { file, into: { kind: 'file', name: 'Forget me' } })).id);
    expect(imported).toMatchObject({ state: 'done', added: 1 });
    const forgettable = (await copyOf((c) => c.name === 'Forget me'))!;
    expect((await fx.call('auditCopy.search', { q: '198.51.100.77', limit: 5 })).events.map((e) => e.actorName)).toEqual(['Zelda Forgettable']);
    const dbFile = join(fx.dir.path, 'sitedesk.db');
    const fileBytes = () => Buffer.concat([readFileSync(dbFile), existsSync(`${dbFile}-wal`) ? readFileSync(`${dbFile}-wal`) : Buffer.alloc(0)]);
    await fx.reopen();
    expect(fileBytes().includes('Zelda Forgettable')).toBe(true); // the check below can see it
    await fx.call('auditCopy.forget', { copyId: forgettable.id });
    expect(await fx.call('auditCopy.search', { q: 'Forgettable', limit: 5 })).toMatchObject({ total: 0 });
    const gone = new Database(dbFile, { readonly: true });
    try {
      await until(
        async () => gone.prepare('SELECT 1 FROM audit_copies WHERE id = ?').get(forgettable.id),
        (row) => row === undefined,
      );
    } finally {
      gone.close();
    }
    await fx.reopen(); // closing writes the WAL back into the file
    const bytes = fileBytes();
    expect(bytes.includes('Zelda Forgettable')).toBe(false);
    expect(bytes.includes('198.51.100.77')).toBe(false);

    const copy = (await copyOf((c) => c.name === 'Export json'))!;
    expect(await fx.call('auditCopy.forget', { copyId: copy.id })).toEqual({ copyId: copy.id });
    expect(await copyOf((c) => c.id === copy.id)).toBeUndefined();
    expect(await fx.call('auditCopy.search', { copies: [copy.id], limit: 1 })).toMatchObject({ total: 0, events: [], copies: [] });
    const db = new Database(join(fx.dir.path, 'sitedesk.db'), { readonly: true });
    try {
      await until(
        async () => (db.prepare('SELECT count(*) AS n FROM audit_events WHERE copy_id = ?').get(copy.id) as { n: number }).n,
        (n) => n === 0,
      );
      await until(
        async () => db.prepare('SELECT 1 FROM audit_copies WHERE id = ?').get(copy.id),
        (row) => row === undefined,
      );
    } finally {
      db.close();
    }
    expect((await fx.fails('auditCopy.forget', { copyId: copy.id })).code).toBe('not_found');
  });

  test('a keep cut short (cancelled, then the Host restarted) goes on where it stopped and keeps nothing twice', async () => {
    const site: Site = await fx.call('sites.add', { name: 'Second', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey: fx.cms.seeded!.adminApiKey! });
    // pages of 100 (the site's cap), each a little slow: the run is cut in its middle
    fx.cms.audit.knobs.maxPerPage = 100;
    fx.cms.faults.set({ route: 'GET /audit/events', latencyMs: 60 });
    try {
      const started = await fx.call('auditCopy.keep', { siteId: site.id });
      await until(
        async () => (await fx.call('auditCopy.jobs', {})).find((j) => j.id === started.id)!,
        (j) => j.done >= 500,
      );
      const { job } = await fx.call('auditCopy.cancel', { jobId: started.id });
      expect(job).toMatchObject({ state: 'cancelled' });
      const cut = (await copyOf((c) => c.siteId === site.id))!;
      expect(cut.resumable).toBe(true);
      expect(cut.events).toBeGreaterThanOrEqual(500);
      expect(cut.events).toBeLessThan(siteCount() / 2);

      // going on, then a restart in the middle: the run goes on by itself at the next start
      const resumed = await fx.call('auditCopy.keep', { siteId: site.id });
      await until(
        async () => (await fx.call('auditCopy.jobs', {})).find((j) => j.id === resumed.id)!,
        (j) => j.done >= 1200,
      );
      await fx.reopen();
      expect((await copyOf((c) => c.siteId === site.id))!.events).toBeLessThan(siteCount());
    } finally {
      fx.cms.faults.clear();
      fx.cms.audit.knobs.maxPerPage = 1000;
    }
    const done = await until(
      async () => (await fx.call('auditCopy.jobs', {})).find((j) => j.kind === 'keep' && j.siteId === site.id),
      (j) => j !== undefined && j.state !== 'running',
      60_000,
    );
    expect(done).toMatchObject({ state: 'done', duplicates: 0 });
    const copy = (await copyOf((c) => c.siteId === site.id))!;
    expect(copy).toMatchObject({ events: siteCount(), resumable: false });
    const again = await finished((await fx.call('auditCopy.keep', { siteId: site.id })).id);
    expect(again).toMatchObject({ transferred: 0, added: 0 });
    // every site id once in the copy
    const db = new Database(join(fx.dir.path, 'sitedesk.db'), { readonly: true });
    try {
      expect(db.prepare('SELECT count(*) AS n, count(DISTINCT event_id) AS d FROM audit_events WHERE copy_id = ?').get(copy.id)).toEqual({ n: siteCount(), d: siteCount() });
    } finally {
      db.close();
    }
  }, 120_000);

  test('a site that does not answer is said in words; its copy stays as it was', async () => {
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const job = await keep();
      expect(job.state).toBe('failed');
      expect(job.error).toMatch(/The kept copy is as it was; keep a copy again once the site answers/);
    } finally {
      fx.cms.faults.clear();
    }
    fx.cms.audit.knobs.enabled = false;
    try {
      expect((await keep()).error).toMatch(/audit trail is not turned on/);
    } finally {
      fx.cms.audit.knobs.enabled = true;
    }
  });

  test('removing a site removes its copy; after every removal the full-text index agrees with the events, the tally too', async () => {
    const copy = (await siteCopy())!;
    await fx.call('sites.remove', { id: siteId() });
    expect(await copyOf((c) => c.id === copy.id)).toBeUndefined();
    expect((await fx.call('auditCopy.search', { limit: 1 })).copies.map((c) => c.copyId)).not.toContain(copy.id);
    const db = new Database(join(fx.dir.path, 'sitedesk.db'));
    try {
      await until(
        async () => db.prepare('SELECT 1 FROM audit_copies WHERE id = ?').get(copy.id),
        (row) => row === undefined,
      );
      expect(db.prepare('SELECT count(*) AS n FROM audit_events WHERE copy_id = ?').get(copy.id)).toEqual({ n: 0 });
      expect(db.prepare('SELECT count(*) AS n FROM audit_tally WHERE copy_id = ?').get(copy.id)).toEqual({ n: 0 });
      // FTS5 checks its index against the view of the events (retention, forgets and this removal all removed words)
      db.exec(`INSERT INTO audit_fts (audit_fts) VALUES ('integrity-check')`);
      const tally = db.prepare('SELECT copy_id AS copyId, sum(n) AS n FROM audit_tally GROUP BY copy_id ORDER BY copy_id').all();
      const counted = db.prepare('SELECT copy_id AS copyId, count(*) AS n FROM audit_events GROUP BY copy_id ORDER BY copy_id').all();
      expect(tally).toEqual(counted);
    } finally {
      db.close();
    }
  });
});
