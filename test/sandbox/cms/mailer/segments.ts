/**
 * Segments (docs/mailer-audience.md, "Segments"): the vocabulary of fields and operators, the
 * check of a definition (`all`/`any`/`none` containers of conditions; the `spec` flavour also
 * takes groups of the same shape inside, up to 4 deep), and its translation into one SQL
 * condition over the mailer's tables (`s` is the subscriber row). Pure: the SQL is text and
 * parameters; the store runs it.
 */
import type { Flavor } from '../../flavor';

export const STATUSES = ['pending', 'subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export const SOURCES = ['form', 'import', 'api', 'admin', 'automation'] as const;

type ValueKind = 'list' | 'tag' | 'enum' | 'date' | 'days' | 'text' | 'campaign' | 'number' | 'none';

interface OperatorDef {
  key: string;
  label: string;
  value: ValueKind;
}
interface FieldDef {
  key: string;
  label: string;
  group: 'subscriber' | 'engagement';
  type: 'list' | 'tag' | 'enum' | 'date' | 'string' | 'campaign' | 'number';
  operators: OperatorDef[];
  /** for enums: their values */
  values?: readonly string[];
}

const IS = (v: ValueKind): OperatorDef[] => [
  { key: 'is', label: 'is', value: v },
  { key: 'is_not', label: 'is not', value: v },
];

export const FIELDS: readonly FieldDef[] = [
  { key: 'list', label: 'On list', group: 'subscriber', type: 'list', operators: IS('list') },
  { key: 'tag', label: 'Tagged', group: 'subscriber', type: 'tag', operators: IS('tag') },
  { key: 'status', label: 'Subscriber status', group: 'subscriber', type: 'enum', operators: IS('enum'), values: STATUSES },
  {
    key: 'subscribed_at',
    label: 'Joined',
    group: 'subscriber',
    type: 'date',
    operators: [
      { key: 'before', label: 'is before', value: 'date' },
      { key: 'after', label: 'is after', value: 'date' },
      { key: 'within_days', label: 'is within the last', value: 'days' },
      { key: 'older_than_days', label: 'is longer ago than', value: 'days' },
    ],
  },
  { key: 'source', label: 'How they joined', group: 'subscriber', type: 'enum', operators: IS('enum'), values: SOURCES },
  {
    key: 'language',
    label: 'Language',
    group: 'subscriber',
    type: 'string',
    operators: [
      { key: 'is', label: 'is', value: 'text' },
      { key: 'contains', label: 'contains', value: 'text' },
      { key: 'is_set', label: 'is set', value: 'none' },
      { key: 'is_empty', label: 'is empty', value: 'none' },
    ],
  },
  { key: 'email_domain', label: 'Address domain', group: 'subscriber', type: 'string', operators: IS('text') },
  { key: 'was_sent', label: 'Was sent campaign', group: 'engagement', type: 'campaign', operators: IS('campaign') },
  { key: 'opened', label: 'Opened campaign', group: 'engagement', type: 'campaign', operators: IS('campaign') },
  { key: 'clicked', label: 'Clicked in campaign', group: 'engagement', type: 'campaign', operators: IS('campaign') },
  { key: 'not_opened_in_days', label: 'Has not opened anything in', group: 'engagement', type: 'number', operators: [{ key: 'gte', label: 'is at least', value: 'days' }] },
];

const STATUS_LABELS: Record<string, string> = { pending: 'Waiting to confirm', subscribed: 'Subscribed', unsubscribed: 'Left', bounced: 'Bounced', complained: 'Complained' };
const SOURCE_LABELS: Record<string, string> = { form: 'Signup form', import: 'Imported', api: 'API', admin: 'Added by the site', automation: 'An automation' };

export interface VocabularyOptions {
  lists: { id: number; name: string }[];
  tags: { id: number; label: string }[];
  campaigns: { id: number; name: string }[];
}

/** GET /segments/vocabulary */
export function vocabulary(o: VocabularyOptions) {
  const optionsOf = (f: FieldDef) => {
    switch (f.type) {
      case 'list':
        return o.lists.map((l) => ({ value: l.id, label: l.name }));
      case 'tag':
        return o.tags.map((t) => ({ value: t.id, label: t.label }));
      case 'campaign':
        return o.campaigns.map((c) => ({ value: c.id, label: c.name }));
      case 'enum':
        return f.values!.map((v) => ({ value: v, label: (f.key === 'status' ? STATUS_LABELS : SOURCE_LABELS)[v] ?? v }));
      default:
        return undefined;
    }
  };
  return {
    groups: [
      { key: 'subscriber', label: 'Subscriber' },
      { key: 'engagement', label: 'Engagement' },
    ],
    fields: FIELDS.map((f) => {
      const options = optionsOf(f);
      return { key: f.key, label: f.label, group: f.group, type: f.type, operators: f.operators, ...(options ? { options } : {}) };
    }),
  };
}

export interface Condition {
  field: string;
  op: string;
  value?: unknown;
}
export interface Group {
  all?: Item[];
  any?: Item[];
  none?: Item[];
}
export type Item = Condition | Group;

export class DefinitionError extends Error {
  constructor(
    message: string,
    readonly path: string,
    readonly code: 'definition_invalid' | 'nested_groups_unsupported' = 'definition_invalid',
  ) {
    super(message);
  }
}

const MAX_DEPTH = 4;
const MAX_CONDITIONS = 100;
const CONTAINERS = ['all', 'any', 'none'] as const;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface CheckOptions {
  flavor: Flavor;
  /** a preview leaves incomplete conditions out instead of refusing them */
  lenient: boolean;
  /** ids that exist, to refuse a condition naming none */
  known: { lists: Set<number>; tags: Set<number>; campaigns: Set<number> };
}

export interface Checked {
  group: Group;
  /** incomplete conditions left out (preview only) */
  ignored: number;
  conditions: number;
}

/** Checks a definition; throws DefinitionError naming the path at fault. */
export function checkDefinition(input: unknown, o: CheckOptions): Checked {
  let conditions = 0;
  let ignored = 0;
  const group = (node: unknown, path: string, depth: number): Group => {
    if (!isObj(node)) throw new DefinitionError(`${path} must be an object with all, any and none lists of conditions.`, path);
    const out: Group = {};
    for (const key of Object.keys(node)) {
      if (!(CONTAINERS as readonly string[]).includes(key)) throw new DefinitionError(`${path}.${key} is not a container; use all, any and none.`, `${path}.${key}`);
    }
    for (const key of CONTAINERS) {
      const list = node[key];
      if (list === undefined || list === null) continue;
      if (!Array.isArray(list)) throw new DefinitionError(`${path}.${key} must be a list.`, `${path}.${key}`);
      const items: Item[] = [];
      list.forEach((item, i) => {
        const p = `${path}.${key}.${i}`;
        if (isObj(item) && !('field' in item) && CONTAINERS.some((c) => c in item)) {
          if (o.flavor === 'real') throw new DefinitionError('This site takes conditions under all, any and none only, without groups inside.', p, 'nested_groups_unsupported');
          if (depth + 1 > MAX_DEPTH) throw new DefinitionError(`${p}: groups nest at most ${MAX_DEPTH} deep.`, p);
          items.push(group(item, p, depth + 1));
          return;
        }
        const c = condition(item, p);
        if (c) items.push(c);
      });
      out[key] = items;
    }
    return out;
  };
  const condition = (item: unknown, path: string): Condition | null => {
    if (!isObj(item)) throw new DefinitionError(`${path} must be a condition {field, op, value}.`, path);
    const field = FIELDS.find((f) => f.key === item.field);
    if (!field) throw new DefinitionError(`${path}.field: ${JSON.stringify(item.field)} is not a field; see GET segments/vocabulary.`, `${path}.field`);
    const op = field.operators.find((x) => x.key === item.op);
    if (!op) throw new DefinitionError(`${path}.op: ${field.key} takes ${field.operators.map((x) => x.key).join(', ')}.`, `${path}.op`);
    if (++conditions > MAX_CONDITIONS) throw new DefinitionError(`A definition holds at most ${MAX_CONDITIONS} conditions.`, path);
    if (op.value === 'none') return { field: field.key, op: op.key };
    const value = item.value;
    const empty = value === undefined || value === null || value === '';
    if (empty) {
      if (o.lenient) {
        ignored++;
        return null;
      }
      throw new DefinitionError(`${path}.value: fill in a value for "${field.label} ${op.label}".`, `${path}.value`);
    }
    const bad = (what: string) => new DefinitionError(`${path}.value must be ${what}.`, `${path}.value`);
    switch (op.value) {
      case 'list':
      case 'tag':
      case 'campaign': {
        const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
        if (typeof id !== 'number' || !Number.isInteger(id)) throw bad(`a ${op.value} id`);
        const known = op.value === 'list' ? o.known.lists : op.value === 'tag' ? o.known.tags : o.known.campaigns;
        if (!known.has(id)) throw new DefinitionError(`${path}.value: there is no ${op.value} ${id}.`, `${path}.value`);
        return { field: field.key, op: op.key, value: id };
      }
      case 'enum':
        if (typeof value !== 'string' || !field.values!.includes(value)) throw bad(`one of ${field.values!.join(', ')}`);
        return { field: field.key, op: op.key, value };
      case 'date':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw bad('a time in UTC epoch seconds');
        return { field: field.key, op: op.key, value };
      case 'days':
      case 'number':
        if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 36_500) throw bad('a whole number of days from 0 to 36500');
        return { field: field.key, op: op.key, value };
      case 'text':
        if (typeof value !== 'string' || value.length > 200) throw bad('text of at most 200 characters');
        return { field: field.key, op: op.key, value: value.trim().toLowerCase() };
    }
    return null;
  };
  const g = group(input, 'definition', 1);
  return { group: g, ignored, conditions };
}

