/**
 * The audit trail's client over the real service's recorded replies (55–57: a trail that is off)
 * and answers in both shapes the services send (the real `meta.pagination`, the document's flat
 * `meta`); rows read tolerantly, one that cannot be read set aside; the export streamed piece by
 * piece and counted (export-count.ts).
 */
import { describe, expect, test } from 'vitest';
import { cmsAudit, eventOf, filterQuery, tsOf } from '../../electron/api/cms/audit';
import { exportCounter } from '../../electron/audit/export-count';
import { Transport } from '../../electron/api/transport';
import { recorded, reply, transport } from './support/recorded-replies';

const row = (over: Record<string, unknown> = {}) => ({
  id: 7, ts: 1795464585123, event: 'page.update', severity: 'info', actor_id: 'admin', actor_name: 'Admin', actor_roles: ['super'], auth_method: 'jwt',
  ip: '127.0.0.1', user_agent: 'curl/8', target_type: 'page', target_id: '/blog', status: null, context: { method: 'PATCH' }, ...over,
});

describe('the audit client', () => {
  test('status of a trail that is off (recording 55); events and facets answer 404 (56, 57)', async () => {
    const { t } = transport((req) => (req.path === '/audit/status' ? recorded('55-audit-status') : req.path.startsWith('/audit/events') ? recorded('56-audit-events') : recorded('57-audit-facets')));
    expect(await cmsAudit.status(t)).toEqual({ state: 'off', enabled: false, available: true, coverage: 'standard', retentionDays: 90, retentionMaxRows: 100000, total: null });
    await expect(cmsAudit.events(t, { filter: {}, page: 1, perPage: 5 })).rejects.toMatchObject({ code: 'not_found', info: { status: 404 } });
    await expect(cmsAudit.facets(t)).rejects.toMatchObject({ code: 'not_found' });
  });

  test('status: no SQLite is `unavailable`; retention flat or nested, 0 kept as "off"', async () => {
    const { t } = transport(() => reply({ data: { enabled: false, available: false, coverage: 'detailed', retention_days: 0, retention_max_rows: 0, total: null } }));
    expect(await cmsAudit.status(t)).toMatchObject({ state: 'unavailable', available: false, coverage: 'detailed', retentionDays: 0, retentionMaxRows: 0 });
  });

  test('events under meta.pagination (real) with the filters sent as the documented parameters', async () => {
    const { t, seen } = transport(() =>
      reply({ data: [row(), row({ id: 6, context: [] })], meta: { pagination: { page: 2, per_page: 2, total: 5, total_pages: 3 } }, links: { self: '/audit/events?page=2', next: '/audit/events?page=3&per_page=2' } }),
    );
    const page = await cmsAudit.events(t, { filter: { event: 'page.update', actor: 'admin', targetType: 'page', severity: 'info', from: 1000, to: 2000, q: '10.0' }, page: 2, perPage: 2 });
    expect(seen[0]!.path).toBe('/audit/events?event=page.update&actor=admin&target_type=page&severity=info&from=1000&to=2000&q=10.0&page=2&per_page=2');
    expect(page).toMatchObject({ total: 5, page: 2, perPage: 2, next: 3, unreadable: [] });
    expect(page.items[0]).toEqual({
      id: 7, ts: 1795464585123, event: 'page.update', severity: 'info', actorId: 'admin', actorName: 'Admin', actorRoles: ['super'], authMethod: 'jwt',
      ip: '127.0.0.1', userAgent: 'curl/8', targetType: 'page', targetId: '/blog', context: { method: 'PATCH' },
    });
    expect(page.items[1]!.context).toBeNull(); // PHP's empty context comes back as []
  });

  test('flat meta (the document): the page size the site used, the last page has no next', async () => {
    const { t } = transport(() => reply({ data: [row()], meta: { page: 3, per_page: 1000, total: 2001 } }));
    expect(await cmsAudit.events(t, { filter: {}, page: 3, perPage: 1000 })).toMatchObject({ page: 3, perPage: 1000, total: 2001, next: null });
    const capped = transport(() => reply({ data: [row()], meta: { pagination: { page: 1, per_page: 1000, total: 5000 } } })).t;
    expect(await cmsAudit.events(capped, { filter: {}, page: 1, perPage: 1000 })).toMatchObject({ perPage: 1000, next: 2 });
  });

  test('a row that cannot be read is set aside with its place and the reason; the others are kept', async () => {
    const { t } = transport(() => reply({ data: [row({ id: 9 }), 'junk', row({ id: 'x' }), row({ id: 5, ts: 'never' }), row({ id: 4, event: '' }), row({ id: 3, context: 12 }), row({ id: 2 })], meta: { pagination: { page: 2, per_page: 7, total: 14 } } }));
    const page = await cmsAudit.events(t, { filter: {}, page: 2, perPage: 7 });
    expect(page.items.map((e) => e.id)).toEqual([9, 2]);
    expect(page.unreadable).toEqual([
      { position: 8, problem: 'not an event object' },
      { position: 9, problem: 'id: missing or not a whole number' },
      { position: 10, problem: 'ts: missing or not a time' },
      { position: 11, problem: 'event: missing' },
      { position: 12, problem: 'context: not an object' },
    ]);
  });

  test('a row read tolerantly: ts in seconds or ISO, roles comma-joined, context as JSON text, an unknown severity kept', () => {
    expect(tsOf(1795464585)).toBe(1795464585000);
    expect(tsOf('1795464585123')).toBe(1795464585123);
    expect(tsOf('2026-11-23T20:09:45Z')).toBe(Date.parse('2026-11-23T20:09:45Z'));
    expect(tsOf(-1)).toBeNull();
    expect(eventOf(row({ actor_roles: 'super,editor', context: '{"changes":{"title":{"old":"A","new":"B"}}}', severity: 'critical', ip: null }))).toMatchObject({
      actorRoles: ['super', 'editor'], context: { changes: { title: { old: 'A', new: 'B' } } }, severity: 'critical', ip: null,
    });
  });

  test('facets: codes, actors with id and name (a bare name read as both), nothing else', async () => {
    const { t } = transport(() => reply({ data: { events: ['page.update', 'user.login', '', 'page.update'], actors: [{ id: 'admin', name: 'Admin' }, { id: null, name: null }, 'bob', { id: 'x', name: null }] } }));
    expect(await cmsAudit.facets(t)).toEqual({ events: ['page.update', 'user.login'], actors: [{ id: 'admin', name: 'Admin' }, { id: 'bob', name: 'bob' }, { id: 'x', name: null }] });
  });

  test('filterQuery leaves out what is not set', () => {
    expect(filterQuery({ event: '', q: 'x' })).toEqual({ q: 'x' });
  });

  test('the export is handed on piece by piece as it comes (never read whole); a refusal and a web page are errors', async () => {
    const pieces = ['id,ts,event\n', "1,2,'=1+1\n", '2,3,page.update\n'];
    const asked: string[] = [];
    const fetchImpl = (async (url: string | URL) => {
      asked.push(String(url));
      if (String(url).includes('format=json')) return new Response(JSON.stringify({ status: 403, title: 'Forbidden', detail: 'Missing required permission: api.super' }), { status: 403, headers: { 'content-type': 'application/problem+json' } });
      if (String(url).includes('severity=notice')) return new Response('<html><body>Login</body></html>', { status: 200, headers: { 'content-type': 'text/html' } });
      const enc = new TextEncoder();
      let i = 0;
      const body = new ReadableStream<Uint8Array>({ pull: (c) => (i < pieces.length ? c.enqueue(enc.encode(pieces[i++]!)) : c.close()) });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8' } });
    }) as typeof fetch;
    const t = new Transport({ baseUrl: 'https://cms.example.com/api/v1', fetch: fetchImpl, retryDelaysMs: [] });
    const got: string[] = [];
    await cmsAudit.exportTo(t, { format: 'csv', filter: { q: 'a b' } }, { into: (p) => void got.push(Buffer.from(p).toString()) });
    expect(got).toEqual(pieces);
    expect(asked[0]).toBe('https://cms.example.com/api/v1/audit/export?q=a+b&format=csv');
    await expect(cmsAudit.exportTo(t, { format: 'json', filter: {} }, { into: () => undefined })).rejects.toMatchObject({ code: 'forbidden', info: { status: 403 } });
    await expect(cmsAudit.exportTo(t, { format: 'csv', filter: { severity: 'notice' } }, { into: () => undefined })).rejects.toMatchObject({ code: 'bad_response', message: expect.stringMatching(/web page instead of a file/) });
  });
});

