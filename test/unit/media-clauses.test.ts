/** The media filter's clauses (renderer/views/media/clauses.ts): the limit, the operators per field, the text sent. */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { MediaList } from '../../electron/contract/index';
import { addClause, clauseText, filterOf, MAX_CLAUSES, opAfterFieldChange, opsFor, type Clause } from '../../renderer/views/media/clauses';

const siteId = '0b4c1f7e-5d7a-4c0e-9a51-2f6f1d3c8e10';
const clause = (field: string, op: string, value: string, id = 1): Clause => ({ id, field, op, value });

describe('media filter clauses', () => {
  test('the limit is the contract’s: as many clauses pass MediaList, one more is refused', () => {
    expect(MAX_CLAUSES).toBe(10);
    const ok = Array.from({ length: MAX_CLAUSES }, (_, i) => `title:contains:${i}`);
    expect(v.safeParse(MediaList, { siteId, route: '/a', filter: ok }).success).toBe(true);
    expect(v.safeParse(MediaList, { siteId, route: '/a', filter: [...ok, 'title:contains:x'] }).success).toBe(false);
  });

  test('addClause adds an empty title clause with a fresh id, and stops at the limit', () => {
    let list: Clause[] = [];
    for (let i = 0; i < MAX_CLAUSES + 3; i++) list = addClause(list);
    expect(list).toHaveLength(MAX_CLAUSES);
    expect(new Set(list.map((c) => c.id)).size).toBe(MAX_CLAUSES);
    expect(list[0]).toEqual({ id: 1, field: 'title', op: 'contains', value: '' });
    // ids stay unique after a removal in the middle
    const next = addClause(list.filter((c) => c.id !== 3));
    expect(new Set(next.map((c) => c.id)).size).toBe(next.length);
  });

  test('tags offer only membership operators; a field change keeps the operator when allowed', () => {
    expect(opsFor('tags').map((o) => o.op)).toEqual(['contains', 'in']);
    expect(opsFor('title').map((o) => o.op)).toEqual(['contains', '==', '!=', 'in', '>', '<']);
    expect(opAfterFieldChange('tags', '==')).toBe('contains');
    expect(opAfterFieldChange('tags', 'in')).toBe('in');
    expect(opAfterFieldChange('alt', '>')).toBe('>');
  });

  test('clauseText trims, cleans an `in` list and drops empty values', () => {
    expect(clauseText(clause('title', 'contains', '  sky '))).toBe('title:contains:sky');
    expect(clauseText(clause('tags', 'in', ' a, ,b ,, c'))).toBe('tags:in:a,b,c');
    expect(clauseText(clause('alt', '==', '   '))).toBeNull();
    expect(clauseText(clause('tags', 'in', ' , ,'))).toBeNull();
    expect(filterOf([clause('title', 'contains', 'x', 1), clause('alt', '==', '', 2), clause('caption', '!=', 'y', 3)])).toEqual([
      'title:contains:x',
      'caption:!=:y',
    ]);
  });
});
