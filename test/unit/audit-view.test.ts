/**
 * The audit views' pure parts and their rows without a browser: AuditRows reads a page only when
 * its rows are wanted, each once, holds a bounded number (a million-event trail scrolls without a
 * million rows kept), places a row the source could not read where it was, starts again for new
 * filters (an answer for old ones dropped), and without a total keeps one row past what it read
 * while more follow. audit-words: the changes of a page update in the shapes a site may send,
 * the context's hints, retention in words, the filter's date inputs.
 */
import { describe, expect, test } from 'vitest';
import type { AuditEvent } from '../../electron/contract/index';
import { AuditRows, type AuditRowsPage } from '../../renderer/views/audit/audit-rows.svelte';
import { changesOf, cleanFilter, contextHints, fromLocalInput, isFiltered, retentionWords, toLocalInput, valueText } from '../../renderer/views/audit/audit-words';

const ev = (id: number): AuditEvent => ({ id, ts: 1_700_000_000_000 - id, event: 'page.update', severity: 'info', actorId: 'a', actorName: 'A', actorRoles: [], authMethod: 'apikey', ip: null, userAgent: null, targetType: 'page', targetId: '/x', context: null });
const settle = () => new Promise((r) => setTimeout(r, 0));

/** A source of `total` events (ids 0…), `cap` a page at most, recording the pages asked. */
function source(total: number, cap = 100, withTotal = true) {
  const asked: number[] = [];
  const load = async (page: number, perPage: number): Promise<AuditRowsPage> => {
    asked.push(page);
    const size = Math.min(perPage, cap);
    const from = (page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => ev(from + i));
    return { items, total: withTotal ? total : null, perPage: size, next: from + size < total ? page + 1 : null };
  };
  return { asked, load };
}

describe('AuditRows', () => {
  test('the first page says the total and the site’s page size; later pages only when their rows are wanted, each once', async () => {
    const s = source(1_000_000, 100);
    const rows = new AuditRows(s.load, { perPage: 1000, keepPages: 5 });
    await rows.reset();
    expect(rows).toMatchObject({ total: 1_000_000, count: 1_000_000, perPage: 100 });
    expect(s.asked).toEqual([1]);
    expect(rows.eventAt(99)?.id).toBe(99);
    expect(rows.at(100)).toBeUndefined();
    rows.ensure(150, 260);
    rows.ensure(150, 260);
    await settle();
    expect(s.asked).toEqual([1, 2, 3]);
    expect(rows.eventAt(260)?.id).toBe(260);
    // far down a million rows: only the pages there are read, the farthest let go past the bound
    for (const at of [500_000, 700_000, 900_000, 999_950]) {
      rows.ensure(at, at + 30);
      await settle();
    }
    expect(rows.eventAt(999_999)?.id).toBe(999_999);
    expect(rows.eventAt(5)).toBeUndefined(); // page 1 was let go
    expect(s.asked).toEqual([1, 2, 3, 5001, 7001, 9001, 10000]);
  });

  test('the rows a table renders: the view and a focused row far from it read their two pages, never the pages between', async () => {
    const s = source(1_000_000, 200);
    const rows = new AuditRows(s.load, { perPage: 200 });
    await rows.reset();
    rows.ensureRows([...Array.from({ length: 30 }, (_, i) => 400 + i), 999_999]);
    await settle();
    expect(s.asked).toEqual([1, 3, 5000]);
  });

  test('a row the source could not read stands where it was; a failed later page is said and tried again', async () => {
    let fail = true;
    const rows = new AuditRows(async (page) => {
      if (page === 2 && fail) throw new Error('The site did not answer.');
      if (page === 1) return { items: [ev(0), ev(2)], unreadable: [{ position: 1, problem: 'id: missing' }], total: 6, perPage: 3, next: 2 };
      return { items: [ev(3), ev(4), ev(5)], total: 6, perPage: 3, next: null };
    }, { perPage: 3 });
    await rows.reset();
    expect([rows.at(0), rows.at(1), rows.at(2)].map((r) => r?.kind)).toEqual(['event', 'unreadable', 'event']);
    rows.ensure(3, 5);
    await settle();
    expect(rows.pageError).toBe('The site did not answer.');
    fail = false;
    rows.retry();
    rows.ensure(3, 5);
    await settle();
    expect(rows.pageError).toBeNull();
    expect(rows.eventAt(5)?.id).toBe(5);
  });

  test('new filters start again; an answer for the old ones is dropped; a failed first page is said', async () => {
    let release: () => void = () => {};
    const slow = new AuditRows(() => new Promise<AuditRowsPage>((r) => (release = () => r({ items: [ev(1)], total: 1, perPage: 50, next: null }))));
    const old = slow.reset();
    const fresh = slow.reset(async () => ({ items: [ev(7), ev(8)], total: 2, perPage: 50, next: null }));
    await fresh;
    release();
    await old;
    expect(slow.total).toBe(2);
    expect(slow.eventAt(0)?.id).toBe(7);
    await slow.reset(async () => Promise.reject(new Error('Only an account with api.super may read the audit trail.')));
    expect(slow).toMatchObject({ error: 'Only an account with api.super may read the audit trail.', count: 0, total: null, loading: false });
  });

  test('without a total: one row past what was read while more follow, the exact count at the end', async () => {
    const s = source(250, 100, false);
    const rows = new AuditRows(s.load, { perPage: 100 });
    await rows.reset();
    expect(rows.count).toBe(101);
    rows.ensure(100, 100);
    await settle();
    expect(rows.count).toBe(201);
    rows.ensure(200, 200);
    await settle();
    expect(rows.count).toBe(250);
  });
});