/** A group's SQL condition over subscriber `s`, with named parameters added to `params`. */
export function groupSql(g: Group, nowSec: number, params: Record<string, unknown>): string {
  const param = (v: unknown) => {
    // named by the count so far: nested groups share `params`
    const name = `p${Object.keys(params).length}`;
    params[name] = v;
    return `@${name}`;
  };
  const cond = (c: Condition): string => {
    const v = c.value;
    const not = (sql: string) => (c.op === 'is_not' ? `NOT ${sql}` : sql);
    switch (c.field) {
      case 'list':
        return not(`EXISTS (SELECT 1 FROM memberships m WHERE m.subscriber_id = s.id AND m.list_id = ${param(v)} AND m.status IN ('pending', 'subscribed'))`);
      case 'tag':
        return not(`EXISTS (SELECT 1 FROM subscriber_tags t WHERE t.subscriber_id = s.id AND t.tag_id = ${param(v)})`);
      case 'status':
        return c.op === 'is' ? `s.status = ${param(v)}` : `s.status <> ${param(v)}`;
      case 'source':
        return c.op === 'is' ? `s.source = ${param(v)}` : `s.source <> ${param(v)}`;
      case 'subscribed_at': {
        const days = Number(v) * 86_400;
        if (c.op === 'before') return `s.created_at < ${param(v)}`;
        if (c.op === 'after') return `s.created_at > ${param(v)}`;
        if (c.op === 'within_days') return `s.created_at >= ${param(nowSec - days)}`;
        return `s.created_at < ${param(nowSec - days)}`;
      }
      case 'language':
        if (c.op === 'is_set') return `(s.language IS NOT NULL AND s.language <> '')`;
        if (c.op === 'is_empty') return `(s.language IS NULL OR s.language = '')`;
        if (c.op === 'is') return `lower(coalesce(s.language, '')) = ${param(v)}`;
        return `instr(lower(coalesce(s.language, '')), ${param(v)}) > 0`;
      case 'email_domain': {
        const sql = `substr(s.email, instr(s.email, '@') + 1) = ${param(String(v).replace(/^@/, ''))}`;
        return c.op === 'is' ? sql : `NOT ${sql}`;
      }
      case 'was_sent':
        return not(`EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = ${param(v)})`);
      case 'opened':
        return not(`EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = ${param(v)} AND x.opened_at IS NOT NULL)`);
      case 'clicked':
        return not(`EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.campaign_id = ${param(v)} AND x.clicked_at IS NOT NULL)`);
      case 'not_opened_in_days':
        return `NOT EXISTS (SELECT 1 FROM sends x WHERE x.subscriber_id = s.id AND x.opened_at >= ${param(nowSec - Number(v) * 86_400)})`;
    }
    throw new Error(`unknown field ${c.field}`);
  };
  // never NULL (an unknown column value), so NOT and none mean what they say
  const item = (i: Item): string => ('field' in i ? `coalesce((${cond(i as Condition)}), 0)` : `(${groupSql(i as Group, nowSec, params)})`);
  const parts: string[] = [];
  if (g.all?.length) parts.push(...g.all.map(item));
  if (g.any?.length) parts.push(`(${g.any.map(item).join(' OR ')})`);
  if (g.none?.length) parts.push(...g.none.map((i) => `NOT ${item(i)}`));
  return parts.length ? parts.join(' AND ') : '1';
}
