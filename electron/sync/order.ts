import type { OutboxItem } from '../db/repos/sync';

const isUnder = (route: string, parent: string) => route.startsWith(parent + '/');

/**
 * The order to replay a site's outbox in: the order the edits were made, except that a page
 * created offline goes before anything queued for a page beneath it (a parent before its child).
 */
export function replayOrder(items: OutboxItem[]): OutboxItem[] {
  const out: OutboxItem[] = [];
  const placed = new Set<number>();
  const place = (item: OutboxItem) => {
    if (placed.has(item.id)) return;
    placed.add(item.id); // before recursing: a malformed cycle cannot loop
    for (const c of items) if (c.op === 'create' && !placed.has(c.id) && isUnder(item.route, c.route)) place(c);
    out.push(item);
  };
  for (const item of [...items].sort((a, b) => a.id - b.id)) place(item);
  return out;
}

/** Wait before the next attempt after `attempts` network failures: 2 s, 4 s, … at most 5 minutes. */
export const backoffMs = (attempts: number) => Math.min(300_000, 2000 * 2 ** Math.max(0, attempts - 1));
