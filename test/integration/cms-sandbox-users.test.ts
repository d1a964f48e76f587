/**
 * The CMS sandbox's Users routes over real HTTP: the list (paging, search, access/permission,
 * group, the plugin filter tabs, the caller's own row without api.users.read, plugin column values
 * for the page served only), one account, create, update, delete and avatars, with every status
 * code each answers and the event each write fires. The demo seed has 39 accounts: admin, editor,
 * viewer and 36 members (users/seed-users.ts). Both flavours; where the real Grav API plugin
 * differs (422 for every refusal, `X-Invalidates`, no `avatar` object, GIF refused,
 * `twofa_global_enabled`, no 304, `twofa_enabled` settable by PATCH, keys kept after a delete),
 * each flavour's own answer is asserted.
 */
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { expectProblem, SandboxClient, pagination, read, type Json, type Reply } from '../sandbox/cms/test-client';
import { DEMO_MEMBER_PASSWORD } from '../sandbox/cms/users/seed-users';
import { flavors } from '../support/flavors';

const fields = (r: Reply) => ((r.body.errors ?? []) as Json[]).map((e) => e.field as string);
const usernames = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Json[]).map((u) => u.username as string);
};

/** A valid PNG of w×h grey pixels. */
function png(w = 2, h = 2): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    return Buffer.concat([head, data, Buffer.alloc(4)]); // the sandbox reads the header only; CRC unchecked
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  const raw = Buffer.alloc((w + 1) * h, 0x80);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
/** A baseline JPEG's header up to its frame: 16×8 pixels. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), Buffer.from([1, 1, 0, 0, 1, 0, 1, 0, 0]), Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0x00, 0x08, 0x00, 0x10, 0x03, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]), Buffer.alloc(16)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.from([4, 0, 4, 0, 0, 0, 0]), Buffer.from([0x3b])]);
/** An extended WebP header: 32×16. */
const WEBP = Buffer.concat([Buffer.from('RIFF', 'latin1'), Buffer.from([22, 0, 0, 0]), Buffer.from('WEBPVP8X', 'latin1'), Buffer.from([10, 0, 0, 0, 0, 0, 0, 0, 31, 0, 0, 15, 0, 0])]);

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';

  let sb: CmsSandbox;
  let admin: SandboxClient;
  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor });
    admin = new SandboxClient(sb);
  });
  afterAll(() => sb?.close());
  beforeEach(() => sb.events.clear());

  describe('the list', () => {
    test('first page: 20 of 39 by username, each account as the real service records it (no secret)', async () => {
      const r = await admin.get('/users');
      const names = usernames(r);
      expect(names).toHaveLength(20);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
      expect(pagination(r)).toMatchObject({ page: 1, per_page: 20, total: 39, total_pages: 2 });
      if (real) expect(Object.keys(r.body.meta)).toEqual(['pagination']);
      else expect(r.body.meta).toMatchObject({ total: 39, page: 1, per_page: 20 });
      expect(r.body.links).toMatchObject({ self: `${sb.prefix}/users?page=1&per_page=20`, next: `${sb.prefix}/users?page=2&per_page=20` });
      const row = (r.body.data as Json[]).find((u) => u.username === 'admin')!;
      const { extra, ...record } = row;
      expect(Object.keys(record)).toEqual([
        'username', 'email', 'fullname', 'title', 'state', 'language', 'content_editor', 'access', 'groups', 'avatar_url', 'twofa_enabled', 'twofa_secret', 'created', 'modified',
        ...(real ? [] : ['avatar']),
      ]);
      expect(record).toMatchObject({ username: 'admin', email: DEMO_ACCOUNTS.admin.email, state: 'enabled', access: { api: { super: true } }, groups: [], avatar_url: null, twofa_enabled: false, twofa_secret: false });
      expect(record.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
      expect(extra).toEqual(expect.any(Object));
      // 2FA accounts say so, and never send their secret
      const editor = (await admin.get('/users?search=editor@')).body.data[0] as Json;
      expect(editor).toMatchObject({ username: 'editor', twofa_enabled: true, twofa_secret: true });
      expect(JSON.stringify((await admin.get('/users?per_page=100')).body)).not.toMatch(/SITEDESKDEMO|hashed_password|"reset"/);
    });

    test('paging: page 2, per_page and its cap (spec 100, real 1000), a page past the end', async () => {
      const r = await admin.get('/users?page=2&per_page=10');
      expect(usernames(r)).toHaveLength(10);
      expect(pagination(r)).toMatchObject({ page: 2, per_page: 10, total: 39, total_pages: 4 });
      expect(r.body.links).toMatchObject({ prev: `${sb.prefix}/users?page=1&per_page=10`, next: `${sb.prefix}/users?page=3&per_page=10` });
      expect(pagination(await admin.get('/users?per_page=5000'))).toMatchObject({ per_page: real ? 1000 : 100, total: 39 });
      const past = await admin.get('/users?page=9&per_page=10');
      expect(usernames(past)).toEqual([]);
      expect(pagination(past).total).toBe(39);
    });

    test('search over username, email and full name, any case', async () => {
      expect(usernames(await admin.get('/users?search=BERG'))).toEqual(['greta.berg']);
      expect(usernames(await admin.get(`/users?search=${encodeURIComponent('Chloé Dub')}`))).toEqual(['chloe.dubois']);
      const org = usernames(await admin.get('/users?search=example.org&per_page=100'));
      expect(org.length).toBe(12);
      expect(usernames(await admin.get('/users?search=nobody-has-this'))).toEqual([]);
    });

    test('access (alias permission) by effective access: groups, explicit false, super for api.* but not admin.super', async () => {
      const writers = usernames(await admin.get('/users?access=api.users.write&per_page=100'));
      expect(writers).toEqual(expect.arrayContaining(['admin', 'esther.cohen', 'ines.silva']));
      expect(writers).not.toContain('lena.novak'); // users.read only
      expect(usernames(await admin.get('/users?permission=api.users.write&per_page=100'))).toEqual(writers);
      expect(usernames(await admin.get('/users?access=api.super&per_page=100'))).toEqual(['admin', 'gabi.schmid', 'ines.silva', 'umar.farouk']);
      expect(usernames(await admin.get('/users?access=admin.super&per_page=100'))).toEqual(['admin']);
      // editors+authors grant media.write, greta's own `api.media.write: false` takes it back
      expect(usernames(await admin.get('/users?access=api.media.write&per_page=100'))).not.toContain('greta.berg');
      expect(usernames(await admin.get('/users?access=api.media.read&per_page=100'))).toContain('greta.berg');
      // a group's api.access, the account's own false over it
      expect(usernames(await admin.get('/users?access=api.access&per_page=100'))).not.toContain('kemal.yilmaz');
    });

    test('group, and a plugin tab that narrows before the group filter; `all` and unknown tabs do not narrow', async () => {
      const support = await admin.get('/users?group=support');
      expect(usernames(support)).toEqual(['dario.ferrari', 'farid.haddad', 'rosa.rossi']);
      expect((support.body.data as Json[]).every((u) => (u.groups as string[]).includes('support'))).toBe(true);
      expect(usernames(await admin.get('/users?group=nope'))).toEqual([]);

      const r = await admin.get('/users?filter=twofa-off&group=editors&per_page=100');
      expect(usernames(r).length).toBeGreaterThan(0);
      expect((r.body.data as Json[]).every((u) => u.twofa_enabled === false && (u.groups as string[]).includes('editors'))).toBe(true);
      expect(sb.events.list('onApiUserListFilter')).toEqual([expect.objectContaining({ data: expect.objectContaining({ filter: 'twofa-off', user: 'admin' }) })]);
      const disabled = await admin.get('/users?filter=disabled&search=example.test');
      expect((disabled.body.data as Json[]).every((u) => u.state === 'disabled')).toBe(true);
      expect(pagination(await admin.get('/users?filter=all')).total).toBe(39);
      expect(pagination(await admin.get('/users?filter=made-up')).total).toBe(39);
    });

    test('plugin column values: for the page served only, scalars only, long text cut at 2048 bytes, null kept', async () => {
      const r = await admin.get('/users?page=2&per_page=5');
      const served = usernames(r);
      expect(sb.events.list('onApiUserListColumnData').map((e) => e.data.usernames)).toEqual([served]);
      for (const row of r.body.data as Json[]) {
        const extra = row.extra as Json;
        expect(Object.keys(extra).every((k) => /^[A-Za-z0-9_.-]+$/.test(k))).toBe(true);
        expect(Object.values(extra).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))).toBe(true);
        expect(Object.keys(extra)).not.toContain('activity.sessions');
        expect(Object.keys(extra)).not.toContain('membership.history');
      }
      const all = (await admin.get('/users?per_page=100')).body.data as Json[];
      const titled = all.find((u) => u.username === 'alice.martin')!.extra as Json;
      expect(Buffer.byteLength(titled['activity.notes'] as string)).toBe(2048);
      expect(all.find((u) => u.username === 'jonas.weber')!.extra).toMatchObject({ 'activity.notes': null });
      // members have the membership plugin's values, the others only the activity plugin's
      expect(Object.keys(titled)).toContain('membership.plan');
      expect(Object.keys(all.find((u) => u.username === 'chloe.dubois')!.extra as Json)).not.toContain('membership.plan');
    });

    test('without api.users.read only the caller\'s own row, in the same envelope; 401; 403 without api.access', async () => {
      const r = await (await admin.keyFor('alice.martin')).get('/users?search=admin');
      expect(usernames(r)).toEqual(['alice.martin']);
      expect(pagination(r)).toMatchObject({ total: 1 });
      expect(r.body.data[0]).not.toHaveProperty('extra');
      expectProblem(await admin.as({ none: true }).get('/users'), 401);
      expectProblem(await (await admin.keyFor('kemal.yilmaz')).get('/users'), 403);
    });

    test('a few hundred reads stay fast: one full page answers in a few milliseconds', async () => {
      await admin.get('/users?per_page=100');
      const t = performance.now();
      for (let i = 0; i < 5; i++) await admin.get('/users?per_page=100');
      const ms = (performance.now() - t) / 5;
      expect(ms, `${ms.toFixed(1)} ms a page`).toBeLessThan(50);
    });
  });

  describe('groups', () => {
    test('the real service lists them with their access (paged, searched, api.users.read); the documents have no such route', async () => {
      const r = await admin.get('/groups?per_page=2');
      if (!real) return void expect(r.status).toBe(404);
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toHaveLength(2);
      expect(pagination(r)).toMatchObject({ total: 5, per_page: 2 });
      expect(r.body.data[0]).toEqual({ groupname: 'authors', readableName: 'Authors', description: '', icon: '', enabled: true, access: expect.objectContaining({ api: expect.any(Object) }) });
      expect((await admin.get('/groups?search=edit')).body.data.map((g: Json) => g.groupname)).toEqual(['editors']);
      expectProblem(await (await admin.keyFor('alice.martin')).get('/groups'), 403);
      expectProblem(await admin.as({ none: true }).get('/groups'), 401);
    });
  });

  describe('one account', () => {
    test('200 with an ETag; the real service adds twofa_global_enabled; spec answers 304 to If-None-Match', async () => {
      const r = await admin.get('/users/greta.berg');
      expect(r.status, r.text).toBe(200);
      const etag = r.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
      expect(r.body.data).toMatchObject({ username: 'greta.berg', groups: ['editors', 'authors'], access: { api: { media: { write: false } } } });
      if (real) expect(r.body.data.twofa_global_enabled).toBe(true);
      else expect(r.body.data).not.toHaveProperty('twofa_global_enabled');
      expect(r.body.data).not.toHaveProperty('extra');
      const again = await admin.get('/users/greta.berg', { 'If-None-Match': etag });
      expect(again.status).toBe(real ? 200 : 304);
    });

    test('self with api.access alone; another account needs api.users.read (403); 404; 401', async () => {
      const viewer = await admin.keyFor('viewer');
      expect((await viewer.get('/users/viewer')).status).toBe(200);
      expectProblem(await viewer.get('/users/admin'), 403);
      expect((await (await admin.keyFor('lena.novak')).get('/users/admin')).status).toBe(200);
      expect(expectProblem(await admin.get('/users/nobody'), 404).detail).toBe("User 'nobody' not found.");
      expectProblem(await admin.as({ none: true }).get('/users/admin'), 401);
    });
  });

  describe('create', () => {
    const PASSWORD = 'New-user-pass1';

    test('201 with Location and the record; fires onApiUserCreated; the account signs in', async () => {
      const r = await admin.post('/users', { username: 'jdoe', password: PASSWORD, email: 'jdoe@example.test', fullname: 'Jane Doe', access: { api: { access: true, pages: { read: true } } }, groups: ['reviewers'] });
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('location')).toBe(`${sb.prefix}/users/jdoe`);
      expect(r.body.data).toMatchObject({ username: 'jdoe', email: 'jdoe@example.test', fullname: 'Jane Doe', title: '', state: 'enabled', access: { api: { access: true, pages: { read: true } } }, groups: ['reviewers'], twofa_enabled: false });
      expect(r.headers.get('x-invalidates')).toBe(real ? 'users:create:jdoe, users:list' : null);
      expect(sb.events.list('onApiUserCreated')).toEqual([expect.objectContaining({ data: { user: expect.objectContaining({ username: 'jdoe', email: 'jdoe@example.test' }) } })]);
      const login = await read(await fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'jdoe', password: PASSWORD }) }));
      expect(login.status, login.text).toBe(200);
      expect(pagination(await admin.get('/users')).total).toBe(40);
      await admin.delete('/users/jdoe');
    });

    test('409 when the username exists; 422 for missing fields, a bad username, and every bad field at once', async () => {
      expect(expectProblem(await admin.post('/users', { username: 'viewer', password: PASSWORD, email: 'x@example.test' }), 409).detail).toBe("User 'viewer' already exists.");
      const missing = expectProblem(await admin.post('/users', { username: 'x' }), 422);
      expect(missing.detail).toBe('Missing required fields: password, email');
      expect(fields({ body: missing } as Reply)).toEqual(['password', 'email']);
      for (const username of ['ab', '.hidden', 'a/b', 'two..dots', 'x'.repeat(65)]) {
        expect(expectProblem(await admin.post('/users', { username, password: PASSWORD, email: 'x@example.test' }), 422).errors[0].field).toBe('username');
      }
      const bad = await admin.post('/users', { username: 'newbie', password: 'short', email: 'not-an-email', fullname: '', state: 'paused', access: ['api.access'], groups: ['nope'] });
      expectProblem(bad, 422);
      expect(fields(bad).sort()).toEqual(['access', 'email', 'fullname', 'groups', 'password', 'state']);
      expect((await admin.get('/users/newbie')).status).toBe(404);
      expect(sb.events.list('onApiUserCreated')).toEqual([]);
      // the password rule: 8+ in the documents, Grav's pwd_regex in the real service
      const weak = await admin.post('/users', { username: 'newbie', password: 'longenough', email: 'n@example.test' });
      if (real) expect(fields(weak)).toEqual(['password']);
      else expect(weak.status).toBe(201);
      await admin.delete('/users/newbie');
    });

    test('403 without api.users.write; a manager may not grant super; its groups are left out; 401', async () => {
      expectProblem(await (await admin.keyFor('lena.novak')).post('/users', { username: 'newbie2', password: PASSWORD, email: 'n2@example.test' }), 403);
      const manager = await admin.keyFor('esther.cohen');
      expect(expectProblem(await manager.post('/users', { username: 'newbie2', password: PASSWORD, email: 'n2@example.test', access: { 'api.super': true } }), 403).detail).toBe(
        'Granting super-admin access requires super-admin privileges.',
      );
      const r = await manager.post('/users', { username: 'newbie2', password: PASSWORD, email: 'n2@example.test', groups: ['user-managers'] });
      expect(r.status, r.text).toBe(201);
      expect(r.body.data.groups).toEqual([]);
      expectProblem(await admin.as({ none: true }).post('/users', { username: 'newbie3', password: PASSWORD, email: 'n3@example.test' }), 401);
      await admin.delete('/users/newbie2');
    });
  });

  describe('update', () => {
    beforeAll(async () => {
      await admin.post('/users', { username: 'target', password: 'Target-pass-1', email: 'target@example.test', fullname: 'Tar Get', access: { api: { access: true } } });
    });

    test('self edits its profile fields with api.access alone; not its access or state (403)', async () => {
      const self = await admin.keyFor('target');
      const r = await self.patch('/users/target', { fullname: 'Target Person', title: 'Tester', language: 'de' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ fullname: 'Target Person', title: 'Tester', language: 'de' });
      expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
      expect(r.headers.get('x-invalidates')).toBe(real ? 'users:update:target, users:list' : null);
      expect(sb.events.list('onApiUserUpdated')).toEqual([expect.objectContaining({ data: expect.objectContaining({ user: expect.objectContaining({ username: 'target' }) }) })]);
      expect(expectProblem(await self.patch('/users/target', { access: { api: { super: true } } }), 403).detail).toBe("Modifying 'access' requires the 'api.users.write' permission.");
      expectProblem(await self.patch('/users/target', { state: 'disabled' }), 403);
      expectProblem(await self.patch('/users/viewer', { fullname: 'x' }), 403);
    });

    test('If-Match: the current ETag is taken, a stale one is 409', async () => {
      const etag = (await admin.get('/users/target')).headers.get('etag')!;
      const ok = await admin.patch('/users/target', { title: 'Checked' }, { 'If-Match': etag });
      expect(ok.status, ok.text).toBe(200);
      expectProblem(await admin.patch('/users/target', { title: 'Stale' }, { 'If-Match': etag }), 409);
      expect((await admin.get('/users/target')).body.data.title).toBe('Checked');
    });

    test('a manager changes state and access; disabling ends the account\'s tokens in the real service; a new password signs in', async () => {
      const manager = await admin.keyFor('esther.cohen');
      const r = await manager.patch('/users/target', { access: { api: { access: true, pages: { read: true } } }, password: 'Another-pass-2' });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.access).toEqual({ api: { access: true, pages: { read: true } } });
      const login = (password: string) => fetch(`${sb.url}/auth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'target', password }) });
      expect((await login('Target-pass-1')).status).toBe(401);
      const token = ((await read(await login('Another-pass-2'))).body.data as Json).access_token as string;
      sb.clock.advance(1000); // tokens issued before the second of the change are the ones it ends
      expect((await manager.patch('/users/target', { state: 'disabled' })).body.data.state).toBe('disabled');
      expect((await admin.as({ token }).get('/me')).status).toBe(real ? 401 : 403);
      expect((await manager.patch('/users/target', { state: 'enabled' })).status).toBe(200);
    });

    test('422: an empty body, bad fields; spec refuses twofa_enabled, the real service takes it', async () => {
      expect(expectProblem(await admin.patch('/users/target', {}), 422).detail).toBe('Request body must contain fields to update.');
      const bad = await admin.patch('/users/target', { email: 'nope', state: 'gone', fullname: 42 });
      expectProblem(bad, 422);
      expect(fields(bad).sort()).toEqual(['email', 'fullname', 'state']);
      const twofa = await admin.patch('/users/target', { twofa_enabled: true });
      if (real) expect(twofa.body.data.twofa_enabled).toBe(true);
      else expect(fields(twofa)).toEqual(['twofa_enabled']);
    });

    test('403: a manager on a super account, groups by a non-super, granting super; a super sets groups; 404; 401', async () => {
      const manager = await admin.keyFor('esther.cohen');
      expect(expectProblem(await manager.patch('/users/ines.silva', { fullname: 'x' }), 403).detail).toBe('Only super-admins can modify super-admin accounts.');
      expect(expectProblem(await manager.patch('/users/target', { groups: ['editors'] }), 403).detail).toBe("Modifying 'groups' requires super-admin privileges.");
      expectProblem(await manager.patch('/users/target', { access: { admin: { super: true } } }), 403);
      expect((await admin.patch('/users/target', { groups: ['editors'] })).body.data.groups).toEqual(['editors']);
      // the group's grants count at once (editors may read media; target's own access may not)
      expect((await (await admin.keyFor('target')).get('/pages/home/media')).status).toBe(200);
      expectProblem(await admin.patch('/users/nobody', { fullname: 'x' }), 404);
      expectProblem(await admin.as({ none: true }).patch('/users/target', { fullname: 'x' }), 401);
    });
  });

  describe('delete', () => {
    test('204 with the before and after events; the account is gone (its keys too in the documents)', async () => {
      await admin.post('/users', { username: 'leaving', password: 'Leaving-pass-1', email: 'leaving@example.test' });
      const key = sb.apiKeys.create({ username: 'leaving', name: 'k' });
      sb.events.clear();
      const r = await admin.delete('/users/leaving');
      expect(r.status, r.text).toBe(204);
      expect(r.headers.get('x-invalidates')).toBe(real ? 'users:delete:leaving, users:list' : null);
      expect(sb.events.names()).toEqual(['onApiBeforeUserDelete', 'onApiUserDeleted']);
      expect(sb.events.list('onApiUserDeleted')[0]!.data).toEqual({ username: 'leaving' });
      expectProblem(await admin.get('/users/leaving'), 404);
      expect(sb.apiKeys.list().some((k) => k.id === key.record.id)).toBe(real);
      expectProblem(await admin.as({ apiKey: key.api_key }).get('/me'), 401);
    });

    test('403 for oneself, a super account by a manager, without api.users.write; 404; 401', async () => {
      expect(expectProblem(await admin.delete('/users/admin'), 403).detail).toBe('You cannot delete your own account.');
      expect(expectProblem(await (await admin.keyFor('esther.cohen')).delete('/users/ines.silva'), 403).detail).toBe('Only super-admins can delete super-admin accounts.');
      expectProblem(await (await admin.keyFor('lena.novak')).delete('/users/alice.martin'), 403);
      expectProblem(await admin.delete('/users/nobody'), 404);
      expectProblem(await admin.as({ none: true }).delete('/users/alice.martin'), 401);
      expect(sb.events.list()).toEqual([]);
    });
  });

  describe('avatar', () => {
    const upload = (client: SandboxClient, username: string, data: Uint8Array, name = 'me.bin', field = 'avatar') =>
      client.upload(`/users/${username}/avatar`, [{ name, data, type: 'application/octet-stream', field }]);

    test('an image is known by its bytes (the name and type are ignored); 201; served where avatar_url points; replaced and deleted', async () => {
      const bytes = png(3, 3);
      const r = await upload(await admin.keyFor('viewer'), 'viewer', bytes, 'notes.txt');
      expect(r.status, r.text).toBe(201);
      const url = r.body.data.avatar_url as string;
      expect(url).toMatch(/^\/user\/accounts\/avatars\/viewer-[0-9a-f]{8}\.png$/);
      if (!real) expect(r.body.data.avatar).toEqual({ name: url.split('/').pop(), type: 'image/png' });
      expect(r.headers.get('x-invalidates')).toBe(real ? 'users:update:viewer' : null);
      expect(sb.events.names()).toEqual(real ? [] : ['onApiUserUpdated']);
      const served = await fetch(sb.origin + url);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);

      const second = await upload(admin, 'viewer', JPEG, 'x.png', 'file');
      expect(second.status, second.text).toBe(201);
      expect(second.body.data.avatar_url).toMatch(/\.jpg$/);
      expect((await fetch(sb.origin + url)).status).toBe(404);

      sb.events.clear();
      const del = await (await admin.keyFor('viewer')).delete('/users/viewer/avatar');
      expect(del.status, del.text).toBe(200);
      expect(del.body.data.avatar_url).toBeNull();
      expect(sb.events.names()).toEqual(real ? [] : ['onApiUserUpdated']);
      expect((await fetch(sb.origin + second.body.data.avatar_url)).status).toBe(404);
    });

    test('JPEG, PNG and WebP in both; GIF only in the documents; anything else, no file or over 8 MB is 422', async () => {
      for (const [bytes, ext] of [[WEBP, 'webp'], [JPEG, 'jpg'], [png(), 'png']] as const) {
        const r = await upload(admin, 'alice.martin', bytes);
        expect(r.status, r.text).toBe(201);
        expect(r.body.data.avatar_url).toMatch(new RegExp(`\\.${ext}$`));
      }
      const gif = await upload(admin, 'alice.martin', GIF);
      if (real) expect(expectProblem(gif, 422).detail).toBe('Avatar must be a valid PNG, JPEG, or WebP image.');
      else expect(gif.status, gif.text).toBe(201);
      expectProblem(await upload(admin, 'alice.martin', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'a.png'), 422);
      expectProblem(await upload(admin, 'alice.martin', Buffer.from([0x89, 0x50, 0x4e, 0x47])), 422); // a PNG signature, no header
      expect(expectProblem(await admin.upload('/users/alice.martin/avatar', [], { note: 'x' }), 422).detail).toBe('No avatar file uploaded.');
      const big = Buffer.concat([Buffer.from(png()), Buffer.alloc(8 * 1024 * 1024)]);
      expectProblem(await upload(admin, 'alice.martin', big), 422);
    });

    test('another account needs api.users.write (403); 404; 401', async () => {
      expectProblem(await upload(await admin.keyFor('lena.novak'), 'alice.martin', png()), 403);
      expectProblem(await (await admin.keyFor('lena.novak')).delete('/users/alice.martin/avatar'), 403);
      expectProblem(await upload(admin, 'nobody', png()), 404);
      expectProblem(await admin.delete('/users/nobody/avatar'), 404);
      expectProblem(await upload(admin.as({ none: true }), 'alice.martin', png()), 401);
      expectProblem(await admin.as({ none: true }).delete('/users/alice.martin/avatar'), 401);
    });
  });

  test('bodies the routes cannot read: malformed JSON and a non-object (400, the real service 422), an upload that is not multipart, one far too large (413); a method the path does not take (405)', async () => {
    const BAD = real ? 422 : 400;
    for (const [method, path] of [['POST', '/users'], ['PATCH', '/users/viewer'], ['POST', '/users/viewer/api-keys'], ['POST', '/users/viewer/row-action'], ['POST', '/users/viewer/2fa/disable']] as const) {
      expectProblem(await admin.request(method, path, '{"username": ', { 'content-type': 'application/json' }), BAD);
      expectProblem(await admin.request(method, path, '["a list"]', { 'content-type': 'application/json' }), BAD);
    }
    expect(expectProblem(await admin.post('/users/viewer/avatar', { avatar: 'not a file' }), BAD).detail).toBe('Expected a multipart/form-data body.');
    const huge = await admin.upload('/users/viewer/avatar', [{ name: 'big.png', data: Buffer.alloc(33 * 1024 * 1024), field: 'avatar' }]);
    expectProblem(huge, 413);
    expect((await admin.get('/users/viewer')).body.data.avatar_url).toBeNull();
    expectProblem(await admin.put('/users/viewer', { fullname: 'x' }), 405);
    expectProblem(await admin.request('PATCH', '/users'), 405);
  });

  test('the auth routes that write an account fire their events: setup (created, setup complete), password reset', async () => {
    const fresh = await startCmsSandbox({ flavor, seed: 'empty' });
    try {
      const post = (path: string, body: unknown) => fetch(fresh.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect((await post('/auth/setup', { username: 'owner', password: 'Owner-pass-1', email: 'owner@example.test' })).status).toBe(200);
      expect(fresh.events.names()).toEqual(['onApiUserCreated', 'onApiSetupComplete']);
      expect(fresh.events.list('onApiSetupComplete')[0]!.data).toEqual({ user: expect.objectContaining({ username: 'owner', email: 'owner@example.test' }) });
      fresh.events.clear();
      await post('/auth/forgot-password', { email: 'owner@example.test' });
      const token = fresh.mail.last()!.token;
      expect((await post('/auth/reset-password', { username: 'owner', token, password: 'Owner-pass-2' })).status).toBe(200);
      expect(fresh.events.list('onApiPasswordReset')).toEqual([expect.objectContaining({ data: { user: expect.objectContaining({ username: 'owner' }), ip: '127.0.0.1' } })]);
    } finally {
      await fresh.close();
    }
  });

  test('with the demo plugins off, the rows carry no `extra`', async () => {
    const bare = await startCmsSandbox({ flavor, userListPlugins: false });
    try {
      const r = await new SandboxClient(bare).get('/users?per_page=100');
      expect((r.body.data as Json[]).some((u) => 'extra' in u)).toBe(false);
    } finally {
      await bare.close();
    }
  });
});
