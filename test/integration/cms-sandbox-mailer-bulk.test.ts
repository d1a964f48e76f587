/**
 * The mailer's bulk actions over real HTTP, both flavours (document 2 `POST subscribers/bulk`;
 * docs/mailer-audience.md "Bulk"): each action over an id set, over a filter walked 500 at a time
 * (`next`/`max_id` until `finished`, newcomers left out) and, for add_to_list, over pasted
 * addresses; what was done counted by its word and who was left alone counted by reason; the
 * refusals (who named other than exactly once, too many, an empty filter without `all`), and
 * `confirm`, which the spec flavour adds to the real plugin's six.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { data, expectCode, mailerPaths, pageOf, type MailerPaths } from '../support/mailer';

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const ids = (query: string, ...args: unknown[]) => (sb.mailer.store.db.prepare(query).all(...args) as { id: number }[]).map((r) => r.id);
  const count = (query: string, ...args: unknown[]) => (sb.mailer.store.db.prepare(query).get(...args) as { n: number }).n;
  const bulk = (body: Json) => api.post(m.p('/subscribers/bulk'), body);

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 2600 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  test('add_to_list over ids: added or invited by mode; suppressed, left, already there and gone ids left alone, by reason', async () => {
    const fresh = ids("SELECT s.id FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND NOT EXISTS (SELECT 1 FROM memberships x WHERE x.subscriber_id = s.id AND x.list_id = 4) ORDER BY s.id LIMIT 5");
    const onIt = ids("SELECT subscriber_id AS id FROM memberships WHERE list_id = 4 AND status = 'subscribed' LIMIT 2");
    const bounced = ids("SELECT id FROM subscribers WHERE status = 'bounced' LIMIT 2");
    const leftAll = ids("SELECT id FROM subscribers WHERE status = 'unsubscribed' AND left_by = 'self' AND suppressed = 0 AND id NOT IN (SELECT subscriber_id FROM memberships WHERE list_id = 4) LIMIT 1");
    const r = data(await bulk({ action: 'add_to_list', list_id: 4, mode: 'subscribed', note: 'Ticked the partner box at checkout', ids: [...fresh, ...onIt, ...bounced, ...leftAll, 99999999, fresh[0]] }));
    expect(r).toEqual({
      action: 'add_to_list',
      target: 'ids',
      processed: 11,
      done: { added: 5 },
      skipped: { already_on: 2, suppressed: 2, left_every_list: 1, gone: 1 },
      finished: true,
      next: null,
      max_id: null,
      total: 11,
      remaining: 0,
    });
    for (const id of fresh) expect(count("SELECT count(*) AS n FROM memberships WHERE subscriber_id = ? AND list_id = 4 AND status = 'subscribed'", id)).toBe(1);
    // invite to a list that asks people to confirm: waiting, one confirmation each; again: already invited
    const two = fresh.slice(0, 2);
    const invited = data(await bulk({ action: 'add_to_list', list_id: 3, mode: 'invite', ids: two }));
    expect(invited.done).toEqual({ invited: two.filter((id) => count('SELECT count(*) AS n FROM memberships WHERE subscriber_id = ? AND list_id = 3 AND status = \'pending\'', id) === 1).length });
    expect(invited.done.invited).toBeGreaterThan(0);
    expect(data(await bulk({ action: 'add_to_list', list_id: 3, mode: 'invite', ids: two })).skipped.already_invited).toBe(invited.done.invited);
    // someone who left this one list themselves
    const leftOne = ids("SELECT subscriber_id AS id FROM memberships WHERE list_id = 2 AND status = 'unsubscribed' AND left_by = 'self' AND subscriber_id IN (SELECT id FROM subscribers WHERE status = 'subscribed' AND suppressed = 0) LIMIT 1");
    expect(data(await bulk({ action: 'add_to_list', list_id: 2, mode: 'subscribed', note: 'x', ids: leftOne })).skipped).toEqual({ left_this_list: 1 });
    expectCode(await bulk({ action: 'add_to_list', list_id: 2, mode: 'subscribed', ids: fresh }), 422, 'note_required');
    expectCode(await bulk({ action: 'add_to_list', ids: fresh }), 422, 'unknown_list');
  });

  test('remove_from_list, add_tag (a new tag made), remove_tag, unsubscribe, delete over ids', async () => {
    const people = ids("SELECT subscriber_id AS id FROM memberships WHERE list_id = 2 AND status = 'subscribed' AND subscriber_id IN (SELECT id FROM subscribers WHERE suppressed = 0) ORDER BY subscriber_id LIMIT 4");
    const notOn = ids("SELECT s.id FROM subscribers s WHERE NOT EXISTS (SELECT 1 FROM memberships x WHERE x.subscriber_id = s.id AND x.list_id = 2) LIMIT 1");
    expect(data(await bulk({ action: 'remove_from_list', list_id: 2, ids: [...people, ...notOn] }))).toMatchObject({ done: { removed: 4 }, skipped: { not_on_list: 1 } });
    for (const id of people) expect(count("SELECT count(*) AS n FROM memberships WHERE subscriber_id = ? AND list_id = 2 AND status = 'unsubscribed' AND left_by = 'site'", id)).toBe(1);

    const tagged = data(await bulk({ action: 'add_tag', tag: 'Spring Fair 2025', ids: people }));
    expect(tagged.done).toEqual({ tagged: 4 });
    const tag = data(await api.get(m.p('/tags'))).find((t: Json) => t.code === 'spring-fair-2025');
    expect(tag).toMatchObject({ label: 'Spring Fair 2025', count: 4 });
    expect(data(await bulk({ action: 'add_tag', tag: 'spring_fair_2025', ids: people.slice(0, 2) })).skipped).toEqual({ already_tagged: 2 });
    expect(data(await bulk({ action: 'remove_tag', tag_id: tag.id, ids: [...people.slice(0, 3), ...notOn] }))).toMatchObject({ done: { untagged: 3 }, skipped: { without_tag: 1 } });
    expectCode(await bulk({ action: 'remove_tag', tag_id: 99999, ids: people }), 422, 'unknown_tag');
    expectCode(await bulk({ action: 'add_tag', tag: '***', ids: people }), 422, 'unknown_tag');

    const off = data(await bulk({ action: 'unsubscribe', ids: people }));
    expect(off.done).toEqual({ unsubscribed: 4 });
    expect(data(await bulk({ action: 'unsubscribe', ids: people })).skipped).toEqual({ already_off: 4 });
    expect(data(await bulk({ action: 'delete', ids: [...people, 99999999] }))).toMatchObject({ done: { deleted: 4 }, skipped: { gone: 1 } });
    for (const id of people) expect(count('SELECT count(*) AS n FROM subscribers WHERE id = ?', id)).toBe(0);
  });

  test('confirm: the spec flavour’s seventh action; the real plugin has six', async () => {
    const waiting = ids("SELECT id FROM subscribers WHERE status = 'pending' AND suppressed = 0 ORDER BY id LIMIT 3");
    const subscribed = ids("SELECT id FROM subscribers WHERE status = 'subscribed' LIMIT 1");
    const r = await bulk({ action: 'confirm', ids: [...waiting, ...subscribed] });
    if (real) {
      expect(expectCode(r, 422, 'unknown_action').detail).toBe('action must be one of add_to_list, remove_from_list, add_tag, remove_tag, unsubscribe, delete.');
      return;
    }
    expect(data(r)).toMatchObject({ done: { confirmed: 3 }, skipped: { not_pending: 1 } });
    for (const id of waiting) expect(count("SELECT count(*) AS n FROM subscribers WHERE id = ? AND status = 'subscribed' AND confirmed_at IS NOT NULL", id)).toBe(1);
  });

  test('over a filter: walked 500 at a time by id up to the newest id of the first call; newcomers left out; the count before acting', async () => {
    const filter = { list: 1, status: 'subscribed' };
    const before = pageOf(await api.get(m.p('/subscribers?list=1&status=subscribed&per_page=1'))).total;
    expect(before).toBeGreaterThan(1000);
    let r = data(await bulk({ action: 'add_tag', tag: 'walked', filter }));
    expect(r).toMatchObject({ target: 'filter', processed: 500, done: { tagged: 500 }, finished: false, total: before, remaining: before - 500 });
    const maxId = r.max_id;
    expect(maxId).toBe(count('SELECT max(id) AS n FROM subscribers'));
    // somebody joins halfway: not swept in
    const late = data(await api.post(m.p('/subscribers'), { email: 'late.joiner@example.com', list_id: 1, mode: 'subscribed', note: 'Form' }), 201).subscriber_id;
    let tagged = 500;
    let calls = 1;
    while (!r.finished) {
      r = data(await bulk({ action: 'add_tag', tag: 'walked', filter, after: r.next, max_id: r.max_id }));
      expect(r.max_id).toBe(maxId);
      expect(r.total).toBeNull();
      tagged += r.done.tagged ?? 0;
      calls++;
    }
    expect(tagged).toBe(before);
    expect(calls).toBe(Math.ceil(before / 500));
    expect(r).toMatchObject({ finished: true, next: null, remaining: 0 });
    expect(pageOf(await api.get(m.p('/subscribers?tag=walked'))).total).toBe(before);
    expect(count("SELECT count(*) AS n FROM subscriber_tags t JOIN tags g ON g.id = t.tag_id WHERE g.code = 'walked' AND t.subscriber_id = ?", late)).toBe(0);
  });

  test('a filter that changes as it is walked (taking people off the list it filters on) visits each once', async () => {
    const filter = { list: 3, list_status: 'subscribed' };
    const total = pageOf(await api.get(m.p('/subscribers?list=3&list_status=subscribed'))).total;
    let r = data(await bulk({ action: 'remove_from_list', list_id: 3, filter }));
    let removed = r.done.removed ?? 0;
    while (!r.finished) {
      r = data(await bulk({ action: 'remove_from_list', list_id: 3, filter, after: r.next, max_id: r.max_id }));
      removed += r.done.removed ?? 0;
    }
    expect(removed).toBe(total);
    expect(pageOf(await api.get(m.p('/subscribers?list=3&list_status=subscribed'))).total).toBe(0);
  });

  test('an empty filter names everybody: unsubscribe and delete need all: true; the filter is the table’s', async () => {
    expectCode(await bulk({ action: 'delete', filter: {} }), 422, 'all_required');
    expectCode(await bulk({ action: 'unsubscribe', filter: {} }), 422, 'all_required');
    expectCode(await bulk({ action: 'delete', filter: { status: 'gone' } }), 422, 'filter_invalid');
    expectCode(await bulk({ action: 'delete', filter: 'status=bounced' }), 422, 'bulk_target');
    // a narrow filter is fine without it: everybody complained is deleted, their suppressions stay
    const complained = count("SELECT count(*) AS n FROM subscribers WHERE status = 'complained'");
    const sup = count("SELECT count(*) AS n FROM suppressions WHERE reason = 'complaint'");
    let r = data(await bulk({ action: 'delete', filter: { status: 'complained' } }));
    let deleted = r.done.deleted;
    while (!r.finished) {
      r = data(await bulk({ action: 'delete', filter: { status: 'complained' }, after: r.next, max_id: r.max_id }));
      deleted += r.done.deleted;
    }
    expect(deleted).toBe(complained);
    expect(count("SELECT count(*) AS n FROM subscribers WHERE status = 'complained'")).toBe(0);
    expect(count("SELECT count(*) AS n FROM suppressions WHERE reason = 'complaint'")).toBe(sup);
  });

  test('pasted addresses (add_to_list only): new ones become people; names kept; lines that are no address counted, never listed', async () => {
    const known = (sb.mailer.store.db.prepare("SELECT email FROM subscribers WHERE status = 'bounced' LIMIT 1").get() as { email: string }).email;
    const text = ['Ada Lovelace <ada.l@example.com>', 'bob@example.com Bob Builder', 'carol@example.com, "Dee Dee" <dee@example.com>', 'not an address', known, 'ADA.L@example.com'].join('\n');
    const r = await bulk({ action: 'add_to_list', list_id: 2, mode: 'subscribed', note: 'Signed up at the stand', addresses: text });
    expect(data(r)).toEqual({ action: 'add_to_list', target: 'addresses', processed: 7, done: { added: 4 }, skipped: { not_an_address: 1, suppressed: 1, already_on: 1 }, finished: true, next: null, max_id: null, total: 7, remaining: 0 });
    expect(r.text).not.toContain('@');
    const names = Object.fromEntries((sb.mailer.store.db.prepare("SELECT email, name, source FROM subscribers WHERE email IN ('ada.l@example.com', 'bob@example.com', 'carol@example.com', 'dee@example.com')").all() as Json[]).map((x) => [x.email, [x.name, x.source]]));
    expect(names).toEqual({ 'ada.l@example.com': ['Ada Lovelace', 'admin'], 'bob@example.com': ['Bob Builder', 'admin'], 'carol@example.com': ['', 'admin'], 'dee@example.com': ['Dee Dee', 'admin'] });
    expectCode(await bulk({ action: 'add_tag', tag: 'x', addresses: 'x@example.com' }), 422, 'bulk_target');
    expectCode(await bulk({ action: 'add_to_list', list_id: 2, mode: 'invite', addresses: Array.from({ length: 1001 }, (_, i) => `p${i}@example.com`).join('\n') }), 422, 'bulk_too_many');
  });

  test('who is named exactly once; at most 500 ids; an action known', async () => {
    expectCode(await bulk({ action: 'add_tag', tag: 'x' }), 422, 'bulk_target');
    expectCode(await bulk({ action: 'add_tag', tag: 'x', ids: [1], filter: { status: 'pending' } }), 422, 'bulk_target');
    expectCode(await bulk({ action: 'add_tag', tag: 'x', ids: Array.from({ length: 501 }, (_, i) => i + 1) }), 422, 'bulk_too_many');
    expectCode(await bulk({ action: 'add_tag', tag: 'x', ids: ['1'] }), 422, 'bulk_target');
    expectCode(await bulk({ action: 'archive', ids: [1] }), 422, 'unknown_action');
    expectCode(await bulk({ ids: [1] }), 422, 'unknown_action');
  });
});
