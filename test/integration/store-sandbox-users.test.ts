/**
 * The store sandbox's users and logins over real HTTP on loopback, in both flavours. `spec`
 * (document 3, "Users" and section 5): creation by an administrator (one or a list), login with
 * its headers, Bearer sessions and their expiry on the sandbox clock, logout, lookup, partial
 * update and delete. `real` (the Swagger Petstore v3): nothing is checked, a login always
 * succeeds with Java's Date.toString() expiry, users come back with their password, a PUT
 * replaces the whole user (and one without username breaks every later walk of the user list),
 * deletes answer 200 whatever was there.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { DEMO_USERS } from '../sandbox/store/seed';
import { StoreClient, type Reply } from '../sandbox/store/test-client';
import { flavors } from '../support/flavors';

function expectError(r: Reply, status: number): Record<string, any> {
  expect(r.status, r.text).toBe(status);
  expect(r.body).toMatchObject({ code: status, type: expect.any(String), message: expect.any(String) });
  return r.body;
}

function expectInternalError(r: Reply): void {
  expect(r.status, r.text).toBe(500);
  expect(r.body).toEqual({ code: 500, message: expect.stringMatching(/^There was an error processing your request\. It has been logged \(ID: [0-9a-f]{16}\)$/) });
}

/** Java's Date.toString(): `Fri Nov 20 09:12:01 UTC 2026`. */
const JAVA_DATE = /^(Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2} \d{2}:\d{2}:\d{2} ([A-Z]{3,4}|GMT[+-]\d{2}:\d{2}) \d{4}$/;

