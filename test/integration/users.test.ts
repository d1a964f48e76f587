/**
 * A CMS site's accounts through the Host against the sandbox (both flavours): the list paged by
 * the site with its plugins' tabs, columns and values, an account's life (create, read, change with
 * its ETag, a conflict with another admin, delete), the site's refusals at their fields, a row
 * action and its result, API keys (the raw key once, and it really signs in), and a write while the
 * site is away: refused with the reason, nothing queued.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminApi } from '../support/host-calls';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { solidPng } from '../sandbox/cms/content/seed-content';
import { totp } from '../sandbox/cms/totp';
import { startCmsSandbox } from '../sandbox/cms/server';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;

  test('the list: paged by the site, searched, narrowed by a plugin tab, with the plugin columns’ values', async () => {
    const first = await fx.call('users.list', { siteId: siteId(), perPage: 10 });
    expect(first.items).toHaveLength(10);
    expect(first.total).toBeGreaterThan(30);
    expect(first.more).toBe(true);
    const second = await fx.call('users.list', { siteId: siteId(), perPage: 10, page: 2 });
    expect(second.items.map((u) => u.username)).not.toContain(first.items[0]!.username);

    const ext = await fx.call('users.extensions', { siteId: siteId() });
    expect(ext.tabs[0]!.id).toBe('all');
    expect(ext.tabs.map((x) => x.id)).toEqual(expect.arrayContaining(['members', 'twofa-off']));
    expect(ext.tabs.filter((x) => x.id === 'all')).toHaveLength(1); // a plugin's "all" does not shadow the built-in tab
    const plan = ext.columns.find((c) => c.id === 'membership-plan')!;
    expect(plan).toMatchObject({ formatter: 'badge', sortable: true });
    expect(ext.columns.find((c) => c.id === 'activity-risk')?.formatter).toBe('text'); // an unknown formatter is text
    expect(ext.actions.find((a) => a.id === 'membership-extend')?.confirm).toBe('Extend this membership by one year?');

    const members = await fx.call('users.list', { siteId: siteId(), filter: 'members', perPage: 100 });
    expect(members.items.length).toBeGreaterThan(0);
    expect(members.items.length).toBeLessThan(first.total!);
    expect(members.items.some((u) => typeof u.extra[plan.field] === 'string')).toBe(true);

    const found = await fx.call('users.list', { siteId: siteId(), search: 'admin' });
    expect(found.items.map((u) => u.username)).toContain('admin');
  });

  test('an account’s life: create, read, change with its ETag, a conflict, delete', async () => {
    const username = `e2e-${flavor}-life`;
    const created = await fx.call('users.create', { siteId: siteId(), user: { username, password: 'Long-enough-pass1', email: `${username}@example.test`, fullname: 'Life Cycle', access: { api: { access: true, pages: { read: true } } } } });
    expect(created.user).toMatchObject({ username, fullname: 'Life Cycle', state: 'enabled' });
    const read = await fx.call('users.get', { siteId: siteId(), username });
    expect(read.etag).toBeTruthy();
    const changed = await fx.call('users.update', { siteId: siteId(), username, etag: read.etag, changes: { fullname: 'Changed Name' } });
    expect(changed.user.fullname).toBe('Changed Name');
    // another admin changes the account; a save with the old ETag is a conflict, in words
    await adminApi(fx.cms).call({ method: 'PATCH', path: `/users/${username}`, body: { fullname: 'Other admin' } });
    const conflict = await fx.fails('users.update', { siteId: siteId(), username, etag: changed.etag, changes: { fullname: 'Mine' } });
    expect(conflict).toMatchObject({ code: 'conflict', message: expect.stringMatching(/changed on the site since you opened it/) });
    expect((await fx.call('users.get', { siteId: siteId(), username })).user.fullname).toBe('Other admin');
    expect(await fx.call('users.delete', { siteId: siteId(), username })).toEqual({ username });
    expect((await fx.fails('users.get', { siteId: siteId(), username })).code).toBe('not_found');
    // deleting what is gone already is what was asked
    expect(await fx.call('users.delete', { siteId: siteId(), username })).toEqual({ username });
  });

  test('the site’s refusals land at their fields: a taken username, an invalid address', async () => {
    const taken = await fx.fails('users.create', { siteId: siteId(), user: { username: 'admin', password: 'Long-enough-pass1', email: 'x@example.test' } });
    expect(taken).toMatchObject({ code: 'duplicate', fields: { 'user.username': 'This username is taken on the site.' } });
    const bad = await fx.fails('users.create', { siteId: siteId(), user: { username: 'no', password: 'Long-enough-pass1', email: 'x@example.test' } });
    expect(bad.code).toBe('invalid_input');
    expect(Object.keys(bad.fields ?? {})).toContain('user.username');
  });

  test('a row action with its result; one the account may not run is refused', async () => {
    const { items } = await fx.call('users.list', { siteId: siteId(), filter: 'members', perPage: 5 });
    const result = await fx.call('users.rowAction', { siteId: siteId(), username: items[0]!.username, actionId: 'membership-extend' });
    expect(result.ok).toBe(true);
    expect(result.message).toEqual(expect.any(String));
    if (result.url) expect(result.url.startsWith(fx.cms.origin)).toBe(true);
    const unknown = await fx.fails('users.rowAction', { siteId: siteId(), username: items[0]!.username, actionId: 'no-such-action' });
    expect(unknown.code).toBe('not_found');
  });

  test('API keys: the raw key once, listed without it, it signs in, and revoked it stops', async () => {
    const minted = await fx.call('users.createApiKey', { siteId: siteId(), username: 'admin', name: 'CI deploys', scopes: ['api.access', 'api.pages.read'], expiryDays: 30 });
    expect(minted.apiKey.length).toBeGreaterThan(20);
    const keys = await fx.call('users.apiKeys', { siteId: siteId(), username: 'admin' });
    const listed = keys.find((k) => k.id === minted.id)!;
    expect(listed).toMatchObject({ name: 'CI deploys', scopes: ['api.access', 'api.pages.read'] });
    expect(JSON.stringify(keys)).not.toContain(minted.apiKey);
    const as = (path: string) => fetch(`${fx.cms.url}${path}`, { headers: { 'X-API-Key': minted.apiKey } }).then((r) => r.status);
    expect(await as('/pages?per_page=1')).toBe(200);
    expect(await as('/config')).toBe(403); // its scopes hold even for a super account's key
    await fx.call('users.deleteApiKey', { siteId: siteId(), username: 'admin', keyId: minted.id });
    expect(await as('/pages?per_page=1')).toBe(401);
  });

  test('the account form: the users blueprint, the permission tree with labels, the groups where the site lists them', async () => {
    const form = await fx.call('users.form', { siteId: siteId() });
    const names = (list: typeof form.fields): string[] => list.flatMap((f) => [f.name, ...names(f.fields ?? [])]);
    expect(names(form.fields)).toEqual(expect.arrayContaining(['email', 'fullname', 'state', 'language', 'groups', 'access']));
    const api = form.permissions.find((n) => n.name === 'api')!;
    const pages = api.children.find((n) => n.name === 'api.pages')!;
    expect(pages.children.map((n) => n.name)).toEqual(['api.pages.read', 'api.pages.write']);
    expect(pages.label).toBe('Pages API');
    if (flavor === 'real') {
      // the real service's /groups: what each group's members inherit
      expect(form.groups?.find((g) => g.name === 'editors')).toMatchObject({ label: 'Editors', access: { api: { pages: { write: true } } } });
    } else {
      expect(form.groups).toBeNull(); // the documents list no groups: not guessed
    }
  });

  test('an avatar: uploaded (its type read from the bytes), served by the site, refused when not an image, removed', async () => {
    const username = `avatar-${flavor}`;
    await fx.call('users.create', { siteId: siteId(), user: { username, password: 'Long-enough-pass1', email: `${username}@example.test` } });
    try {
      const png = solidPng(64, 48, [200, 80, 40]);
      const up = await fx.call('users.uploadAvatar', { siteId: siteId(), username, filename: 'me.png', type: 'image/png', data: png.toString('base64') });
      expect(up.user.avatarUrl).toMatch(new RegExp(`^${fx.cms.url.replace(/\/api\/v1$/, '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));
      const served = await fetch(up.user.avatarUrl!);
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
      const bad = await fx.fails('users.uploadAvatar', { siteId: siteId(), username, filename: 'me.png', type: 'image/png', data: Buffer.from('<?php echo 1; ?>').toString('base64') });
      expect(bad).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/valid (PNG, JPEG|JPEG, PNG)/) });
      const gone = await fx.call('users.removeAvatar', { siteId: siteId(), username });
      expect(gone.user.avatarUrl).toBeNull();
    } finally {
      await fx.call('users.delete', { siteId: siteId(), username });
    }
  });

  test('2FA: one’s own set-up with its QR code and grouped secret, a wrong code at its field, enabled with the right one, turned off with a code; forced off for another account', async () => {
    const setup = await fx.call('users.twofaSetup', { siteId: siteId(), username: 'admin' });
    expect(setup.secret).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
    expect(setup.qrCode).toMatch(flavor === 'real' ? /^data:image\/svg\+xml;base64,/ : /^data:image\/png;base64,/);
    const secret = setup.secret.replace(/\s/g, '');
    const wrong = await fx.fails('users.twofaEnable', { siteId: siteId(), username: 'admin', code: totp(secret, Date.now() - 10 * 60_000) });
    expect(wrong).toMatchObject({ code: 'invalid_input', fields: { code: expect.stringMatching(/not the one the authenticator shows/) } });
    expect(await fx.call('users.twofaEnable', { siteId: siteId(), username: 'admin', code: totp(secret, Date.now()) })).toEqual({ twofaEnabled: true });
    expect((await fx.call('users.get', { siteId: siteId(), username: 'admin' })).user.twofaEnabled).toBe(true);
    expect(await fx.call('users.twofaDisable', { siteId: siteId(), username: 'admin', code: totp(secret, Date.now()) })).toEqual({ twofaEnabled: false });
    expect((await fx.call('users.get', { siteId: siteId(), username: 'admin' })).user.twofaEnabled).toBe(false);

    // another account's 2FA: only its owner may turn it on; an administrator turns it off without a code
    const other = (await fx.call('users.list', { siteId: siteId(), perPage: 100 })).items.find((u) => u.twofaEnabled && u.username !== 'admin')!;
    expect(other, 'the sandbox seeds accounts with 2FA on').toBeDefined();
    expect((await fx.fails('users.twofaEnable', { siteId: siteId(), username: other.username, code: '123456' })).code).toBe('forbidden');
    expect(await fx.call('users.twofaDisable', { siteId: siteId(), username: other.username })).toEqual({ twofaEnabled: false });
    expect((await fx.call('users.get', { siteId: siteId(), username: other.username })).user.twofaEnabled).toBe(false);
  });

  test('a change while the site is away is refused with the reason, and nothing waits to be sent', async () => {
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const err = await fx.fails('users.update', { siteId: siteId(), username: 'admin', etag: null, changes: { fullname: 'Offline' } });
      expect(err.code).toMatch(/network|timeout/);
      expect(err.message).toMatch(/nothing waits to be sent/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });
});

describe('People across sites', () => {
  let fx: DemoHost;
  let other: Awaited<ReturnType<typeof startCmsSandbox>>;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'spec', ...UNHURRIED } });
    other = await startCmsSandbox({ flavor: 'real', seed: 'demo', content: 'demo', ...UNHURRIED });
  });
  afterAll(async () => {
    await fx?.close();
    await other?.close();
  });

  test('accounts of two sites joined by email or username, with state, groups, 2FA and write access; a site that cannot be read is said and the rest shown', async () => {
    const second = await fx.call('sites.add', { name: 'Second', kind: 'cms', baseUrl: other.url, environment: null, authMode: 'apikey', apiKey: other.seeded!.adminApiKey! });
    const away = await fx.call('sites.add', { name: 'Away', kind: 'cms', baseUrl: other.url, environment: null, authMode: 'apikey', apiKey: other.seeded!.adminApiKey! });
    await fx.call('users.create', { siteId: fx.site.id, user: { username: 'ines', password: 'Long-enough-pass1', email: 'ines@example.test', fullname: 'Ines Editor', access: { api: { access: true, pages: { read: true } } } } });
    await fx.call('users.create', { siteId: second.id, user: { username: 'ines.e', password: 'Long-enough-pass1', email: 'INES@example.test', groups: ['editors'] } });
    await fx.call('sites.remove', { id: away.id });
    const report = await fx.call('users.people', { siteIds: [fx.site.id, second.id, away.id] });

    const bySite = Object.fromEntries(report.sites.map((s) => [s.siteId, s]));
    expect(bySite[fx.site.id]).toMatchObject({ error: null, truncated: false, groupsKnown: false });
    expect(bySite[second.id]).toMatchObject({ error: null, groupsKnown: true });
    expect(bySite[fx.site.id]!.count).toBeGreaterThan(30);
    expect(bySite[away.id]!.error).toBeTruthy(); // gone meanwhile: said, not thrown
    const ines = report.people.find((p) => p.usernames.includes('ines'))!;
    expect(ines).toMatchObject({ name: 'Ines Editor', usernames: ['ines', 'ines.e'] });
    const onFirst = ines.accounts.find((a) => a.siteId === fx.site.id)!;
    const onSecond = ines.accounts.find((a) => a.siteId === second.id)!;
    expect(onFirst).toMatchObject({ state: 'enabled', writes: false, writesKnown: true, twofaEnabled: false });
    expect(onSecond).toMatchObject({ groups: ['editors'], writes: true, writesKnown: true }); // the real flavour lists its groups: editors write pages
    // admin is on both sites, one person
    expect(report.people.find((p) => p.usernames.includes('admin'))!.accounts.map((a) => a.siteId).sort()).toEqual([fx.site.id, second.id].sort());
  });
});

describe('the offline copy of a site’s accounts (personal data: only by choice)', () => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: UNHURRIED });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;
  /** The database file and its WAL as bytes (the Host closed, so the WAL is checkpointed). */
  const dbBytes = async (): Promise<string> => {
    await fx.host.close();
    const out = ['sitedesk.db', 'sitedesk.db-wal'].map((f) => (existsSync(join(fx.dir.path, f)) ? readFileSync(join(fx.dir.path, f)).toString('latin1') : '')).join('');
    await fx.open();
    return out;
  };
  const dropped = async <T>(fn: () => Promise<T>): Promise<T> => {
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      return await fn();
    } finally {
      fx.cms.faults.clear();
    }
  };

  test('without the choice nothing is kept: the site away, the list is refused with the reason', async () => {
    expect(await fx.call('users.offline', { siteId: siteId() })).toEqual({ keep: false, copiedAt: null, count: 0 });
    const online = await fx.call('users.list', { siteId: siteId(), perPage: 10 });
    expect(online.copiedAt).toBeUndefined();
    expect(await dbBytes()).not.toContain(online.items[0]!.email);
    const err = await dropped(() => fx.fails('users.list', { siteId: siteId(), perPage: 10 }));
    expect(err.code).toMatch(/network|timeout/);
  });

  test('kept: read when chosen, answered with its time while the site is away (search applies, a tab cannot), changed with the site’s answers, an account deleted is gone from the file, and turned off it is gone whole', async () => {
    const username = 'offline-copy-person';
    const email = 'offline-copy-person@example.test';
    await fx.call('users.create', { siteId: siteId(), user: { username, password: 'Long-enough-pass1', email, fullname: 'Copy Person' } });
    const kept = await fx.call('users.setOffline', { siteId: siteId(), keep: true });
    const total = (await fx.call('users.list', { siteId: siteId(), perPage: 1 })).total!;
    expect(kept).toMatchObject({ keep: true, copiedAt: expect.any(String), count: total });

    await fx.call('users.update', { siteId: siteId(), username, etag: null, changes: { fullname: 'Copy Person Changed' } });
    await dropped(async () => {
      const page = await fx.call('users.list', { siteId: siteId(), perPage: 10 });
      expect(page).toMatchObject({ copiedAt: kept.copiedAt, total, more: true });
      expect(page.items).toHaveLength(10);
      const found = await fx.call('users.list', { siteId: siteId(), search: 'COPY-PERSON' });
      expect(found.items.map((u) => u.username)).toEqual([username]);
      expect(found.items[0]!.fullname).toBe('Copy Person Changed'); // the change the site confirmed
      const tab = await fx.call('users.list', { siteId: siteId(), filter: 'members', perPage: 10 });
      expect(tab).toMatchObject({ filterIgnored: true, total });
      const one = await fx.call('users.get', { siteId: siteId(), username });
      expect(one).toMatchObject({ copiedAt: kept.copiedAt, etag: null, user: { email } });
      // the account form was kept with the copy (not personal), so the account opens offline
      const form = await fx.call('users.form', { siteId: siteId() });
      expect(form.copiedAt).toEqual(expect.any(String));
      expect(form.permissions.length).toBeGreaterThan(0);
      // a change while away is still refused: the copy is for reading
      const err = await fx.fails('users.update', { siteId: siteId(), username, etag: null, changes: { fullname: 'Offline' } });
      expect(err.message).toMatch(/nothing waits to be sent/);
    });

    await fx.call('users.delete', { siteId: siteId(), username });
    expect((await fx.call('users.offline', { siteId: siteId() })).count).toBe(total - 1);
    expect(await dbBytes()).not.toContain(email);

    const other = (await fx.call('users.list', { siteId: siteId(), perPage: 5 })).items.find((u) => u.email)!;
    expect(await dbBytes()).toContain(other.email);
    expect(await fx.call('users.setOffline', { siteId: siteId(), keep: false })).toEqual({ keep: false, copiedAt: null, count: 0 });
    expect(await dbBytes()).not.toContain(other.email);
    expect((await dropped(() => fx.fails('users.get', { siteId: siteId(), username: other.username }))).code).toMatch(/network|timeout/);
  });
});
