/**
 * Cron expressions as Grav's scheduler reads them (five fields: minute, hour, day of month, month,
 * day of week; lists, ranges, steps, month and day names, `@daily` and friends): parsed, put in
 * words, and their next run times found. Pure, so the scheduler screen's "what this means" and
 * "when it runs next" are tested without a clock. Day of month and day of week follow cron's rule:
 * when both are restricted, either may match.
 */

export interface Cron {
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Which of the day fields were restricted (not `*`). */
  dayRestricted: boolean;
  weekdayRestricted: boolean;
  source: string;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const MONTH_WORDS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAY_WORDS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** The value of the first name (months count from 1). */
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, nameBase: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAYS, nameBase: 0 },
];

function value(text: string, f: FieldSpec): number {
  const lower = text.toLowerCase();
  const named = f.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (f.nameBase ?? 0);
  if (!/^\d+$/.test(text)) throw new Error(`“${text}” is not a ${f.name}`);
  const n = Number(text);
  if (n < f.min || n > f.max) throw new Error(`${n} is not a ${f.name} (${f.min}–${f.max})`);
  return n;
}

function field(text: string, f: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    if (part === '') throw new Error(`an empty entry in the ${f.name}`);
    const [range = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`“/${stepText}” is not a step of the ${f.name}`);
    let from: number;
    let to: number;
    if (range === '*' || range === '?') {
      from = f.min;
      to = f.name === 'day of week' ? 6 : f.max;
    } else if (range.includes('-')) {
      const [a = '', b = ''] = range.split('-');
      from = value(a, f);
      to = value(b, f);
      if (to < from) throw new Error(`${range} runs backwards in the ${f.name}`);
    } else {
      from = value(range, f);
      to = stepText === undefined ? from : f.name === 'day of week' ? 6 : f.max;
    }
    for (let n = from; n <= to; n += step) out.add(f.name === 'day of week' && n === 7 ? 0 : n);
  }
  return out;
}

/** The expression read, or why it cannot be: `{error}` in words. */
export function parseCron(expression: string): Cron | { error: string } {
  const source = expression.trim();
  const text = MACROS[source.toLowerCase()] ?? source;
  const parts = text.split(/\s+/);
  if (parts.length !== 5) return { error: `A cron expression has five fields (minute hour day month weekday); this one has ${parts.length}.` };
  try {
    const [m, h, d, mo, w] = parts.map((p, i) => field(p, FIELDS[i]!));
    return { minutes: m!, hours: h!, days: d!, months: mo!, weekdays: w!, dayRestricted: parts[2] !== '*' && parts[2] !== '?', weekdayRestricted: parts[4] !== '*' && parts[4] !== '?', source };
  } catch (err) {
    return { error: `${(err as Error).message}.` };
  }
}

function dayMatches(c: Cron, date: Date): boolean {
  const dom = c.days.has(date.getUTCDate());
  const dow = c.weekdays.has(date.getUTCDay());
  if (c.dayRestricted && c.weekdayRestricted) return dom || dow;
  if (c.dayRestricted) return dom;
  if (c.weekdayRestricted) return dow;
  return true;
}

/**
 * The next `count` run times strictly after `after` (UTC, as the sandbox and a server's cron in UTC
 * run; a site in another zone says so in its status). Looks at most four years ahead.
 */
export function nextRuns(c: Cron, after: Date, count = 3): Date[] {
  const out: Date[] = [];
  const t = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), after.getUTCDate(), after.getUTCHours(), after.getUTCMinutes() + 1));
  const limit = after.getTime() + 4 * 366 * 86_400_000;
  while (out.length < count && t.getTime() <= limit) {
    if (!c.months.has(t.getUTCMonth() + 1)) {
      t.setUTCMonth(t.getUTCMonth() + 1, 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!dayMatches(c, t)) {
      t.setUTCDate(t.getUTCDate() + 1);
      t.setUTCHours(0, 0, 0, 0);
      continue;
    }
    if (!c.hours.has(t.getUTCHours())) {
      t.setUTCHours(t.getUTCHours() + 1, 0, 0, 0);
      continue;
    }
    if (!c.minutes.has(t.getUTCMinutes())) {
      t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
      continue;
    }
    out.push(new Date(t));
    t.setUTCMinutes(t.getUTCMinutes() + 1, 0, 0);
  }
  return out;
}

const sorted = (s: ReadonlySet<number>) => [...s].sort((a, b) => a - b);
const pad = (n: number) => String(n).padStart(2, '0');
const list = (xs: string[]) => (xs.length <= 2 ? xs.join(' and ') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/** An evenly spaced set from `min` ("every 15 minutes"), or null. */
function every(values: number[], min: number, max: number): number | null {
  if (values.length < 2 || values[0] !== min) return null;
  const step = values[1]! - values[0]!;
  for (let i = 1; i < values.length; i++) if (values[i]! - values[i - 1]! !== step) return null;
  return values.at(-1)! + step > max ? step : null;
}

/** The expression in words: "Every day at 03:00", "Every 15 minutes", "At 04:30 on Monday and Friday". */
export function describeCron(c: Cron): string {
  const minutes = sorted(c.minutes);
  const hours = sorted(c.hours);
  const allMinutes = minutes.length === 60;
  const allHours = hours.length === 24;
  let when: string;
  if (allMinutes && allHours) when = 'Every minute';
  else if (allHours && every(minutes, 0, 59)) when = `Every ${every(minutes, 0, 59)} minutes`;
  else if (allHours && minutes.length === 1) when = minutes[0] === 0 ? 'Every hour, on the hour' : `Every hour at ${minutes[0]} past`;
  else if (minutes.length === 1 && every(hours, 0, 23)) when = `Every ${every(hours, 0, 23)} hours at ${pad(minutes[0]!)} past`;
  else if (minutes.length * hours.length <= 6) when = `At ${list(hours.flatMap((h) => minutes.map((m) => `${pad(h)}:${pad(m)}`)))}`;
  else when = `At minute ${list(minutes.map(String))} of hour ${list(hours.map(String))}`;

  const parts: string[] = [];
  const days = sorted(c.days);
  const weekdays = sorted(c.weekdays);
  const months = sorted(c.months);
  if (c.weekdayRestricted && weekdays.length < 7) parts.push(`on ${weekdays.length === 5 && weekdays.join() === '1,2,3,4,5' ? 'weekdays' : list(weekdays.map((d) => DAY_WORDS[d]!))}`);
  if (c.dayRestricted && days.length < 31) parts.push(`${c.weekdayRestricted ? 'or ' : ''}on day ${list(days.map(String))} of the month`);
  if (months.length < 12) parts.push(`in ${list(months.map((m) => MONTH_WORDS[m - 1]!))}`);
  const daily = !c.dayRestricted && !c.weekdayRestricted && months.length === 12;
  const text = `${when}${parts.length ? ` ${parts.join(' ')}` : daily && !(allHours || every(hours, 0, 23)) ? ', every day' : ''}`;
  return `${text} (UTC)`;
}
