/**
 * A list of store users from CSV text (pasted, or read from a file the person chose): papaparse
 * reads it with the first line as the header; columns are matched loosely (`first_name`, `First
 * name`, `E-mail`…); each row is checked against the contract's NewStoreUser so its problems can be
 * shown on that row before anything is sent. Pure: no DOM, no Host.
 */
import Papa from 'papaparse';
import * as v from 'valibot';
import { NewStoreUser } from '../../../electron/contract/index';
import { fieldErrors } from '../../../electron/common/field-errors';

export const USER_COLUMNS = ['username', 'email', 'password', 'firstName', 'lastName', 'phone', 'userStatus'] as const;
export type UserColumn = (typeof USER_COLUMNS)[number];
export const REQUIRED_COLUMNS: readonly UserColumn[] = ['username', 'email', 'password'];
export const MAX_USERS = 1000;

const ALIASES: Record<string, UserColumn> = {
  username: 'username',
  user: 'username',
  login: 'username',
  email: 'email',
  emailaddress: 'email',
  mail: 'email',
  password: 'password',
  firstname: 'firstName',
  givenname: 'firstName',
  lastname: 'lastName',
  surname: 'lastName',
  familyname: 'lastName',
  phone: 'phone',
  phonenumber: 'phone',
  telephone: 'phone',
  userstatus: 'userStatus',
  status: 'userStatus',
};

/** A header cell → the user field it names, or null. */
export function columnOf(header: string): UserColumn | null {
  return ALIASES[header.toLowerCase().replace(/[^a-z]/g, '')] ?? null;
}

export interface CsvUserRow {
  /** 0-based position among the users (the index the store's errors use: `users.3.email`) */
  index: number;
  /** the spreadsheet's row number (the header is row 1) */
  row: number;
  values: Partial<Record<UserColumn, string>>;
  /** the user to send, when the row has no problems */
  user: NewStoreUser | null;
  /** field (or `_` for the whole row) → message */
  errors: Record<string, string>;
}

export interface CsvUsers {
  rows: CsvUserRow[];
  /** recognised columns, in the file's order */
  columns: UserColumn[];
  /** header cells that name no user field (left out) */
  ignored: string[];
  /** problems with the whole text: missing columns, too many rows, broken quoting */
  problems: string[];
}

const EMPTY: CsvUsers = { rows: [], columns: [], ignored: [], problems: [] };

export function parseUsersCsv(text: string): CsvUsers {
  if (text.trim() === '') return EMPTY;
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const headers = parsed.meta.fields ?? [];
  const byColumn = new Map<UserColumn, string>();
  const ignored: string[] = [];
  const problems: string[] = [];
  for (const h of headers) {
    const col = columnOf(h);
    if (col && !byColumn.has(col)) byColumn.set(col, h);
    else if (h !== '') ignored.push(h);
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !byColumn.has(c));
  if (missing.length) {
    problems.push(
      `The first line must name the columns; ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing. Start with: ${USER_COLUMNS.join(',')}`,
    );
  }
  for (const e of parsed.errors) {
    if (e.type === 'Quotes') problems.push(`Row ${(e.row ?? 0) + 2}: a quoted value is not closed.`);
  }
  if (parsed.data.length > MAX_USERS) problems.push(`At most ${MAX_USERS} users at a time; this list has ${parsed.data.length}.`);

  const rowErrors = new Map<number, string>();
  for (const e of parsed.errors) {
    if (e.type === 'FieldMismatch' && e.row !== undefined) rowErrors.set(e.row, `Has a different number of values than the header has columns.`);
  }

  const seen = new Map<string, number>();
  const rows = parsed.data.map((raw, index): CsvUserRow => {
    const values: Partial<Record<UserColumn, string>> = {};
    for (const [col, header] of byColumn) values[col] = (raw[header] ?? '').trim();
    const errors: Record<string, string> = {};
    const mismatch = rowErrors.get(index);
    if (mismatch) errors._ = mismatch;

    const user: Record<string, unknown> = {};
    for (const col of USER_COLUMNS) {
      const value = values[col];
      if (value === undefined || value === '') {
        if (REQUIRED_COLUMNS.includes(col)) user[col] = '';
        continue;
      }
      user[col] = col === 'userStatus' ? (/^-?\d+$/.test(value) ? Number(value) : Number.NaN) : value;
    }
    const result = v.safeParse(NewStoreUser, user);
    if (!result.success) for (const [key, message] of Object.entries(fieldErrors(result.issues))) errors[key] ??= message;
    const name = values.username?.toLowerCase();
    if (name) {
      const first = seen.get(name);
      if (first !== undefined) errors.username ??= `Also in row ${first}: usernames are unique.`;
      else seen.set(name, index + 2);
    }
    const ok = result.success && Object.keys(errors).length === 0;
    return { index, row: index + 2, values, user: ok ? result.output : null, errors };
  });

  return { rows, columns: USER_COLUMNS.filter((c) => byColumn.has(c)).sort((a, b) => headers.indexOf(byColumn.get(a)!) - headers.indexOf(byColumn.get(b)!)), ignored, problems };
}

/** The store's refusal of a list (`users.2.email` → row 2's email); others stay with the list. */
export function rowErrorsFrom(fields: Record<string, string>): { byIndex: Map<number, Record<string, string>>; rest: string[] } {
  const byIndex = new Map<number, Record<string, string>>();
  const rest: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const m = /^users\.(\d+)(?:\.(.+))?$/.exec(path);
    if (!m) {
      rest.push(message);
      continue;
    }
    const i = Number(m[1]);
    const entry = byIndex.get(i) ?? {};
    entry[m[2] ?? '_'] ??= message;
    byIndex.set(i, entry);
  }
  return { byIndex, rest };
}
