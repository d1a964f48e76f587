/**
 * The CMS sandbox's subject test rules (test/sandbox/cms/mailer/subject-test.ts, templates.ts;
 * docs/mailer-campaigns.md, "The subject test", "Templates"): the settings with their defaults,
 * the sample's size and its A/B turns, the winner by open rate compared exactly with ties to A,
 * the window's end; and a template's content copied once under what the create body says.
 */
import { describe, expect, test } from 'vitest';
import { HttpProblem } from '../sandbox/http';
import { copyTemplate, checkTemplate } from '../sandbox/cms/mailer/templates';
import { DEFAULT_SAMPLE_PERCENT, DEFAULT_WINDOW_MINUTES, openRate, pickWinner, sampleSize, subjectOf, testOf, variantAt, windowEndOf } from '../sandbox/cms/mailer/subject-test';

describe('the subject test', () => {
  test('on only with subject_b; empty sample and window read as the defaults', () => {
    expect(testOf({ subject_b: null, ab_sample_percent: 30, ab_window_minutes: 60 })).toBeNull();
    expect(testOf({ subject_b: '', ab_sample_percent: 30, ab_window_minutes: 60 })).toBeNull();
    expect(testOf({ subject_b: 'B', ab_sample_percent: 30, ab_window_minutes: 60 })).toEqual({ subjectB: 'B', samplePercent: 30, windowMinutes: 60 });
    expect(testOf({ subject_b: 'B', ab_sample_percent: null, ab_window_minutes: null })).toEqual({ subjectB: 'B', samplePercent: DEFAULT_SAMPLE_PERCENT, windowMinutes: DEFAULT_WINDOW_MINUTES });
  });

  test('the sample: the percentage of the audience rounded half up; A and B by turns, so the halves differ by one at most', () => {
    expect(sampleSize(1000, 20)).toBe(200);
    expect(sampleSize(1234, 10)).toBe(123);
    expect(sampleSize(1235, 10)).toBe(124);
    expect(sampleSize(5, 10)).toBe(1);
    expect(sampleSize(0, 50)).toBe(0);
    const turns = Array.from({ length: 7 }, (_, k) => variantAt(k));
    expect(turns).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a']);
  });

  test('the winner: the higher open rate of delivered; exact, not rounded; ties and nothing to compare go to A', () => {
    expect(pickWinner({ delivered: 100, opened: 20 }, { delivered: 100, opened: 25 })).toEqual({ winner: 'b', decidedBy: 'open_rate' });
    expect(pickWinner({ delivered: 100, opened: 25 }, { delivered: 100, opened: 20 })).toEqual({ winner: 'a', decidedBy: 'open_rate' });
    // different sizes: 10/49 ≈ 0.20408 beats 10/50 = 0.2
    expect(pickWinner({ delivered: 50, opened: 10 }, { delivered: 49, opened: 10 })).toEqual({ winner: 'b', decidedBy: 'open_rate' });
    // the same rate from different counts is a tie, not a float's accident
    expect(pickWinner({ delivered: 300, opened: 100 }, { delivered: 3, opened: 1 })).toEqual({ winner: 'a', decidedBy: 'tie' });
    expect(pickWinner({ delivered: 100, opened: 0 }, { delivered: 100, opened: 0 })).toEqual({ winner: 'a', decidedBy: 'tie' });
    expect(pickWinner({ delivered: 0, opened: 0 }, { delivered: 0, opened: 0 })).toEqual({ winner: 'a', decidedBy: 'tie' });
    // a side with nothing delivered reads 0
    expect(pickWinner({ delivered: 0, opened: 0 }, { delivered: 10, opened: 1 })).toEqual({ winner: 'b', decidedBy: 'open_rate' });
    expect(pickWinner({ delivered: 10, opened: 1 }, { delivered: 0, opened: 0 })).toEqual({ winner: 'a', decidedBy: 'open_rate' });
  });

  test('the window ends its minutes after the sample’s last message; each variant reads its subject', () => {
    expect(windowEndOf(1_700_000_000, 90)).toBe(1_700_000_000 + 5400);
    expect(subjectOf('a', 'A', 'B')).toBe('A');
    expect(subjectOf('b', 'A', 'B')).toBe('B');
    expect(subjectOf(null, 'A', 'B')).toBe('A');
    expect(openRate({ delivered: 3, opened: 1 })).toBe(0.3333);
    expect(openRate({ delivered: 0, opened: 0 })).toBe(0);
  });
});

describe('templates', () => {
  const t = { subject: 'From the template', preheader: 'Its preheader', body_md: '# Its body', layout: 'plain' as const };

  test('a campaign from a template starts with its content; fields the create gives win', () => {
    expect(copyTemplate(t, {})).toEqual(t);
    expect(copyTemplate(t, { subject: 'Mine', track_opens: false })).toEqual({ ...t, subject: 'Mine', track_opens: false });
    // an explicit null in the create is the caller's choice too
    expect(copyTemplate(t, { preheader: null })).toEqual({ ...t, preheader: null });
  });

  test('the copy is a copy: changing the template afterwards changes nothing copied', () => {
    const source = { ...t };
    const copied = copyTemplate(source, {});
    source.subject = 'Edited later';
    expect(copied.subject).toBe('From the template');
  });

  test('checked: a name to create, text within limits, store or plain, is_active a boolean; kept fields refused', () => {
    expect(checkTemplate({ name: ' Weekly ', subject: '', layout: 'plain', is_active: false }, true)).toEqual({ name: 'Weekly', subject: null, layout: 'plain', is_active: false });
    expect(checkTemplate({ subject: 'Only this' }, false)).toEqual({ subject: 'Only this' });
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof HttpProblem ? e.extra.code : String(e);
      }
      return 'accepted';
    };
    expect(code(() => checkTemplate({}, true))).toBe('invalid_field');
    expect(code(() => checkTemplate({ name: 'x', layout: 'fancy' }, true))).toBe('invalid_field');
    expect(code(() => checkTemplate({ name: 'x', is_active: 'yes' }, true))).toBe('invalid_field');
    expect(code(() => checkTemplate({ preheader: 'x'.repeat(256) }, false))).toBe('invalid_field');
    expect(code(() => checkTemplate({ id: 3 }, false))).toBe('field_read_only');
  });
});
