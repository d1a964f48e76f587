/**
 * The CMS sandbox's Users-list extension points over real HTTP (document 1: "Users-list extension
 * descriptors" and rules 1–4 of "Admin client composition events"), filled by the two demo
 * plugins (users/demo-plugins.ts): filter tabs (the built-in `all`, `defaultFilter`, `showAll`,
 * tabs the caller may not see dropped, badges), columns (formatters validated, safe fields, ids
 * unique, `authorize` never sent), row actions (confirms, re-authorization, the handler's refusal
 * as 403, a fault as an error result, `url` kept only root-relative or same-origin) and the badge
 * endpoint. With the plugins off the answers are those of the recorded real site (27–29). The
 * rules are the same in both flavours, bar the real service's 422 for a missing action id.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, pagination, type Json, type Reply } from '../sandbox/cms/test-client';
import { assembleFilterTabs } from '../sandbox/cms/users/list-extensions';
import { flavors } from '../support/flavors';

const ids = (list: Json[]) => list.map((x) => x.id as string);

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const BAD = real ? 422 : 400;

  let sb: CmsSandbox;
  let admin: SandboxClient;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    admin = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());
  beforeEach(() => {
    sb.events.clear();
    Object.assign(sb.userList, { plugins: true, defaultFilter: 'billing', showAll: true });
  });

  describe('filter tabs', () => {
    test('all first, then the plugin tabs by priority; the reserved id and a tab without id dropped; authorize never sent', async () => {
      const r = await admin.get('/users/filters');
      expect(r.status, r.text).toBe(200);
      const { tabs, defaultFilter, showAll } = r.body.data as { tabs: Json[]; defaultFilter: string; showAll: boolean };
      expect(ids(tabs)).toEqual(['all', 'members', 'expiring', 'twofa-off', 'billing', 'disabled']);
      expect(tabs[0]).toEqual({ id: 'all', plugin: 'api', label: 'All Users' });
      expect(tabs.filter((t) => t.id === 'all')).toHaveLength(1);
      expect(JSON.stringify(tabs)).not.toContain('authorize');
      expect(tabs.find((t) => t.id === 'members')).toEqual({ id: 'members', plugin: 'membership', label: 'Members', icon: 'fa-id-card', priority: 30, badgeEndpoint: '/membership/badges/members' });
      expect({ defaultFilter, showAll }).toEqual({ defaultFilter: 'billing', showAll: true });
      expect(sb.events.names()).toEqual(['onApiUserListFilters']);
    });

    test('a static badge counts what its tab lists; the badge endpoint too', async () => {
      const tabs = (await admin.get('/users/filters')).body.data.tabs as Json[];
      for (const id of ['expiring', 'twofa-off']) {
        expect(tabs.find((t) => t.id === id)!.badge).toBe(pagination(await admin.get(`/users?filter=${id}`)).total);
      }
      const badge = await admin.get('/membership/badges/members');
      expect(badge.status, badge.text).toBe(200);
      expect(badge.body.data).toEqual({ count: pagination(await admin.get('/users?filter=members')).total });
      expect(badge.body.data.count).toBeGreaterThan(10);
      expectProblem(await admin.get('/membership/badges/nope'), 404);
      expectProblem(await (await admin.keyFor('viewer')).get('/membership/badges/members'), 403);
      expectProblem(await admin.as({ none: true }).get('/membership/badges/members'), 401);
    });

    test('a tab the caller may not see is dropped, and a default naming it falls back to the first tab', async () => {
      const r = await (await admin.keyFor('lena.novak')).get('/users/filters');
      expect(ids(r.body.data.tabs)).toEqual(['all', 'members', 'expiring', 'twofa-off', 'disabled']);
      expect(r.body.data.defaultFilter).toBe('all');
      // an `authorize` list is any-of: disabled needs api.users.read or admin.super
      expect(ids((await (await admin.keyFor('esther.cohen')).get('/users/filters')).body.data.tabs)).toContain('billing');
    });

    test('showAll false drops `all` once a plugin tab survives; the default then falls to the first tab the caller sees', async () => {
      sb.userList.showAll = false;
      const r = await admin.get('/users/filters');
      expect(ids(r.body.data.tabs)).toEqual(['members', 'expiring', 'twofa-off', 'billing', 'disabled']);
      expect(r.body.data).toMatchObject({ defaultFilter: 'billing', showAll: false });
      expect((await (await admin.keyFor('lena.novak')).get('/users/filters')).body.data).toMatchObject({ defaultFilter: 'members', showAll: false });
      sb.userList.defaultFilter = 'no-such-tab';
      expect((await admin.get('/users/filters')).body.data.defaultFilter).toBe('members');
    });

    test('the assembly keeps `all` when no plugin tab survives, whatever showAll says (the row is never empty)', () => {
      const none = () => false;
      expect(assembleFilterTabs([{ id: 'x', authorize: 'api.users.write' }], 'x', false, none)).toEqual({ tabs: [{ id: 'all', plugin: 'api', label: 'All Users' }], defaultFilter: 'all', showAll: true });
      expect(assembleFilterTabs([{ id: 'x' }], null, false, () => true)).toEqual({ tabs: [{ id: 'x' }], defaultFilter: 'x', showAll: false });
    });
  });

  describe('columns', () => {
    test('by priority; every formatter, `html` made `text`; fields made safe; the first of a duplicate id; no field, no column', async () => {
      const r = await admin.get('/users/columns');
      expect(r.status, r.text).toBe(200);
      const columns = r.body.data.columns as Json[];
      expect(ids(columns)).toEqual([
        'membership-plan', 'activity-last-login', 'membership-valid-till', 'activity-verified', 'membership-renewed', 'activity-risk',
        'membership-seats', 'membership-invoice', 'membership-revenue', 'activity-profile', 'activity-notes',
      ]);
      expect(new Set(columns.map((c) => c.formatter))).toEqual(new Set(['text', 'link', 'date', 'datetime', 'boolean', 'number', 'badge']));
      const byId = Object.fromEntries(columns.map((c) => [c.id, c]));
      expect(byId['activity-risk']).toEqual({ id: 'activity-risk', plugin: 'activity', label: 'Risk', field: 'activity.risk', formatter: 'text', sortable: false, priority: 25 });
      expect(byId['membership-invoice']).toMatchObject({ formatter: 'link', labelField: 'membership.invoice_label' });
      expect(byId['activity-profile']).not.toHaveProperty('labelField');
      expect(byId['activity-notes']!.field).toBe('activity.notes');
      expect(byId['membership-plan']).toMatchObject({ plugin: 'membership', sortable: true });
      expect(columns.every((c) => typeof c.sortable === 'boolean')).toBe(true);
      expect(JSON.stringify(columns)).not.toContain('authorize');
      // each column's field is a key of the rows' extra
      const rows = (await admin.get('/users?filter=members&per_page=5')).body.data as Json[];
      for (const c of columns.filter((c) => c.id !== 'activity-notes')) expect(Object.keys(rows[0]!.extra as Json)).toContain(c.field);
      expect(sb.events.names()).toContain('onApiUserListColumns');
    });

    test('a column the caller may not see is not declared to it', async () => {
      expect(ids((await (await admin.keyFor('lena.novak')).get('/users/columns')).body.data.columns)).not.toContain('membership-revenue');
    });
  });

  describe('row actions', () => {
    test('by priority with their confirms; an empty confirm is left out; one only for api.users.write', async () => {
      const r = await admin.get('/users/row-actions');
      expect(r.status, r.text).toBe(200);
      const actions = r.body.data.actions as Json[];
      expect(ids(actions)).toEqual(['membership-extend', 'activity-reset-sessions', 'activity-export', 'membership-cancel', 'activity-recalculate']);
      expect(actions[0]).toEqual({ id: 'membership-extend', plugin: 'membership', label: 'Extend membership', icon: 'fa-calendar-plus', action: 'extend', confirm: 'Extend this membership by one year?', priority: 60 });
      expect(actions.find((a) => a.id === 'activity-export')).not.toHaveProperty('confirm');
      expect(actions.find((a) => a.id === 'activity-recalculate')).toEqual({ id: 'activity-recalculate', plugin: 'activity', label: 'Recalculate risk', action: 'recalculate', priority: 5 });
      expect(ids((await (await admin.keyFor('lena.novak')).get('/users/row-actions')).body.data.actions)).not.toContain('membership-cancel');
    });

    const run = (client: SandboxClient, username: string, id: unknown) => client.post(`/users/${username}/row-action`, { id });

    test('extend: the handler acts on the target; a root-relative url is kept; it refuses an account without membership (403)', async () => {
      const before = sb.memberships.get('alice.martin')!;
      const r = await run(admin, 'alice.martin', 'membership-extend');
      expect(r.status, r.text).toBe(200);
      const after = sb.memberships.get('alice.martin')!;
      expect(after.valid_till > before.valid_till).toBe(true);
      expect(r.body.data).toEqual({ status: 'success', message: `Membership extended to ${after.valid_till}.`, url: '/admin/membership/alice.martin' });
      expect(sb.events.list('onApiUserListRowAction')).toEqual([
        expect.objectContaining({ data: { id: 'membership-extend', plugin: 'membership', action: 'extend', username: 'alice.martin', user: 'admin' } }),
      ]);
      expect(expectProblem(await run(admin, 'chloe.dubois', 'membership-extend'), 403).detail).toBe('chloe.dubois has no membership to extend.');
    });

    test('a same-origin absolute url is kept; cross-origin and javascript: urls are dropped; the message is cut at 512 bytes', async () => {
      const reset = await run(admin, 'alice.martin', 'activity-reset-sessions');
      expect(reset.body.data).toEqual({ status: 'success', message: 'Every session of alice.martin has ended.', url: `${sb.origin}/admin/activity/alice.martin` });
      const cancel = await run(admin, 'bruno.keller', 'membership-cancel');
      expect(cancel.body.data).toEqual({ status: 'success', message: 'Membership cancelled.' });
      expect(sb.memberships.get('bruno.keller')).toBeNull();
      const exported = await run(admin, 'alice.martin', 'activity-export');
      expect(exported.body.data).not.toHaveProperty('url');
      expect(Buffer.byteLength(exported.body.data.message)).toBe(512);
    });

    test('a handler that fails is an error result, not a failed request; one that refuses is 403', async () => {
      expect((await run(admin, 'alice.martin', 'activity-recalculate')).body.data).toEqual({ status: 'error', message: 'The action could not be completed.' });
      expectProblem(await run(admin, 'ines.silva', 'activity-reset-sessions'), 403);
    });

    test('404 for an unknown account, an unknown action and one the caller may not see (alike); the id is required; 403; 401', async () => {
      expect(expectProblem(await run(admin, 'nobody', 'membership-extend'), 404).detail).toBe("User 'nobody' not found.");
      const unknown = expectProblem(await run(admin, 'alice.martin', 'made-up'), 404);
      const hidden = expectProblem(await run(await admin.keyFor('lena.novak'), 'alice.martin', 'membership-cancel'), 404);
      expect(hidden.detail).toBe("Row action 'membership-cancel' is not available.");
      expect(unknown.detail).toBe("Row action 'made-up' is not available.");
      expect(sb.memberships.get('alice.martin')).not.toBeNull();
      for (const id of [undefined, '', '  ', 7]) expect(expectProblem(await run(admin, 'alice.martin', id), BAD).detail).toBe('Row action id is required.');
      expectProblem(await run(await admin.keyFor('viewer'), 'alice.martin', 'membership-extend'), 403);
      expectProblem(await run(admin.as({ none: true }), 'alice.martin', 'membership-extend'), 401);
    });
  });

  test('filters, columns and row actions need api.users.read (403) and a credential (401)', async () => {
    for (const path of ['/users/filters', '/users/columns', '/users/row-actions']) {
      expectProblem(await (await admin.keyFor('viewer')).get(path), 403);
      expectProblem(await admin.as({ none: true }).get(path), 401);
    }
  });

  test('the control routes steer the plugins and 2FA support from another process', async () => {
    const control = async (path: string, method = 'GET', body?: unknown) => {
      const res = await fetch(`${sb.origin}/__sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Json };
    };
    expect((await control('/user-list')).body.data).toEqual({ plugins: true, defaultFilter: 'billing', showAll: true });
    expect((await control('/user-list', 'POST', { showAll: false, defaultFilter: 'members' })).body.data).toEqual({ plugins: true, defaultFilter: 'members', showAll: false });
    expect((await admin.get('/users/filters')).body.data).toMatchObject({ defaultFilter: 'members', showAll: false });
    expect((await control('/user-list', 'POST', { plugins: 'no' })).status).toBe(400);
    expect((await control('/user-list', 'POST', { defaultFilter: 3 })).status).toBe(400);
    expect((await control('/settings', 'POST', { twofaAvailable: false })).body.data.twofaAvailable).toBe(false);
    expectProblem(await admin.post('/users/admin/2fa'), 500);
    expect((await control('/settings', 'POST', { twofaAvailable: 'yes' })).status).toBe(400);
    expect((await control('/settings', 'POST', { twofaAvailable: true })).body.data.twofaAvailable).toBe(true);
    expect((await control('/accounts', 'POST', { username: 'grouped', groups: ['support'] })).body.data.groups).toEqual(['support']);
    expect(((await (await admin.keyFor('grouped')).get('/users')).body.data as Json[]).length).toBeGreaterThan(1); // support grants api.users.read
  });

  test('with the plugins off: the recorded real site\'s answers (27–29), and no badge', async () => {
    sb.userList.plugins = false;
    expect((await admin.get('/users/filters')).body).toEqual({ data: { tabs: [{ id: 'all', plugin: 'api', label: 'All Users' }], defaultFilter: 'all', showAll: true } });
    expect((await admin.get('/users/columns')).body).toEqual({ data: { columns: [] } });
    expect((await admin.get('/users/row-actions')).body).toEqual({ data: { actions: [] } });
    expectProblem(await admin.get('/membership/badges/members'), 404);
    expect(pagination(await admin.get('/users?filter=members')).total).toBe(pagination(await admin.get('/users')).total);
  });
});
