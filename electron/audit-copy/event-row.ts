/**
 * One audit event read from what a site or a file holds (pure): a row of `/audit/events`, an
 * element of a JSON export, a record of a CSV export. Document 2's fields in snake_case; the real
 * AuditStore's rows are the same (roles a list, context an object, `[]` when PHP decoded an empty
 * one). Tolerant where the two services or a re-saved file differ (a numeric id or time as text,
 * roles comma-joined, context as JSON text); a row that still cannot be read answers why, in
 * words, and the caller counts it aside.
 */
import type { AuditEvent } from '../contract';
import type { PackInput } from '../db/repos/audit-pack';

/** document 2's CSV columns, in the order the site writes them */
export const CSV_COLUMNS = ['id', 'ts', 'event', 'severity', 'actor_id', 'actor_name', 'actor_roles', 'auth_method', 'ip', 'user_agent', 'target_type', 'target_id', 'status', 'context'] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** The latest time a kept event may carry (year 2255): its key is `ts × 1000 + slot`, exact in a double. */
export const MAX_TS = 9_000_000_000_000;
/** Text fields longer than this are not an audit event's (a broken file): the row is set aside. */
const MAX_TEXT = 10_000;
const MAX_CONTEXT = 1_000_000;

/** The characters the site defuses in a CSV cell with a leading apostrophe (document 2; AuditController::csvSafe). */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);

/** A CSV cell as the site had it: the one apostrophe the export added before a formula start removed, nothing else. */
export function uncell(cell: string): string {
  return cell.length >= 2 && cell.charCodeAt(0) === 39 && FORMULA_START.has(cell[1]!) ? cell.slice(1) : cell;
}

