/**
 * The media filter's clauses, pure: the fields and operators the site accepts, the clause limit
 * (read from the contract's MediaList schema, so the form and the Host's check cannot disagree),
 * and the `field:op:value` text the site is sent. MediaFilter.svelte is the form over these.
 */
import { MediaList } from '../../../electron/contract/index';

export const FIELDS = [
  { key: 'alt', label: 'Alt text' },
  { key: 'title', label: 'Title' },
  { key: 'caption', label: 'Caption' },
  { key: 'description', label: 'Description' },
  { key: 'tags', label: 'Tags' },
] as const;

/** `tags` says whether the operator applies to the tags field (a list: only membership tests). */
export const OPS: readonly { op: string; label: string; tags: boolean }[] = [
  { op: 'contains', label: 'contains', tags: true },
  { op: '==', label: 'is', tags: false },
  { op: '!=', label: 'is not', tags: false },
  { op: 'in', label: 'is one of (a, b)', tags: true },
  { op: '>', label: 'after (>)', tags: false },
  { op: '<', label: 'before (<)', tags: false },
];

export interface Clause {
  id: number;
  field: string;
  op: string;
  value: string;
}

/** The `maxLength` on MediaList.filter: the one place the site's limit is written down. */
function clauseLimit(): number {
  const filter = MediaList.entries.filter;
  const list = 'wrapped' in filter ? filter.wrapped : filter;
  for (const step of 'pipe' in list ? list.pipe : []) {
    if (step.kind === 'validation' && step.type === 'max_length') return step.requirement as number;
  }
  throw new Error('MediaList.filter has no maxLength');
}

export const MAX_CLAUSES = clauseLimit();

export function opsFor(field: string) {
  return field === 'tags' ? OPS.filter((o) => o.tags) : OPS;
}

/** The list with one more (empty) clause, or the same list when it is at the limit. */
export function addClause(list: readonly Clause[]): Clause[] {
  if (list.length >= MAX_CLAUSES) return [...list];
  const id = list.reduce((n, c) => Math.max(n, c.id), 0) + 1;
  return [...list, { id, field: 'title', op: 'contains', value: '' }];
}

/** The operator kept when the field changes: the same one if the new field allows it. */
export function opAfterFieldChange(field: string, op: string): string {
  return opsFor(field).some((o) => o.op === op) ? op : 'contains';
}

/** `field:op:value`, or null when the value is empty; `in` takes a comma list, trimmed. */
export function clauseText(c: Clause): string | null {
  const v =
    c.op === 'in'
      ? c.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .join(',')
      : c.value.trim();
  return v === '' ? null : `${c.field}:${c.op}:${v}`;
}

/** The filter sent to the site: the clauses that have a value. */
export function filterOf(list: readonly Clause[]): string[] {
  return list.map(clauseText).filter((x): x is string => x !== null);
}
