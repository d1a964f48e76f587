/**
 * The mailer sandbox's segments (test/sandbox/cms/mailer/segments.ts): the check of a definition
 * (paths named, incomplete conditions left out only when lenient, groups inside groups only in the
 * spec flavour and at most 4 deep, at most 100 conditions) and its evaluation: the SQL it becomes,
 * run over a handful of people in an in-memory copy of the mailer's schema whose answers are known
 * by hand (all, any, none, nesting, every field and operator).
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DDL } from '../sandbox/cms/mailer/schema';
import { checkDefinition, DefinitionError, groupSql, vocabulary, type CheckOptions } from '../sandbox/cms/mailer/segments';

const NOW = 1_800_000_000;
const DAY = 86_400;
const known = { lists: new Set([1, 2]), tags: new Set([1, 2, 3]), campaigns: new Set([1, 2]) };
const opts = (o: Partial<CheckOptions> = {}): CheckOptions => ({ flavor: 'spec', lenient: false, known, ...o });

/** [id, email, status, source, language, joined days ago] */
const PEOPLE: [number, string, string, string, string | null, number][] = [
  [1, 'ann@example.com', 'subscribed', 'form', 'de', 10],
  [2, 'ben@example.org', 'subscribed', 'import', 'fr', 400],
  [3, 'cat@example.com', 'pending', 'admin', null, 2],
  [4, 'dan@example.net', 'unsubscribed', 'form', 'de-AT', 200],
  [5, 'eve@example.org', 'subscribed', 'api', 'en', 95],
];

let db: Database.Database;
beforeAll(() => {
  db = new Database(':memory:');
  db.exec(DDL);
  const ins = db.prepare("INSERT INTO subscribers (id, email, email_hash, name, status, source, language, created_at, updated_at) VALUES (?, ?, '', '', ?, ?, ?, ?, ?)");
  for (const [id, email, status, source, lang, ago] of PEOPLE) ins.run(id, email, status, source, lang, NOW - ago * DAY, NOW);
  const mem = db.prepare('INSERT INTO memberships (subscriber_id, list_id, status, since) VALUES (?, ?, ?, 0)');
  mem.run(1, 1, 'subscribed');
  mem.run(2, 1, 'subscribed');
  mem.run(2, 2, 'unsubscribed');
  mem.run(3, 1, 'pending');
  mem.run(5, 2, 'subscribed');
  const tag = db.prepare('INSERT INTO subscriber_tags (subscriber_id, tag_id) VALUES (?, ?)');
  tag.run(1, 1);
  tag.run(2, 1);
  tag.run(2, 2);
  tag.run(5, 3);
  const send = db.prepare('INSERT INTO sends (campaign_id, subscriber_id, status, sent_at, opened_at, clicked_at) VALUES (?, ?, ?, 0, ?, ?)');
  send.run(1, 1, 'clicked', NOW - 20 * DAY, NOW - 20 * DAY);
  send.run(1, 2, 'delivered', null, null);
  send.run(2, 2, 'opened', NOW - 200 * DAY, null);
  send.run(2, 5, 'opened', NOW - 5 * DAY, null);
});
afterAll(() => db.close());

/** The ids a definition matches, through the check and the SQL. */
function who(definition: unknown, o?: Partial<CheckOptions>): number[] {
  const { group } = checkDefinition(definition, opts({ lenient: true, ...o }));
  const params: Record<string, unknown> = {};
  const sql = groupSql(group, NOW, params);
  return (db.prepare(`SELECT s.id FROM subscribers s WHERE ${sql} ORDER BY s.id`).all(params) as { id: number }[]).map((r) => r.id);
}