/** A Java date string read back (its zone name turned into an offset for the few the sandbox writes). */
function fromJavaDate(text: string): number {
  const m = /^\w{3} (\w{3}) (\d{2}) (\d{2}:\d{2}:\d{2}) (\S+) (\d{4})$/.exec(text)!;
  const offsets: Record<string, string> = { UTC: '+00:00', CET: '+01:00', CEST: '+02:00', PST: '-08:00', PDT: '-07:00' };
  const month = String(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'].indexOf(m[1]!) + 1).padStart(2, '0');
  return Date.parse(`${m[5]}-${month}-${m[2]}T${m[3]}${offsets[m[4]!]}`);
}

describe.each(flavors)('%s flavour', (flavor) => {
  let sb: StoreSandbox;
  let api: StoreClient;
  /** user1 (not an administrator) by API key */
  let user1: StoreClient;

  beforeAll(async () => {
    // anonymous calls (logins) count per address on the Free plan; this file is not about limits
    sb = await startStoreSandbox({ flavor, plans: { free: { perMinute: null, perDay: null } } });
    api = new StoreClient(sb);
    user1 = api.as({ apiKey: sb.createKey('free', 'user1') });
  });
  afterAll(() => sb.close());

  test('both: a demo user by name; a login answers 200 with a session token in its text, X-Expires-After and X-Rate-Limit', async () => {
    expect((await api.get('/user/admin')).body).toMatchObject({ username: 'admin', email: 'admin@example.test', firstName: 'Ada', lastName: 'Admin' });
    const { token, reply } = await api.login('admin', DEMO_USERS.admin.password);
    expect(reply.status).toBe(200);
    expect(token.length).toBeGreaterThan(0);
    expect(reply.headers.get('x-expires-after')).toEqual(expect.any(String));
    expect(Number(reply.headers.get('x-rate-limit'))).toBeGreaterThan(0);
    expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(200);
  });

  if (flavor === 'spec') {
    const fields = (body: Record<string, any>) => (body.errors as { field: string }[]).map((e) => e.field);
    const newUser = (username: string, extra: Record<string, unknown> = {}) => ({ username, email: `${username}@example.test`, password: 'pw-123456', ...extra });

    describe('create (POST /user)', () => {
      test('an administrator creates a user; the answer never holds the password; the user can log in', async () => {
        const r = await api.post('/user', newUser('alice', { firstName: 'Alice', lastName: 'Liddell', phone: '555', userStatus: 1, id: 999 }));
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ id: expect.any(Number), username: 'alice', firstName: 'Alice', lastName: 'Liddell', email: 'alice@example.test', phone: '555', userStatus: 1 });
        expect(r.body.id).not.toBe(999);
        expect((await api.login('alice', 'pw-123456')).reply.status).toBe(200);
      });

      test('an administrator’s session works as well as a key', async () => {
        const { token } = await api.login('admin', DEMO_USERS.admin.password);
        expect((await api.as({ bearer: token }).post('/user', newUser('bob'))).status).toBe(200);
      });

      test('401 anonymous, 403 for a user who is not an administrator (by key or by session)', async () => {
        expectError(await api.as({ none: true }).post('/user', newUser('carol')), 401);
        expect(expectError(await user1.post('/user', newUser('carol')), 403).message).toContain('administrator');
        const { token } = await api.login('user1', DEMO_USERS.user1.password);
        expectError(await api.as({ bearer: token }).post('/user', newUser('carol')), 403);
        expectError(await api.get('/user/carol'), 404);
      });

      test('400 for anything invalid, with the fields named', async () => {
        expect(fields(expectError(await api.post('/user', {}), 400))).toEqual(['username', 'email', 'password']);
        expect(fields(expectError(await api.post('/user', newUser('dave', { email: 'not-an-email' })), 400))).toEqual(['email']);
        expect(fields(expectError(await api.post('/user', newUser('has space', { email: 'space@example.test' })), 400))).toEqual(['username']);
        expect(fields(expectError(await api.post('/user', newUser('login')), 400))).toEqual(['username']);
        expect(fields(expectError(await api.post('/user', newUser('erin', { userStatus: 'active' })), 400))).toEqual(['userStatus']);
        expect(expectError(await api.post('/user', newUser('Alice')), 400).errors[0].message).toContain('taken');
        expectError(await api.post('/user', '[1]'), 400);
      });
    });

    describe('create a list (POST /user/createWithList)', () => {
      test('all created, in order', async () => {
        const r = await api.post('/user/createWithList', [newUser('list1'), newUser('list2', { firstName: 'Two' })]);
        expect(r.status, r.text).toBe(200);
        expect((r.body as unknown as { username: string }[]).map((u) => u.username)).toEqual(['list1', 'list2']);
        expect((await api.get('/user/list2')).body.firstName).toBe('Two');
      });

      test('all or nothing: one bad item (named by its index) and none is created', async () => {
        const bad = expectError(await api.post('/user/createWithList', [newUser('list3'), newUser('list4', { email: 'x' }), newUser('list3')]), 400);
        expect(fields(bad)).toEqual(['1.email', '2.username']);
        expectError(await api.get('/user/list3'), 404);
        expect(fields(expectError(await api.post('/user/createWithList', [newUser('list5'), newUser('list1')]), 400))).toEqual(['1.username']);
        expectError(await api.get('/user/list5'), 404);
      });

      test('400 for a body that is not a list or an empty one; 401/403 as for one user', async () => {
        expectError(await api.post('/user/createWithList', newUser('single')), 400);
        expectError(await api.post('/user/createWithList', []), 400);
        expectError(await api.as({ none: true }).post('/user/createWithList', [newUser('x1')]), 401);
        expectError(await user1.post('/user/createWithList', [newUser('x1')]), 403);
      });
    });

    describe('login and logout (GET /user/login, /user/logout)', () => {
      test('200 with X-Expires-After, X-Rate-Limit and a text body holding the session token', async () => {
        const before = sb.clock.now();
        const { token, reply } = await api.login('admin', DEMO_USERS.admin.password);
        expect(reply.status).toBe(200);
        expect(reply.type).toContain('text/plain');
        expect(reply.text).toMatch(/^logged in user session:\S+$/);
        const expires = reply.headers.get('x-expires-after')!;
        expect(expires).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(Date.parse(expires) - before).toBeGreaterThanOrEqual(3599_000);
        expect(Date.parse(expires) - before).toBeLessThanOrEqual(3601_000);
        expect(reply.headers.get('x-rate-limit')).toBe('36000'); // admin's sessions: Pro, 600/min → per hour
        // user1's sessions count against the Free plan: per hour, its day's 1000 run out before 60/min does
        expect((await api.login('user1', DEMO_USERS.user1.password)).reply.headers.get('x-rate-limit')).toBe('-1'); // this file's Free is unlimited
        sb.plans.free = { perMinute: 60, perDay: 1000 };
        try {
          expect((await api.login('user1', DEMO_USERS.user1.password)).reply.headers.get('x-rate-limit')).toBe('1000');
        } finally {
          sb.plans.free = { perMinute: null, perDay: null };
        }
        expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(200);
      });

      test('400 for a wrong or missing username or password', async () => {
        expect(expectError((await api.login('admin', 'wrong')).reply, 400).message).toBe('Invalid username/password supplied.');
        expectError((await api.login('nobody', 'x')).reply, 400);
        expectError(await api.as({ none: true }).get('/user/login?username=admin'), 400);
        expectError(await api.as({ none: true }).get('/user/login'), 400);
      });

      test('a session runs out on the sandbox clock (401 naming the expiry); the lifetime is a setting', async () => {
        sb.settings.sessionTtl = 120;
        try {
          const { token, reply } = await api.login('user1', DEMO_USERS.user1.password);
          expect(Date.parse(reply.headers.get('x-expires-after')!) - sb.clock.now()).toBeLessThanOrEqual(120_000);
          sb.clock.advance(119_000);
          expect((await api.as({ bearer: token }).get('/user/user1')).status).toBe(200);
          sb.clock.advance(2_000);
          const expired = expectError(await api.as({ bearer: token }).get('/user/user1'), 401);
          expect(expired.message).toContain('expired');
        } finally {
          sb.clock.set(0);
          sb.settings.sessionTtl = 3600;
        }
      });

      test('logout ends the Bearer session; without one it is still 200', async () => {
        const { token } = await api.login('user1', DEMO_USERS.user1.password);
        const r = await api.as({ bearer: token }).get('/user/logout');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ code: 200, message: expect.stringContaining('ended') });
        expectError(await api.as({ bearer: token }).get('/pet/1'), 401);
        expect((await api.as({ none: true }).get('/user/logout')).status).toBe(200);
        expect((await api.get('/user/logout')).status).toBe(200);
        expect((await api.get('/pet/1')).status).toBe(200); // a key is not a session: logout leaves it alone
      });

      test('a malformed Authorization header is a 401', async () => {
        expectError(await api.get('/pet/1', { api_key: '', Authorization: 'Basic abc' }), 401);
      });
    });

    describe('look up (GET /user/{username})', () => {
      test('200 without the password; 404 for none; 400 for a name that cannot be one; 401 anonymous', async () => {
        const r = await user1.get('/user/admin');
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ username: 'admin', email: 'admin@example.test', firstName: 'Ada' });
        expect(r.body).not.toHaveProperty('password');
        expect(r.body).not.toHaveProperty('passwordHash');
        expectError(await api.get('/user/nobody'), 404);
        expect(expectError(await api.get('/user/bad%20name!'), 400).message).toContain('Invalid username');
        expectError(await api.as({ none: true }).get('/user/admin'), 401);
      });
    });

    describe('update (PUT /user/{username})', () => {
      test('only the fields sent change', async () => {
        await api.post('/user', newUser('frank', { firstName: 'Frank', lastName: 'Old', phone: '111', userStatus: 1 }));
        const r = await api.put('/user/frank', { lastName: 'New' });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toMatchObject({ username: 'frank', firstName: 'Frank', lastName: 'New', phone: '111', userStatus: 1, email: 'frank@example.test' });
        const again = await api.put('/user/frank', { email: 'f@example.test', userStatus: 2, username: 'frank', id: 1 });
        expect(again.body).toMatchObject({ firstName: 'Frank', lastName: 'New', email: 'f@example.test', userStatus: 2 });
      });

      test('a new password replaces the old one', async () => {
        await api.post('/user', newUser('grace'));
        await api.put('/user/grace', { password: 'brand-new-pw' });
        expect((await api.login('grace', 'pw-123456')).reply.status).toBe(400);
        expect((await api.login('grace', 'brand-new-pw')).reply.status).toBe(200);
      });

      test('an account may change itself; someone else’s needs an administrator (403)', async () => {
        const { token } = await api.login('user1', DEMO_USERS.user1.password);
        expect((await api.as({ bearer: token }).put('/user/user1', { phone: '999' })).body.phone).toBe('999');
        expectError(await api.as({ bearer: token }).put('/user/admin', { phone: '999' }), 403);
        expectError(await api.as({ none: true }).put('/user/user1', { phone: '1' }), 401);
      });

      test('400 for a body of the wrong shape or types (or nothing to change), 422 for values, 404 for none', async () => {
        expectError(await api.put('/user/frank', [1]), 400);
        expect(fields(expectError(await api.put('/user/frank', { phone: 5 }), 400))).toEqual(['phone']);
        expectError(await api.put('/user/frank', {}), 400);
        expectError(await api.put('/user/frank', { nickname: 'x' }), 400);
        expect(fields(expectError(await api.put('/user/frank', { email: 'nope' }), 422))).toEqual(['email']);
        expect(fields(expectError(await api.put('/user/frank', { password: '' }), 422))).toEqual(['password']);
        expect(expectError(await api.put('/user/frank', { username: 'francis' }), 422).errors[0].message).toContain('cannot be changed');
        expectError(await api.put('/user/nobody', { phone: '1' }), 404);
        expectError(await api.put('/user/bad%20name', { phone: '1' }), 400);
      });
    });

    describe('delete (DELETE /user/{username})', () => {
      test('permanent: the user, their keys and their sessions are gone', async () => {
        await api.post('/user', newUser('henry'));
        const key = sb.createKey('pro', 'henry');
        const { token } = await api.login('henry', 'pw-123456');
        const r = await api.delete('/user/henry');
        expect(r.status).toBe(200);
        expect(r.body.message).toBe('User henry deleted.');
        expectError(await api.get('/user/henry'), 404);
        expectError(await api.as({ apiKey: key }).get('/pet/1'), 401);
        expectError(await api.as({ bearer: token }).get('/pet/1'), 401);
        expectError(await api.delete('/user/henry'), 404);
      });

      test('403 for another account without administrator rights; 400 invalid name; 401 anonymous', async () => {
        expectError(await user1.delete('/user/admin'), 403);
        expectError(await api.delete('/user/bad%20name'), 400);
        expectError(await api.as({ none: true }).delete('/user/user1'), 401);
        await api.post('/user', newUser('ivy'));
        const { token } = await api.login('ivy', 'pw-123456');
        expect((await api.as({ bearer: token }).delete('/user/ivy')).status).toBe(200); // an account may delete itself
      });
    });
  }

  if (flavor === 'real') {
    describe('login and logout, as Petstore answers them', () => {
      test('always 200, whoever asks and with whatever password: Petstore\'s text, 5000 calls, an hour in Java\'s date form', async () => {
        const before = sb.clock.now();
        for (const [u, pw] of [['admin', 'wrong'], ['nobody', 'x']] as const) {
          const { token, reply } = await api.login(u, pw);
          expect(reply.status).toBe(200);
          expect(reply.type).toBe('application/json');
          expect(reply.text).toMatch(/^Logged in user session: \d{1,19}$/);
          expect(token).toMatch(/^\d+$/);
          expect(reply.headers.get('x-rate-limit')).toBe('5000');
          const expires = reply.headers.get('x-expires-after')!;
          expect(expires).toMatch(JAVA_DATE);
          expect(expires).toContain(' UTC ');
          expect(fromJavaDate(expires) - before).toBeGreaterThanOrEqual(3599_000);
          expect(fromJavaDate(expires) - before).toBeLessThanOrEqual(3601_000);
        }
        const bare = await api.as({ none: true }).get('/user/login');
        expect(bare.status).toBe(200);
        expect(bare.text).toMatch(/^Logged in user session: \d+$/);
      });

      test('the expiry is written in the server\'s time zone (the timeZone setting), as Java prints it', async () => {
        const at = Date.UTC(2026, 10, 20, 8, 12, 1); // a Friday in November: CET, PST
        sb.clock.set(at - 3_600_000 - Date.now());
        try {
          for (const [zone, text] of [
            ['UTC', 'Fri Nov 20 08:12:01 UTC 2026'],
            ['Europe/Berlin', 'Fri Nov 20 09:12:01 CET 2026'],
            ['America/Los_Angeles', 'Fri Nov 20 00:12:01 PST 2026'],
            ['Asia/Kolkata', 'Fri Nov 20 13:42:01 GMT+05:30 2026'],
          ] as const) {
            sb.settings.timeZone = zone;
            expect((await api.login('admin', 'x')).reply.headers.get('x-expires-after'), zone).toBe(text);
          }
          sb.clock.set(Date.UTC(2026, 6, 3, 8, 12, 1) - 3_600_000 - Date.now()); // July: daylight time
          sb.settings.timeZone = 'Europe/Berlin';
          expect((await api.login('admin', 'x')).reply.headers.get('x-expires-after')).toBe('Fri Jul 03 10:12:01 CEST 2026');
        } finally {
          sb.settings.timeZone = 'UTC';
          sb.clock.set(0);
        }
      });

      test('logout: always 200 "User logged out"; a token is never asked for, before or after', async () => {
        const { token } = await api.login('user1', 'anything');
        const r = await api.as({ bearer: token }).get('/user/logout');
        expect(r.status).toBe(200);
        expect(r.text).toBe('User logged out');
        expect((await api.as({ bearer: token }).get('/pet/1')).status).toBe(200);
        expect((await api.as({ bearer: 'never-issued' }).get('/user/admin')).status).toBe(200);
      });
    });

    describe('users: nothing checked, the password sent back', () => {
      test('GET answers the whole record, password included; names are compared exactly', async () => {
        const r = await user1.get('/user/admin');
        expect(r.body).toEqual({ id: 1, username: 'admin', firstName: 'Ada', lastName: 'Admin', email: 'admin@example.test', password: DEMO_USERS.admin.password, phone: '+1 555 0100', userStatus: 1 });
        const none = await api.get('/user/ADMIN');
        expect(none.status).toBe(404);
        expect(none.text).toBe('User not found');
      });

      test('POST /user by anyone, as sent (no id made up, a name taken replaces that user); a list one by one', async () => {
        const r = await api.as({ none: true }).post('/user', { username: 'alice', email: 'not-an-email' });
        expect(r.body).toEqual({ id: 0, username: 'alice', email: 'not-an-email', userStatus: 0 });
        await api.post('/user', { username: 'alice', firstName: 'Second' });
        expect((await api.get('/user/alice')).body).toEqual({ id: 0, username: 'alice', firstName: 'Second', userStatus: 0 });
        const list = await api.post('/user/createWithList', [{ username: 'list1' }, { username: 'list2', password: 'pw' }]);
        expect(list.body).toEqual([
          { id: 0, username: 'list1', userStatus: 0 },
          { id: 0, username: 'list2', password: 'pw', userStatus: 0 },
        ]);
        const empty = await api.post('/user/createWithList', []);
        expect(empty.status).toBe(400);
        expect(empty.text).toBe('No User provided. Try again?');
        // not all or nothing: a null item throws after the ones before it were added
        expectInternalError(await api.post('/user/createWithList', [{ username: 'list3' }, null]));
        expect((await api.get('/user/list3')).status).toBe(200);
      });

      test('PUT replaces the whole user with the body as sent: every field left out is gone', async () => {
        await api.post('/user', { id: 31, username: 'frank', firstName: 'Frank', lastName: 'Old', email: 'frank@example.test', password: 'pw', phone: '111', userStatus: 1 });
        const r = await api.put('/user/frank', { username: 'frank', lastName: 'New' });
        expect(r.status, r.text).toBe(200);
        expect(r.body).toEqual({ id: 0, username: 'frank', lastName: 'New', userStatus: 0 });
        expect((await api.get('/user/frank')).body).toEqual(r.body);
        const none = await api.put('/user/nobody', { username: 'nobody' });
        expect(none.status).toBe(404);
        expect(none.text).toBe('User not found');
      });

      test('DELETE answers 200 with an empty body whether or not there was such a user', async () => {
        await api.post('/user', { username: 'henry' });
        for (let i = 0; i < 2; i++) {
          const r = await api.delete('/user/henry');
          expect(r.status).toBe(200);
          expect(r.text).toBe('');
        }
        expect((await api.get('/user/henry')).status).toBe(404);
      });
    });
  }
});

