import { isAppError } from '../base/app-error';
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

/**
 * A change whose request failed, as every push treats it: a session that ended leaves it as it
 * was, never retried blindly (the push stops until the person signs in); no answer means it may
 * have arrived, so it stays `sending` (checked on the site before it goes again) and waits out
 * the backoff. Either way the push stops there.
 */
export function failedAttempt(err: unknown, attempts: number, now: number): { signedOut: boolean; attempts: number; nextAt: string | null; lastError: string; stopped: { reason: 'offline' | 'signed_out'; message: string } } {
  const message = err instanceof Error ? err.message : String(err);
  if (isAppError(err) && (err.code === 'unauthorized' || err.code === 'forbidden')) {
    return { signedOut: true, attempts, nextAt: null, lastError: message, stopped: { reason: 'signed_out', message } };
  }
  const next = attempts + 1;
  return { signedOut: false, attempts: next, nextAt: new Date(now + backoffMs(next)).toISOString(), lastError: message, stopped: { reason: 'offline', message } };
}
