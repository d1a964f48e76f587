/**
 * The mailer's lists, tags, suppressions and erasure over real HTTP, both flavours (document 2
 * "Lists and tags", "Suppressions", "Reports and erasure"; docs/mailer-audience.md): lists with
 * their counts, an immutable code, one default, never deleted, a From of their own; tags with
 * normalised codes, an existing one answered rather than refused, a delete that takes it off
 * everybody; suppressions by reason, added as manual or invalid, removed by the SHA-256 of the
 * lower-cased address, listed by hash and never by address; and an erasure that answers
 * `{erased, counts}` without the address and leaves nothing of it anywhere in the sandbox's data
 * folder but a suppression's hash.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailHash } from '../sandbox/cms/mailer/schema';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { data, expectCode, mailerPaths, pageOf, type MailerPaths } from '../support/mailer';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe.each(flavors)('%s flavour', (flavor) => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const sql = <T = any>(query: string, ...args: unknown[]) => sb.mailer.store.db.prepare(query).get(...args) as T;
  const count = (query: string, ...args: unknown[]) => sql<{ n: number }>(query, ...args).n;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 3000 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  describe('lists', () => {
    test('the seed’s four, in position order, with their counts and settings', async () => {
      const lists = data(await api.get(m.p('/lists'))) as Json[];
      expect(lists.map((l) => l.code)).toEqual(['newsletter', 'product-updates', 'events', 'partners']);
      for (const l of lists) {
        const by = (s: string) => count('SELECT count(*) AS n FROM memberships WHERE list_id = ? AND status = ?', l.id, s);
        expect(l).toMatchObject({ subscribed_count: by('subscribed'), pending_count: by('pending'), unsubscribed_count: by('unsubscribed'), created_at: expect.any(Number), updated_at: expect.any(Number) });
      }
      expect(lists[0]).toMatchObject({ name: 'Newsletter', double_opt_in: true, public: true, is_default: true, position: 1, from_name: null, from_email: null });
      expect(lists[2]).toMatchObject({ code: 'events', double_opt_in: true, from_name: 'Events team', from_email: 'events@site.example' });
      expect(lists[3]).toMatchObject({ public: false, is_default: false });
      expect(lists.filter((l) => l.is_default)).toHaveLength(1);
    });

    test('create: a code that names it for good, defaults, a From override; the default flag moves', async () => {
      const r = await api.post(m.p('/lists'), { code: 'book_club', name: 'Book club', from_name: 'The librarians', from_email: 'Books@Site.example' });
      const l = data(r, 201);
      expect(r.headers.get('location')).toBe(`${sb.prefix}${m.base}/lists/${l.id}`);
      expect(l).toMatchObject({ code: 'book_club', name: 'Book club', description: null, double_opt_in: true, public: false, is_default: false, position: 5, from_name: 'The librarians', from_email: 'books@site.example', subscribed_count: 0 });
      const d = data(await api.post(m.p('/lists'), { code: 'vip-list', name: 'VIP', is_default: true, double_opt_in: false, public: true, position: 0 }), 201);
      const all = data(await api.get(m.p('/lists'))) as Json[];
      expect(all[0]).toMatchObject({ id: d.id, position: 0, is_default: true });
      expect(all.filter((x) => x.is_default).map((x) => x.id)).toEqual([d.id]);
      expectCode(await api.post(m.p('/lists'), { code: 'book_club', name: 'Again' }), 409, 'list_code_taken');
      for (const code of ['Book Club', 'with space', '-dash-first', '', 'x'.repeat(65)]) expectCode(await api.post(m.p('/lists'), { code, name: 'Bad' }), 422, 'list_code_invalid');
      expectCode(await api.post(m.p('/lists'), { code: 'no-name' }), 422);
      expectCode(await api.post(m.p('/lists'), { code: 'bad-from', name: 'Bad', from_email: 'nope' }), 422, 'invalid_email');
      expectCode(await api.post(m.p('/lists'), { code: 'bad-flag', name: 'Bad', public: 'yes' }), 422);
      // put the default back where it was
      data(await api.patch(m.p('/lists/1'), { is_default: true }));
    });

    test('edit: every field but the code (the same code is fine); one list stays the default; never deleted', async () => {
      const l = data(await api.patch(m.p('/lists/2'), { code: 'product-updates', name: 'Product news', description: null, from_name: 'Product team', from_email: 'product@site.example', double_opt_in: true, position: 9 }));
      expect(l).toMatchObject({ id: 2, code: 'product-updates', name: 'Product news', description: null, from_name: 'Product team', from_email: 'product@site.example', double_opt_in: true, position: 9 });
      expect(l.updated_at).toBeGreaterThanOrEqual(sb.clock.nowSec() - 2);
      const refused = expectCode(await api.patch(m.p('/lists/2'), { code: 'product-news' }), 422, 'list_code_immutable');
      expect(refused.detail).toContain('new list');
      expect(refused.errors).toEqual([{ field: 'code', message: refused.detail }]);
      expect(data(await api.patch(m.p('/lists/2'), { from_name: null, from_email: null }))).toMatchObject({ from_name: null, from_email: null });
      expectCode(await api.patch(m.p('/lists/1'), { is_default: false }), 409, 'default_list_required');
      expectCode(await api.patch(m.p('/lists/999'), { name: 'x' }), 404, 'not_found');
      const del = await api.delete(m.p('/lists/3'));
      expect(expectCode(del, 405, 'lists_not_deletable').detail).toContain('public: false');
      expect(del.headers.get('allow')).toBe('GET, PATCH');
      expect(data(await api.get(m.p('/lists'))).some((x: Json) => x.id === 3)).toBe(true);
    });
  });

  describe('tags', () => {
    test('every tag with how many carry it; codes normalised; an existing tag answered, not refused', async () => {
      const tags = data(await api.get(m.p('/tags'))) as Json[];
      expect(tags.map((t) => t.code)).toEqual([...tags.map((t) => t.code)].sort());
      for (const t of tags) expect(t.count).toBe(count('SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = ?', t.id));
      const made = await api.post(m.p('/tags'), { label: '  Early Access Program ' });
      const t = data(made, 201);
      expect(t).toMatchObject({ code: 'early-access-program', label: 'Early Access Program', count: 0 });
      for (const body of [{ code: 'early_access program' }, { label: 'EARLY ACCESS   PROGRAM' }, { code: 'Early-Access--Program!' }]) {
        expect(data(await api.post(m.p('/tags'), body), 200)).toMatchObject({ id: t.id, code: 'early-access-program', label: 'Early Access Program' });
      }
      expect(data(await api.post(m.p('/tags'), { code: 'spring_fair' }), 201)).toMatchObject({ code: 'spring-fair', label: 'Spring fair' });
      const existing = data(await api.post(m.p('/tags'), { code: 'vip' }), 200);
      expect(existing.count).toBe(count('SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = ?', existing.id));
      expectCode(await api.post(m.p('/tags'), { label: '!!!' }), 422, 'tag_invalid');
      expectCode(await api.post(m.p('/tags'), {}), 422, 'tag_invalid');
    });

    test('delete takes the tag off everybody and says how many', async () => {
      const id = 2; // customer
      const carriers = count('SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = ?', id);
      expect(carriers).toBeGreaterThan(0);
      expect(data(await api.delete(m.p(`/tags/${id}`)))).toEqual({ removed_from: carriers });
      expect(count('SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = ?', id)).toBe(0);
      expect(data(await api.get(m.p('/tags'))).some((t: Json) => t.id === id)).toBe(false);
      expectCode(await api.get(m.p('/subscribers?tag=customer')), 422, 'unknown_tag');
      expectCode(await api.delete(m.p(`/tags/${id}`)), 404);
    });
  });

  describe('suppressions', () => {
    test('listed newest first by hash with a masked hint, by reason, paged; never by address', async () => {
      const r = await api.get(m.p('/suppressions?per_page=500'));
      const rows = data(r) as Json[];
      expect(pageOf(r)).toMatchObject({ per_page: 200, total: count('SELECT count(*) AS n FROM suppressions') });
      expect(rows.map((x) => x.created_at)).toEqual([...rows.map((x) => x.created_at)].sort((a, b) => b - a));
      for (const row of rows) {
        expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
        expect(['hard_bounce', 'complaint', 'manual', 'invalid']).toContain(row.reason);
        if (row.email_masked !== null) expect(row.email_masked).toMatch(/^.\*\*\*@/);
      }
      // a suppressed subscriber is linked by id; their address is not in the listing
      const linked = rows.find((x) => x.subscriber_id !== null)!;
      const email = sql<Json>('SELECT email FROM subscribers WHERE id = ?', linked.subscriber_id).email;
      expect(emailHash(email)).toBe(linked.hash);
      expect(r.text).not.toContain(email);
      for (const reason of ['hard_bounce', 'complaint', 'manual', 'invalid']) {
        const byReason = await api.get(m.p(`/suppressions?reason=${reason}`));
        expect(pageOf(byReason).total, reason).toBe(count('SELECT count(*) AS n FROM suppressions WHERE reason = ?', reason));
        for (const row of data(byReason) as Json[]) expect(row.reason).toBe(reason);
      }
      // the seed's erased one: only its hash
      expect(rows.some((x) => x.erased && x.email_masked === null) || (data(await api.get(m.p('/suppressions?reason=complaint&per_page=200'))) as Json[]).some((x) => x.erased)).toBe(true);
      expectCode(await api.get(m.p('/suppressions?reason=spam')), 422, 'filter_invalid');
    });

    test('add: manual by default, or invalid; an existing one answered as it is; bounces and complaints are not added by hand', async () => {
      const r = await api.post(m.p('/suppressions'), { email: 'Do.Not.Mail@Example.com', note: 'Asked at the counter' });
      const s = data(r, 201);
      expect(s).toEqual({ hash: emailHash('do.not.mail@example.com'), reason: 'manual', note: 'Asked at the counter', email_masked: 'd***@example.com', erased: false, subscriber_id: null, created_at: expect.any(Number) });
      expect(r.text).not.toContain('do.not.mail');
      expect(r.headers.get('location')).toBe(`${sb.prefix}${m.base}/suppressions/${s.hash}`);
      expect(data(await api.post(m.p('/suppressions'), { email: 'do.not.mail@example.com', reason: 'invalid' }), 200)).toEqual(s);
      expect(data(await api.post(m.p('/suppressions'), { email: 'typo@exampel.con', reason: 'invalid' }), 201).reason).toBe('invalid');
      for (const reason of ['hard_bounce', 'complaint']) expect(expectCode(await api.post(m.p('/suppressions'), { email: 'x@example.com', reason }), 422, 'reason_not_allowed').detail).toContain('provider');
      expectCode(await api.post(m.p('/suppressions'), { email: 'x@example.com', reason: 'spite' }), 422, 'reason_not_allowed');
      expectCode(await api.post(m.p('/suppressions'), { email: 'not-an-address' }), 422, 'invalid_email');
      // a subscriber's address: they show as suppressed, their lists as they were
      const sub = sql<Json>("SELECT id, email FROM subscribers WHERE status = 'subscribed' AND suppressed = 0 LIMIT 1");
      const lists = data(await api.get(m.p(`/subscribers/${sub.id}`))).lists;
      expect(data(await api.post(m.p('/suppressions'), { email: sub.email }), 201).subscriber_id).toBe(sub.id);
      expect(data(await api.get(m.p(`/subscribers/${sub.id}`)))).toMatchObject({ suppressed: true, status: 'subscribed', lists, suppression: { reason: 'manual' } });
    });

    test('remove by the SHA-256 of the lower-cased address: 204, nobody resubscribed; unknown 404; not a hash 422', async () => {
      const sub = sql<Json>("SELECT id, email FROM subscribers WHERE status = 'unsubscribed' AND suppressed = 0 LIMIT 1");
      data(await api.post(m.p('/suppressions'), { email: sub.email }), 201);
      const hash = emailHash(sub.email.toUpperCase());
      expect((await api.delete(m.p(`/suppressions/${hash.toUpperCase()}`))).status).toBe(204);
      expect(data(await api.get(m.p(`/subscribers/${sub.id}`)))).toMatchObject({ suppressed: false, status: 'unsubscribed', suppression: null });
      expectCode(await api.delete(m.p(`/suppressions/${hash}`)), 404, 'not_found');
      expectCode(await api.delete(m.p('/suppressions/abc')), 422, 'hash_invalid');
    });
  });

  describe('erasure', () => {
    test('forgets one address everywhere but a suppression’s hash, answers the counts and never the address', async () => {
      // somebody with everything: lists, tags, sends and clicks from the seed; an invitation in the
      // message log; then a bounce (suppression and a provider report)
      const s = sql<Json>("SELECT s.id, s.email FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM clicks c WHERE c.subscriber_id = s.id) AND EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id) AND NOT EXISTS (SELECT 1 FROM memberships x WHERE x.subscriber_id = s.id AND x.list_id = 3) LIMIT 1");
      data(await api.post(m.p('/subscribers/bulk'), { action: 'add_to_list', ids: [s.id], list_id: 3, mode: 'invite' }));
      sb.mailer.audience.act({ action: 'bounce', subscriber_id: s.id });
      const hash = emailHash(s.email);
      const expected = {
        subscribers: 1,
        memberships: count('SELECT count(*) AS n FROM memberships WHERE subscriber_id = ?', s.id),
        tags: count('SELECT count(*) AS n FROM subscriber_tags WHERE subscriber_id = ?', s.id),
        sends: count('SELECT count(*) AS n FROM sends WHERE subscriber_id = ?', s.id),
        clicks: count('SELECT count(*) AS n FROM clicks WHERE subscriber_id = ?', s.id),
        suppressions: 1,
        enrolments: count('SELECT count(*) AS n FROM enrolments WHERE subscriber_id = ?', s.id),
        consent: count('SELECT count(*) AS n FROM consent WHERE subscriber_id = ?', s.id),
        events: count('SELECT count(*) AS n FROM events WHERE email_hash = ?', hash),
        messages: count('SELECT count(*) AS n FROM messages WHERE email = ?', s.email),
      };
      expect(expected.messages).toBe(1);
      expect(expected.events).toBe(1);
      expect(expected.clicks).toBeGreaterThan(0);
      const r = await api.post(m.p('/erase'), { email: s.email.toUpperCase() });
      expect(data(r)).toEqual({ erased: true, counts: expected });
      expect(r.text).not.toContain(s.email);
      expect(r.text).not.toContain(hash);

      // nothing left but the suppression's hash
      expectCode(await api.get(m.p(`/subscribers/${s.id}`)), 404);
      expect(pageOf(await api.get(m.p(`/subscribers?q=${encodeURIComponent(s.email)}`))).total).toBe(0);
      expect(sql('SELECT * FROM suppressions WHERE hash = ?', hash)).toMatchObject({ erased: 1, email_masked: null, reason: 'hard_bounce' });
      const listed = (data(await api.get(m.p('/suppressions?reason=hard_bounce&per_page=200'))) as Json[]).find((x) => x.hash === hash);
      expect(listed).toMatchObject({ erased: true, email_masked: null, subscriber_id: null });
      // … which still keeps the address from being mailed
      expectCode(await api.post(m.p('/subscribers'), { email: s.email, mode: 'invite' }), 409, 'suppressed');

      // and not a byte of the address in any file of the sandbox's data folder
      const needle = Buffer.from(s.email);
      const local = Buffer.from(s.email.split('@')[0]!);
      for (const file of filesUnder(sb.dataDir)) {
        const bytes = readFileSync(file);
        expect(bytes.includes(needle), file).toBe(false);
        expect(bytes.includes(local), file).toBe(false);
      }

      // again: nothing held, nothing counted
      expect(data(await api.post(m.p('/erase'), { email: s.email }))).toEqual({ erased: false, counts: { subscribers: 0, memberships: 0, tags: 0, sends: 0, clicks: 0, suppressions: 0, enrolments: 0, consent: 0, events: 0, messages: 0 } });
      expectCode(await api.post(m.p('/erase'), {}), 422, 'invalid_email');
      expectCode(await api.post(m.p('/erase'), { email: 'nope' }), 422, 'invalid_email');
    });

    test('an address held only in the message log and a suppression is forgotten too', async () => {
      const id = data(await api.post(m.p('/subscribers'), { email: 'only.once@example.com', mode: 'invite' }), 201).subscriber_id;
      // deleted (the message log stays, as the real plugin's delete leaves it), then suppressed
      expect((await api.delete(m.p(`/subscribers/${id}`))).status).toBe(204);
      expect(count('SELECT count(*) AS n FROM messages WHERE email = ?', 'only.once@example.com')).toBe(1);
      data(await api.post(m.p('/suppressions'), { email: 'only.once@example.com' }), 201);
      expect(data(await api.post(m.p('/erase'), { email: 'only.once@example.com' }))).toEqual({
        erased: true,
        counts: { subscribers: 0, memberships: 0, tags: 0, sends: 0, clicks: 0, suppressions: 1, enrolments: 0, consent: 0, events: 0, messages: 1 },
      });
      expect(count('SELECT count(*) AS n FROM messages WHERE email = ?', 'only.once@example.com')).toBe(0);
    });
  });
});
