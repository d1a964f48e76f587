/**
 * The mailer's subscribers over real HTTP, both flavours (document 2 "Subscribers";
 * docs/mailer-audience.md "Subscribers", "Exports", "The never-echo rule"), on the default seed of
 * 20,000 people: the table with every filter (checked against the store's own tables), status
 * counts of the whole table and list counts, paging capped at 200, times in epoch seconds; the add
 * with its four outcomes, `mode`, the required note and its refusals; one person's record; the edit
 * rules; delete keeping the suppression; unsubscribe, resubscribe and confirm; the export of one
 * person and of the table as CSV; and no address echoed where the caller did not already have it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailHash } from '../sandbox/cms/mailer/schema';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { data, expectCode, mailerPaths, pageOf, type MailerPaths } from '../support/mailer';

const STATUSES = ['pending', 'subscribed', 'unsubscribed', 'bounced', 'complained'];

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const sql = <T = any>(query: string, ...args: unknown[]) => sb.mailer.store.db.prepare(query).get(...args) as T;
  const count = (query: string, ...args: unknown[]) => sql<{ n: number }>(query, ...args).n;
  const nowSec = () => sb.clock.nowSec();

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty' });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  const get = (path: string) => api.get(m.p(path));
  const add = (body: Json) => api.post(m.p('/subscribers'), body);

  describe('the table', () => {
    test('newest first, 50 a page by default, at most 200, times in epoch seconds; the 20,000 of the seed', async () => {
      const r = await get('/subscribers');
      const rows = data(r) as Json[];
      expect(rows).toHaveLength(50);
      expect(pageOf(r)).toMatchObject({ page: 1, per_page: 50, total: count('SELECT count(*) AS n FROM subscribers') });
      expect(pageOf(r).total).toBeGreaterThanOrEqual(20_000);
      expect(rows.map((x) => x.id)).toEqual([...rows.map((x) => x.id)].sort((a, b) => b - a));
      for (const row of rows) {
        expect(Number.isInteger(row.created_at)).toBe(true);
        expect(row.created_at).toBeLessThanOrEqual(nowSec() + 1);
        expect(row.created_at).toBeGreaterThan(nowSec() - 4 * 365 * 86_400);
        expect(row).toMatchObject({ id: expect.any(Number), email: expect.stringContaining('@'), status: expect.any(String), source: expect.any(String), suppressed: expect.any(Boolean), lists: expect.any(Array), tags: expect.any(Array) });
      }
      const big = await get('/subscribers?per_page=500&page=3');
      expect(data(big)).toHaveLength(200);
      expect(pageOf(big)).toMatchObject({ page: 3, per_page: 200 });
      expect(big.body.links.next).toBe(`${sb.prefix}${m.base}/subscribers?page=4&per_page=200`);
      // nonsense: the documents' defaults (spec); PHP's reading of numbers, clamped (real)
      const odd = await get('/subscribers?per_page=abc&page=-2');
      expect(pageOf(odd)).toMatchObject({ page: 1, per_page: real ? 1 : 50 });
      if (!real) expect(big.body.meta).toMatchObject({ total: pageOf(big).total, page: 3, per_page: 200 });
      else expect(big.body.meta.total).toBeUndefined();
    });

    test('status counts cover the whole table whatever the filters; list counts come with a list', async () => {
      const whole = Object.fromEntries(STATUSES.map((s) => [s, count('SELECT count(*) AS n FROM subscribers WHERE status = ?', s)]));
      for (const path of ['/subscribers', '/subscribers?status=bounced', '/subscribers?q=zz-nobody-zz&list=2']) {
        expect((await get(path)).body.meta.status_counts).toEqual(whole);
      }
      expect((await get('/subscribers')).body.meta.list_counts).toBeUndefined();
      const lc = (await get('/subscribers?list=3&status=subscribed')).body.meta.list_counts;
      const by = (s: string) => count('SELECT count(*) AS n FROM memberships WHERE list_id = 3 AND status = ?', s);
      expect(lc).toEqual({ pending: by('pending'), subscribed: by('subscribed'), unsubscribed: by('unsubscribed'), total: by('pending') + by('subscribed') + by('unsubscribed') });
      expect(lc.subscribed).toBeGreaterThan(0);
    });

    test('every filter narrows as the store says, each row matching it', async () => {
      const checks: [string, string, (row: Json) => boolean][] = [
        ['status=pending', "SELECT count(*) AS n FROM subscribers WHERE status = 'pending'", (r) => r.status === 'pending'],
        ['source=import', "SELECT count(*) AS n FROM subscribers WHERE source = 'import'", (r) => r.source === 'import'],
        ['list=2', 'SELECT count(*) AS n FROM memberships WHERE list_id = 2', (r) => r.lists.some((l: Json) => l.id === 2)],
        ['list=1&list_status=pending', "SELECT count(*) AS n FROM memberships WHERE list_id = 1 AND status = 'pending'", (r) => r.lists.some((l: Json) => l.id === 1 && l.status === 'pending')],
        ['list=2&list_status=unsubscribed', "SELECT count(*) AS n FROM memberships WHERE list_id = 2 AND status = 'unsubscribed'", (r) => r.lists.some((l: Json) => l.id === 2 && l.status === 'unsubscribed')],
        ['list=3&list_status=any', 'SELECT count(*) AS n FROM memberships WHERE list_id = 3', (r) => r.lists.some((l: Json) => l.id === 3)],
        ['tag=1', 'SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = 1', (r) => r.tags.some((t: Json) => t.id === 1)],
        ['tag=customer', 'SELECT count(*) AS n FROM subscriber_tags WHERE tag_id = 2', (r) => r.tags.some((t: Json) => t.code === 'customer')],
        ['campaign_id=4', 'SELECT count(*) AS n FROM sends WHERE campaign_id = 4', () => true],
        ['campaign_id=4&campaign_received=no', 'SELECT count(*) AS n FROM subscribers s WHERE NOT EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = 4)', () => true],
        ['q=martin', "SELECT count(*) AS n FROM subscribers WHERE email LIKE '%martin%' OR lower(name) LIKE '%martin%'", (r) => `${r.email} ${r.name}`.toLowerCase().includes('martin')],
        ['q=@POST.example', "SELECT count(*) AS n FROM subscribers WHERE email LIKE '%@post.example%'", (r) => r.email.endsWith('@post.example')],
        ['status=subscribed&list=2&tag=2', "SELECT count(*) AS n FROM subscribers s WHERE status = 'subscribed' AND EXISTS (SELECT 1 FROM memberships m WHERE m.subscriber_id = s.id AND m.list_id = 2) AND EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_id = 2)", (r) => r.status === 'subscribed'],
      ];
      for (const [query, expected, each] of checks) {
        const r = await get(`/subscribers?${query}&per_page=200`);
        const total = count(expected);
        expect(pageOf(r).total, query).toBe(total);
        expect(total, query).toBeGreaterThan(0);
        for (const row of data(r) as Json[]) expect(each(row), `${query}: ${row.id}`).toBe(true);
      }
      // a campaign's reach and the rest make up the whole table
      const yes = pageOf(await get('/subscribers?campaign_id=1')).total;
      const no = pageOf(await get('/subscribers?campaign_id=1&campaign_received=no')).total;
      expect(yes + no).toBe(count('SELECT count(*) AS n FROM subscribers'));
    });

    test('a filter value not allowed is 422 saying what is', async () => {
      expect(expectCode(await get('/subscribers?status=gone'), 422, 'filter_invalid').detail).toContain('pending, subscribed, unsubscribed, bounced, complained');
      expectCode(await get('/subscribers?source=fax'), 422, 'filter_invalid');
      expectCode(await get('/subscribers?list=999'), 422, 'unknown_list');
      expectCode(await get('/subscribers?list_status=pending'), 422, 'filter_invalid');
      expectCode(await get('/subscribers?list=1&list_status=maybe'), 422, 'filter_invalid');
      expectCode(await get('/subscribers?tag=no-such-tag'), 422, 'unknown_tag');
      expectCode(await get('/subscribers?campaign_received=yes'), 422, 'filter_invalid');
      expectCode(await get('/subscribers?campaign_id=1&campaign_received=maybe'), 422, 'filter_invalid');
    });
  });

  describe('adding one person', () => {
    test('invite: waiting on the list, a confirmation email in the log, 201 with the record (its address lower-cased); again: already_invited, by id only', async () => {
      const r = await add({ email: '  Nova.Reader@Example.COM ', name: 'Nova Reader', list_id: 1, mode: 'invite', tags: ['Early Access', 'vip'], language: 'de' });
      const d = data(r, 201);
      expect(d).toMatchObject({ outcome: 'invited', list_id: 1, list_status: 'pending' });
      expect(r.headers.get('location')).toBe(`${sb.prefix}${m.base}/subscribers/${d.subscriber_id}`);
      expect(d.subscriber).toMatchObject({ id: d.subscriber_id, email: 'nova.reader@example.com', name: 'Nova Reader', status: 'pending', source: 'admin', language: 'de', consent_at: null });
      expect(d.subscriber.tags.map((t: Json) => t.code).sort()).toEqual(['early-access', 'vip']);
      expect(sb.mailer.store.messages(5).some((x) => x.subscriber_id === d.subscriber_id && x.kind === 'confirmation')).toBe(true);
      const again = await add({ email: 'nova.reader@example.com', name: 'Someone Else', mode: 'subscribed', note: 'Asked twice' });
      expect(data(again)).toEqual({ outcome: 'already_invited', subscriber_id: d.subscriber_id, list_id: 1, list_status: 'pending' });
      // the never-echo rule: an answer about somebody already here names them by id only
      expect(again.text).not.toContain('nova.reader');
      expect(again.text).not.toContain('Nova');
      expect(sql<Json>('SELECT name FROM subscribers WHERE id = ?', d.subscriber_id).name).toBe('Nova Reader');
    });

    test('subscribed needs a note saying where they agreed; with it: added; again: already_on', async () => {
      expectCode(await add({ email: 'orla@example.com', list_id: 2, mode: 'subscribed' }), 422, 'note_required');
      const d = data(await add({ email: 'orla@example.com', list_id: 2, mode: 'subscribed', note: 'Signed the paper form at the fair' }), 201);
      expect(d).toMatchObject({ outcome: 'added', list_status: 'subscribed' });
      expect(d.subscriber).toMatchObject({ status: 'subscribed', consent_at: expect.any(Number) });
      const log = data(await get(`/subscribers/${d.subscriber_id}`)).consent_log;
      expect(log[0]).toMatchObject({ action: 'added', list_id: 2, by: 'site', admin: 'admin', note: 'Signed the paper form at the fair' });
      const again = data(await add({ email: 'ORLA@example.com', list_id: 2, mode: 'invite' }));
      expect(again).toEqual({ outcome: 'already_on', subscriber_id: d.subscriber_id, list_id: 2, list_status: 'subscribed' });
    });

    test('without mode the list decides: invite where it asks people to confirm; added (with the note) where it does not', async () => {
      expect(data(await add({ email: 'pim@example.com', list_id: 1 }), 201).outcome).toBe('invited');
      const noNote = expectCode(await add({ email: 'pia@example.com', list_id: 2 }), 422, 'note_required');
      expect(noNote.detail).toContain('mode invite');
      expect(noNote.errors).toEqual([{ field: 'note', message: noNote.detail }]);
      expect(data(await add({ email: 'pia@example.com', list_id: 2, note: 'Wrote in on 3 May' }), 201).outcome).toBe('added');
      // no list_id: the default list
      expect(data(await add({ email: 'pax@example.com' }), 201).list_id).toBe(1);
      // someone already here joins another list: 200, added, by id only
      const other = await add({ email: 'pim@example.com', list_id: 2, note: 'Asked on the phone' });
      expect(data(other, 200)).toMatchObject({ outcome: 'added', list_id: 2, list_status: 'subscribed' });
      expect(data(other).subscriber).toBeUndefined();
    });

    test('refusals: not an address, an unknown list, a mode not known; a suppressed or bounced address; someone who left themselves', async () => {
      expectCode(await add({}), 422, 'invalid_email');
      expectCode(await add({ email: 'not an address' }), 422, 'invalid_email');
      expectCode(await add({ email: 'q@example.com', list_id: 99 }), 422, 'unknown_list');
      expectCode(await add({ email: 'q@example.com', mode: 'force' }), 422, 'invalid_mode');
      // suppressed: the address is never added, and the answer does not say it back
      data(await api.post(m.p('/suppressions'), { email: 'blocked.person@example.com', note: 'Asked in person' }), 201);
      const sup = await add({ email: 'blocked.person@example.com', mode: 'invite' });
      expect(expectCode(sup, 409, 'suppressed').detail).toContain('suppression');
      expect(sup.text).not.toContain('blocked.person');
      const bounced = sql<Json>("SELECT email FROM subscribers WHERE status = 'bounced' LIMIT 1");
      expectCode(await add({ email: bounced.email, mode: 'invite' }), 409, 'suppressed');
      // left one list themselves: not put back by an add; left every list: not added to any
      const leaver = data(await add({ email: 'leaver@example.com', list_id: 2, note: 'Form' }), 201).subscriber_id;
      await api.post(m.p('/subscribers/bulk'), { action: 'add_to_list', ids: [leaver], list_id: 3, mode: 'subscribed', note: 'Form' });
      sb.mailer.audience.act({ action: 'leave', subscriber_id: leaver, list_id: 2 });
      expect(expectCode(await add({ email: 'leaver@example.com', list_id: 2, note: 'x' }), 409, 'left_themselves').detail).toContain('resubscribe');
      sb.mailer.audience.act({ action: 'leave_all', subscriber_id: leaver });
      expectCode(await add({ email: 'leaver@example.com', list_id: 4, note: 'x' }), 409, 'left_themselves');
      // the site took them off (not their own hand): an add puts them back
      const taken = data(await add({ email: 'taken@example.com', list_id: 2, note: 'Form' }), 201).subscriber_id;
      data(await api.post(m.p(`/subscribers/${taken}/unsubscribe`)));
      expect(data(await add({ email: 'taken@example.com', list_id: 2, note: 'Asked again by email' }))).toMatchObject({ outcome: 'added', list_status: 'subscribed' });
    });
  });

  describe('one person', () => {
    test('consent, lists with where they stand, tags, import of origin, suppression, sends and the consent log, newest first', async () => {
      const id = sql<Json>("SELECT s.id FROM subscribers s WHERE s.source = 'import' AND s.status = 'subscribed' AND EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id) AND EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id) LIMIT 1").id;
      const d = data(await get(`/subscribers/${id}`));
      expect(d).toMatchObject({ id, source: 'import', suppressed: false, import_id: expect.any(Number), consent: { agreed_at: expect.any(Number), basis: expect.any(String) }, import: { id: d.import_id, file_name: expect.stringMatching(/\.csv$/), created_at: expect.any(Number) }, suppression: null });
      expect(d.lists.length).toBeGreaterThan(0);
      for (const l of d.lists) expect(l).toMatchObject({ id: expect.any(Number), code: expect.any(String), name: expect.any(String), status: expect.stringMatching(/^(pending|subscribed|unsubscribed)$/), since: expect.any(Number) });
      expect(d.sends_total).toBe(count('SELECT count(*) AS n FROM sends WHERE subscriber_id = ?', id));
      expect(d.sends[0]).toMatchObject({ campaign_id: expect.any(Number), campaign_name: expect.any(String), status: expect.any(String), sent_at: expect.any(Number) });
      expect(d.consent_log.length).toBeGreaterThan(0);
      expect(d.consent_log.map((e: Json) => e.at)).toEqual([...d.consent_log.map((e: Json) => e.at)].sort((a, b) => b - a));
      // a suppressed person says so
      const b = sql<Json>("SELECT id FROM subscribers WHERE status = 'bounced' LIMIT 1").id;
      expect(data(await get(`/subscribers/${b}`))).toMatchObject({ suppressed: true, status: 'bounced', suppression: { reason: 'hard_bounce', created_at: expect.any(Number) } });
      expectCode(await get('/subscribers/99999999'), 404, 'not_found');
      expectCode(await get('/subscribers/abc'), 404);
    });
  });

  describe('editing', () => {
    test('the address never changes; name and language as sent; tags replaced (new codes made)', async () => {
      const id = data(await add({ email: 'edit.me@example.com', list_id: 2, note: 'Form', tags: ['vip'] }), 201).subscriber_id;
      expectCode(await api.patch(m.p(`/subscribers/${id}`), { email: 'other@example.com' }), 422, 'address_immutable');
      const same = data(await api.patch(m.p(`/subscribers/${id}`), { email: 'EDIT.ME@example.com', name: 'Edith Me', language: 'fr', tags: ['Board Member', 'customer'] }));
      expect(same).toMatchObject({ id, email: 'edit.me@example.com', name: 'Edith Me', language: 'fr', kept_off: [] });
      expect(same.tags.map((t: Json) => t.code).sort()).toEqual(['board-member', 'customer']);
      expect(data(await api.patch(m.p(`/subscribers/${id}`), { language: null })).language).toBeNull();
      expectCode(await api.patch(m.p(`/subscribers/${id}`), { name: 42 }), 422);
      expectCode(await api.patch(m.p('/subscribers/99999999'), { name: 'x' }), 404, 'not_found');
    });

    test('only lists already held move: left out of `lists` is left (by the site); a list not held is not joined; one they left stays left', async () => {
      const id = data(await add({ email: 'lists.me@example.com', list_id: 2, note: 'Form' }), 201).subscriber_id;
      await api.post(m.p('/subscribers/bulk'), { action: 'add_to_list', ids: [id], list_id: 3, mode: 'subscribed', note: 'Form' });
      await api.post(m.p('/subscribers/bulk'), { action: 'add_to_list', ids: [id], list_id: 1, mode: 'subscribed', note: 'Form' });
      sb.mailer.audience.act({ action: 'leave', subscriber_id: id, list_id: 1 });
      const d = data(await api.patch(m.p(`/subscribers/${id}`), { lists: [2, 1, 4] }));
      const on = Object.fromEntries(d.lists.map((l: Json) => [l.id, [l.status, l.left_by]]));
      expect(on).toEqual({ 1: ['unsubscribed', 'self'], 2: ['subscribed', null], 3: ['unsubscribed', 'site'] });
      expect(d.kept_off).toEqual([
        { list_id: 1, reason: 'left_themselves' },
        { list_id: 4, reason: 'not_held' },
      ]);
      expect(d.status).toBe('subscribed');
      const log = data(await get(`/subscribers/${id}`)).consent_log;
      expect(log[0]).toMatchObject({ action: 'taken_off', list_id: 3, by: 'site', admin: 'admin' });
      // off the last one: off every list
      expect(data(await api.patch(m.p(`/subscribers/${id}`), { lists: [] })).status).toBe('unsubscribed');
      expectCode(await api.patch(m.p(`/subscribers/${id}`), { lists: [77] }), 422, 'unknown_list');
    });
  });

  describe('unsubscribe, resubscribe, confirm, delete', () => {
    test('unsubscribe: off every list, done by the site; again: nothing changes', async () => {
      const id = data(await add({ email: 'unsub@example.com', list_id: 2, note: 'Form' }), 201).subscriber_id;
      const r = data(await api.post(m.p(`/subscribers/${id}/unsubscribe`)));
      expect(r.changed).toBe(true);
      expect(r.subscriber).toMatchObject({ status: 'unsubscribed', unsubscribed_at: expect.any(Number), lists: [{ id: 2, status: 'unsubscribed', left_by: 'site' }] });
      expect(data(await api.post(m.p(`/subscribers/${id}/unsubscribe`))).changed).toBe(false);
      expectCode(await api.post(m.p('/subscribers/99999999/unsubscribe')), 404);
    });

    test('resubscribe: needs a note; the only way back for someone who left themselves; one list or every list left; refused while suppressed', async () => {
      const id = data(await add({ email: 'back@example.com', list_id: 2, note: 'Form' }), 201).subscriber_id;
      await api.post(m.p('/subscribers/bulk'), { action: 'add_to_list', ids: [id], list_id: 3, mode: 'subscribed', note: 'Form' });
      sb.mailer.audience.act({ action: 'leave_all', subscriber_id: id });
      expectCode(await api.post(m.p(`/subscribers/${id}/resubscribe`), {}), 422, 'note_required');
      const one = data(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'Emailed us on 2 June asking to be back on product news', list_id: 2 }));
      expect(one.subscriber.status).toBe('subscribed');
      expect(one.subscriber.lists.map((l: Json) => [l.id, l.status])).toEqual([
        [2, 'subscribed'],
        [3, 'unsubscribed'],
      ]);
      expectCode(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'Again', list_id: 2 }), 409, 'not_left');
      expectCode(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'Again', list_id: 1 }), 409, 'not_left');
      const all = data(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'And events too' }));
      expect(all.subscriber.lists.every((l: Json) => l.status === 'subscribed')).toBe(true);
      const log = data(await get(`/subscribers/${id}`)).consent_log;
      expect(log[0]).toMatchObject({ action: 'put_back', by: 'site', note: 'And events too' });
      // suppressed: refused until the suppression is removed
      data(await api.post(m.p(`/subscribers/${id}/unsubscribe`)));
      data(await api.post(m.p('/suppressions'), { email: 'back@example.com' }), 201);
      expectCode(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'x' }), 409, 'suppressed');
      expect((await api.delete(m.p(`/suppressions/${emailHash('back@example.com')}`))).status).toBe(204);
      expect(data(await api.post(m.p(`/subscribers/${id}/resubscribe`), { note: 'After the suppression was lifted' })).changed).toBe(true);
    });

    test('confirm: a waiting person becomes subscribed on every list waiting on them; anyone else 409', async () => {
      const id = data(await add({ email: 'waits@example.com', list_id: 1, mode: 'invite' }), 201).subscriber_id;
      const r = data(await api.post(m.p(`/subscribers/${id}/confirm`)));
      expect(r.subscriber).toMatchObject({ status: 'subscribed', confirmed_at: expect.any(Number), consent_at: expect.any(Number), lists: [{ id: 1, status: 'subscribed' }] });
      expect(data(await get(`/subscribers/${id}`)).consent_log[0]).toMatchObject({ action: 'confirmed_by_site', by: 'site', admin: 'admin' });
      expectCode(await api.post(m.p(`/subscribers/${id}/confirm`)), 409, 'not_pending');
      const p = sql<Json>("SELECT id, email FROM subscribers WHERE status = 'pending' AND suppressed = 0 LIMIT 1");
      data(await api.post(m.p('/suppressions'), { email: p.email }), 201);
      expectCode(await api.post(m.p(`/subscribers/${p.id}/confirm`)), 409, 'suppressed');
    });

    test('delete: the person and what hangs off them go; a suppression on the address stays', async () => {
      const id = data(await add({ email: 'gone.soon@example.com', list_id: 2, note: 'Form', tags: ['vip'] }), 201).subscriber_id;
      data(await api.post(m.p('/suppressions'), { email: 'gone.soon@example.com', note: 'Asked' }), 201);
      expect((await api.delete(m.p(`/subscribers/${id}`))).status).toBe(204);
      expectCode(await get(`/subscribers/${id}`), 404);
      for (const t of ['memberships', 'subscriber_tags', 'consent', 'sends']) expect(count(`SELECT count(*) AS n FROM ${t} WHERE subscriber_id = ?`, id), t).toBe(0);
      expect(count('SELECT count(*) AS n FROM suppressions WHERE hash = ?', emailHash('gone.soon@example.com'))).toBe(1);
      expectCode(await api.delete(m.p(`/subscribers/${id}`)), 404);
      // the address came back as a new person: suppressed from the start
      expectCode(await add({ email: 'gone.soon@example.com', mode: 'invite' }), 409, 'suppressed');
    });
  });

  describe('exports', () => {
    test('one person: everything held as one JSON document, named by id, without admin names or hashes', async () => {
      const id = sql<Json>("SELECT s.id FROM subscribers s WHERE s.source = 'admin' AND EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.clicked_at IS NOT NULL) LIMIT 1").id;
      const r = await get(`/subscribers/${id}/export`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-disposition')).toBe(`attachment; filename="subscriber-${id}-data.json"`);
      const doc = r.body;
      expect(doc.data).toBeUndefined();
      const s = sql<Json>('SELECT * FROM subscribers WHERE id = ?', id);
      expect(doc).toMatchObject({ exported_at: expect.any(Number), profile: { email: s.email, name: s.name, status: s.status, source: 'admin', consent: { agreed_at: s.consent_at, basis: s.consent_basis } } });
      expect(doc.sends).toHaveLength(count('SELECT count(*) AS n FROM sends WHERE subscriber_id = ?', id));
      expect(doc.clicks.length).toBeGreaterThan(0);
      expect(doc.consent_log.length).toBe(count('SELECT count(*) AS n FROM consent WHERE subscriber_id = ?', id));
      expect(doc.consent_log.map((e: Json) => e.at)).toEqual([...doc.consent_log.map((e: Json) => e.at)].sort((a, b) => a - b));
      for (const e of doc.consent_log) expect(e.admin).toBeUndefined();
      expect(Object.keys(doc).sort()).toEqual(['clicks', 'consent_log', 'exported_at', 'import', 'lists', 'messages', 'profile', 'provider_reports', 'sends', 'suppression', 'tags']);
      expect(r.text).not.toContain(s.email_hash);
      expectCode(await get('/subscribers/99999999/export'), 404);
    });

    test('the table as CSV: byte order mark, the ten columns, the same filters, ISO dates, formulas defused', async () => {
      data(await add({ email: 'formula@example.com', name: '=HYPERLINK("http://x")', list_id: 1, mode: 'invite', tags: ['vip'] }), 201).subscriber_id;
      const res = await fetch(`${sb.url}${m.p('/subscribers/export?tag=vip&status=pending')}`, { headers: { 'X-API-Key': sb.seeded!.adminApiKey! } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="subscribers.csv"');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1).trimEnd().split('\r\n');
      expect(lines[0]).toBe('email,name,status,lists,tags,source,consent_at,confirmed_at,unsubscribed_at,language');
      expect(lines.length - 1).toBe(pageOf(await get('/subscribers?tag=vip&status=pending')).total);
      const mine = lines.find((l) => l.startsWith('formula@example.com'))!;
      expect(mine).toBe(`formula@example.com,"'=HYPERLINK(""http://x"")",pending,newsletter (pending),vip,admin,,,,`);
      for (const line of lines.slice(1)) expect(line.split(',')[2]).toBe('pending');
      // times are ISO 8601 UTC in the file
      const confirmed = await fetch(`${sb.url}${m.p('/subscribers/export?status=subscribed&source=form&list=4')}`, { headers: { 'X-API-Key': sb.seeded!.adminApiKey! } });
      const row = (await confirmed.text()).split('\r\n')[1]!.split(',');
      expect(row[7]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    });
  });
});
