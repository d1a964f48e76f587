/**
 * How an import reads a file (docs/mailer-audience.md, "Imports"): the mapping of columns to
 * fields, the presets that recognise other mailing tools' exports by their headers, the heading
 * guesses, and how a cell becomes a value (status words, dates, tags, names). Pure.
 */
import type { Flavor } from '../../flavor';

export const IMPORT_FIELDS = ['email', 'name', 'first_name', 'last_name', 'tags', 'status', 'subscribed_at', 'language'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
/** field → column index */
export type ColumnMap = Partial<Record<ImportField, number>>;
/** a mapping as the API takes it: field → header text or 0-based index */
export type MappingInput = Partial<Record<ImportField, string | number>>;

export type ReadStatus = 'subscribed' | 'pending' | 'unsubscribed';

export interface Preset {
  key: string;
  label: string;
  /** whether the headers carry this tool's signature */
  matches(headers: Set<string>): boolean;
  /** field → header (the first header present of each list) */
  mapping: Partial<Record<ImportField, string[]>>;
  /** a status for every row, from the file itself (Mailchimp's unsubscribed and cleaned exports) */
  fileStatus?(headers: Set<string>): ReadStatus | null;
  /** reads this tool's status cell (default: readStatus) */
  status?(cell: string): ReadStatus;
}

const has = (h: Set<string>, ...names: string[]) => names.every((n) => h.has(n));
const any = (h: Set<string>, ...names: string[]) => names.some((n) => h.has(n));
const lower = (h: Set<string>) => new Set([...h].map((x) => x.toLowerCase()));

export const PRESETS: readonly Preset[] = [
  {
    key: 'mailchimp',
    label: 'Mailchimp audience export',
    matches: (h) => has(h, 'Email Address') && any(h, 'LEID', 'EUID', 'MEMBER_RATING', 'OPTIN_TIME'),
    mapping: { email: ['Email Address'], first_name: ['First Name'], last_name: ['Last Name'], tags: ['TAGS'], subscribed_at: ['OPTIN_TIME', 'CONFIRM_TIME'] },
    fileStatus: (h) => (any(h, 'UNSUB_TIME', 'CLEAN_TIME') ? 'unsubscribed' : null),
  },
  {
    key: 'listmonk',
    label: 'listmonk subscribers export',
    matches: (h) => has(h, 'uuid', 'email', 'attributes'),
    mapping: { email: ['email'], name: ['name'], status: ['status'], subscribed_at: ['created_at'] },
    // listmonk's subscriber status: enabled, disabled, blocklisted
    status: (cell) => (/^blocklisted$/i.test(cell.trim()) ? 'unsubscribed' : readStatus(cell)),
  },
  {
    key: 'brevo',
    label: 'Brevo (Sendinblue) contacts export',
    matches: (h) => has(h, 'EMAIL') && any(h, 'FIRSTNAME', 'LASTNAME', 'ADDED_TIME'),
    mapping: { email: ['EMAIL'], first_name: ['FIRSTNAME'], last_name: ['LASTNAME'], status: ['EMAIL_BLACKLISTED'], subscribed_at: ['ADDED_TIME'] },
    // the column is a yes/no flag: blacklisted means unsubscribed
    status: (cell) => (/^(yes|true|1)$/i.test(cell.trim()) ? 'unsubscribed' : 'subscribed'),
  },
  {
    key: 'mailerlite',
    label: 'MailerLite subscribers export',
    matches: (h) => {
      const l = lower(h);
      return any(l, 'email', 'subscriber') && any(l, 'subscribed', 'subscribed_at', 'groups') && any(l, 'last name', 'last_name');
    },
    mapping: { email: ['Email', 'email', 'Subscriber', 'subscriber'], name: ['Name', 'name'], last_name: ['Last name', 'last_name'], tags: ['Groups', 'groups'], status: ['Status', 'status'], subscribed_at: ['Subscribed', 'subscribed_at', 'subscribed'] },
    // MailerLite: active, unsubscribed, unconfirmed, bounced, junk
    status: (cell) => readStatus(cell),
  },
  {
    key: 'emailoctopus',
    label: 'EmailOctopus contacts export',
    matches: (h) => has(h, 'Email address') && any(h, 'Created at', 'Last updated'),
    mapping: { email: ['Email address'], first_name: ['First name'], last_name: ['Last name'], tags: ['Tags'], status: ['Status'], subscribed_at: ['Created at'] },
  },
];

/** The presets a flavour knows: the real plugin documents only EmailOctopus. */
export function presetsFor(flavor: Flavor): readonly Preset[] {
  return flavor === 'real' ? PRESETS.filter((p) => p.key === 'emailoctopus') : PRESETS;
}

export function detectPreset(headers: string[], flavor: Flavor): Preset | null {
  const set = new Set(headers.map((h) => h.trim()));
  return presetsFor(flavor).find((p) => p.matches(set)) ?? null;
}

/** Headings that plainly name a field (compared lower-cased, with separators as spaces). */
const HEADINGS: Record<ImportField, string[]> = {
  email: ['email', 'e mail', 'email address', 'e mail address', 'emailaddress', 'mail', 'email adres', 'courriel', 'e mail adresse'],
  name: ['name', 'full name', 'fullname', 'your name', 'display name'],
  first_name: ['first name', 'firstname', 'given name', 'fname', 'forename', 'vorname', 'prenom', 'prénom'],
  last_name: ['last name', 'lastname', 'surname', 'family name', 'lname', 'nachname', 'nom'],
  tags: ['tags', 'tag', 'labels', 'groups'],
  status: ['status', 'state', 'subscription status', 'subscription'],
  subscribed_at: ['subscribed at', 'subscribed', 'signup date', 'sign up date', 'date subscribed', 'joined', 'joined at', 'created', 'created at', 'date added', 'added', 'optin time', 'opt in date'],
  language: ['language', 'lang', 'locale'],
};

const headingKey = (h: string) => h.trim().toLowerCase().replace(/[_\-.]+/g, ' ').replace(/\s+/g, ' ');

/** Field → column from the headings alone (each field from the first column naming it; a column serves one field). */
export function guessMapping(headers: string[]): ColumnMap {
  const out: ColumnMap = {};
  const used = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const idx = headers.findIndex((h, i) => !used.has(i) && HEADINGS[field].includes(headingKey(h)));
    if (idx >= 0) {
      out[field] = idx;
      used.add(idx);
    }
  }
  return out;
}