describe('real flavour: PUT /user/{username} with a body that has no username', () => {
  let sb: StoreSandbox;
  let api: StoreClient;
  beforeAll(async () => {
    sb = await startStoreSandbox({ flavor: 'real' });
    api = new StoreClient(sb);
  });
  afterAll(() => sb.close());

  test('the user is replaced by one without username; then every walk of the user list that reaches it is a 500', async () => {
    const r = await api.put('/user/admin', { email: 'new@example.test' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ id: 0, email: 'new@example.test', userStatus: 0 }); // no username in the answer
    expect(sb.data.users().map((u) => u.username)).toEqual(['user1', null]);
    expect((await api.get('/user/admin')).status).toBe(500); // admin is gone; the walk reaches the broken record
    expect((await api.get('/user/user1')).status).toBe(200); // found before it
    expectInternalError(await api.get('/user/nobody'));
    expectInternalError(await api.post('/user', { username: 'newcomer' }));
    expectInternalError(await api.delete('/user/user1'));
    expectInternalError(await api.put('/user/user1', { username: 'user1', email: 'u@example.test' }));
    expect((await api.get('/user/user1')).body).toMatchObject({ username: 'user1', firstName: 'Uma' }); // nothing changed
    expect((await api.get('/user/login?username=a&password=b')).status).toBe(200); // logins never touch the list
  });
});
