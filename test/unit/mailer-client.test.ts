/**
 * The mailer's API client (electron/api/cms/mailer.ts) over replies shaped as the two plugins send
 * them (docs/mailer-audience.md; the CMS sandbox's `spec` and `real` flavours): the base found by
 * asking `/mailer/lists` then `/mailroom/lists`; paging under `meta.pagination` and flat; the
 * status and list counts; epoch seconds made ISO; a row that cannot be read set aside naming its
 * field and never its values; problems keeping the site's `detail` and `code` with their fields
 * under the input's names; the add's outcomes; and the SHA-256 the app computes for a suppression,
 * the gate that reads either permission's spelling.
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { cmsMailer, filterBody, filterQuery, isoOf } from '../../electron/api/cms/mailer';
import { sha256Hex, suppressionHash } from '../../electron/common/email-hash';
import { areaBlockedReason, asSegmentDefinition, conditionCount, mailerBlockedReason, type Me } from '../../electron/contract';
import { refused, reply, transport, type Answer } from './support/recorded-replies';

const T0 = 1_700_000_000;
const row = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  email: `person${id}@example.com`,
  name: `Person ${id}`,
  status: 'subscribed',
  source: 'form',
  source_ref: 'footer',
  language: null,
  suppressed: false,
  import_id: null,
  lists: [{ id: 1, code: 'newsletter', name: 'Newsletter', status: 'subscribed', since: T0, left_by: null }],
  tags: [{ id: 3, code: 'vip', label: 'VIP' }],
  created_at: T0,
  updated_at: T0 + 60,
  consent_at: T0,
  confirmed_at: null,
  unsubscribed_at: null,
  ...extra,
});
const STATUS_COUNTS = { pending: 1, subscribed: 40, unsubscribed: 3, bounced: 0, complained: 1 };
const problem = (status: number, code: string, detail: string, errors?: { field: string; message: string }[]): Answer => ({
  status,
  body: { status, title: 'Unprocessable Entity', detail, code, ...(errors ? { errors } : {}) },
  headers: { 'content-type': 'application/problem+json' },
});
/** The paged envelope as each flavour writes it. */
const paged = (flavor: 'spec' | 'real', data: unknown[], total: number, page: number, perPage: number, extra: Record<string, unknown> = {}) => {
  const pagination = { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) };
  const meta = flavor === 'real' ? { pagination, ...extra } : { total, page, per_page: perPage, total_pages: pagination.total_pages, pagination, ...extra };
  return { data, meta, links: page * perPage < total ? { next: `/api/v1/x?page=${page + 1}&per_page=${perPage}` } : {} };
};

describe('finding the plugin', () => {
  test('document 2’s /mailer answers: it is the base, nothing more asked', async () => {
    const { t, seen } = transport(() => reply({ data: [] }));
    expect(await cmsMailer.detect(t)).toBe('mailer');
    expect(seen.map((r) => r.path)).toEqual(['/mailer/lists']);
  });
  test('a 404 of an unknown route, then Mailroom’s /mailroom answers (a 403 also names it: the route is there)', async () => {
    const notThere: Answer = { status: 404, body: { status: 404, title: 'Not Found', detail: 'No route for /api/v1/mailer/lists.' } };
    const a = transport((r) => (r.path === '/mailer/lists' ? notThere : reply({ data: [] })));
    expect(await cmsMailer.detect(a.t)).toBe('mailroom');
    expect(a.seen.map((r) => r.path)).toEqual(['/mailer/lists', '/mailroom/lists']);
    const b = transport((r) => (r.path === '/mailer/lists' ? notThere : { status: 403, body: { status: 403, title: 'Forbidden', detail: 'Missing required permission: mailroom.view' } }));
    expect(await cmsMailer.detect(b.t)).toBe('mailroom');
  });
  test('neither: none; no answer at all: thrown, it says nothing of the plugin', async () => {
    const none = transport(() => ({ status: 404, body: { status: 404, title: 'Not Found', detail: 'No route.' } }));
    expect(await cmsMailer.detect(none.t)).toBeNull();
    const away = transport(() => refused());
    await expect(cmsMailer.detect(away.t)).rejects.toMatchObject({ code: 'network' });
  });
});

