/**
 * A small cron evaluator for the sandbox's scheduler: the five fields (minute, hour, day of month,
 * month, day of week) with lists, ranges, steps and month/day names, and the @-macros the real
 * scheduler's cron library accepts. Times are evaluated in UTC on the sandbox's clock. As in
 * classic cron, when both day fields are restricted a day matches either of them.
 */

interface Field {
  min: number;
  max: number;
  names?: readonly string[];
}

const FIELDS: readonly Field[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] },
  // 7 is Sunday too
  { min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export interface Cron {
  source: string;
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** whether the day-of-month / day-of-week field was `*` (unrestricted) */
  anyDay: boolean;
  anyWeekday: boolean;
}

export class CronError extends Error {}

function value(text: string, f: Field): number {
  const named = f.names?.indexOf(text.toLowerCase()) ?? -1;
  const n = named >= 0 ? named + (f.names === FIELDS[3]!.names ? 1 : 0) : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < f.min || n > f.max) throw new CronError(`"${text}" is out of range ${f.min}-${f.max}`);
  return n;
}

function parseField(text: string, f: Field): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (range === undefined || range === '' || extra !== undefined) throw new CronError(`"${part}" is not a cron field`);
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) && Number(stepText) > 0 ? Number(stepText) : NaN;
    if (Number.isNaN(step)) throw new CronError(`"${part}" has an invalid step`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [f.min, f.max];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined || !a || !b) throw new CronError(`"${range}" is not a range`);
      [lo, hi] = [value(a, f), value(b, f)];
      if (lo > hi) throw new CronError(`"${range}" runs backwards`);
    } else {
      lo = value(range, f);
      // `5/15` means from 5 to the end in steps of 15
      hi = stepText === undefined ? lo : f.max;
    }
    for (let n = lo; n <= hi; n += step) out.add(n);
  }
  return out;
}

/** Parses an expression; throws CronError naming what is wrong. */
export function parseCron(expression: string): Cron {
  const source = expression.trim();
  const fields = (MACROS[source.toLowerCase()] ?? source).split(/\s+/);
  if (fields.length !== 5) throw new CronError(`"${expression}" does not have 5 fields`);
  const [mi, ho, dom, mon, dow] = fields.map((t, i) => parseField(t, FIELDS[i]!)) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (dow.has(7)) dow.add(0);
  return { source, minutes: mi, hours: ho, days: dom, months: mon, weekdays: dow, anyDay: fields[2]!.startsWith('*'), anyWeekday: fields[4]!.startsWith('*') };
}

function dayMatches(c: Cron, d: Date): boolean {
  const dom = c.days.has(d.getUTCDate());
  const dow = c.weekdays.has(d.getUTCDay());
  if (c.anyDay && c.anyWeekday) return true;
  if (c.anyDay) return dow;
  if (c.anyWeekday) return dom;
  return dom || dow;
}

/** Whether the expression fires in the minute holding `ms` (epoch milliseconds). */
export function cronMatches(c: Cron, ms: number): boolean {
  const d = new Date(ms);
  return c.minutes.has(d.getUTCMinutes()) && c.hours.has(d.getUTCHours()) && c.months.has(d.getUTCMonth() + 1) && dayMatches(c, d);
}

const MINUTE = 60_000;

/** The first minute strictly after `afterMs` the expression fires in (epoch ms), or null within five years. */
export function nextRun(c: Cron, afterMs: number): number | null {
  let t = Math.floor(afterMs / MINUTE) * MINUTE + MINUTE;
  const limit = afterMs + 5 * 366 * 86_400_000;
  while (t <= limit) {
    const d = new Date(t);
    if (!c.months.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      continue;
    }
    if (!dayMatches(c, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      continue;
    }
    if (!c.hours.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      continue;
    }
    if (!c.minutes.has(d.getUTCMinutes())) {
      t += MINUTE;
      continue;
    }
    return t;
  }
  return null;
}