/** A CSV cell as the site writes it: a formula start defused with an apostrophe. */
export function cellOf(text: string): string {
  return text !== '' && FORMULA_START.has(text[0]!) ? `'${text}` : text;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

class RowProblem extends Error {}
const refuse = (problem: string): never => {
  throw new RowProblem(problem);
};

/** Only digits (a whole number as text, the common case, told apart without a regular expression). */
function digits(s: string): boolean {
  if (s.length === 0 || s.length > 20) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A whole number as text, perhaps with spaces around it. */
const wholeText = (s: string): boolean => digits(s) || /^\s*\d+\s*$/.test(s);

function whole(x: unknown, field: string, min: number, max: number): number {
  const n = typeof x === 'number' ? x : typeof x === 'string' && wholeText(x) ? Number(x) : NaN;
  if (!Number.isInteger(n)) return refuse(x === undefined || x === null || x === '' ? `${field} is missing` : `${field} is not a whole number`);
  if (n < min || n > max) return refuse(`${field} is out of range`);
  return n;
}

/** Epoch milliseconds; an ISO date is read too (a file someone re-saved). */
function timeOf(x: unknown): number {
  if (typeof x === 'string' && x.trim() !== '' && !wholeText(x)) {
    const t = Date.parse(x);
    if (!Number.isFinite(t)) return refuse('ts is not a time');
    x = t;
  }
  return whole(x, 'ts', 0, MAX_TS);
}

function text(x: unknown, field: string, max = MAX_TEXT): string | null {
  if (x === null || x === undefined) return null;
  const s = typeof x === 'string' ? x : typeof x === 'number' || typeof x === 'boolean' ? String(x) : refuse(`${field} is not text`);
  if (s.length > max) return refuse(`${field} is longer than ${max.toLocaleString('en')} characters`);
  return s === '' ? null : s;
}

/** Roles as text read before (a trail repeats a few role lists a million times): the same list, read once. */
const rolesRead = new Map<string, readonly string[]>();

function rolesOf(x: unknown): string[] {
  if (x === null || x === undefined || x === '') return [];
  if (typeof x === 'string') {
    const known = rolesRead.get(x);
    if (known) return known as string[];
    const roles = rolesOfText(x);
    if (rolesRead.size > 1000) rolesRead.clear();
    rolesRead.set(x, Object.freeze(roles));
    return roles;
  }
  return rolesOfList(x);
}

function rolesOfText(x: string): string[] {
  const t = x.trim();
  if (!t.startsWith('[')) return t.split(',').map((r) => r.trim()).filter(Boolean);
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    return refuse('actor_roles is not a list');
  }
  return rolesOfList(parsed);
}

function rolesOfList(x: unknown): string[] {
  if (!Array.isArray(x)) return refuse('actor_roles is not a list');
  if (x.length > 1000) return refuse('actor_roles holds more than 1,000 roles');
  return x.flatMap((r) => (typeof r === 'string' && r !== '' ? [r.slice(0, MAX_TEXT)] : typeof r === 'number' ? [String(r)] : []));
}

/** Roles as the store writes them (JSON text of the list, null when none), each distinct text read once. */
const rolesTextRead = new Map<string, string | null>();

function rolesTextOf(x: unknown): string | null {
  if (typeof x === 'string') {
    const known = rolesTextRead.get(x);
    if (known !== undefined) return known;
    const roles = rolesOf(x);
    const t = roles.length ? JSON.stringify(roles) : null;
    if (rolesTextRead.size > 1000) rolesTextRead.clear();
    rolesTextRead.set(x, t);
    return t;
  }
  const roles = rolesOf(x);
  return roles.length ? JSON.stringify(roles) : null;
}

function contextOf(x: unknown): Record<string, unknown> | null {
  if (x === null || x === undefined || x === '') return null;
  if (typeof x === 'string') {
    if (x.length > MAX_CONTEXT) return refuse(`context is longer than ${MAX_CONTEXT.toLocaleString('en')} characters`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(x);
    } catch {
      return refuse('context is not JSON');
    }
    if (typeof parsed === 'string') return refuse('context is not an object');
    return contextOf(parsed);
  }
  // PHP decodes {} to [] and encodes it back as []; a list is kept by its positions
  if (Array.isArray(x)) return x.length ? Object.fromEntries(x.map((v, i) => [String(i), v])) : null;
  if (!isRecord(x)) return refuse('context is not an object');
  return Object.keys(x).length ? x : null;
}

function statusOf(x: unknown): number | null {
  if (x === null || x === undefined || x === '') return null;
  return whole(x, 'status', 0, 999_999);
}

/** An event as read, with document 2's reserved `status` (always null on today's sites), kept for exports. */
export type ReadEvent = AuditEvent & { status: number | null };

function build(get: (col: CsvColumn) => unknown): ReadEvent {
  const event = text(get('event'), 'event', 200);
  if (!event) refuse('event is missing');
  return {
    id: whole(get('id'), 'id', 1, Number.MAX_SAFE_INTEGER),
    ts: timeOf(get('ts')),
    event: event!,
    severity: text(get('severity'), 'severity', 50) ?? 'info',
    actorId: text(get('actor_id'), 'actor_id'),
    actorName: text(get('actor_name'), 'actor_name'),
    actorRoles: rolesOf(get('actor_roles')),
    authMethod: text(get('auth_method'), 'auth_method', 50),
    ip: text(get('ip'), 'ip', 100),
    userAgent: text(get('user_agent'), 'user_agent'),
    targetType: text(get('target_type'), 'target_type', 100),
    targetId: text(get('target_id'), 'target_id'),
    context: contextOf(get('context')),
    status: statusOf(get('status')),
  };
}

/**
 * The same fields as `build`, checked in the same order (the first that fails is the one said), as
 * the packer takes them (roles and context as JSON text); the values given one by one, so a
 * million rows cost no closure each.
 */
function buildPack(
  idIn: unknown,
  tsIn: unknown,
  eventIn: unknown,
  severityIn: unknown,
  actorIdIn: unknown,
  actorNameIn: unknown,
  rolesIn: unknown,
  authIn: unknown,
  ipIn: unknown,
  userAgentIn: unknown,
  targetTypeIn: unknown,
  targetIdIn: unknown,
  statusIn: unknown,
  contextIn: unknown,
): PackInput {
  const event = text(eventIn, 'event', 200);
  if (!event) refuse('event is missing');
  const id = whole(idIn, 'id', 1, Number.MAX_SAFE_INTEGER);
  const ts = timeOf(tsIn);
  const severity = text(severityIn, 'severity', 50) ?? 'info';
  const actorId = text(actorIdIn, 'actor_id');
  const actorName = text(actorNameIn, 'actor_name');
  const roles = rolesTextOf(rolesIn);
  const authMethod = text(authIn, 'auth_method', 50);
  const ip = text(ipIn, 'ip', 100);
  const userAgent = text(userAgentIn, 'user_agent');
  const targetType = text(targetTypeIn, 'target_type', 100);
  const targetId = text(targetIdIn, 'target_id');
  const context = contextOf(contextIn);
  const status = statusOf(statusIn);
  return { id, ts, event: event!, severity, actorId, actorName, roles, authMethod, ip, userAgent, targetType, targetId, status, context: context ? JSON.stringify(context) : null };
}

/** What a row reads as, for the packer: its fields, or why it cannot be read. */
export type PackRead = { input: PackInput } | { problem: string };

/** An element of a JSON export, for the packer. */
export function packFromJson(raw: unknown): PackRead {
  if (!isRecord(raw)) return { problem: 'not an event (an object with id, ts and event)' };
  const v = (col: CsvColumn) => (Object.hasOwn(raw, col) ? raw[col] : undefined);
  try {
    return {
      input: buildPack(v('id'), v('ts'), v('event'), v('severity'), v('actor_id'), v('actor_name'), v('actor_roles'), v('auth_method'), v('ip'), v('user_agent'), v('target_type'), v('target_id'), v('status'), v('context')),
    };
  } catch (err) {
    if (err instanceof RowProblem) return { problem: err.message };
    throw err;
  }
}

/** Where each column is (its header's position, -1 when the file has none). */
export type ColumnAt = Record<CsvColumn, number>;

export function columnsAt(header: Map<CsvColumn, number>): ColumnAt {
  return Object.fromEntries(CSV_COLUMNS.map((c) => [c, header.get(c) ?? -1])) as ColumnAt;
}

/** The cell at a column's position, the export's apostrophe removed; undefined when the file has no such column. */
function cellAt(cells: string[], i: number): string | undefined {
  if (i < 0) return undefined;
  const cell = cells[i];
  return cell === undefined ? undefined : uncell(cell);
}

/** A CSV record under its header's columns (`columnsAt`), for the packer: each cell with the export's apostrophe removed. */
export function packFromCells(cells: string[], at: ColumnAt): PackRead {
  try {
    return {
      input: buildPack(
        cellAt(cells, at.id),
        cellAt(cells, at.ts),
        cellAt(cells, at.event),
        cellAt(cells, at.severity),
        cellAt(cells, at.actor_id),
        cellAt(cells, at.actor_name),
        cellAt(cells, at.actor_roles),
        cellAt(cells, at.auth_method),
        cellAt(cells, at.ip),
        cellAt(cells, at.user_agent),
        cellAt(cells, at.target_type),
        cellAt(cells, at.target_id),
        cellAt(cells, at.status),
        cellAt(cells, at.context),
      ),
    };
  } catch (err) {
    if (err instanceof RowProblem) return { problem: err.message };
    throw err;
  }
}

/** What a row reads as: the event, or why it cannot be read. */
export type RowRead = { event: ReadEvent } | { problem: string };

function attempt(get: (col: CsvColumn) => unknown): RowRead {
  try {
    return { event: build(get) };
  } catch (err) {
    if (err instanceof RowProblem) return { problem: err.message };
    throw err;
  }
}

/** A row of `/audit/events` or an element of a JSON export. */
export function eventFromJson(raw: unknown): RowRead {
  if (!isRecord(raw)) return { problem: 'not an event (an object with id, ts and event)' };
  return attempt((col) => (Object.hasOwn(raw, col) ? raw[col] : undefined));
}

/**
 * Where each column is in a CSV file, from its header; the columns the site always writes first
 * (id, ts, event) must be there. Column order does not matter (a file re-saved by a spreadsheet).
 */
export function csvHeader(cells: string[]): Map<CsvColumn, number> | { problem: string } {
  const at = new Map<CsvColumn, number>();
  cells.forEach((c, i) => {
    const name = c.trim().toLowerCase() as CsvColumn;
    if ((CSV_COLUMNS as readonly string[]).includes(name) && !at.has(name)) at.set(name, i);
  });
  const missing = (['id', 'ts', 'event'] as const).filter((c) => !at.has(c));
  return missing.length ? { problem: `the first line names no ${missing.join(', ')} column: it is not an audit export (its columns are ${CSV_COLUMNS.join(', ')})` } : at;
}

/** A CSV record under its header's columns, each cell with the export's apostrophe removed. */
export function eventFromCells(cells: string[], header: Map<CsvColumn, number>): RowRead {
  return attempt((col) => {
    const i = header.get(col);
    const cell = i === undefined ? undefined : cells[i];
    return cell === undefined ? undefined : uncell(cell);
  });
}
