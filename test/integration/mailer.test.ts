/**
 * A site's mailing audience through the Host against the CMS sandbox (both flavours: document 2's
 * `/mailer/` with `mailer.*`, and Grav's Mailroom under `/mailroom/` with `mailroom.*`;
 * docs/mailer-audience.md): the plugin found and kept with the site (and found again when the kept
 * base stops answering), the table with every filter, its status and list counts, one person's
 * page, add with the four outcomes and the refusals in the site's words and on their fields, edit,
 * unsubscribe / resubscribe / confirm, delete, lists and tags, segments with a preview that follows
 * the definition, suppressions by the hash the app computes, erasure with its counts, the gates
 * (the permission's spelling, a demo account), the never-echo rule seen from the app's side, and
 * no address in any log line. Lists, tags, segments and counts are kept for offline reading;
 * subscribers are not (mailer-offline.test.ts).
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { suppressionHash } from '../../electron/common/email-hash';
import type { SegmentDefinitionInput as SegmentGroup } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';

const ADDRESS = /[^\s@"]+@[^\s@"]+\.[a-z]{2,}/i;

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  const base = real ? 'mailroom' : 'mailer';
  let fx: DemoHost;
  const logs: string[] = [];
  const requests: string[] = [];
  const siteId = () => fx.site.id;
  const world = () => fx.cms.mailer;
  const listByCode = (code: string) => world().store.listByCode(code)!;

  beforeAll(async () => {
    fx = await withHost({
      sandbox: { flavor, ...UNHURRIED, mailer: { subscribers: 3000 } },
      host: {
        log: (level, message, extra) => logs.push(`${level} ${message} ${JSON.stringify(extra ?? {})}`),
        fetch: (input, init) => {
          requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
          return fetch(input, init);
        },
      },
    });
  });
  afterAll(async () => {
    // no address of anybody reached a log line
    expect(logs.filter((l) => ADDRESS.test(l))).toEqual([]);
    await fx?.close();
  });

  test('the plugin is found once and kept with the site; a kept base that stops answering is found again', async () => {
    requests.length = 0;
    const s = await fx.call('mailer.site', { siteId: siteId() });
    expect(s.plugin).toMatchObject({ base, permissionPrefix: base, name: real ? 'Mailroom' : 'Mailer', foundAt: expect.any(String) });
    expect(s.offline).toMatchObject({ keep: false, count: 0 });
    // the spec site answers the first question; Mailroom's only the second, after a 404
    expect(requests).toEqual(real ? ['GET /api/v1/mailer/lists', 'GET /api/v1/mailroom/lists'] : ['GET /api/v1/mailer/lists']);
    requests.length = 0;
    await fx.call('mailer.site', { siteId: siteId() });
    await fx.call('mailer.subscribers', { siteId: siteId(), perPage: 1 });
    expect(requests).toEqual([`GET /api/v1/${base}/subscribers`]);

    // the kept base made wrong behind the Host's back (a site that swapped plugins): found again
    await fx.host.close();
    const db = new Database(join(fx.dir.path, 'sitedesk.db'));
    db.prepare("UPDATE site_cache SET value = ? WHERE key = 'mailer:base'").run(JSON.stringify({ base: real ? 'mailer' : 'mailroom' }));
    db.close();
    await fx.open();
    requests.length = 0;
    const page = await fx.call('mailer.subscribers', { siteId: siteId(), perPage: 2 });
    expect(page.items).toHaveLength(2);
    expect((await fx.call('mailer.site', { siteId: siteId() })).plugin?.base).toBe(base);
    expect(requests[0]).toBe(`GET /api/v1/${real ? 'mailer' : 'mailroom'}/subscribers`);
    expect(requests.at(-1)).toBe(`GET /api/v1/${base}/subscribers`);
  });

  test('the table: paged by the site (at most 200), every filter, the whole table’s status counts and a list’s counts', async () => {
    const store = world().store;
    const all = await fx.call('mailer.subscribers', { siteId: siteId(), perPage: 200 });
    expect(all.items).toHaveLength(200);
    expect(all).toMatchObject({ total: store.count({}), page: 1, perPage: 200, next: 2, copiedAt: null, filterIgnored: [], listCounts: null, unreadable: [] });
    expect(all.statusCounts).toEqual(store.statusCounts());
    // newest first, times as ISO text
    expect(all.items[0]!.id).toBeGreaterThan(all.items[1]!.id);
    expect(all.items[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await fx.fails('mailer.subscribers', { siteId: siteId(), perPage: 201 })).fields).toHaveProperty('perPage');

    const events = listByCode('events');
    const pending = await fx.call('mailer.subscribers', { siteId: siteId(), filter: { list: events.id, listStatus: 'pending' }, perPage: 5 });
    expect(pending.total).toBe(store.count({ list: events.id, list_status: 'pending' }));
    const counts = store.listCounts(events.id);
    expect(pending.listCounts).toEqual({ pending: counts.pending, subscribed: counts.subscribed, unsubscribed: counts.unsubscribed, total: counts.total });
    expect(pending.items.every((r) => r.lists.some((m) => m.listId === events.id && m.status === 'pending'))).toBe(true);
    // the counts are the whole table's, whatever the filters
    expect(pending.statusCounts).toEqual(all.statusCounts);

    const tag = store.tags()[0]!;
    const campaign = store.campaigns().find((c) => c.status === 'sent')!;
    for (const [filter, raw] of [
      [{ status: 'unsubscribed' }, { status: 'unsubscribed' }],
      [{ source: 'import' }, { source: 'import' }],
      [{ tag: tag.id }, { tag: tag.id }],
      [{ campaignId: campaign.id }, { campaign_id: campaign.id, campaign_received: 'yes' }],
      [{ campaignId: campaign.id, campaignReceived: 'no' }, { campaign_id: campaign.id, campaign_received: 'no' }],
      [{ q: 'example' }, { q: 'example' }],
    ] as const) {
      const page = await fx.call('mailer.subscribers', { siteId: siteId(), filter, perPage: 3 });
      expect(page.total, JSON.stringify(filter)).toBe(store.count(raw as never));
    }
    // a standing without its list: refused here, under the field
    const e = await fx.fails('mailer.subscribers', { siteId: siteId(), filter: { listStatus: 'pending' } });
    expect(e).toMatchObject({ code: 'invalid_input', fields: { 'filter.listStatus': 'Choose the list first.' } });
    // a filter the site refuses (a list it does not have) is said under the input's field
    const unknown = await fx.fails('mailer.subscribers', { siteId: siteId(), filter: { list: 999_999 } });
    expect(unknown).toMatchObject({ code: 'invalid_input', reason: 'unknown_list', fields: { 'filter.list': expect.any(String) } });

    const count = await fx.call('mailer.count', { siteId: siteId(), filter: { status: 'pending' } });
    expect(count.total).toBe(store.count({ status: 'pending' }));
  });

  test('one person’s page: consent, lists with their standing, tags, sends, the import and the suppression', async () => {
    const store = world().store;
    const withSends = store.prep('SELECT subscriber_id AS id FROM sends ORDER BY subscriber_id DESC LIMIT 1').get() as { id: number };
    const { subscriber, copiedAt, partial } = await fx.call('mailer.subscriber', { siteId: siteId(), id: withSends.id });
    expect(copiedAt).toBeNull();
    expect(partial).toBe(false);
    expect(subscriber.id).toBe(withSends.id);
    expect(subscriber.sends.length).toBeGreaterThan(0);
    expect(subscriber.sendsTotal).toBe(store.sendsTotal(withSends.id));
    expect(subscriber.consentLog.length).toBe(store.consentLog(withSends.id).length);
    expect(subscriber.lists.length).toBe(store.memberships(withSends.id).length);
    expect(subscriber.consent).toHaveProperty('basis');
    const e = await fx.fails('mailer.subscriber', { siteId: siteId(), id: 99_999_999 });
    expect(e).toMatchObject({ code: 'not_found', reason: 'not_found' });
  });

  test('add: the four outcomes in words, the refusals in the site’s words on their fields, and nothing echoed about someone already there', async () => {
    const newsletter = listByCode('newsletter'); // asks people to confirm
    const updates = listByCode('product-updates'); // does not
    const invited = await fx.call('mailer.add', { siteId: siteId(), email: `Invitee-${flavor}@Example.test`, name: 'Ivy Invitee', listId: newsletter.id, tags: ['Early Access'] });
    expect(invited).toMatchObject({ outcome: 'invited', listId: newsletter.id, listStatus: 'pending', earlier: false, subscriber: { email: `invitee-${flavor}@example.test`, name: 'Ivy Invitee', status: 'pending' } });
    const again = await fx.call('mailer.add', { siteId: siteId(), email: `invitee-${flavor}@example.test`, listId: newsletter.id });
    expect(again).toEqual({ outcome: 'already_invited', subscriberId: invited.subscriberId, listId: newsletter.id, listStatus: 'pending', subscriber: null, earlier: false });

    const added = await fx.call('mailer.add', { siteId: siteId(), email: `invitee-${flavor}@example.test`, listId: updates.id, mode: 'subscribed', note: 'Asked at the booth, 3 March' });
    expect(added).toMatchObject({ outcome: 'added', subscriberId: invited.subscriberId, listStatus: 'subscribed', subscriber: null });
    const already = await fx.call('mailer.add', { siteId: siteId(), email: `invitee-${flavor}@example.test`, listId: updates.id, mode: 'subscribed', note: 'again' });
    expect(already.outcome).toBe('already_on');
    // an existing person is named by id only: no address, name, tags or history
    expect(JSON.stringify(already)).not.toMatch(ADDRESS);
    expect(JSON.stringify(already)).not.toContain('Ivy');

    const noNote = await fx.fails('mailer.add', { siteId: siteId(), email: `nonote-${flavor}@example.test`, listId: updates.id });
    expect(noNote).toMatchObject({ code: 'invalid_input', reason: 'note_required', fields: { note: expect.any(String) } });
    const badList = await fx.fails('mailer.add', { siteId: siteId(), email: `nolist-${flavor}@example.test`, listId: 999_999, mode: 'invite' });
    expect(badList).toMatchObject({ reason: 'unknown_list', fields: { listId: expect.any(String) } });
    const notAnAddress = await fx.fails('mailer.add', { siteId: siteId(), email: 'not an address' });
    expect(notAnAddress.fields).toHaveProperty('email');

    await fx.call('mailer.suppress', { siteId: siteId(), email: `blocked-${flavor}@example.test` });
    const suppressed = await fx.fails('mailer.add', { siteId: siteId(), email: `blocked-${flavor}@example.test`, listId: newsletter.id });
    expect(suppressed).toMatchObject({ code: 'conflict', reason: 'suppressed', message: expect.stringMatching(/suppression list/) });
    expect(suppressed.message).not.toMatch(ADDRESS);

    const leaver = world().audience.act({ action: 'signup', email: `leaver-${flavor}@example.test`, list_id: updates.id });
    world().audience.act({ action: 'leave_all', subscriber_id: leaver.subscriber_id });
    const left = await fx.fails('mailer.add', { siteId: siteId(), email: `leaver-${flavor}@example.test`, listId: updates.id, mode: 'subscribed', note: 'x' });
    expect(left).toMatchObject({ code: 'conflict', reason: 'left_themselves', message: expect.stringMatching(/resubscribe with a note/) });
    expect(left.message).not.toMatch(ADDRESS);
  });

  test('edit, unsubscribe, resubscribe with a note, confirm, delete: each answers the person as the site has them', async () => {
    const newsletter = listByCode('newsletter');
    const events = listByCode('events');
    const a = await fx.call('mailer.add', { siteId: siteId(), email: `editee-${flavor}@example.test`, listId: newsletter.id });
    const id = a.subscriberId;
    const edited = await fx.call('mailer.update', { siteId: siteId(), id, changes: { name: 'Ed Itee', language: 'de', lists: [newsletter.id, events.id], tags: ['vip', 'Early Access'] } });
    expect(edited.subscriber).toMatchObject({ name: 'Ed Itee', language: 'de' });
    expect(edited.subscriber.tags.map((t) => t.code).sort()).toEqual(['early-access', 'vip']);
    // a list they do not hold is not joined by an edit
    expect(edited.keptOff).toEqual([{ listId: events.id, reason: 'not_held' }]);

    const confirmed = await fx.call('mailer.confirm', { siteId: siteId(), id });
    expect(confirmed).toMatchObject({ changed: true, earlier: false, subscriber: { status: 'subscribed' } });
    expect(await fx.fails('mailer.confirm', { siteId: siteId(), id })).toMatchObject({ code: 'conflict', reason: 'not_pending' });

    const off = await fx.call('mailer.unsubscribe', { siteId: siteId(), id });
    expect(off).toMatchObject({ changed: true, subscriber: { status: 'unsubscribed' } });
    expect((await fx.call('mailer.unsubscribe', { siteId: siteId(), id })).changed).toBe(false);
    expect((await fx.fails('mailer.resubscribe', { siteId: siteId(), id, note: ' ' })).fields).toHaveProperty('note');
    const back = await fx.call('mailer.resubscribe', { siteId: siteId(), id, note: 'They wrote in on 4 March asking to come back', listId: newsletter.id });
    expect(back).toMatchObject({ changed: true, subscriber: { status: 'subscribed' } });
    const log = (await fx.call('mailer.subscriber', { siteId: siteId(), id })).subscriber.consentLog;
    expect(log[0]).toMatchObject({ action: 'put_back', note: 'They wrote in on 4 March asking to come back', by: 'site' });

    expect(await fx.call('mailer.delete', { siteId: siteId(), id })).toEqual({ id });
    expect(world().store.subscriber(id)).toBeNull();
    // deleted twice is deleted
    expect(await fx.call('mailer.delete', { siteId: siteId(), id })).toEqual({ id });
    expect((await fx.fails('mailer.update', { siteId: siteId(), id, changes: { name: 'x' } })).code).toBe('not_found');
  });

  test('lists and tags managed in place, kept as copies; a list’s code never changes and lists are never deleted', async () => {
    const before = await fx.call('mailer.lists', { siteId: siteId() });
    expect(before.copiedAt).toBeNull();
    expect(before.lists.map((l) => l.code)).toEqual(['newsletter', 'product-updates', 'events', 'partners']);
    expect(before.lists[0]).toMatchObject({ isDefault: true, doubleOptIn: true, counts: { subscribed: expect.any(Number), pending: expect.any(Number), unsubscribed: expect.any(Number) } });

    const made = await fx.call('mailer.createList', { siteId: siteId(), code: `vip-${flavor}`, name: 'VIP', doubleOptIn: false, fromEmail: 'vip@site.example' });
    expect(made).toMatchObject({ earlier: false, list: { code: `vip-${flavor}`, name: 'VIP', doubleOptIn: false, isDefault: false, fromEmail: 'vip@site.example' } });
    const taken = await fx.fails('mailer.createList', { siteId: siteId(), code: `vip-${flavor}`, name: 'VIP again' });
    expect(taken).toMatchObject({ code: 'conflict', reason: 'list_code_taken' });
    expect((await fx.fails('mailer.createList', { siteId: siteId(), code: 'Not A Code', name: 'x' })).fields).toHaveProperty('code');

    const changed = await fx.call('mailer.updateList', { siteId: siteId(), id: made.list.id, changes: { name: 'Very important', isDefault: true } });
    expect(changed.list).toMatchObject({ name: 'Very important', isDefault: true });
    const lists = await fx.call('mailer.lists', { siteId: siteId() });
    expect(lists.lists.filter((l) => l.isDefault).map((l) => l.id)).toEqual([made.list.id]);
    const unset = await fx.fails('mailer.updateList', { siteId: siteId(), id: made.list.id, changes: { isDefault: false } });
    expect(unset).toMatchObject({ code: 'conflict', reason: 'default_list_required', message: expect.stringMatching(/another list the default/) });
    await fx.call('mailer.updateList', { siteId: siteId(), id: listByCode('newsletter').id, changes: { isDefault: true } });

    const tag = await fx.call('mailer.createTag', { siteId: siteId(), label: `Spring Fair ${flavor}` });
    expect(tag).toMatchObject({ created: true, tag: { code: `spring-fair-${flavor}`, label: `Spring Fair ${flavor}`, count: 0 } });
    // the same tag spelled otherwise is the one there, not refused
    expect(await fx.call('mailer.createTag', { siteId: siteId(), label: `spring_fair_${flavor}` })).toMatchObject({ created: false, tag: { id: tag.tag.id } });
    const some = world().store.query({}, 3, 0).rows.map((r) => r.id);
    await fx.call('mailer.bulk', { siteId: siteId(), bulkId: `tag-${flavor}-0001`, action: 'add_tag', target: { kind: 'ids', ids: some }, tag: tag.tag.code });
    expect((await fx.call('mailer.tags', { siteId: siteId() })).tags.find((t) => t.id === tag.tag.id)?.count).toBe(3);
    expect(await fx.call('mailer.deleteTag', { siteId: siteId(), id: tag.tag.id })).toEqual({ id: tag.tag.id, removedFrom: 3 });
    expect((await fx.call('mailer.tags', { siteId: siteId() })).tags.some((t) => t.id === tag.tag.id)).toBe(false);
  });

  test('segments: the vocabulary drives the conditions; the preview count follows the definition; saved, recounted, refused while a campaign uses it', async () => {
    const { vocabulary } = await fx.call('mailer.vocabulary', { siteId: siteId() });
    expect(vocabulary.groups.map((g) => g.key)).toEqual(['subscriber', 'engagement']);
    const status = vocabulary.fields.find((f) => f.key === 'status')!;
    expect(status.operators.map((o) => o.key)).toEqual(['is', 'is_not']);
    expect(status.options?.map((o) => o.value)).toContain('subscribed');
    expect(vocabulary.fields.find((f) => f.key === 'subscribed_at')!.operators.find((o) => o.key === 'before')!.value).toBe('date');

    const newsletter = listByCode('newsletter');
    const onList: SegmentGroup = { all: [{ field: 'list', op: 'is', value: newsletter.id }] };
    const wide = await fx.call('mailer.previewSegment', { siteId: siteId(), definition: onList });
    expect(wide.count).toBeGreaterThan(0);
    expect(wide.sample.length).toBeLessThanOrEqual(10);
    // a condition still being typed is left out and counted
    const typing = await fx.call('mailer.previewSegment', { siteId: siteId(), definition: { all: [...onList.all!, { field: 'language', op: 'is', value: '' }] } });
    expect(typing).toMatchObject({ count: wide.count, ignored: 1 });
    const narrow = await fx.call('mailer.previewSegment', { siteId: siteId(), definition: { all: [...onList.all!, { field: 'language', op: 'is', value: 'de' }] } });
    expect(narrow.count).toBeLessThan(wide.count);
    expect(narrow.ignored).toBe(0);
    const none = await fx.call('mailer.previewSegment', { siteId: siteId(), definition: { ...onList, none: [{ field: 'language', op: 'is', value: 'de' }] } });
    expect(none.count).toBe(wide.count - narrow.count);

    // groups inside groups: document 2's sites take them; Mailroom refuses, in its words, at the path
    const nested: SegmentGroup = { all: onList.all!, any: [{ field: 'language', op: 'is', value: 'de' }, { all: [{ field: 'source', op: 'is', value: 'import' }] }] };
    if (real) {
      const e = await fx.fails('mailer.previewSegment', { siteId: siteId(), definition: nested });
      expect(e).toMatchObject({ code: 'invalid_input', reason: 'nested_groups_unsupported', fields: { 'definition.any.1': expect.any(String) } });
    } else expect((await fx.call('mailer.previewSegment', { siteId: siteId(), definition: nested })).count).toBeGreaterThanOrEqual(narrow.count);

    const saved = await fx.call('mailer.createSegment', { siteId: siteId(), name: `German readers ${flavor}`, definition: { all: [...onList.all!, { field: 'language', op: 'is', value: 'de' }] } });
    expect(saved.segment).toMatchObject({ name: `German readers ${flavor}`, count: null, campaigns: 0 });
    const incomplete = await fx.fails('mailer.createSegment', { siteId: siteId(), name: 'x', definition: { all: [{ field: 'language', op: 'is' }] } });
    expect(incomplete).toMatchObject({ reason: 'definition_invalid', fields: { 'definition.all.0.value': expect.any(String) } });
    const counted = await fx.call('mailer.recountSegment', { siteId: siteId(), id: saved.segment.id });
    expect(counted.segment).toMatchObject({ count: narrow.count, countedAt: expect.any(String) });
    const renamed = await fx.call('mailer.updateSegment', { siteId: siteId(), id: saved.segment.id, changes: { name: 'Deutsch', definition: onList } });
    expect(renamed.segment).toMatchObject({ name: 'Deutsch', count: null });
    expect((await fx.call('mailer.segments', { siteId: siteId() })).segments.some((s) => s.id === saved.segment.id && s.name === 'Deutsch')).toBe(true);

    const used = world().store.segments().find((s) => world().store.campaignsUsingSegment(s.id).length > 0)!;
    const refused = await fx.call('mailer.deleteSegment', { siteId: siteId(), id: used.id });
    expect(refused).toMatchObject({ outcome: 'in_use', message: expect.stringMatching(/point (it|them) at another segment/), campaigns: world().store.campaignsUsingSegment(used.id).length });
    expect(await fx.call('mailer.deleteSegment', { siteId: siteId(), id: saved.segment.id })).toEqual({ outcome: 'deleted', id: saved.segment.id });
    expect((await fx.call('mailer.segments', { siteId: siteId() })).segments.some((s) => s.id === saved.segment.id)).toBe(false);
  });

  test('suppressions by reason; added by hand and removed by the hash computed in the app; an erasure forgets the address everywhere with its counts', async () => {
    const email = `Suppress-Me-${flavor}@Example.test`;
    const made = await fx.call('mailer.suppress', { siteId: siteId(), email, note: 'asked by phone' });
    expect(made).toMatchObject({ created: true, suppression: { hash: suppressionHash(email), reason: 'manual', note: 'asked by phone', emailMasked: `s***@example.test`, erased: false } });
    expect(await fx.call('mailer.suppress', { siteId: siteId(), email: email.toLowerCase(), reason: 'invalid' })).toMatchObject({ created: false, suppression: { reason: 'manual' } });
    const manual = await fx.call('mailer.suppressions', { siteId: siteId(), reason: 'manual', perPage: 200 });
    expect(manual.items.every((s) => s.reason === 'manual')).toBe(true);
    expect(manual.items.some((s) => s.hash === suppressionHash(email))).toBe(true);
    // the rows never carry an address whole
    expect(JSON.stringify(manual.items)).not.toMatch(/[^\s@*"]+@[^\s@"]+\.[a-z]{2,}/i);
    expect((await fx.call('mailer.suppressions', { siteId: siteId(), reason: 'hard_bounce' })).items.every((s) => s.reason === 'hard_bounce')).toBe(true);

    const newsletter = listByCode('newsletter');
    expect((await fx.fails('mailer.add', { siteId: siteId(), email, listId: newsletter.id })).reason).toBe('suppressed');
    expect(await fx.call('mailer.unsuppress', { siteId: siteId(), hash: suppressionHash(email) })).toEqual({ hash: suppressionHash(email), removed: true });
    expect(await fx.call('mailer.unsuppress', { siteId: siteId(), hash: suppressionHash(email) })).toEqual({ hash: suppressionHash(email), removed: false });
    const joined = await fx.call('mailer.add', { siteId: siteId(), email, listId: newsletter.id });
    expect(joined.outcome).toBe('invited');
    expect((await fx.fails('mailer.unsuppress', { siteId: siteId(), hash: 'abc' })).fields).toHaveProperty('hash');

    const erased = await fx.call('mailer.erase', { siteId: siteId(), email });
    expect(erased).toMatchObject({ erased: true, removedHere: 0, earlier: false, counts: { subscribers: 1, memberships: 1, consent: expect.any(Number), messages: 1 } });
    expect(JSON.stringify(erased)).not.toMatch(ADDRESS);
    expect(JSON.stringify(erased)).not.toContain(suppressionHash(email));
    expect(world().store.byEmail(email.toLowerCase())).toBeNull();
    expect(await fx.call('mailer.erase', { siteId: siteId(), email })).toMatchObject({ erased: false, counts: { subscribers: 0 } });
  });

  test('the gates: the permission’s spelling decides; a view-only account reads and its writes are refused in the site’s words; a demo account', async () => {
    const keyFor = async (username: string, access: unknown) => {
      await fx.cms.accounts.create({ username, password: 'a-long-password-1', email: `${username}@example.test`, access });
      return fx.cms.apiKeys.create({ username, name: 'test', scopes: [] }).api_key;
    };
    const add = async (name: string, apiKey: string) => fx.call('sites.add', { name, kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey });
    const viewer = await add('Viewer', await keyFor(`viewer-${flavor}`, { api: { access: true }, [base]: { view: true } }));
    expect((await fx.call('mailer.subscribers', { siteId: viewer.id, perPage: 1 })).items).toHaveLength(1);
    const refused = await fx.fails('mailer.add', { siteId: viewer.id, email: `viewer-add-${flavor}@example.test`, mode: 'invite' });
    expect(refused).toMatchObject({ code: 'forbidden', message: `Missing required permission: ${base}.manage` });
    // the other spelling grants nothing on this site
    const other = await add('Other spelling', await keyFor(`other-${flavor}`, { api: { access: true }, [real ? 'mailer' : 'mailroom']: { view: true, manage: true } }));
    expect((await fx.fails('mailer.lists', { siteId: other.id })).code).toBe('forbidden');

    const demo = await add('Demo account', await keyFor(`demo-${flavor}`, { api: { access: true, super: true, demo: true } }));
    await fx.call('auth.refreshMe', { siteId: demo.id }).catch(() => undefined);
    const write = await fx.fails('mailer.add', { siteId: demo.id, email: `demo-add-${flavor}@example.test`, mode: 'invite' });
    expect(write).toMatchObject({ code: 'forbidden' });
    expect(write.message).toMatch(/[Dd]emo/);
    if (real) expect((await fx.fails('mailer.lists', { siteId: demo.id })).message).toMatch(/Mailroom.*demo accounts/);
    else expect((await fx.call('mailer.lists', { siteId: demo.id })).lists.length).toBeGreaterThan(0);
    expect(world().store.byEmail(`demo-add-${flavor}@example.test`)).toBeNull();
    for (const s of [viewer, other, demo]) await fx.call('sites.remove', { id: s.id });
  });

  test('browser mode has no system dialogs: the screen asks for a path', async () => {
    expect(await fx.call('mailer.chooseExportFile', { what: 'table' })).toEqual({ unsupported: true });
    expect(await fx.call('mailer.chooseImportFile', {})).toEqual({ unsupported: true });
  });

  test('kept on this computer by default: counts, lists, tags, segments and the vocabulary — never a subscriber', async () => {
    const lists = await fx.call('mailer.lists', { siteId: siteId() });
    const tags = await fx.call('mailer.tags', { siteId: siteId() });
    const segments = await fx.call('mailer.segments', { siteId: siteId() });
    await fx.call('mailer.vocabulary', { siteId: siteId() });
    const counts = await fx.call('mailer.count', { siteId: siteId(), filter: {} });
    const page = await fx.call('mailer.subscribers', { siteId: siteId(), perPage: 20 });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      expect(await fx.call('mailer.lists', { siteId: siteId() })).toEqual({ lists: lists.lists, copiedAt: expect.any(String) });
      expect((await fx.call('mailer.tags', { siteId: siteId() })).tags).toEqual(tags.tags);
      expect((await fx.call('mailer.segments', { siteId: siteId() })).segments).toEqual(segments.segments);
      expect((await fx.call('mailer.segment', { siteId: siteId(), id: segments.segments[0]!.id })).copiedAt).toEqual(expect.any(String));
      expect((await fx.call('mailer.vocabulary', { siteId: siteId() })).copiedAt).toEqual(expect.any(String));
      expect(await fx.call('mailer.count', { siteId: siteId(), filter: {} })).toEqual(counts);
      const e = await fx.fails('mailer.subscribers', { siteId: siteId(), perPage: 20 });
      expect(e.code).toMatch(/network|timeout/);
      expect(e.message).toMatch(/offline copy/);
      // writes are never queued
      const w = await fx.fails('mailer.createTag', { siteId: siteId(), label: 'offline tag' });
      expect(w.message).toMatch(/nothing waits to be sent/);
    } finally {
      fx.cms.faults.clear();
    }
    // nobody's address is in the database
    await fx.host.close();
    const db = new Database(join(fx.dir.path, 'sitedesk.db'), { readonly: true });
    const cached = (db.prepare("SELECT key, value FROM site_cache WHERE key LIKE 'mailer:%'").all() as { key: string; value: string }[]).map((r) => r.value).join('\n');
    const people = (db.prepare('SELECT count(*) AS n FROM mailer_people').get() as { n: number }).n;
    db.close();
    await fx.open();
    for (const r of page.items) expect(cached).not.toContain(r.email);
    expect(people).toBe(0);
  });
});