/** A preset's mapping over these headers. */
export function presetMapping(preset: Preset, headers: string[]): ColumnMap {
  const out: ColumnMap = {};
  for (const [field, names] of Object.entries(preset.mapping) as [ImportField, string[]][]) {
    for (const name of names) {
      const idx = headers.findIndex((h) => h.trim() === name);
      if (idx >= 0) {
        out[field] = idx;
        break;
      }
    }
  }
  return out;
}

export class MappingError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A mapping sent by the caller, checked against the headers: unknown fields or columns, a column used twice. */
export function resolveMapping(input: unknown, headers: string[]): ColumnMap {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new MappingError('mapping must be an object from field to column (its header or 0-based index).', 'mapping');
  const out: ColumnMap = {};
  const used = new Map<number, string>();
  for (const [field, column] of Object.entries(input as Record<string, unknown>)) {
    if (!(IMPORT_FIELDS as readonly string[]).includes(field)) throw new MappingError(`mapping.${field} is not a field an import reads; use ${IMPORT_FIELDS.join(', ')}.`, `mapping.${field}`);
    if (column === null || column === '') continue;
    let idx: number;
    if (typeof column === 'number') {
      if (!Number.isInteger(column) || column < 0 || column >= headers.length) throw new MappingError(`mapping.${field}: the file has no column ${column} (it has ${headers.length}, counted from 0).`, `mapping.${field}`);
      idx = column;
    } else if (typeof column === 'string') {
      idx = headers.findIndex((h) => h.trim() === column.trim());
      if (idx < 0) throw new MappingError(`mapping.${field}: the file has no column headed "${column}".`, `mapping.${field}`);
    } else throw new MappingError(`mapping.${field} must name a column by its header or 0-based index.`, `mapping.${field}`);
    const other = used.get(idx);
    if (other) throw new MappingError(`mapping.${field}: column ${idx} is already read as ${other}; a column serves one field.`, `mapping.${field}`);
    used.set(idx, field);
    out[field as ImportField] = idx;
  }
  return out;
}

