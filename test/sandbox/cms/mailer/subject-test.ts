/**
 * The subject test's rules (docs/mailer-campaigns.md, "The subject test"), pure: no store, no
 * clock. A campaign with `subject_b` first mails a sample of its audience, half with subject A and
 * half with B; when the window has passed since the sample's last message, the subject with the
 * better open rate wins (ties to A) and the rest of the audience gets it.
 */

/** Used where the campaign leaves them empty: Mailchimp-like defaults, short enough to try on the clock. */
export const DEFAULT_SAMPLE_PERCENT = 20;
export const DEFAULT_WINDOW_MINUTES = 240;
/** fewer than this in the sample and there is nothing to compare: A goes to everybody */
export const MIN_SAMPLE = 2;

export type Variant = 'a' | 'b';
export type Phase = 'sample' | 'window' | 'rest';
export type DecidedBy = 'open_rate' | 'tie' | 'too_few';

export interface TestSettings {
  subjectB: string;
  samplePercent: number;
  windowMinutes: number;
}

/** The campaign's subject test, with the defaults filled in, or null: it has none. */
export function testOf(f: { subject_b: string | null; ab_sample_percent: number | null; ab_window_minutes: number | null }): TestSettings | null {
  if (!f.subject_b) return null;
  return { subjectB: f.subject_b, samplePercent: f.ab_sample_percent ?? DEFAULT_SAMPLE_PERCENT, windowMinutes: f.ab_window_minutes ?? DEFAULT_WINDOW_MINUTES };
}

/** How many of an audience of `audience` are in the sample: the percentage, rounded half up. */
export const sampleSize = (audience: number, percent: number): number => Math.floor((audience * percent) / 100 + 0.5);

/** The variant of the sample's `rank`-th person (0 the first, in the sample's order): A and B by turns, so the halves differ by at most one. */
export const variantAt = (rank: number): Variant => (rank % 2 === 0 ? 'a' : 'b');

/**
 * Where in the sample's order a person falls: a hash of campaign and person, so the sample is
 * spread over the whole audience (not its oldest ids) and differs from campaign to campaign.
 */
export const sampleRankSql = (idCol: string, campaignParam: string) => `((${idCol} * 2654435761 + ${campaignParam} * 40503) % 1000003)`;

export interface VariantFigures {
  delivered: number;
  opened: number;
}

export interface Pick {
  winner: Variant;
  decidedBy: DecidedBy;
}

/**
 * The winner: the higher open rate (opened of delivered, opens up to the window's end), compared
 * exactly (cross-multiplied); equal rates, or nothing delivered on both sides, go to A. A side
 * with nothing delivered has the rate 0.
 */
export function pickWinner(a: VariantFigures, b: VariantFigures): Pick {
  // a/d vs a'/d' as a·d' vs a'·d: no rounding decides a close test; a side with nothing delivered reads 0/1
  const aSide = a.delivered > 0 ? a : { opened: 0, delivered: 1 };
  const bSide = b.delivered > 0 ? b : { opened: 0, delivered: 1 };
  const bScore = bSide.opened * aSide.delivered;
  const aScore = aSide.opened * bSide.delivered;
  if (aScore === bScore) return { winner: 'a', decidedBy: 'tie' };
  return { winner: bScore > aScore ? 'b' : 'a', decidedBy: 'open_rate' };
}

/** When the window ends: `windowMinutes` after the sample's last message. */
export const windowEndOf = (sampleDoneAt: number, windowMinutes: number): number => sampleDoneAt + windowMinutes * 60;

/** The subject a variant reads. */
export const subjectOf = (v: Variant | null, subjectA: string | null, subjectB: string | null): string => (v === 'b' && subjectB ? subjectB : (subjectA ?? ''));

export const openRate = (f: VariantFigures): number => (f.delivered > 0 ? Math.round((f.opened / f.delivered) * 10_000) / 10_000 : 0);
