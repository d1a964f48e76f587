/**
 * The page-media filter and sort grammar (spec section 4 "Media"; the real service's
 * `applyMediaQuery`), bound to the configured metadata schema:
 *
 *   filter=field:operator:value   or   filter=field:value   (repeatable, also as filter[]=…)
 *     at most 10 clauses, ANDed
 *     field     [A-Za-z0-9_.-]+; a field outside the schema is ignored (checked before anything else)
 *     operator  == != > >= < <= in contains; omitted: `contains` for a tags field, `==` otherwise;
 *               a tags field accepts only `in` and `contains`
 *     value     `in`: a comma-separated set (blanks dropped); tags stripped, control characters
 *               and runs of whitespace collapsed, capped at 2000 characters
 *   sort=field   a schema field or filename, size, modified; order=asc|desc (alias dir), default asc;
 *                items lacking the field sort last in either direction
 *
 * Anything malformed (an empty or ill-formed field, a clause without `:`, an unknown operator, an
 * operator a tags field refuses, an invalid sort field, more than 10 clauses) is a 400 problem.
 *
 * Comparison (the spec leaves it open): values compare as numbers when both sides are numeric,
 * otherwise as case-insensitive strings; a missing field is an empty string (so `!=` matches it and
 * `==`, `>` … do not); `contains` is a case-insensitive substring test (a tag equal to the value
 * for tags fields); `in` is membership (any tag in the set, for tags fields).
 */
import { HttpProblem } from '../../http';
import type { YamlMap } from './frontmatter';

export type MetaFieldType = 'text' | 'textarea' | 'tags';

export interface MetaField {
  key: string;
  label: string;
  type: MetaFieldType;
}

/** The real service's default schema (`plugins.api.media_metadata.fields` unset). */
const DEFAULT_META_FIELDS: MetaField[] = [
  { key: 'alt', label: 'Alt Text', type: 'text' },
  { key: 'title', label: 'Title', type: 'text' },
  { key: 'caption', label: 'Caption', type: 'textarea' },
  { key: 'description', label: 'Description', type: 'textarea' },
  { key: 'tags', label: 'Tags', type: 'tags' },
];

const MAX_FILTER_CLAUSES = 10;
const MAX_VALUE_LENGTH = 2000;
const OPERATORS = ['==', '!=', '>', '>=', '<', '<=', 'in', 'contains'] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Clause {
  field: string;
  operator: Operator;
  /** a list for `in` */
  value: string | string[];
}

export interface MediaQuery {
  clauses: Clause[];
  sort: string | null;
  dir: 'asc' | 'desc';
}

/** What a filter or sort looks at: intrinsic fields plus the sidecar metadata. */
export interface Filterable {
  filename: string;
  size: number;
  modified: number;
  meta: YamlMap | null;
}

const bad = (detail: string) => new HttpProblem(400, 'Bad Request', detail, { errors: [{ field: 'filter', message: detail }] });