describe('audit words', () => {
  test('a page update’s changes in the shapes a site may send; long text as a diff, content last', () => {
    const long = 'x'.repeat(90);
    expect(changesOf({ changes: { content: { old: 'a\nb', new: 'a\nc' }, title: { old: 'A', new: 'B' }, published: { old: false, new: true } } })).toEqual([
      { field: 'title', before: 'A', after: 'B', asText: false },
      { field: 'published', before: false, after: true, asText: false },
      { field: 'content', before: 'a\nb', after: 'a\nc', asText: true },
    ]);
    expect(changesOf({ changes: { summary: { before: 'short', after: long } } })).toEqual([{ field: 'summary', before: 'short', after: long, asText: true }]);
    expect(changesOf({ changes: [{ field: 'menu', from: null, to: 'Blog' }] })).toEqual([{ field: 'menu', before: null, after: 'Blog', asText: false }]);
    expect(changesOf({ changes: 'garbled' })).toEqual([]);
    expect(changesOf(null)).toEqual([]);
  });

  test('the context’s hints in words, changes left to their own list; values as text', () => {
    expect(contextHints({ old_route: '/a', new_route: '/b', bytes: 2048, changes: {}, extra: { k: 1 } })).toEqual([
      { key: 'old_route', label: 'From route', value: '/a', block: false },
      { key: 'new_route', label: 'To route', value: '/b', block: false },
      { key: 'bytes', label: 'Size', value: `${(2048).toLocaleString()} bytes`, block: false },
      { key: 'extra', label: 'extra', value: '{\n  "k": 1\n}', block: true },
    ]);
    expect([valueText(null), valueText(''), valueText(0), valueText(true)]).toEqual(['(none)', '(empty)', '0', 'true']);
  });

  test('retention with 0 as no bound; the filter’s empty values dropped; dates through the inputs', () => {
    expect(retentionWords(90, 100_000)).toBe(`90 days; the newest ${(100_000).toLocaleString()} events`);
    expect(retentionWords(0, 0)).toBe('no limit by age; no limit by count');
    expect(retentionWords(null, 1)).toBe('not said; the newest event');
    expect(cleanFilter({ event: '', q: 'x', from: undefined })).toEqual({ q: 'x' });
    expect(isFiltered({ event: '' })).toBe(false);
    const at = new Date(2026, 10, 23, 20, 9).getTime();
    expect(fromLocalInput(toLocalInput(at))).toBe(at);
    expect(fromLocalInput(toLocalInput(at), true)).toBe(at + 59_999);
    expect(fromLocalInput('')).toBeUndefined();
  });
});
