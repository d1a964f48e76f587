/**
 * A site's audit trail through the Host against the sandbox (both flavours): status and retention;
 * the gates said in words (an account with only admin.super, a demo account, a trail that is off,
 * a site without SQLite); every filter and the facets; paging at the site's cap; the export
 * streamed into a file with progress (CSV with the formula apostrophe as the site sent it, JSON),
 * never over a file without being asked, 0600; a cut export said in words with no file left; a
 * cancelled one likewise; the first page and the status as copies while the site is away.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AuditExportProgress, AuditEvent } from '../../electron/contract';
import { DEMO_MESSAGE, NOT_SUPER_MESSAGE, OFF_MESSAGE, UNAVAILABLE_MESSAGE } from '../../electron/audit/service';
import { SandboxClient, pagePath } from '../sandbox/cms/test-client';
import { seedTrail } from '../sandbox/cms/trail/seed-trail';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { until } from '../support/until';

const DAY = 86_400_000;

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  let api: SandboxClient;
  let out: string;
  const siteId = () => fx.site.id;
  const knobs = (k: Partial<DemoHost['cms']['audit']['knobs']>) => Object.assign(fx.cms.audit.knobs, { enabled: true, available: true, coverage: 'standard', maxPerPage: 1000, retentionDays: 90, retentionMaxRows: 100_000, pruneEvery: 1000 }, k);

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED, audit: { enabled: true } } });
    api = new SandboxClient(fx.cms);
    out = mkdtempSync(join(tmpdir(), 'sitedesk-audit-'));
    // 3,000 generated events over 30 days, then a few real ones
    seedTrail(fx.cms.audit.store, fx.cms.clock.now(), 3000, 30);
    const editor = await api.keyFor('editor');
    await editor.patch(pagePath('/blog'), { title: 'Audited blog' });
    // a failed login whose tried name starts like a spreadsheet formula
    await fetch(`${fx.cms.url}/auth/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: '=1+1', password: 'wrong-password' }) });
  });
  afterAll(async () => {
    await fx?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  test('status: on, its coverage, retention (0 = off) and the events stored', async () => {
    knobs({ retentionMaxRows: 0 });
    const s = await fx.call('audit.status', { siteId: siteId() });
    expect(s).toEqual({ state: 'on', enabled: true, available: true, coverage: 'standard', retentionDays: 90, retentionMaxRows: 0, total: fx.cms.audit.store.count(), copiedAt: null });
    knobs({});
  });

  test('the gates in words: admin.super alone, a demo account, a trail that is off, a site without SQLite', async () => {
    const keyFor = async (username: string, access: unknown) => {
      await fx.cms.accounts.create({ username, password: 'a-long-password-1', email: `${username}@example.test`, access });
      return fx.cms.apiKeys.create({ username, name: 'test', scopes: [] }).api_key;
    };
    const add = async (name: string, apiKey: string) => fx.call('sites.add', { name, kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey });
    const adminSite = await add('Admin only', await keyFor('classic-admin', { admin: { super: true, login: true }, api: { access: true } }));
    const demoSite = await add('Demo account', await keyFor('demo-super', { api: { access: true, super: true, demo: true } }));
    for (const channel of ['audit.status', 'audit.events', 'audit.facets'] as const) {
      expect((await fx.fails(channel, { siteId: adminSite.id })).message).toBe(NOT_SUPER_MESSAGE);
      const d = await fx.fails(channel, { siteId: demoSite.id });
      expect(d.code).toBe('forbidden');
      expect(d.message).toBe(DEMO_MESSAGE);
    }
    expect((await fx.fails('audit.export', { siteId: demoSite.id, exportId: 'export-demo-1', format: 'csv', file: join(out, 'demo.csv') })).message).toBe(DEMO_MESSAGE);
    expect(existsSync(join(out, 'demo.csv'))).toBe(false);

    knobs({ enabled: false });
    try {
      expect(await fx.call('audit.status', { siteId: siteId() })).toMatchObject({ state: 'off', enabled: false, total: null });
      for (const channel of ['audit.events', 'audit.facets'] as const) {
        const e = await fx.fails(channel, { siteId: siteId() });
        expect(e).toMatchObject({ code: 'not_found', message: OFF_MESSAGE });
      }
      expect(OFF_MESSAGE).toMatch(/turn on plugins\.api\.audit\.enabled/);
      knobs({ available: false });
      expect(await fx.call('audit.status', { siteId: siteId() })).toMatchObject({ state: 'unavailable', available: false });
      expect((await fx.fails('audit.events', { siteId: siteId() })).message).toBe(UNAVAILABLE_MESSAGE);
      expect((await fx.fails('audit.export', { siteId: siteId(), exportId: 'export-off-01', format: 'json', file: join(out, 'off.json') })).message).toBe(UNAVAILABLE_MESSAGE);
      expect(existsSync(join(out, 'off.json'))).toBe(false);
    } finally {
      knobs({});
    }
  });

  test('newest first; every filter, alone and together, with the count of matches; the facets for the pickers', async () => {
    const all = await fx.call('audit.events', { siteId: siteId(), perPage: 200 });
    expect(all.total).toBe(fx.cms.audit.store.count());
    expect(all.items).toHaveLength(200);
    expect(all.unreadable).toEqual([]);
    const ts = all.items.map((e) => e.ts);
    expect([...ts].sort((a, b) => b - a)).toEqual(ts);
    // the real events came last, so they are first
    expect(all.items.slice(0, 2).map((e) => e.event).sort()).toEqual(['page.update', 'user.login.failed']);

    const check = async (filter: Record<string, string | number>, ok: (e: AuditEvent) => boolean) => {
      const page = await fx.call('audit.events', { siteId: siteId(), filter, perPage: 1000 });
      expect(page.items.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(page.items.every(ok), JSON.stringify(filter)).toBe(true);
      expect(page.total).toBeGreaterThanOrEqual(page.items.length);
      return page;
    };
    const byEvent = await check({ event: 'media.upload' }, (e) => e.event === 'media.upload');
    expect(byEvent.total).toBe(300);
    await check({ actor: 'editor' }, (e) => e.actorId === 'editor');
    await check({ actor: 'Ada Admin' }, (e) => e.actorName === 'Ada Admin');
    await check({ targetType: 'config' }, (e) => e.targetType === 'config');
    await check({ severity: 'warning' }, (e) => e.severity === 'warning');
    const now = fx.cms.clock.now();
    await check({ from: now - 2 * DAY, to: now - DAY }, (e) => e.ts >= now - 2 * DAY && e.ts <= now - DAY);
    await check({ q: 'image-12' }, (e) => /image-12/i.test(`${e.actorName} ${e.targetId} ${e.event} ${e.ip}`));
    const both = await check({ event: 'page.update', actor: 'writer', severity: 'info', targetType: 'page', q: 'post-1' }, (e) => e.event === 'page.update' && e.actorId === 'writer' && /post-1/.test(e.targetId ?? ''));
    expect(both.total).toBeLessThan(byEvent.total!);
    const none = await fx.call('audit.events', { siteId: siteId(), filter: { q: 'nothing-matches-this' } });
    expect(none).toMatchObject({ items: [], total: 0, next: null });

    const facets = await fx.call('audit.facets', { siteId: siteId() });
    expect(facets.events).toEqual(expect.arrayContaining(['page.update', 'media.upload', 'user.login.failed', 'gpm.install']));
    expect(facets.actors).toEqual(expect.arrayContaining([{ id: 'admin', name: 'Ada Admin' }, { id: 'editor', name: 'Eddie Editor' }]));
    expect(facets.copiedAt).toBeNull();
  });

  test('paging: a page at most the site’s cap, the next one read on demand', async () => {
    knobs({ maxPerPage: 250 });
    try {
      const first = await fx.call('audit.events', { siteId: siteId(), perPage: 1000 });
      expect(first).toMatchObject({ page: 1, perPage: 250, next: 2 });
      expect(first.items).toHaveLength(250);
      const second = await fx.call('audit.events', { siteId: siteId(), page: 2, perPage: 1000 });
      expect(second).toMatchObject({ page: 2, perPage: 250, next: 3 });
      expect(second.items[0]!.ts).toBeLessThanOrEqual(first.items.at(-1)!.ts);
      expect(new Set([...first.items, ...second.items].map((e) => e.id)).size).toBe(500);
      const lastPage = Math.ceil(first.total! / 250);
      expect((await fx.call('audit.events', { siteId: siteId(), page: lastPage, perPage: 1000 })).next).toBeNull();
    } finally {
      knobs({});
    }
    expect((await fx.fails('audit.events', { siteId: siteId(), perPage: 1001 })).code).toBe('invalid_input');
  });

  test('a detailed page update carries its before/after per field', async () => {
    knobs({ coverage: 'detailed' });
    try {
      const editor = await api.keyFor('editor');
      await editor.patch(pagePath('/blog'), { title: 'Audited again', content: 'A new body for the blog.' });
      const page = await fx.call('audit.events', { siteId: siteId(), filter: { event: 'page.update' }, perPage: 1 });
      const changes = page.items[0]!.context?.changes as Record<string, { old: unknown; new: unknown }>;
      expect(changes.title).toEqual({ old: 'Audited blog', new: 'Audited again' });
      expect(changes.content).toMatchObject({ new: 'A new body for the blog.' });
    } finally {
      knobs({});
    }
  });

  const progressOf = (exportId: string) => fx.events.filter((e) => e.name === 'audit.exportProgress' && (e.payload as AuditExportProgress).exportId === exportId).map((e) => e.payload as AuditExportProgress);

  test('CSV export of the filtered trail into a file, with progress; the formula apostrophe kept as the site sent it; 0600', async () => {
    const file = join(out, 'warnings.csv');
    const matched = (await fx.call('audit.events', { siteId: siteId(), filter: { severity: 'warning' }, perPage: 1 })).total;
    const r = await fx.call('audit.export', { siteId: siteId(), exportId: 'export-csv-001', format: 'csv', filter: { severity: 'warning' }, file });
    expect(r).toEqual({ outcome: 'written', file, format: 'csv', rows: matched, bytes: statSync(file).size, matched });
    const text = readFileSync(file, 'utf8');
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('id,ts,event,severity,actor_id,actor_name,actor_roles,auth_method,ip,user_agent,target_type,target_id,status,context');
    expect(lines).toHaveLength(matched! + 1);
    expect(lines.slice(1).every((l) => l.split(',')[3] === 'warning')).toBe(true);
    expect(text).toContain("'=1+1");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const progress = progressOf('export-csv-001');
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.at(-1)).toEqual({ exportId: 'export-csv-001', siteId: siteId(), bytes: r.outcome === 'written' ? r.bytes : -1, rows: matched });
    expect(readdirSync(out).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  test('JSON export: the events the filter matches, the file as the site wrote it', async () => {
    const file = join(out, 'uploads.json');
    const r = await fx.call('audit.export', { siteId: siteId(), exportId: 'export-json-01', format: 'json', filter: { event: 'media.upload', actor: 'admin' }, file });
    const rows = JSON.parse(readFileSync(file, 'utf8')) as { event: string; actor_id: string }[];
    expect(r).toMatchObject({ outcome: 'written', format: 'json', rows: rows.length, matched: rows.length });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x) => x.event === 'media.upload' && x.actor_id === 'admin')).toBe(true);
  });

  test('the file is checked: a full path, an existing folder, never over a file without being asked', async () => {
    const fails = (file: string, overwrite?: boolean) => fx.fails('audit.export', { siteId: siteId(), exportId: 'export-chk-01', format: 'csv', file, ...(overwrite === undefined ? {} : { overwrite }) });
    expect((await fails('relative/audit.csv')).fields?.file).toMatch(/full path/);
    expect((await fails(join(out, 'no-such-folder', 'a.csv'))).fields?.file).toBe('That folder does not exist.');
    expect((await fails(out)).fields?.file).toMatch(/is a folder/);
    const taken = join(out, 'taken.csv');
    writeFileSync(taken, 'mine');
    const e = await fails(taken);
    expect(e.code).toBe('conflict');
    expect(e.fields?.file).toBe('A file of that name is there already.');
    expect(readFileSync(taken, 'utf8')).toBe('mine');
    const r = await fx.call('audit.export', { siteId: siteId(), exportId: 'export-chk-02', format: 'csv', filter: { event: 'config.update' }, file: taken, overwrite: true });
    expect(r.outcome).toBe('written');
    expect(readFileSync(taken, 'utf8')).toMatch(/^id,ts,event/);
    expect(statSync(taken).mode & 0o777).toBe(0o600);
  });

  test('a cut export is said in words and leaves no file; a cancelled one too', async () => {
    const file = join(out, 'cut.json');
    fx.cms.faults.set({ route: 'GET /audit/export', truncate: true });
    try {
      const e = await fx.fails('audit.export', { siteId: siteId(), exportId: 'export-cut-01', format: 'json', file });
      expect(e.message).toMatch(/The site’s export is not whole: the list of events never closes \([\d,]+ events came\)\. The unfinished file was removed; export again\./);
      const c = await fx.fails('audit.export', { siteId: siteId(), exportId: 'export-cut-02', format: 'csv', filter: { event: 'page.update' }, file });
      expect(c.message).toMatch(/not whole: its last line is incomplete/);
    } finally {
      fx.cms.faults.clear();
    }
    expect(readdirSync(out).filter((f) => f.startsWith('cut') || f.includes('.part'))).toEqual([]);

    fx.cms.faults.set({ route: 'GET /audit/export', latencyMs: 1500 });
    try {
      const running = fx.call('audit.export', { siteId: siteId(), exportId: 'export-cancel1', format: 'csv', file });
      await until(async () => progressOf('export-cancel1').length, (n) => n > 0);
      expect(await fx.call('audit.cancelExport', { exportId: 'export-cancel1' })).toEqual({ cancelled: true });
      expect(await running).toEqual({ outcome: 'cancelled', rows: 0, bytes: 0 });
    } finally {
      fx.cms.faults.clear();
    }
    expect(await fx.call('audit.cancelExport', { exportId: 'export-cancel1' })).toEqual({ cancelled: false });
    expect(readdirSync(out).filter((f) => f.startsWith('cut') || f.includes('.part'))).toEqual([]);
  });

  test('browser mode has no save dialog: the area asks for a path', async () => {
    expect(await fx.call('audit.chooseFile', { format: 'csv' })).toEqual({ unsupported: true });
  });

  test('the site away: the status, the facets and the first page last read from the copy with its time; other filters and later pages not', async () => {
    const filter = { severity: 'notice' };
    await fx.call('audit.events', { siteId: siteId(), filter: { severity: 'info' }, perPage: 100 });
    const online = await fx.call('audit.events', { siteId: siteId(), filter, perPage: 100 });
    await fx.call('audit.status', { siteId: siteId() });
    await fx.call('audit.facets', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('audit.events', { siteId: siteId(), filter, perPage: 100 });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.items.map((e) => e.id)).toEqual(online.items.map((e) => e.id));
      expect((await fx.call('audit.status', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      expect((await fx.call('audit.facets', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      expect((await fx.fails('audit.events', { siteId: siteId(), filter, page: 2, perPage: 100 })).code).toMatch(/network|timeout/);
      // one copy per site: the filter read before it is not kept
      expect((await fx.fails('audit.events', { siteId: siteId(), filter: { severity: 'info' }, perPage: 100 })).code).toMatch(/network|timeout/);
      expect((await fx.fails('audit.events', { siteId: siteId(), filter, perPage: 50 })).code).toMatch(/network|timeout/);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
