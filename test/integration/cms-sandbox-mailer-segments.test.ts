/**
 * The mailer's segments over real HTTP, both flavours (document 2 "Segments";
 * docs/mailer-audience.md "Segments"): the vocabulary of fields with their types, operators and
 * options; previews that count, leave out who cannot be mailed and sample, with conditions not
 * filled in left out; the definition's `all`/`any`/`none` (and, in the spec flavour, groups inside
 * groups); saved segments with cached counts and their time, cleared by a change of conditions or
 * list, taken again by the worker on the sandbox's clock or by a recount; and a delete refused
 * while a draft or scheduled campaign points at the segment. Counts are checked against the
 * store's own tables.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { until } from '../support/until';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { data, expectCode, mailerPaths, type MailerPaths } from '../support/mailer';

const MAILABLE = "s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.status = 'subscribed')";

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const count = (query: string, ...args: unknown[]) => (sb.mailer.store.db.prepare(query).get(...args) as { n: number }).n;
  const preview = (definition: unknown, list_id?: number) => api.post(m.p('/segments/preview'), { definition, ...(list_id ? { list_id } : {}) });

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 4000 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  test('the vocabulary: every field with its group, type, operators (and what value each takes) and options', async () => {
    const v = data(await api.get(m.p('/segments/vocabulary')));
    expect(v.groups).toEqual([
      { key: 'subscriber', label: 'Subscriber' },
      { key: 'engagement', label: 'Engagement' },
    ]);
    const byKey = Object.fromEntries(v.fields.map((f: Json) => [f.key, f]));
    expect(Object.keys(byKey)).toEqual(['list', 'tag', 'status', 'subscribed_at', 'source', 'language', 'email_domain', 'was_sent', 'opened', 'clicked', 'not_opened_in_days']);
    expect(byKey.list.options).toEqual([
      { value: 1, label: 'Newsletter' },
      { value: 2, label: 'Product updates' },
      { value: 3, label: 'Events' },
      { value: 4, label: 'Partner offers' },
    ]);
    expect(byKey.tag.options).toHaveLength(8);
    expect(byKey.status.options.map((o: Json) => o.value)).toEqual(['pending', 'subscribed', 'unsubscribed', 'bounced', 'complained']);
    expect(byKey.was_sent.options.map((o: Json) => o.label)).toEqual(['Spring news', 'Product update 3.2', 'Summer events', 'Autumn news', 'Winter preview', 'VIP evening']);
    expect(byKey.subscribed_at).toMatchObject({ type: 'date', group: 'subscriber', operators: [{ key: 'before', value: 'date' }, { key: 'after', value: 'date' }, { key: 'within_days', value: 'days' }, { key: 'older_than_days', value: 'days' }] });
    expect(byKey.language.operators.map((o: Json) => [o.key, o.value])).toEqual([
      ['is', 'text'],
      ['contains', 'text'],
      ['is_set', 'none'],
      ['is_empty', 'none'],
    ]);
    expect(byKey.not_opened_in_days).toMatchObject({ group: 'engagement', type: 'number', operators: [{ key: 'gte', label: 'is at least', value: 'days' }] });
    for (const f of v.fields) expect(f.label).toEqual(expect.any(String));
  });

  test('preview: who matches and can be mailed, who is left out, a sample of ten; all, any and none', async () => {
    const tagged = await preview({ all: [{ field: 'tag', op: 'is', value: 4 }] });
    const r = data(tagged);
    const matching = count('SELECT count(*) AS n FROM subscribers s WHERE EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_id = 4)');
    const mailable = count(`SELECT count(*) AS n FROM subscribers s WHERE EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_id = 4) AND ${MAILABLE}`);
    expect(r).toMatchObject({ count: mailable, left_out: matching - mailable, ignored: 0 });
    expect(r.left_out).toBeGreaterThan(0);
    expect(r.sample).toHaveLength(10);
    for (const s of r.sample) expect(s).toEqual({ id: expect.any(Number), email: expect.stringContaining('@'), name: expect.any(String) });
    expect(r.sample.map((s: Json) => s.id)).toEqual([...r.sample.map((s: Json) => s.id)].sort((a, b) => b - a));

    // any: at least one; none: none of them
    const langs = data(await preview({ any: [{ field: 'language', op: 'is', value: 'de' }, { field: 'language', op: 'is', value: 'FR' }], none: [{ field: 'source', op: 'is', value: 'import' }] }));
    expect(langs.count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE s.language IN ('de', 'fr') AND s.source <> 'import' AND ${MAILABLE}`));
    // a list limits the audience to those subscribed on it
    const onList = data(await preview({ all: [{ field: 'email_domain', op: 'is', value: 'example.org' }] }, 3));
    expect(onList.count).toBe(count("SELECT count(*) AS n FROM subscribers s WHERE s.email LIKE '%@example.org' AND s.status = 'subscribed' AND s.suppressed = 0 AND EXISTS (SELECT 1 FROM memberships am WHERE am.subscriber_id = s.id AND am.list_id = 3 AND am.status = 'subscribed')"));
    // engagement: opened a campaign, never opened in 90 days
    const opened = data(await preview({ all: [{ field: 'opened', op: 'is', value: 4 }] }));
    expect(opened.count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = 4 AND x.opened_at IS NOT NULL) AND ${MAILABLE}`));
    expect(opened.count).toBeGreaterThan(0);
    const quiet = data(await preview({ all: [{ field: 'not_opened_in_days', op: 'gte', value: 90 }, { field: 'clicked', op: 'is_not', value: 1 }] }));
    const since = sb.clock.nowSec() - 90 * 86_400;
    expect(quiet.count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE NOT EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.opened_at >= ${since}) AND NOT EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = 1 AND x.clicked_at IS NOT NULL) AND ${MAILABLE}`));
    // joined within the last 30 days, in epoch-second terms; before a time given in epoch seconds
    const cut = sb.clock.nowSec() - 30 * 86_400;
    expect(data(await preview({ all: [{ field: 'subscribed_at', op: 'within_days', value: 30 }] })).count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE s.created_at >= ${cut} AND ${MAILABLE}`));
    expect(data(await preview({ all: [{ field: 'subscribed_at', op: 'before', value: cut }] })).count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE s.created_at < ${cut} AND ${MAILABLE}`));
    // nothing at all: everybody who can be mailed
    expect(data(await preview({})).count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE ${MAILABLE}`));
  });

  test('a condition not filled in is left out of a preview and counted as ignored; saving refuses it by its path', async () => {
    const def = { all: [{ field: 'tag', op: 'is', value: 4 }, { field: 'language', op: 'is' }], none: [{ field: 'status', op: 'is', value: '' }] };
    const r = data(await preview(def));
    expect(r.ignored).toBe(2);
    expect(r.count).toBe(data(await preview({ all: [{ field: 'tag', op: 'is', value: 4 }] })).count);
    const refused = expectCode(await api.post(m.p('/segments'), { name: 'Half done', definition: def }), 422, 'definition_invalid');
    expect(refused.errors).toEqual([{ field: 'definition.all.1.value', message: refused.detail }]);
  });

  test('groups inside groups: "A and (B or C)" in the spec flavour; the real plugin takes the flat document only', async () => {
    const nested = { all: [{ field: 'tag', op: 'is', value: 2 }, { any: [{ field: 'language', op: 'is', value: 'de' }, { all: [{ field: 'source', op: 'is', value: 'form' }, { field: 'email_domain', op: 'is', value: 'example.com' }] }] }] };
    const r = await preview(nested);
    if (real) {
      expect(expectCode(r, 422, 'nested_groups_unsupported').errors[0].field).toBe('definition.all.1');
      return;
    }
    expect(data(r).count).toBe(count(`SELECT count(*) AS n FROM subscribers s WHERE EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_id = 2) AND (s.language = 'de' OR (s.source = 'form' AND s.email LIKE '%@example.com')) AND ${MAILABLE}`));
    let deep: Json = { field: 'tag', op: 'is', value: 1 };
    for (let i = 0; i < 4; i++) deep = { all: [deep] };
    expectCode(await preview({ all: [deep] }), 422, 'definition_invalid');
  });

  test('what a definition may not say: 422 naming the path', async () => {
    const bad: [unknown, string][] = [
      [[], 'definition'],
      [{ some: [] }, 'definition.some'],
      [{ all: {} }, 'definition.all'],
      [{ all: [{ field: 'shoe_size', op: 'is', value: 1 }] }, 'definition.all.0.field'],
      [{ all: [{ field: 'tag', op: 'gte', value: 1 }] }, 'definition.all.0.op'],
      [{ all: [{ field: 'tag', op: 'is', value: 999 }] }, 'definition.all.0.value'],
      [{ any: [{ field: 'status', op: 'is', value: 'asleep' }] }, 'definition.any.0.value'],
      [{ all: [{ field: 'subscribed_at', op: 'before', value: '2024-01-01' }] }, 'definition.all.0.value'],
      [{ none: [{ field: 'not_opened_in_days', op: 'gte', value: -3 }] }, 'definition.none.0.value'],
    ];
    for (const [definition, path] of bad) {
      const p = expectCode(await preview(definition), 422, 'definition_invalid');
      expect(p.errors[0].field, JSON.stringify(definition)).toBe(path);
    }
    expectCode(await api.post(m.p('/segments/preview'), {}), 422, 'definition_invalid');
    expectCode(await preview({ all: [] }, 99), 422, 'unknown_list');
  });

  test('saved segments: the seed’s three with cached counts and their time; create, read, edit (a change of conditions or list clears the count), recount', async () => {
    const all = data(await api.get(m.p('/segments'))) as Json[];
    expect(all.map((s) => s.name)).toEqual(['Quiet readers', 'New this month', 'German and French VIPs']);
    for (const s of all) expect(s).toMatchObject({ count: expect.any(Number), left_out: expect.any(Number), counted_at: expect.any(Number) });
    expect(all[0]).toMatchObject({ list_id: 1, campaigns: 1 });
    expect(all[0]!.count).toBe(data(await preview(all[0]!.definition, 1)).count);

    const def = { all: [{ field: 'tag', op: 'is', value: 1 }] };
    const made = await api.post(m.p('/segments'), { name: 'VIPs', description: 'Everybody tagged VIP', definition: def });
    const s = data(made, 201);
    expect(made.headers.get('location')).toBe(`${sb.prefix}${m.base}/segments/${s.id}`);
    expect(s).toMatchObject({ name: 'VIPs', description: 'Everybody tagged VIP', list_id: null, definition: def, count: null, left_out: null, counted_at: null, campaigns: 0 });
    expect(data(await api.get(m.p(`/segments/${s.id}`)))).toEqual(s);

    const counted = data(await api.post(m.p(`/segments/${s.id}/count`)));
    expect(counted.count).toBe(data(await preview(def)).count);
    expect(counted.counted_at).toBeGreaterThanOrEqual(sb.clock.nowSec() - 2);

    // a name change keeps the count; a list or conditions change clears it
    expect(data(await api.patch(m.p(`/segments/${s.id}`), { name: 'VIP readers', description: null }))).toMatchObject({ name: 'VIP readers', description: null, count: counted.count, counted_at: counted.counted_at });
    expect(data(await api.patch(m.p(`/segments/${s.id}`), { list_id: 2 }))).toMatchObject({ list_id: 2, count: null, counted_at: null });
    data(await api.post(m.p(`/segments/${s.id}/count`)));
    expect(data(await api.patch(m.p(`/segments/${s.id}`), { definition: { all: [{ field: 'tag', op: 'is', value: 3 }] } }))).toMatchObject({ count: null, counted_at: null });
    expectCode(await api.patch(m.p(`/segments/${s.id}`), { definition: { all: [{ field: 'tag', op: 'is' }] } }), 422, 'definition_invalid');
    expectCode(await api.patch(m.p(`/segments/${s.id}`), { name: null }), 422);
    expectCode(await api.post(m.p('/segments'), { definition: def }), 422);
    expectCode(await api.post(m.p('/segments'), { name: 'No definition' }), 422, 'definition_invalid');
    expectCode(await api.get(m.p('/segments/9999')), 404);
    expectCode(await api.post(m.p('/segments/9999/count')), 404);
  });

  test('the worker takes counts on the sandbox’s clock: a cleared count within a minute, a stale one after 15 minutes', async () => {
    const s = data(await api.post(m.p('/segments'), { name: 'Donors', definition: { all: [{ field: 'tag', op: 'is', value: 7 }] } }), 201);
    await sb.mailer.settled();
    expect(data(await api.get(m.p(`/segments/${s.id}`))).count).toBeNull();
    sb.clock.advance(61_000);
    await until(async () => data(await api.get(m.p(`/segments/${s.id}`))).count, (n) => n !== null, 5000);
    const first = data(await api.get(m.p(`/segments/${s.id}`)));
    expect(first.count).toBe(data(await preview({ all: [{ field: 'tag', op: 'is', value: 7 }] })).count);
    // the count is kept as it was while the audience changes, until it is older than 15 minutes
    const donor = (sb.mailer.store.db.prepare("SELECT s.id FROM subscribers s JOIN subscriber_tags t ON t.subscriber_id = s.id AND t.tag_id = 7 WHERE s.status = 'subscribed' AND s.suppressed = 0 LIMIT 1").get() as { id: number }).id;
    data(await api.post(m.p(`/subscribers/${donor}/unsubscribe`)));
    sb.clock.advance(5 * 60_000);
    await sb.mailer.settled();
    await new Promise((r) => setTimeout(r, 450));
    expect(data(await api.get(m.p(`/segments/${s.id}`)))).toMatchObject({ count: first.count, counted_at: first.counted_at });
    sb.clock.advance(11 * 60_000);
    await until(async () => data(await api.get(m.p(`/segments/${s.id}`))).count, (n) => n === first.count - 1, 5000);
    expect(data(await api.get(m.p(`/segments/${s.id}`))).counted_at).toBeGreaterThan(first.counted_at);
  });

  test('delete: refused while a draft or scheduled campaign points at it (naming them); allowed once none does', async () => {
    const refused = expectCode(await api.delete(m.p('/segments/1')), 409, 'segment_in_use');
    if (real) expect(refused.campaigns).toBeUndefined();
    else expect(refused.campaigns).toEqual([{ id: 5, name: 'Winter preview', status: 'draft' }]);
    expect(refused.detail).toBe('A draft or scheduled campaign uses this segment (Winter preview): point it at another segment or none first.');
    expectCode(await api.delete(m.p('/segments/3')), 409, 'segment_in_use');
    // the campaign is sent (campaigns are another slice: the sandbox's control moves it)
    const moved = await fetch(`${sb.origin}/__sandbox/mailer/campaigns/5`, { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ status: 'sent' }) });
    expect(moved.status).toBe(200);
    expect(data(await api.get(m.p('/segments/1'))).campaigns).toBe(0);
    expect((await api.delete(m.p('/segments/1'))).status).toBe(204);
    expectCode(await api.get(m.p('/segments/1')), 404);
    expectCode(await api.delete(m.p('/segments/1')), 404);
  });
});

