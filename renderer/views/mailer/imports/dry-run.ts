/**
 * An import's counts in words, pure: the preview's dry run (the whole file read, nothing
 * written), a run's counts as it goes and when done, a row's outcome, the reasons rows are not
 * written, and a run's phase (docs/mailer-audience.md, "How a row is read"). One set of words for
 * the wizard, its progress and the history. No count ever names an address.
 */
import type { ImportCounts, ImportProgress, ImportRowOutcome, MailerImport } from '../../../../electron/contract/index';

export type Tone = 'good' | 'neutral' | 'warn';

export interface CountLine {
  key: keyof ImportCounts;
  label: string;
  /** What happens to these rows. */
  hint: string;
  count: number;
  tone: Tone;
}

const LINES: Omit<CountLine, 'count'>[] = [
  { key: 'new', label: 'New', hint: 'People not here yet: added.', tone: 'good' },
  { key: 'updated', label: 'Updated', hint: 'Already here: joined to the list and tagged; nothing they have is taken away.', tone: 'good' },
  { key: 'unsubscribed', label: 'Unsubscribed', hint: 'Left at the other tool: their addresses are suppressed here, not added.', tone: 'neutral' },
  { key: 'suppressed', label: 'Suppressed', hint: 'Already suppressed, bounced or complained here: nothing written.', tone: 'neutral' },
  { key: 'skipped', label: 'Skipped', hint: 'Never confirmed at the other tool, or left this list themselves: nothing written.', tone: 'neutral' },
  { key: 'duplicates', label: 'Duplicates', hint: 'The same address earlier in the file: read once.', tone: 'warn' },
  { key: 'invalid', label: 'Invalid', hint: 'No address, or not an address: skipped.', tone: 'warn' },
];

/** Every count with its words, in the order a person reads them (what is written first). */
export function countLines(counts: ImportCounts): CountLine[] {
  return LINES.map((l) => ({ ...l, count: counts[l.key] ?? 0 }));
}

/** Rows that write something (new people, people updated, addresses suppressed). */
export const written = (c: ImportCounts): number => c.new + c.updated + c.unsubscribed;

const n = (x: number) => x.toLocaleString('en');
const plural = (x: number, one: string, many: string) => `${n(x)} ${x === 1 ? one : many}`;

/** A dry run in one sentence. */
export function dryRunSummary(d: ImportCounts & { rows: number }): string {
  if (d.rows === 0) return 'The file has no rows under its headings: nothing would be imported.';
  const w = written(d);
  const parts = [d.new && plural(d.new, 'new person', 'new people'), d.updated && `${n(d.updated)} updated`, d.unsubscribed && plural(d.unsubscribed, 'address suppressed', 'addresses suppressed')].filter(Boolean);
  const left = d.rows - w;
  return `${n(w)} of ${plural(d.rows, 'row', 'rows')} would be written${parts.length ? ` (${parts.join(', ')})` : ''}${left ? `; ${n(left)} would not` : ''}.`;
}

const REASONS: Record<string, string> = {
  invalid_address: 'not an email address',
  missing_address: 'no address',
  duplicate: 'again in the file',
  suppressed: 'suppressed here',
  unsubscribed_at_source: 'left at the other tool',
  pending_at_source: 'never confirmed at the other tool',
  left_themselves: 'left this list themselves',
};

/** Why rows were not written, in words ("never confirmed at the other tool"); a key Sitedesk does not know as the site wrote it, readable. */
export function reasonWords(key: string): string {
  return REASONS[key] ?? key.replaceAll('_', ' ');
}

/** The reasons with their counts, most first. */
export function reasonLines(reasons: Record<string, number>): { key: string; words: string; count: number }[] {
  return Object.entries(reasons)
    .filter(([, c]) => c > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([key, count]) => ({ key, words: reasonWords(key), count }));
}

const OUTCOMES: Record<ImportRowOutcome, { label: string; tone: Tone }> = {
  new: { label: 'New', tone: 'good' },
  updated: { label: 'Updated', tone: 'good' },
  unsubscribe: { label: 'Suppressed (left at the other tool)', tone: 'neutral' },
  suppressed: { label: 'Already suppressed', tone: 'neutral' },
  skipped: { label: 'Skipped', tone: 'neutral' },
  duplicate: { label: 'Duplicate', tone: 'warn' },
  invalid: { label: 'Invalid', tone: 'warn' },
};

/** What the import would do with a row. */
export function outcomeOf(outcome: string): { label: string; tone: Tone } {
  return (OUTCOMES as Record<string, { label: string; tone: Tone }>)[outcome] ?? { label: outcome.replaceAll('_', ' '), tone: 'neutral' };
}

const STATUS: Record<string, string> = { queued: 'Waiting for the site’s worker', running: 'Running', finished: 'Finished', failed: 'Failed' };

/** A run's status in words. */
export const statusWords = (status: string): string => STATUS[status] ?? status;

const size = (b: number) => (b >= 1024 * 1024 ? `${(b / 1024 / 1024).toFixed(1)} MB` : b >= 1024 ? `${Math.round(b / 1024)} KB` : `${b} bytes`);

/** A run's progress in one line, from the Host's event. */
export function progressWords(p: Pick<ImportProgress, 'phase' | 'sent' | 'total' | 'import'>): string {
  switch (p.phase) {
    case 'uploading':
      return p.total > 0 ? `Sending the file: ${size(p.sent)} of ${size(p.total)}` : `Sending the file: ${size(p.sent)}`;
    case 'queued':
      return 'Sent. Waiting for the site’s worker to start it…';
    case 'running':
      return p.import ? `Importing: ${n(p.import.rowsDone)} of ${plural(p.import.rowsTotal, 'row', 'rows')}` : 'Importing…';
    case 'finished':
      return p.import ? `Finished: ${plural(p.import.rowsDone, 'row', 'rows')} read.` : 'Finished.';
    case 'failed':
      return `The import failed${p.import?.error ? `: ${p.import.error}` : '.'}`;
    case 'lost':
      return 'The site stopped answering, so Sitedesk stopped following the run. It goes on on the site.';
    default:
      return p.phase;
  }
}

/** How far a phase is, 0 to 1 (null: not measurable). Sending counts as the first tenth. */
export function progressFraction(p: Pick<ImportProgress, 'phase' | 'sent' | 'total' | 'import'>): number | null {
  if (p.phase === 'uploading') return p.total > 0 ? 0.1 * Math.min(1, p.sent / p.total) : null;
  if (p.phase === 'queued') return 0.1;
  if (p.phase === 'running') return p.import ? 0.1 + 0.9 * Math.min(1, p.import.progress) : null;
  if (p.phase === 'finished') return 1;
  return null;
}

/** A past run's counts in one line ("120 new, 3 updated, 2 invalid"). */
export function runSummary(r: Pick<MailerImport, 'counts'>): string {
  const parts = countLines(r.counts)
    .filter((l) => l.count > 0)
    .map((l) => `${n(l.count)} ${l.label.toLowerCase()}`);
  return parts.length ? parts.join(', ') : 'Nothing written';
}