describe('evaluation', () => {
  test('each field and operator', () => {
    const c = (field: string, op: string, value?: unknown) => who({ all: [{ field, op, ...(value === undefined ? {} : { value }) }] });
    expect(c('list', 'is', 1)).toEqual([1, 2, 3]); // on it in any standing but left
    expect(c('list', 'is', 2)).toEqual([5]);
    expect(c('list', 'is_not', 1)).toEqual([4, 5]);
    expect(c('tag', 'is', 1)).toEqual([1, 2]);
    expect(c('tag', 'is_not', 1)).toEqual([3, 4, 5]);
    expect(c('status', 'is', 'subscribed')).toEqual([1, 2, 5]);
    expect(c('status', 'is_not', 'subscribed')).toEqual([3, 4]);
    expect(c('source', 'is', 'form')).toEqual([1, 4]);
    expect(c('source', 'is_not', 'form')).toEqual([2, 3, 5]);
    expect(c('subscribed_at', 'within_days', 30)).toEqual([1, 3]);
    expect(c('subscribed_at', 'older_than_days', 180)).toEqual([2, 4]);
    expect(c('subscribed_at', 'before', NOW - 100 * DAY)).toEqual([2, 4]);
    expect(c('subscribed_at', 'after', NOW - 100 * DAY)).toEqual([1, 3, 5]);
    expect(c('language', 'is', 'DE')).toEqual([1]);
    expect(c('language', 'contains', 'de')).toEqual([1, 4]);
    expect(c('language', 'is_set')).toEqual([1, 2, 4, 5]);
    expect(c('language', 'is_empty')).toEqual([3]);
    expect(c('email_domain', 'is', 'example.org')).toEqual([2, 5]);
    expect(c('email_domain', 'is_not', '@example.org')).toEqual([1, 3, 4]);
    expect(c('was_sent', 'is', 1)).toEqual([1, 2]);
    expect(c('was_sent', 'is_not', 1)).toEqual([3, 4, 5]);
    expect(c('opened', 'is', 2)).toEqual([2, 5]);
    expect(c('clicked', 'is', 1)).toEqual([1]);
    expect(c('not_opened_in_days', 'gte', 30)).toEqual([2, 3, 4]);
    expect(c('not_opened_in_days', 'gte', 3)).toEqual([1, 2, 3, 4, 5]);
    expect(c('not_opened_in_days', 'gte', 10)).toEqual([1, 2, 3, 4]);
  });

  test('all: every one; any: at least one (empty: no condition); none: not one; nothing: everybody', () => {
    expect(who({ all: [{ field: 'tag', op: 'is', value: 1 }, { field: 'language', op: 'is', value: 'fr' }] })).toEqual([2]);
    expect(who({ any: [{ field: 'tag', op: 'is', value: 3 }, { field: 'status', op: 'is', value: 'pending' }] })).toEqual([3, 5]);
    expect(who({ none: [{ field: 'tag', op: 'is', value: 1 }, { field: 'source', op: 'is', value: 'api' }] })).toEqual([3, 4]);
    expect(who({ all: [{ field: 'status', op: 'is', value: 'subscribed' }], any: [], none: [{ field: 'list', op: 'is', value: 2 }] })).toEqual([1, 2]);
    expect(who({})).toEqual([1, 2, 3, 4, 5]);
  });

  test('groups inside groups: A and (B or (C and D)), and none of a group', () => {
    const def = { all: [{ field: 'email_domain', op: 'is_not', value: 'example.net' }, { any: [{ field: 'status', op: 'is', value: 'pending' }, { all: [{ field: 'tag', op: 'is', value: 1 }, { field: 'source', op: 'is', value: 'import' }] }] }] };
    expect(who(def)).toEqual([2, 3]);
    expect(who({ none: [{ any: [{ field: 'language', op: 'is', value: 'de' }, { field: 'language', op: 'is', value: 'fr' }] }] })).toEqual([3, 4, 5]);
  });

  test('conditions not filled in are left out when lenient, and counted', () => {
    const checked = checkDefinition({ all: [{ field: 'tag', op: 'is' }, { field: 'status', op: 'is', value: 'subscribed' }], any: [{ field: 'language', op: 'contains', value: '' }] }, opts({ lenient: true }));
    expect(checked.ignored).toBe(2);
    expect(checked.conditions).toBe(3);
    expect(checked.group).toEqual({ all: [{ field: 'status', op: 'is', value: 'subscribed' }], any: [] });
  });
});

