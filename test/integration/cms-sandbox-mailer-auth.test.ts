/**
 * Who may call the mailer's audience routes (document 2 §4 "Mailing plugin routes", §5.3;
 * docs/mailer-audience.md "Conventions"), both flavours, every route: none without a credential
 * (401), none without `api.access` or the plugin permission (403 naming it), reads with `view`,
 * writes and exports with `manage` (view alone refused, manage alone cannot read), `api.super`
 * counting as all, an API key with scopes capped by them (a super admin's too), the same rights
 * through `X-API-Key` and `X-API-Token`, a demo account refused every write (and, on the real
 * plugin, every read: its demo lock lets only `*.read` permissions through). The spec flavour
 * answers under `/mailer` with `mailer.*`; the real one under `/mailroom` with `mailroom.*`
 * (Grav's Mailroom) — each answers 404 for the other's path.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { mailerAccount, mailerPaths, type MailerPaths } from '../support/mailer';

type Level = 'view' | 'manage';
/** [method, path, level, body]: bodies and ids chosen so a caller let through changes nothing (a 404 or 422 after the gate) */
const ROUTES: [string, string, Level, unknown?][] = [
  ['GET', '/subscribers', 'view'],
  ['GET', '/subscribers/1', 'view'],
  ['GET', '/imports', 'view'],
  ['GET', '/imports/1', 'view'],
  ['GET', '/lists', 'view'],
  ['GET', '/tags', 'view'],
  ['GET', '/segments/vocabulary', 'view'],
  ['POST', '/segments/preview', 'view', { definition: { all: [] } }],
  ['GET', '/segments', 'view'],
  ['GET', '/segments/1', 'view'],
  ['GET', '/suppressions', 'view'],
  ['POST', '/subscribers', 'manage', {}],
  ['POST', '/subscribers/bulk', 'manage', {}],
  ['GET', '/subscribers/export?status=bounced', 'manage'],
  ['GET', '/subscribers/1/export', 'manage'],
  ['PATCH', '/subscribers/999999', 'manage', {}],
  ['DELETE', '/subscribers/999999', 'manage'],
  ['POST', '/subscribers/999999/unsubscribe', 'manage', {}],
  ['POST', '/subscribers/999999/resubscribe', 'manage', {}],
  ['POST', '/subscribers/999999/confirm', 'manage', {}],
  ['POST', '/imports/preview', 'manage', {}],
  ['POST', '/imports', 'manage', {}],
  ['POST', '/lists', 'manage', {}],
  ['PATCH', '/lists/999999', 'manage', {}],
  ['DELETE', '/lists/1', 'manage'],
  ['POST', '/tags', 'manage', {}],
  ['DELETE', '/tags/999999', 'manage'],
  ['POST', '/segments', 'manage', {}],
  ['PATCH', '/segments/999999', 'manage', {}],
  ['DELETE', '/segments/999999', 'manage'],
  ['POST', '/segments/999999/count', 'manage'],
  ['POST', '/suppressions', 'manage', {}],
  ['DELETE', `/suppressions/${'0'.repeat(64)}`, 'manage'],
  ['POST', '/erase', 'manage', {}],
];

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  let viewer: SandboxClient;
  let manager: SandboxClient;
  let both: SandboxClient;
  let noApi: SandboxClient;
  let plain: SandboxClient;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 300 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
    viewer = await mailerAccount(api, 'mail-viewer', ['view']);
    manager = await mailerAccount(api, 'mail-manager', ['manage']);
    both = await mailerAccount(api, 'mail-both', ['view', 'manage', 'send']);
    noApi = await mailerAccount(api, 'mail-no-api', ['view', 'manage'], { apiAccess: false });
    plain = await api.keyFor('mail-plain', { access: { api: { access: true } } });
  });
  afterAll(() => sb?.close());

  const call = (c: SandboxClient, [method, path, , body]: (typeof ROUTES)[number]) => c.request(method, m.p(path), body);
  const passed = (status: number) => status !== 401 && status !== 403;

  test('the routes live under the flavour’s base; the other base is not a route', async () => {
    expect((await api.get(m.p('/lists'))).status).toBe(200);
    const other = real ? '/mailer/lists' : '/mailroom/lists';
    expectProblem(await api.get(other), 404);
  });

  test('no credential: 401 on every route (an invalid key too)', async () => {
    for (const r of ROUTES) {
      expectProblem(await call(api.as({ none: true }), r), 401);
      expectProblem(await call(api.as({ apiKey: 'grav_not-a-key' }), r), 401);
    }
  });

  test('an account without the plugin permission, or without api.access: 403 naming what is missing', async () => {
    for (const r of ROUTES) {
      const p = expectProblem(await call(plain, r), 403);
      expect(p.detail).toBe(`Missing required permission: ${m.perm}.${r[2]}`);
      expect(expectProblem(await call(noApi, r), 403).detail).toBe('API access is not enabled for this user.');
    }
  });

  test('view reads, and is refused every write and export; manage writes and exports, and cannot read', async () => {
    for (const r of ROUTES) {
      const v = await call(viewer, r);
      const w = await call(manager, r);
      if (r[2] === 'view') {
        expect(passed(v.status), `${r[0]} ${r[1]} as viewer: ${v.text}`).toBe(true);
        expect(expectProblem(w, 403).detail).toBe(`Missing required permission: ${m.perm}.view`);
      } else {
        expect(expectProblem(v, 403).detail).toBe(`Missing required permission: ${m.perm}.manage`);
        expect(passed(w.status), `${r[0]} ${r[1]} as manager: ${w.text}`).toBe(true);
      }
      expect(passed((await call(both, r)).status), `${r[0]} ${r[1]} with view, manage and send`).toBe(true);
    }
  });

  test('api.super counts as all three, through an API key and through a token in X-API-Token', async () => {
    const token = sb.tokens.issue('access', 'admin', 3600).token;
    for (const r of ROUTES) {
      expect(passed((await call(api, r)).status), `${r[0]} ${r[1]}`).toBe(true);
      expect(passed((await call(api.as({ token }), r)).status), `${r[0]} ${r[1]} by token`).toBe(true);
    }
  });

  test('a token in X-API-Token carries the account’s own rights, as a key does', async () => {
    const token = sb.tokens.issue('access', 'mail-viewer', 3600).token;
    const jwt = api.as({ token });
    expect((await jwt.get(m.p('/subscribers?per_page=1'))).status).toBe(200);
    expect(expectProblem(await jwt.post(m.p('/tags'), { label: 'By token' }), 403).detail).toBe(`Missing required permission: ${m.perm}.manage`);
    // Authorization: Bearer is read too
    const bearer = await fetch(`${sb.url}${m.p('/lists')}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(bearer.status).toBe(200);
  });

  test('a scoped key is capped by its scopes, whoever owns it (the super admin’s included)', async () => {
    const readOnly = await api.keyFor('admin', { scopes: [`${m.perm}.view`] });
    for (const r of ROUTES) {
      const res = await call(readOnly, r);
      if (r[2] === 'view') expect(passed(res.status), `${r[0]} ${r[1]}`).toBe(true);
      else expect(expectProblem(res, 403).detail).toBe(`API key is not authorized for: ${m.perm}.manage`);
    }
    // a scope on the plugin covers its permissions; send alone does not include manage
    const all = await api.keyFor('admin', { scopes: [m.perm] });
    expect((await all.post(m.p('/tags'), { label: 'Scoped' })).status).toBe(201);
    const sendOnly = await api.keyFor('admin', { scopes: [`${m.perm}.view`, `${m.perm}.send`] });
    expect(expectProblem(await sendOnly.post(m.p('/tags'), { label: 'Send only' }), 403).detail).toBe(`API key is not authorized for: ${m.perm}.manage`);
    // a key scoped to another area reaches nothing here
    const pages = await api.keyFor('admin', { scopes: ['api.pages.read'] });
    expect(expectProblem(await pages.get(m.p('/lists')), 403).detail).toBe(`API key is not authorized for: ${m.perm}.view`);
  });

  test('a demo account: every write refused as demo mode refuses it; reads allowed (real: refused too, the lock passes only *.read)', async () => {
    const demo = await api.keyFor('mail-demo', { access: { api: { access: true, super: true, demo: true } } });
    const read = await demo.get(m.p('/subscribers?per_page=1'));
    // the real plugin's demo lock lets through only permissions ending in .read; Mailroom's is view
    if (real) expect(expectProblem(read, 403).title).toBe('Demo Mode');
    else expect(read.status).toBe(200);
    const before = sb.mailer.store.count({});
    for (const r of ROUTES.filter(([method]) => method !== 'GET')) {
      const p = expectProblem(await call(demo, r), 403);
      expect(p.title).toBe('Demo Mode');
    }
    expect(sb.mailer.store.count({})).toBe(before);
  });
});
