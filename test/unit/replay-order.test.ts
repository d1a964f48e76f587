import { describe, expect, test } from 'vitest';
import { backoffMs, replayOrder } from '../../electron/sync/order';
import type { OutboxItem, OutboxKind, OutboxOp } from '../../electron/db/repos/sync';

/** Each kind of change with a payload of its own shape. */
const opOf = (op: OutboxKind, route: string): OutboxOp => {
  switch (op) {
    case 'save':
      return { op, route, payload: { lang: '' } };
    case 'create':
      return { op, route, payload: { route, title: 'T' } };
    case 'delete':
      return { op, route, payload: {} };
    case 'move':
      return { op, route, payload: { parent: '/' } };
    case 'translate':
      return { op, route, payload: { lang: 'fr' } };
  }
};

const item = (id: number, op: OutboxKind, route: string): OutboxItem => ({
  ...opOf(op, route),
  id,
  siteId: 's',
  draftId: null,
  state: 'queued',
  attempts: 0,
  nextAt: null,
  lastError: null,
  createdAt: '',
});

describe('replay order', () => {
  test('the order edits were made in', () => {
    const xs = [item(3, 'save', '/b'), item(1, 'save', '/a'), item(2, 'delete', '/c')];
    expect(replayOrder(xs).map((x) => x.id)).toEqual([1, 2, 3]);
  });
  test('a parent created offline goes before anything beneath it, however it was queued', () => {
    const xs = [item(1, 'create', '/blog/new/child'), item(2, 'save', '/blog/new/child'), item(3, 'create', '/blog/new'), item(4, 'save', '/about')];
    expect(replayOrder(xs).map((x) => x.id)).toEqual([3, 1, 2, 4]);
  });
  test('grandparents too, and a sibling prefix is not a parent', () => {
    const xs = [item(1, 'create', '/a/b/c'), item(2, 'create', '/a/b'), item(3, 'create', '/a'), item(4, 'create', '/ab')];
    expect(replayOrder(xs).map((x) => x.id)).toEqual([3, 2, 1, 4]);
  });
  test('backoff doubles from 2 s and stops at 5 minutes', () => {
    expect([1, 2, 3, 4].map(backoffMs)).toEqual([2000, 4000, 8000, 16000]);
    expect(backoffMs(30)).toBe(300_000);
  });
});