describe('the check', () => {
  const path = (definition: unknown, o?: Partial<CheckOptions>) => {
    try {
      checkDefinition(definition, opts(o));
    } catch (e) {
      expect(e).toBeInstanceOf(DefinitionError);
      return [(e as DefinitionError).path, (e as DefinitionError).code];
    }
    return null;
  };

  test('names the path at fault', () => {
    expect(path(null)).toEqual(['definition', 'definition_invalid']);
    expect(path({ every: [] })).toEqual(['definition.every', 'definition_invalid']);
    expect(path({ any: 'x' })).toEqual(['definition.any', 'definition_invalid']);
    expect(path({ any: [5] })).toEqual(['definition.any.0', 'definition_invalid']);
    expect(path({ none: [{ field: 'age', op: 'is', value: 3 }] })).toEqual(['definition.none.0.field', 'definition_invalid']);
    expect(path({ all: [{ field: 'list', op: 'contains', value: 1 }] })).toEqual(['definition.all.0.op', 'definition_invalid']);
    expect(path({ all: [{ field: 'list', op: 'is', value: 3 }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'list', op: 'is', value: '1' }] })).toBeNull();
    expect(path({ all: [{ field: 'status', op: 'is', value: 'gone' }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'subscribed_at', op: 'after', value: 1.5 }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'not_opened_in_days', op: 'gte', value: 40_000 }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'language', op: 'is', value: 'x'.repeat(201) }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'tag', op: 'is' }] })).toEqual(['definition.all.0.value', 'definition_invalid']);
    expect(path({ all: [{ field: 'language', op: 'is_set', value: 'ignored' }] })).toBeNull();
  });

  test('groups: 4 deep at most; the real plugin takes none; 100 conditions at most', () => {
    let deep: unknown = { field: 'tag', op: 'is', value: 1 };
    for (let i = 0; i < 3; i++) deep = { any: [deep] };
    expect(path({ all: [deep] })).toBeNull();
    expect(path({ all: [{ all: [deep] }] })).toEqual(['definition.all.0.all.0.any.0.any.0', 'definition_invalid']);
    expect(path({ all: [{ any: [] }] }, { flavor: 'real' })).toEqual(['definition.all.0', 'nested_groups_unsupported']);
    expect(path({ all: Array.from({ length: 100 }, () => ({ field: 'tag', op: 'is', value: 1 })) })).toBeNull();
    expect(path({ all: Array.from({ length: 101 }, () => ({ field: 'tag', op: 'is', value: 1 })) })).toEqual(['definition.all.100', 'definition_invalid']);
  });
});

test('the vocabulary: options from the site’s lists, tags and campaigns; enums labelled', () => {
  const v = vocabulary({ lists: [{ id: 1, name: 'News' }], tags: [{ id: 4, label: 'VIP' }], campaigns: [{ id: 9, name: 'Spring' }] });
  const f = Object.fromEntries(v.fields.map((x) => [x.key, x]));
  expect(f.list!.options).toEqual([{ value: 1, label: 'News' }]);
  expect(f.tag!.options).toEqual([{ value: 4, label: 'VIP' }]);
  expect(f.clicked!.options).toEqual([{ value: 9, label: 'Spring' }]);
  expect(f.source!.options).toEqual([
    { value: 'form', label: 'Signup form' },
    { value: 'import', label: 'Imported' },
    { value: 'api', label: 'API' },
    { value: 'admin', label: 'Added by the site' },
    { value: 'automation', label: 'An automation' },
  ]);
  expect(f.language!.options).toBeUndefined();
});
