/**
 * A store login's `X-Expires-After` → epoch ms. Document 3 calls it a date; stores write it
 * differently:
 * - ISO 8601 with a zone (`2026-11-20T09:12:01Z`, `…+01:00`), as the spec's store does;
 * - java.util.Date.toString(), as the real Swagger Petstore does (`EEE MMM dd HH:mm:ss zzz yyyy`,
 *   e.g. `Fri Nov 20 09:12:01 UTC 2026`), in whatever zone its server runs: a short zone name
 *   (UTC, CET, PDT, …) or, for zones without one, `GMT+05:30`;
 * - an HTTP date (`Fri, 20 Nov 2026 09:12:01 GMT`).
 * JavaScript's Date.parse reads the Java form only with UTC or GMT, so it is read here. A zone
 * name that means different offsets in different countries (CST: US Central or China; IST:
 * India, Israel or Ireland; BST; AST) is not guessed: like anything else unreadable, it gives
 * null and the app shows no expiry rather than a wrong one.
 */

/** Minutes east of UTC for the zone names Java prints, where the name means one offset only. */
const ZONES: Record<string, number> = {
  UTC: 0,
  UT: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  EST: -300,
  EDT: -240,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  NST: -210,
  NDT: -150,
  JST: 540,
  KST: 540,
  HKT: 480,
  SGT: 480,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** `+05:30`, `-0800`, `+1` → minutes; null when it is not an offset. */
function numericOffset(text: string): number | null {
  const m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (!m) return null;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  if (Number(m[2]) > 14 || Number(m[3] ?? 0) > 59) return null;
  return m[1] === '-' ? -minutes : minutes;
}

/** A zone as Java or an HTTP date writes it → minutes east of UTC; null when unknown or ambiguous. */
function zoneOffset(zone: string): number | null {
  if (zone in ZONES) return ZONES[zone]!;
  const prefixed = /^(?:GMT|UTC|UT)([+-].*)$/.exec(zone);
  return numericOffset(prefixed ? prefixed[1]! : zone);
}

/** Epoch ms of a wall-clock time at `offset` minutes east of UTC; null when the date does not exist. */
function at(year: number, month: number, day: number, time: string, offset: number): number | null {
  const [h, mi, s] = time.split(':').map(Number) as [number, number, number];
  if (h > 23 || mi > 59 || s > 60) return null;
  const local = Date.UTC(year, month, day, h, mi, s);
  const check = new Date(local);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month || check.getUTCDate() !== day) return null;
  return local - offset * 60_000;
}

/** The moment `X-Expires-After` names, or null when it is absent or cannot be read without guessing. */
export function parseExpiresAfter(raw: string | null | undefined): number | null {
  const text = raw?.trim();
  if (!text) return null;

  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i.test(text)) {
    const ms = Date.parse(text);
    return Number.isNaN(ms) ? null : ms;
  }

  // java.util.Date.toString(): Fri Nov 20 09:12:01 UTC 2026
  const java = /^(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{1,2}) (\d{2}:\d{2}:\d{2}) (\S+) (\d{4})$/.exec(text);
  if (java) {
    const offset = zoneOffset(java[4]!);
    return offset === null ? null : at(Number(java[5]), MONTHS.indexOf(java[1]!), Number(java[2]), java[3]!, offset);
  }

  // an HTTP date: Fri, 20 Nov 2026 09:12:01 GMT
  const http = /^(?:Sun|Mon|Tue|Wed|Thu|Fri|Sat), (\d{2}) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) (\d{4}) (\d{2}:\d{2}:\d{2}) (GMT|UTC)$/.exec(text);
  if (http) return at(Number(http[3]), MONTHS.indexOf(http[2]!), Number(http[1]), http[4]!, 0);

  return null;
}