describe.each(['spec', 'real'] as const)('the %s flavour’s replies', (flavor) => {
  const base = flavor === 'real' ? 'mailroom' : 'mailer';

  test('a page of the table: rows with ISO times, paging, the whole table’s counts and a list’s counts; the filters as the query', async () => {
    const { t, seen } = transport(() => reply(paged(flavor, [row(12), row(11)], 45, 1, 2, { status_counts: STATUS_COUNTS, list_counts: { pending: 1, subscribed: 20, unsubscribed: 2, total: 23 } })));
    const p = await cmsMailer.subscribers(t, base, { filter: { q: 'ann', list: 1, listStatus: 'subscribed', tag: 3, campaignId: 9, campaignReceived: 'no' }, page: 1, perPage: 2 });
    expect(seen[0]!.path).toBe(`/${base}/subscribers?q=ann&list=1&list_status=subscribed&tag=3&campaign_id=9&campaign_received=no&page=1&per_page=2`);
    expect(p).toMatchObject({ total: 45, page: 1, perPage: 2, next: 2, statusCounts: STATUS_COUNTS, listCounts: { pending: 1, subscribed: 20, unsubscribed: 2, total: 23 }, unreadable: [] });
    expect(p.items[0]).toEqual({
      id: 12,
      email: 'person12@example.com',
      name: 'Person 12',
      status: 'subscribed',
      source: 'form',
      sourceRef: 'footer',
      language: null,
      suppressed: false,
      importId: null,
      lists: [{ listId: 1, code: 'newsletter', name: 'Newsletter', status: 'subscribed', since: new Date(T0 * 1000).toISOString(), leftBy: null }],
      tags: [{ id: 3, code: 'vip', label: 'VIP' }],
      createdAt: '2023-11-14T22:13:20.000Z',
      updatedAt: '2023-11-14T22:14:20.000Z',
      consentAt: '2023-11-14T22:13:20.000Z',
      confirmedAt: null,
      unsubscribedAt: null,
    });
  });

  test('a row that cannot be read is set aside with its field, never its values; the others are kept', async () => {
    const { t } = transport(() => reply(paged(flavor, [row(3), row(2, { status: 'gone-away' }), row(1, { id: 'secret@example.com' })], 3, 1, 50)));
    const p = await cmsMailer.subscribers(t, base, { filter: {}, page: 1, perPage: 50 });
    expect(p.items.map((r) => r.id)).toEqual([3]);
    expect(p.unreadable).toEqual([
      { position: 1, problem: 'status: missing or not what the site sends' },
      { position: 2, problem: 'id: missing or not what the site sends' },
    ]);
    expect(JSON.stringify(p.unreadable)).not.toContain('@');
  });

  test('the add’s outcomes: a new person with their record, an existing one by id only', async () => {
    const created = transport(() => reply({ data: { outcome: 'invited', subscriber_id: 7, list_id: 1, list_status: 'pending', subscriber: row(7, { status: 'pending' }) } }, 201));
    expect(await cmsMailer.add(created.t, base, { email: 'person7@example.com' })).toMatchObject({ outcome: 'invited', subscriberId: 7, listId: 1, listStatus: 'pending', created: true, subscriber: { id: 7, status: 'pending' } });
    expect(created.seen[0]).toMatchObject({ method: 'POST', path: `/${base}/subscribers`, body: { email: 'person7@example.com' } });
    const known = transport(() => reply({ data: { outcome: 'already_on', subscriber_id: 7, list_id: 1, list_status: 'subscribed' } }));
    expect(await cmsMailer.add(known.t, base, { email: 'person7@example.com' })).toEqual({ outcome: 'already_on', subscriberId: 7, listId: 1, listStatus: 'subscribed', subscriber: null, created: false });
    const odd = transport(() => reply({ data: { outcome: 'welcomed', subscriber_id: 7, list_id: 1 } }));
    await expect(cmsMailer.add(odd.t, base, { email: 'x@example.com' })).rejects.toMatchObject({ code: 'bad_response' });
  });

  test('problems: the site’s detail and code kept, its fields under the input’s names', async () => {
    const note = transport(() => problem(422, 'note_required', 'Adding somebody as subscribed needs a note saying where they agreed.', [{ field: 'note', message: 'required' }]));
    await expect(cmsMailer.add(note.t, base, { email: 'x@example.com', mode: 'subscribed' })).rejects.toMatchObject({ code: 'invalid_input', message: 'Adding somebody as subscribed needs a note saying where they agreed.', info: { reason: 'note_required', fields: { note: 'required' } } });
    const list = transport(() => problem(422, 'unknown_list', 'list_id: there is no list 9.', [{ field: 'list_id', message: 'list_id: there is no list 9.' }]));
    await expect(cmsMailer.add(list.t, base, { email: 'x@example.com', list_id: 9 })).rejects.toMatchObject({ info: { reason: 'unknown_list', fields: { listId: 'list_id: there is no list 9.' } } });
    const filter = transport(() => problem(422, 'filter_invalid', 'list_status needs list.', [{ field: 'list_status', message: 'list_status needs list.' }]));
    await expect(cmsMailer.subscribers(filter.t, base, { filter: {}, page: 1, perPage: 1 })).rejects.toMatchObject({ info: { fields: { 'filter.listStatus': 'list_status needs list.' } } });
    const suppressed = transport(() => ({ ...problem(409, 'suppressed', 'This address is on the suppression list, so it is never mailed.') }));
    await expect(cmsMailer.add(suppressed.t, base, { email: 'x@example.com' })).rejects.toMatchObject({ code: 'conflict', info: { reason: 'suppressed' } });
    const path = transport(() => problem(422, 'definition_invalid', 'definition.all.1.value: fill in a value.', [{ field: 'definition.all.1.value', message: 'fill in a value' }]));
    await expect(cmsMailer.updateSegment(path.t, base, 4, { definition: {} })).rejects.toMatchObject({ info: { fields: { 'changes.definition.all.1.value': 'fill in a value' } } });
  });

  test('lists by position, tags, one person’s page, segments, imports and suppressions read in the contract’s shape', async () => {
    const list = (id: number, position: number) => ({ id, code: `l${id}`, name: `L${id}`, description: null, double_opt_in: id === 1, public: true, is_default: id === 1, position, from_name: null, from_email: null, subscribed_count: 3, pending_count: 1, unsubscribed_count: 0, created_at: T0, updated_at: T0 });
    const answers: Record<string, unknown> = {
      [`/${base}/lists`]: { data: [list(2, 2), list(1, 1)] },
      [`/${base}/tags`]: { data: [{ id: 3, code: 'early-access', label: 'Early Access', count: 12, created_at: T0 }] },
      [`/${base}/subscribers/5`]: {
        data: {
          ...row(5),
          consent: { agreed_at: T0, ip: '198.51.100.7', basis: 'footer form', confirmed_at: T0 + 5, left_at: null, left_by: null, left_via: null },
          import: { id: 2, file_name: 'old.csv', created_at: T0 },
          suppression: null,
          sends: [{ campaign_id: 4, campaign_name: 'Spring', status: 'opened', sent_at: T0, opened_at: T0 + 9, clicked_at: null }],
          sends_total: 1,
          consent_log: [{ id: 9, at: T0, action: 'confirmed', list_id: 1, list_name: 'Newsletter', by: 'self', admin: null, note: null, ip: '198.51.100.7', via: null }],
        },
      },
      [`/${base}/segments`]: { data: [{ id: 6, name: 'Germans', description: null, list_id: null, definition: { all: [{ field: 'language', op: 'is', value: 'de' }], any: [{ any: [{ field: 'tag', op: 'is', value: 3 }] }] }, count: null, left_out: null, counted_at: null, campaigns: 2, created_at: T0, updated_at: T0 }] },
      [`/${base}/imports?page=1&per_page=5`]: paged(flavor, [{ id: 2, file_name: 'old.csv', status: 'running', list_id: 1, tag: null, basis: 'old.csv', as_confirmed: true, preset: 'mailchimp', mapping: { email: 'Email Address' }, rows_total: 10, rows_done: 4, progress: 0.4, counts: { new: 3, updated: 1 }, reasons: { duplicate: 1 }, created_by: 'admin', queued_at: T0, started_at: T0 + 1, finished_at: null, error: null }], 1, 1, 5),
      [`/${base}/suppressions?reason=manual&page=1&per_page=5`]: paged(flavor, [{ hash: 'A'.repeat(64), reason: 'manual', note: null, email_masked: 'a***@example.com', erased: false, subscriber_id: null, created_at: T0 }], 1, 1, 5),
    };
    const { t } = transport((r) => reply(answers[r.path]));
    expect((await cmsMailer.lists(t, base)).map((l) => [l.id, l.isDefault, l.counts.pending])).toEqual([
      [1, true, 1],
      [2, false, 1],
    ]);
    expect(await cmsMailer.tags(t, base)).toEqual([{ id: 3, code: 'early-access', label: 'Early Access', count: 12, createdAt: '2023-11-14T22:13:20.000Z' }]);
    const person = await cmsMailer.subscriber(t, base, 5);
    expect(person.consent).toEqual({ agreedAt: '2023-11-14T22:13:20.000Z', ip: '198.51.100.7', basis: 'footer form', confirmedAt: '2023-11-14T22:13:25.000Z', leftAt: null, leftBy: null, leftVia: null });
    expect(person.sends[0]).toMatchObject({ campaignId: 4, status: 'opened', openedAt: '2023-11-14T22:13:29.000Z' });
    expect(person.consentLog[0]).toMatchObject({ action: 'confirmed', by: 'self', ip: '198.51.100.7' });
    expect(person.import).toEqual({ id: 2, fileName: 'old.csv', createdAt: '2023-11-14T22:13:20.000Z' });
    const [segment] = await cmsMailer.segments(t, base);
    expect(segment).toMatchObject({ id: 6, count: null, countedAt: null, campaigns: 2, definition: { all: [{ field: 'language', op: 'is', value: 'de' }], any: [{ any: [{ field: 'tag', op: 'is', value: 3 }] }] } });
    const imports = await cmsMailer.imports(t, base, { page: 1, perPage: 5 });
    expect(imports.items[0]).toMatchObject({ status: 'running', rowsDone: 4, progress: 0.4, counts: { new: 3, updated: 1, invalid: 0 }, reasons: { duplicate: 1 }, finishedAt: null });
    const sup = await cmsMailer.suppressions(t, base, { reason: 'manual', page: 1, perPage: 5 });
    expect(sup.items[0]).toMatchObject({ hash: 'a'.repeat(64), emailMasked: 'a***@example.com', erased: false });
  });

  test('a bulk walk’s answer and an erasure’s counts', async () => {
    const { t, seen } = transport((r) =>
      r.path.endsWith('/bulk')
        ? reply({ data: { action: 'add_tag', target: 'filter', processed: 500, done: { tagged: 480 }, skipped: { already_tagged: 20 }, finished: false, next: 1234, max_id: 9000, total: 1500, remaining: 1000 } })
        : reply({ data: { erased: true, counts: { subscribers: 1, memberships: 2, tags: 1, sends: 4, clicks: 1, suppressions: 0, enrolments: 0, consent: 5, events: 0, messages: 1 } } }),
    );
    expect(await cmsMailer.bulk(t, base, { action: 'add_tag', filter: filterBody({ list: 2, status: 'pending' }), tag: 'x' }, (f) => f)).toEqual({ processed: 500, done: { tagged: 480 }, skipped: { already_tagged: 20 }, finished: false, next: 1234, maxId: 9000, total: 1500, remaining: 1000 });
    expect(seen[0]!.body).toMatchObject({ filter: { list: 2, status: 'pending' } });
    expect(await cmsMailer.erase(t, base, 'x@example.com')).toMatchObject({ erased: true, counts: { subscribers: 1, consent: 5 } });
  });
});

