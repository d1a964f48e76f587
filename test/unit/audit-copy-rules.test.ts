/**
 * The kept copies' pure rules: the person's retention (electron/audit-copy/retention.ts) and what a
 * search's words become (audit-copy/fts.ts: quoted words, an address looked up whole).
 */
import { describe, expect, test } from 'vitest';
import { keptBy, retentionCut, retentionWords } from '../../electron/audit-copy/retention';
import { addressWord, auditFtsQuery } from '../../electron/audit-copy/fts';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 10, 24, 12);
/** events a day apart, newest first, two in the newest millisecond (keys apart by their slot) */
const events = [
  { ts: NOW, key: NOW * 1000 + 1 },
  { ts: NOW, key: NOW * 1000 },
  { ts: NOW - DAY, key: (NOW - DAY) * 1000 },
  { ts: NOW - 2 * DAY, key: (NOW - 2 * DAY) * 1000 },
  { ts: NOW - 3 * DAY - 1, key: (NOW - 3 * DAY - 1) * 1000 },
];

describe('the person’s retention of a copy', () => {
  test('everything keeps everything, newest first', () => {
    expect(retentionCut({ kind: 'all' }, NOW)).toBeNull();
    expect(keptBy({ kind: 'all' }, NOW, [...events].reverse())).toEqual(events);
  });

  test('the last N days counts back from now: an event exactly N days old stays, one a millisecond older goes', () => {
    expect(retentionCut({ kind: 'days', days: 3 }, NOW)).toEqual({ olderThan: NOW - 3 * DAY });
    expect(keptBy({ kind: 'days', days: 3 }, NOW, events)).toEqual(events.slice(0, 4));
    expect(keptBy({ kind: 'days', days: 2 }, NOW, events)).toEqual(events.slice(0, 4));
    expect(keptBy({ kind: 'days', days: 1 }, NOW, events)).toEqual(events.slice(0, 3));
    expect(keptBy({ kind: 'days', days: 1 }, NOW + 1, events)).toEqual(events.slice(0, 2));
  });

  test('at most N events keeps the newest N by key (the same millisecond by slot)', () => {
    expect(retentionCut({ kind: 'count', events: 2 }, NOW)).toEqual({ beyondNewest: 2 });
    expect(keptBy({ kind: 'count', events: 1 }, NOW, events)).toEqual([events[0]]);
    expect(keptBy({ kind: 'count', events: 3 }, NOW, [...events].reverse())).toEqual(events.slice(0, 3));
    expect(keptBy({ kind: 'count', events: 99 }, NOW, events)).toEqual(events);
  });

  test('in words', () => {
    expect(retentionWords({ kind: 'all' })).toBe('everything');
    expect(retentionWords({ kind: 'days', days: 1 })).toBe('the last 1 day');
    expect(retentionWords({ kind: 'count', events: 100000 })).toBe('at most 100,000 events');
  });
});

describe('what the kept copies’ search looks for', () => {
  test('words quoted as for pages; FTS syntax is only words', () => {
    expect(auditFtsQuery('Eddie curl')).toEqual({ match: '"Eddie" "curl"', terms: ['Eddie', 'curl'] });
    expect(auditFtsQuery('NEAR( AND "')).toEqual({ match: '"NEAR(" "AND"', terms: ['NEAR(', 'AND'] });
    expect(auditFtsQuery('post-42 "old route"').match).toBe('"post-42" "old route"');
  });

  test('an address, whole or its start, is the one word the index holds for it', () => {
    expect(auditFtsQuery('203.0.113.7')).toEqual({ match: `"${addressWord('203.0.113.7')}"`, terms: ['203.0.113.7'] });
    expect(addressWord('203.0.113.7')).toBe('zzip203x0x113x7');
    expect(auditFtsQuery('203.0.113.*')).toEqual({ match: '"zzip203x0x113x"*', terms: ['203.0.113.'] });
    expect(auditFtsQuery('2001:DB8::1 page')).toEqual({ match: '"zzip2001xdb8xx1" "page"', terms: ['2001:DB8::1', 'page'] });
    // not addresses: versions, times, a phrase
    expect(auditFtsQuery('1.2.3').match).toBe('"1.2.3"');
    expect(auditFtsQuery('12:30').match).toBe('"12:30"');
    expect(auditFtsQuery('"203.0.113.7"').match).toBe('"203.0.113.7"');
  });
});