describe('counting an export as it streams', () => {
  const feedAll = (format: 'csv' | 'json', text: string, cut = 7) => {
    const c = exportCounter(format);
    const bytes = Buffer.from(text);
    for (let i = 0; i < bytes.length; i += cut) c.feed(bytes.subarray(i, i + cut));
    return c;
  };

  test('CSV: records end at line feeds outside quotes; the header is not an event; the formula apostrophe is just text', () => {
    const text = 'id,ts,event,context\n1,2,page.update,"{""a"":""line\none""}"\n2,3,\'=1+1,\n';
    const c = feedAll('csv', text);
    expect(c.rows).toBe(2);
    expect(c.bytes).toBe(Buffer.byteLength(text));
    expect(c.problem()).toBeNull();
    expect(feedAll('csv', text.slice(0, -1)).problem()).toBe('its last line is incomplete');
    expect(feedAll('csv', text.slice(0, 30)).problem()).toBe('its last line is incomplete');
    expect(feedAll('csv', '<html>').problem()).toMatch(/does not start with the CSV columns/);
    expect(feedAll('csv', '').problem()).toBe('the site sent an empty file');
    expect(feedAll('csv', 'id,ts,event\n').rows).toBe(0);
  });

  test('JSON: objects at the list’s level, braces inside strings ignored; whole once the list closes', () => {
    const pretty = JSON.stringify([{ id: 1, context: { changes: { content: { old: '{[', new: '"}]\\' } } } }, { id: 2, context: null }], null, 4);
    const c = feedAll('json', pretty, 3);
    expect(c.rows).toBe(2);
    expect(c.problem()).toBeNull();
    expect(feedAll('json', '[]').problem()).toBeNull();
    expect(feedAll('json', pretty.slice(0, -3)).problem()).toBe('the list of events never closes');
    expect(feedAll('json', '{"data":[]}').problem()).toBe('it is not a JSON list of events');
    expect(feedAll('json', '[] x').problem()).toBe('there is more after the list of events');
  });
});