describe('pure pieces', () => {
  test('epoch seconds (numbers or text), milliseconds and ISO text as ISO; anything else null', () => {
    expect(isoOf(T0)).toBe('2023-11-14T22:13:20.000Z');
    expect(isoOf(String(T0))).toBe('2023-11-14T22:13:20.000Z');
    expect(isoOf(T0 * 1000)).toBe('2023-11-14T22:13:20.000Z');
    expect(isoOf('2025-03-01T09:30:00Z')).toBe('2025-03-01T09:30:00.000Z');
    expect([isoOf(null), isoOf(0), isoOf('soon'), isoOf(undefined)]).toEqual([null, null, null, null]);
    expect(filterQuery({ q: '', status: 'pending' })).toEqual({ status: 'pending' });
  });

  test('the suppression hash is the SHA-256 of the trimmed, lower-cased address, computed without Node’s crypto', () => {
    for (const s of ['', 'abc', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'x'.repeat(1000), 'jöhn@exämple.com', '😀x@y.z', '\ud800lone']) {
      expect(sha256Hex(s), JSON.stringify(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
    }
    expect(suppressionHash('  Ada@Example.COM ')).toBe(createHash('sha256').update('ada@example.com').digest('hex'));
  });

  test('a definition nested past 4 levels is not a channel’s input; conditions are counted through groups', () => {
    const deep = { all: [{ all: [{ all: [{ all: [{ field: 'status', op: 'is', value: 'subscribed' }] }] }] }] };
    expect(asSegmentDefinition(deep)).toEqual(deep);
    expect(asSegmentDefinition({ all: [deep] })).toBeNull();
    expect(conditionCount({ all: [{ field: 'a', op: 'is' }], any: [{ none: [{ field: 'b', op: 'is' }, { field: 'c', op: 'is' }] }] })).toBe(3);
  });
});

describe('the mailer’s gate reads either spelling of the permission', () => {
  const me = (access: Me['access'], o: Partial<Me> = {}): Me => ({ username: 'u', email: null, fullname: null, superAdmin: false, access, ...o }) as Me;
  test('document 2’s mailer.* or Mailroom’s mailroom.*; api.super counts as all; a site’s own spelling when known', () => {
    expect(areaBlockedReason(me({ api: { access: true }, mailer: { view: true } }), 'mailer')).toBeNull();
    expect(areaBlockedReason(me({ 'api.access': true, 'mailroom.view': true }), 'mailer')).toBeNull();
    expect(areaBlockedReason(me({ api: { access: true } }), 'mailer')).toBe('This account lacks the mailer.view or mailroom.view permission.');
    expect(areaBlockedReason(me({ api: { access: true, super: true } }), 'mailer')).toBeNull();
    expect(mailerBlockedReason(me({ api: { access: true }, mailer: { view: true } }), 'manage')).toBe('This account lacks the mailer.manage or mailroom.manage permission.');
    expect(mailerBlockedReason(me({ api: { access: true }, mailer: { view: true, manage: true } }), 'manage', 'mailroom')).toBe('This account lacks the mailroom.manage permission.');
    expect(mailerBlockedReason(me({ mailer: { view: true } }), 'view')).toMatch(/api\.access/);
  });
  test('the real service’s /me lists only the api.* permissions, flat: it cannot say whether Mailroom’s are held, so the site decides', () => {
    const real = me({ 'api.super': false, 'api.access': true, 'api.pages': false, 'api.pages.read': true, 'api.demo': false });
    expect(areaBlockedReason(real, 'mailer')).toBeNull();
    expect(mailerBlockedReason(real, 'manage', 'mailroom')).toBeNull();
    // it still refuses without api.access, and a demo account as before
    expect(mailerBlockedReason(me({ 'api.access': false, 'api.super': false }), 'view')).toMatch(/api\.access/);
    const demo = me({ 'api.access': true, 'api.super': true, 'api.demo': true }, { superAdmin: true, demoMode: { enabled: true, writable: [] as string[] } } as Partial<Me>);
    expect(mailerBlockedReason(demo, 'view', 'mailroom')).toMatch(/^Demo accounts cannot use the mailing plugin/);
    // a map that names other plugins' permissions says what it grants: nothing of the mailer here
    expect(areaBlockedReason(me({ 'api.access': true, 'team.view': true }), 'mailer')).toBe('This account lacks the mailer.view or mailroom.view permission.');
  });
  test('a demo account reads document 2’s audience and writes nothing; Mailroom lets it do neither', () => {
    const demo = me({ api: { access: true, super: true, demo: true } }, { superAdmin: true, demoMode: { enabled: true, writable: ['api.pages.write'] } } as Partial<Me>);
    expect(mailerBlockedReason(demo, 'view', 'mailer')).toBeNull();
    expect(mailerBlockedReason(demo, 'manage', 'mailer')).toBe('Demo accounts cannot change the mailing audience on this site (demo mode).');
    expect(mailerBlockedReason(demo, 'view', 'mailroom')).toMatch(/^Demo accounts cannot use the mailing plugin/);
    expect(mailerBlockedReason(demo, 'manage')).toMatch(/^Demo accounts cannot change the mailing audience/);
  });
});
