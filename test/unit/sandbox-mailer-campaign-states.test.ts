/**
 * The campaign state machine (test/sandbox/cms/mailer/campaign-states.ts; docs/mailer-campaigns.md):
 * every move from every state, allowed with its next state or refused with a reason, and the
 * next moves a record lists.
 */
import { describe, expect, test } from 'vitest';
import { CAMPAIGN_STATES, move, nextMoves, type CampaignState, type Move } from '../sandbox/cms/mailer/campaign-states';

const NOW = 1_800_000_000;
const ahead = { now: NOW, scheduledAt: NOW + 3600 };
const none = { now: NOW, scheduledAt: null };

// the whole table: state → move → next (absent = refused)
const TABLE: Record<CampaignState, Partial<Record<Move, string>>> = {
  draft: { edit: 'draft', delete: 'removed', start: 'sending', schedule: 'scheduled' },
  scheduled: { edit: 'scheduled', start: 'sending', schedule: 'scheduled', pause: 'paused', cancel: 'canceled', due: 'sending' },
  sending: { pause: 'paused', cancel: 'canceled', finish: 'sent', stop: 'stopped' },
  paused: { resume: 'sending', cancel: 'canceled' },
  stopped: { resume: 'sending', cancel: 'canceled' },
  canceled: { delete: 'removed' },
  sent: {},
};
const MOVES: Move[] = ['edit', 'delete', 'start', 'schedule', 'pause', 'resume', 'cancel', 'due', 'finish', 'stop'];

describe('campaign moves', () => {
  for (const state of CAMPAIGN_STATES) {
    for (const m of MOVES) {
      const want = TABLE[state][m];
      test(`${state} + ${m} → ${want ?? 'refused'}`, () => {
        const r = move(state, m, m === 'schedule' ? ahead : none);
        if (want) expect(r).toEqual({ ok: true, next: want });
        else {
          expect(r.ok).toBe(false);
          if (!r.ok) {
            expect(r.code).toBe('campaign_state');
            expect(r.reason).toMatch(/^The campaign cannot .+: .+\.$/);
          }
        }
      });
    }
  }

  test('resume goes back to scheduled while its time is still ahead, to sending once it has passed', () => {
    expect(move('paused', 'resume', ahead)).toEqual({ ok: true, next: 'scheduled' });
    expect(move('stopped', 'resume', ahead)).toEqual({ ok: true, next: 'scheduled' });
    expect(move('paused', 'resume', { now: NOW, scheduledAt: NOW })).toEqual({ ok: true, next: 'sending' });
    expect(move('paused', 'resume', { now: NOW, scheduledAt: NOW - 1 })).toEqual({ ok: true, next: 'sending' });
  });

  test('schedule needs a time ahead', () => {
    for (const scheduledAt of [null, NOW, NOW - 60]) expect(move('draft', 'schedule', { now: NOW, scheduledAt })).toMatchObject({ ok: false, code: 'scheduled_at_past' });
  });

  test('the reason says what state it is in', () => {
    const r = move('sent', 'edit', none);
    expect(r.ok === false && r.reason).toBe('The campaign cannot be edited: it has been sent.');
  });

  test('next moves: the caller’s moves allowed from each state', () => {
    expect(nextMoves('draft')).toEqual(['edit', 'delete', 'start', 'schedule']);
    expect(nextMoves('scheduled')).toEqual(['edit', 'start', 'schedule', 'pause', 'cancel']);
    expect(nextMoves('sending')).toEqual(['pause', 'cancel']);
    expect(nextMoves('paused')).toEqual(['resume', 'cancel']);
    expect(nextMoves('stopped')).toEqual(['resume', 'cancel']);
    expect(nextMoves('canceled')).toEqual(['delete']);
    expect(nextMoves('sent')).toEqual([]);
  });
});