function sanitize(value: string): string {
  const v = value
    .replace(/<[^>]*>/g, '')
    .replace(/[\x00-\x1f\x7f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return v.length > MAX_VALUE_LENGTH ? v.slice(0, MAX_VALUE_LENGTH) : v;
}

/** Parses the query's filter and sort parameters; throws the 400 problems described above. */
export function parseMediaQuery(url: URL, schema: MetaField[] = DEFAULT_META_FIELDS): MediaQuery {
  const typeOf = new Map(schema.map((f) => [f.key, f.type]));
  const raw = [...url.searchParams.getAll('filter'), ...url.searchParams.getAll('filter[]')].filter((c) => c !== '');
  if (raw.length > MAX_FILTER_CLAUSES) throw bad(`Too many filter clauses (maximum ${MAX_FILTER_CLAUSES}).`);
  const clauses: Clause[] = [];
  for (const clause of raw) {
    const parts = splitLimit(clause, ':', 3);
    const field = parts[0]!.trim();
    if (field === '' || !/^[A-Za-z0-9_.-]+$/.test(field)) throw bad(`Malformed filter field in '${clause}'.`);
    const type = typeOf.get(field);
    if (!type) continue; // schema-bound: an unknown field is ignored, never fatal
    let operator: string;
    let rawValue: string;
    if (parts.length === 3) {
      operator = parts[1]!.trim();
      rawValue = parts[2]!;
    } else if (parts.length === 2) {
      operator = type === 'tags' ? 'contains' : '==';
      rawValue = parts[1]!;
    } else throw bad(`Malformed filter clause '${clause}'. Use field:value or field:operator:value.`);
    if (!OPERATORS.includes(operator as Operator)) throw bad(`Unsupported filter operator '${operator}'.`);
    if (type === 'tags' && operator !== 'in' && operator !== 'contains') throw bad(`Field '${field}' is a tags field; use the 'in' or 'contains' operator.`);
    const value = operator === 'in' ? rawValue.split(',').map(sanitize).filter((v) => v !== '') : sanitize(rawValue);
    clauses.push({ field, operator: operator as Operator, value });
  }
  const sort = url.searchParams.get('sort');
  if (sort !== null && sort !== '' && !typeOf.has(sort) && !['filename', 'size', 'modified'].includes(sort)) throw bad(`Invalid sort field '${sort}'.`);
  const dirText = (url.searchParams.get('order') ?? url.searchParams.get('dir') ?? 'asc').toLowerCase();
  return { clauses, sort: sort || null, dir: dirText === 'desc' ? 'desc' : 'asc' };
}

/** `explode($sep, $s, $limit)`: at most `limit` parts, the last holding the rest. */
function splitLimit(s: string, sep: string, limit: number): string[] {
  const out: string[] = [];
  let rest = s;
  while (out.length < limit - 1) {
    const i = rest.indexOf(sep);
    if (i < 0) break;
    out.push(rest.slice(0, i));
    rest = rest.slice(i + 1);
  }
  out.push(rest);
  return out;
}

function fieldValue(item: Filterable, field: string): unknown {
  if (field === 'filename') return item.filename;
  if (field === 'size') return item.size;
  if (field === 'modified') return item.modified;
  return item.meta?.[field];
}

const asList = (v: unknown): string[] => (Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : v === null || v === undefined ? [] : [v]).map((x) => String(x).trim()).filter((x) => x !== '');

const numeric = (s: string) => s.trim() !== '' && !Number.isNaN(Number(s));

function compare(a: string, b: string): number {
  if (numeric(a) && numeric(b)) return Number(a) - Number(b);
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}

export function matches(item: Filterable, c: Clause, schema: MetaField[] = DEFAULT_META_FIELDS): boolean {
  const type = schema.find((f) => f.key === c.field)?.type ?? 'text';
  const raw = fieldValue(item, c.field);
  if (type === 'tags') {
    const tags = asList(raw).map((t) => t.toLowerCase());
    const wanted = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => v.toLowerCase());
    return wanted.some((w) => tags.includes(w));
  }
  const v = raw === null || raw === undefined ? '' : Array.isArray(raw) ? raw.join(', ') : String(raw);
  const present = raw !== null && raw !== undefined && v !== '';
  switch (c.operator) {
    case 'in':
      return (c.value as string[]).some((w) => compare(v, w) === 0);
    case 'contains':
      return v.toLowerCase().includes((c.value as string).toLowerCase());
    case '==':
      return compare(v, c.value as string) === 0;
    case '!=':
      return compare(v, c.value as string) !== 0;
    case '>':
      return present && compare(v, c.value as string) > 0;
    case '>=':
      return present && compare(v, c.value as string) >= 0;
    case '<':
      return present && compare(v, c.value as string) < 0;
    case '<=':
      return present && compare(v, c.value as string) <= 0;
  }
}

/** Filters (all clauses) and sorts; a stable sort, missing values last. */
export function applyMediaQuery<T extends Filterable>(items: T[], q: MediaQuery, schema: MetaField[] = DEFAULT_META_FIELDS): T[] {
  let out = items.filter((item) => q.clauses.every((c) => matches(item, c, schema)));
  if (q.sort) {
    const field = q.sort;
    const keyed = out.map((item, i) => {
      const raw = fieldValue(item, field);
      const missing = raw === null || raw === undefined || raw === '' || (Array.isArray(raw) && raw.length === 0);
      return { item, i, missing, v: Array.isArray(raw) ? raw.join(', ') : String(raw ?? '') };
    });
    keyed.sort((a, b) => {
      if (a.missing !== b.missing) return a.missing ? 1 : -1;
      const c = typeof fieldValue(a.item, field) === 'number' ? Number(a.v) - Number(b.v) : compare(a.v, b.v);
      return (q.dir === 'desc' ? -c : c) || a.i - b.i;
    });
    out = keyed.map((k) => k.item);
  }
  return out;
}