/** The mapping as headers, for answers. */
export function mappingAsHeaders(map: ColumnMap, headers: string[]): Partial<Record<ImportField, string>> {
  const out: Partial<Record<ImportField, string>> = {};
  for (const f of IMPORT_FIELDS) if (map[f] !== undefined) out[f] = headers[map[f]!]!;
  return out;
}

const UNSUBSCRIBED = /^(unsubscribed|unsub|opted[ -]?out|cleaned|removed|blocklisted|blacklisted|bounced|junk|complained)$/i;
const PENDING = /^(pending|unconfirmed|awaiting confirmation|not confirmed)$/i;

/** Status words read loosely (Mailroom's rule): unsubscribed words, pending words, anything else subscribed. */
export function readStatus(cell: string): ReadStatus {
  const t = cell.trim();
  if (UNSUBSCRIBED.test(t)) return 'unsubscribed';
  if (PENDING.test(t)) return 'pending';
  return 'subscribed';
}

/** A date cell as epoch seconds (UTC): epoch seconds or milliseconds, YYYY-MM-DD, YYYY-MM-DD HH:MM[:SS], ISO 8601; null when unreadable. */
export function readDate(cell: string): number | null {
  const t = cell.trim();
  if (t === '') return null;
  if (/^\d{9,10}$/.test(t)) return Number(t);
  if (/^\d{12,13}$/.test(t)) return Math.floor(Number(t) / 1000);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2}| UTC)?$/.exec(t);
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // a day, month or time that does not exist (Date.UTC would roll it over) is not a date
  const back = new Date(ms);
  if (Number.isNaN(ms) || back.getUTCMonth() !== Number(mo) - 1 || back.getUTCDate() !== Number(d) || back.getUTCHours() !== Number(h) || back.getUTCMinutes() !== Number(mi)) return null;
  if (zone && /^[+-]/.test(zone)) {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const offset = (Number(z[2]) * 60 + Number(z[3])) * 60_000;
    ms -= z[1] === '+' ? offset : -offset;
  }
  return Math.floor(ms / 1000);
}

/** Tag codes in a cell: separated by commas or semicolons, quotes dropped, normalised, empty ones gone. */
export function readTags(cell: string): string[] {
  const out = new Set<string>();
  for (const part of cell.split(/[,;|]/)) {
    const code = normaliseTag(part.replace(/"/g, ''));
    if (code) out.add(code);
  }
  return [...out];
}

/** Mailroom's tag codes: lower case, spaces and underscores to hyphens, letters, digits and hyphens only, at most 64. */
export function normaliseTag(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
}

const EMAIL = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\.]{2,}$/;

/** An address as stored (trimmed, lower-cased) when it is one, else null. */
export function normaliseEmail(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const t = text.trim().toLowerCase();
  if (t.length > 254 || !EMAIL.test(t)) return null;
  return t;
}

/** The name from a row: `name`, else first and last joined. */
export function readName(values: { name?: string; first_name?: string; last_name?: string }): string {
  const name = values.name?.trim();
  if (name) return name.slice(0, 190);
  return [values.first_name?.trim(), values.last_name?.trim()].filter(Boolean).join(' ').slice(0, 190);
}
