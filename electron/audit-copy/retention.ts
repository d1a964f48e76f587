/**
 * How long a kept copy keeps its events: the person's choice per copy, not the site's (pure).
 * "The last N days" counts back from now; "at most N events" keeps the newest N by time. The rule
 * is applied after every keep and import and when it is changed.
 */
import type { AuditRetention } from '../contract';

const DAY_MS = 86_400_000;

/** What a rule removes: events older than a time, events past the newest N, or nothing. */
export type RetentionCut = { olderThan: number } | { beyondNewest: number } | null;

export function retentionCut(rule: AuditRetention, nowMs: number): RetentionCut {
  if (rule.kind === 'days') return { olderThan: nowMs - rule.days * DAY_MS };
  if (rule.kind === 'count') return { beyondNewest: rule.events };
  return null;
}

/**
 * The events a rule keeps out of `events` (any order), newest first by time then by key: the
 * rule's meaning in one place, which the repository's deletions carry out on keys (time × 1000 +
 * slot, so the same order).
 */
export function keptBy<E extends { ts: number; key: number }>(rule: AuditRetention, nowMs: number, events: readonly E[]): E[] {
  const cut = retentionCut(rule, nowMs);
  const newest = [...events].sort((a, b) => b.key - a.key);
  if (!cut) return newest;
  if ('olderThan' in cut) return newest.filter((e) => e.ts >= cut.olderThan);
  return newest.slice(0, cut.beyondNewest);
}

/** The rule in words, for the copies list and messages. */
export function retentionWords(rule: AuditRetention): string {
  if (rule.kind === 'days') return `the last ${rule.days.toLocaleString('en')} day${rule.days === 1 ? '' : 's'}`;
  if (rule.kind === 'count') return `at most ${rule.events.toLocaleString('en')} event${rule.events === 1 ? '' : 's'}`;
  return 'everything';
}
