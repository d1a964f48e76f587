/**
 * "Keep a copy"'s reading of a trail (electron/audit-copy/keep.ts) against a site whose trail is
 * a list in memory, answered as the real AuditController answers /audit/events (newest first by
 * time then id, `from`/`to` inclusive, LIMIT/OFFSET, `meta.pagination`, per_page capped), through
 * the real transport into a real SQLite file: a millisecond holding more than a page, a second keep
 * moving nothing, events whose time crosses an older id's, a trail the site pruned, a run cut by a
 * failure going on where it stopped. The sandbox's own trail is the Host test's (audit-copy.test.ts).
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Transport } from '../../electron/api/transport';
import { closeDatabase, openDatabase, type Db } from '../../electron/db';
import { auditCopyRepo, type AuditCopyRepo } from '../../electron/db/repos/audit-copy';
import { KeepCancelled, keepTrail, type KeepTally } from '../../electron/audit-copy/keep';
import { tempDir } from '../support/tmp';

interface SiteEvent {
  id: number;
  ts: number;
  event: string;
}

/** A site's trail as the real service answers it. */
function fakeSite(cap = 500) {
  const trail: SiteEvent[] = [];
  let nextId = 1;
  const site = {
    trail,
    requests: 0,
    /** events sent in answers */
    sent: 0,
    failAt: null as number | null,
    add(ts: number, event = 'page.update'): SiteEvent {
      const e = { id: nextId++, ts, event };
      trail.push(e);
      return e;
    },
    fetch: (async (input: string | URL | Request) => {
      site.requests++;
      if (site.failAt !== null && site.requests >= site.failAt) throw new TypeError('fetch failed');
      const url = new URL(String(input));
      const q = url.searchParams;
      const page = Math.max(1, Number(q.get('page') ?? 1) || 1);
      const perPage = Math.min(cap, Math.max(1, Number(q.get('per_page') ?? 50) || 50));
      const from = q.get('from') ? Number(q.get('from')) : null;
      const to = q.get('to') ? Number(q.get('to')) : null;
      const rows = trail.filter((e) => (from === null || e.ts >= from) && (to === null || e.ts <= to)).sort((a, b) => b.ts - a.ts || b.id - a.id);
      const data = rows.slice((page - 1) * perPage, page * perPage).map((e) => ({ ...e, severity: 'info', actor_id: 'admin', actor_name: 'Ada', actor_roles: [], auth_method: 'apikey', ip: '192.0.2.1', user_agent: 'x', target_type: 'page', target_id: `/p${e.id}`, status: null, context: null }));
      site.sent += data.length;
      const body = { data, meta: { pagination: { page, per_page: perPage, total: rows.length, total_pages: Math.ceil(rows.length / perPage) } }, links: { self: `/audit/events?page=${page}` } };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch,
  };
  return site;
}

let dir: ReturnType<typeof tempDir>;
let db: Db;
let repo: AuditCopyRepo;
let copyId: number;
beforeEach(() => {
  dir = tempDir();
  db = openDatabase(join(dir.path, 'sitedesk.db'));
  repo = auditCopyRepo(db);
  copyId = repo.createCopy('file', null, 'Kept');
});
afterEach(() => {
  closeDatabase(db);
  dir.remove();
});

const T = Date.UTC(2026, 10, 24, 12);

async function keep(site: ReturnType<typeof fakeSite>, perPage = 1000, signal = new AbortController().signal): Promise<KeepTally & { requests: number; sent: number }> {
  const before = { requests: site.requests, sent: site.sent };
  const t = new Transport({ baseUrl: 'http://site.test/api/v1', fetch: site.fetch, retryDelaysMs: [0], networkRetries: false });
  const tally = await keepTrail({ t, repo, copyId, signal, now: () => new Date().toISOString(), progress: () => {}, perPage });
  return { ...tally, requests: site.requests - before.requests, sent: site.sent - before.sent };
}

const kept = () => db.prepare('SELECT count(*) AS n, count(DISTINCT event_id) AS d FROM audit_events WHERE copy_id = ?').get(copyId) as { n: number; d: number };

describe('keeping a trail incrementally', () => {
  test('a millisecond holding more than a page is paged through; the second keep moves nothing', async () => {
    const site = fakeSite(500);
    for (let i = 0; i < 1000; i++) site.add(T - 100_000 + i * 10);
    for (let i = 0; i < 1200; i++) site.add(T - 50_000); // one millisecond, more than two pages
    for (let i = 0; i < 1300; i++) site.add(T - 40_000 + i * 7);
    const first = await keep(site);
    expect(first).toMatchObject({ added: 3500, duplicates: 0, unreadable: 0, total: 3500 });
    expect(kept()).toEqual({ n: 3500, d: 3500 });
    // boundary rows come again a few at a time, and the big millisecond's first page once more
    expect(first.transferred).toBeLessThan(3500 + 500 + 20);

    const second = await keep(site);
    expect(second).toMatchObject({ transferred: 0, added: 0, requests: 1, sent: 0 });
  });

  test('new events come in, with one the site dated before the newest kept (its time taken before its row was written)', async () => {
    const site = fakeSite();
    for (let i = 0; i < 2000; i++) site.add(T - 3_600_000 + i * 1000);
    await keep(site);
    const newest = Math.max(...site.trail.map((e) => e.ts));
    const late = site.add(newest - 20_000); // a higher id, an older time: inside the window looked at again
    const next = site.add(newest + 5);
    const again = await keep(site);
    expect(again).toMatchObject({ added: 2, duplicates: 0 });
    expect(again.transferred).toBeLessThan(100); // the last minute, not the trail
    const ids = db.prepare('SELECT event_id FROM audit_events WHERE copy_id = ? AND event_id > 2000 ORDER BY event_id').pluck().all(copyId);
    expect(ids).toEqual([late.id, next.id]);
    expect(await keep(site)).toMatchObject({ transferred: 0, added: 0 });
  });

  test('a trail the site pruned: what is left is fine, only the new is added', async () => {
    const site = fakeSite();
    for (let i = 0; i < 3000; i++) site.add(T - 3_000_000 + i * 1000);
    await keep(site);
    site.trail.splice(0, 1000); // retention on the site: the oldest go
    for (let i = 0; i < 5; i++) site.add(T + i);
    expect(await keep(site)).toMatchObject({ added: 5, duplicates: 0 });
    expect(kept()).toEqual({ n: 3005, d: 3005 });
  });

  test('a run cut by the site going away goes on where it stopped, and keeps nothing twice', async () => {
    const site = fakeSite(500);
    for (let i = 0; i < 4000; i++) site.add(T - 4_000_000 + i * 1000);
    site.failAt = 4; // three pages, then nothing answers
    await expect(keep(site, 500)).rejects.toMatchObject({ code: 'network' });
    expect(repo.copy(copyId)!.run).toMatchObject({ state: 'stopped', read: 1500 });
    expect(kept().n).toBe(1498); // three pages of 500; each next page began with the boundary millisecond's event
    site.failAt = null;
    const resumed = await keep(site, 500);
    // the rest of the run, then a look for anything newer (none): not the trail from its top again
    expect(resumed.added).toBe(2502);
    expect(resumed.duplicates).toBe(0);
    expect(resumed.sent).toBeLessThan(2600);
    expect(kept()).toEqual({ n: 4000, d: 4000 });
    expect(repo.copy(copyId)!.run).toBeNull();
    expect(await keep(site, 500)).toMatchObject({ transferred: 0, added: 0 });
  });

  test('a stopped run says so and stays resumable', async () => {
    const site = fakeSite(500);
    for (let i = 0; i < 1000; i++) site.add(T - 1_000_000 + i * 1000);
    const stop = new AbortController();
    stop.abort('cancel');
    await expect(keep(site, 500, stop.signal)).rejects.toBeInstanceOf(KeepCancelled);
    expect(kept().n).toBe(0);
    expect((await keep(site, 500)).added).toBe(1000);
  });
});
