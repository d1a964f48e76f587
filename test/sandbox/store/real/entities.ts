/**
 * Petstore's model classes as the `real` flavour keeps them, and how a request body becomes one.
 *
 * The classes are swagger-api/swagger-petstore: src/main/java/io/swagger/petstore/model/{Pet,
 * Category,Tag,Order,User}.java. What matters about them:
 * - Pet's id is a `Long` (null when not sent) but its getter returns a primitive `long`, so any
 *   code that reads the id of a pet stored without one throws a NullPointerException. Pet's
 *   photoUrls and tags start as empty lists and become null only when the body says null.
 * - Order, User, Category and Tag use primitive ids (and Order its quantity and complete, User its
 *   userStatus): absent means 0 / false. Everything else is a nullable String (Order.shipDate a
 *   Date).
 * Bodies are read by Jackson with swagger-core's mapper (swagger-api/swagger-core:
 * modules/swagger-core/src/main/java/io/swagger/v3/core/util/ObjectMapperFactory.java): unknown
 * fields are ignored, scalars are coerced (a number into a String field, "5" into a long, a
 * fraction into an integer by truncation), and anything else that does not fit fails the whole
 * body, which inflector answers with 400 "unable to convert input to <class>"
 * (processors/JacksonProcessor.java in swagger-api/swagger-inflector@v2.0.11). Nothing checks
 * the schema's `required` or `enum`: inflector validates bodies only when its `validatePayloads`
 * option is set, and Petstore's inflector.yaml does not set it.
 * Written back, null fields are left out (NON_NULL) and dates are ISO 8601 with `+00:00`
 * (Jackson's StdDateFormat, WRITE_DATES_AS_TIMESTAMPS off).
 */
import { inputError } from './answers';

export interface JCategory {
  id: number;
  name: string | null;
}

export interface JTag {
  id: number;
  name: string | null;
}

export interface JPet {
  id: number | null;
  category: JCategory | null;
  name: string | null;
  photoUrls: (string | null)[] | null;
  tags: (JTag | null)[] | null;
  status: string | null;
}

export interface JOrder {
  id: number;
  petId: number;
  quantity: number;
  /** epoch ms */
  shipDate: number | null;
  status: string | null;
  complete: boolean;
}

export interface JUser {
  id: number;
  username: string | null;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** kept and sent back in clear: Petstore's User has a password property like any other */
  password: string | null;
  phone: string | null;
  userStatus: number;
}

const CLASS = {
  pet: 'io.swagger.petstore.model.Pet',
  order: 'io.swagger.petstore.model.Order',
  user: 'io.swagger.petstore.model.User',
  users: 'io.swagger.petstore.model.User[]',
} as const;

/** Jackson could not map a value: the whole body is refused. */
class Mismatch extends Error {}

type Obj = Record<string, unknown>;
const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);

const LONG_MAX = 9223372036854775807;
const INT_MAX = 2147483647;

/** A JSON value into a Java integer type (long or int), with Jackson's coercions. */
function integer(v: unknown, max: number): number | null {
  if (v === null || v === undefined) return null;
  let n: number;
  if (typeof v === 'number') n = Math.trunc(v);
  else if (typeof v === 'string') {
    if (v.trim() === '') return null;
    if (!/^[+-]?\d+$/.test(v.trim())) throw new Mismatch();
    n = Number(v.trim());
  } else throw new Mismatch();
  if (!Number.isFinite(n) || n > max || n < -max - 1) throw new Mismatch();
  return n;
}

const long = (v: unknown) => integer(v, LONG_MAX);
const int = (v: unknown) => integer(v, INT_MAX);

/** A JSON value into a Java String: numbers and booleans are written as text, objects and arrays do not fit. */
function string(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new Mismatch();
}

function boolean(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  if (typeof v === 'number') return v !== 0;
  throw new Mismatch();
}

/** A JSON array into a Java List (null stays null, null items stay null items). */
function list<T>(v: unknown, item: (x: unknown) => T): (T | null)[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) throw new Mismatch();
  return v.map((x) => (x === null ? null : item(x)));
}

/** The dates Jackson's StdDateFormat reads: ISO 8601 (date, or date-time with an optional zone) or epoch milliseconds. */
function date(v: unknown): number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v !== 'string') throw new Mismatch();
  const m = /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(v.trim());
  if (!m) throw new Mismatch();
  const zone = m[3] ? (m[3] === 'Z' ? 'Z' : m[3].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2')) : 'Z';
  const ms = Date.parse(m[2] ? `${m[1]}T${m[2]}${zone}` : `${m[1]}T00:00:00Z`);
  if (Number.isNaN(ms)) throw new Mismatch();
  return ms;
}

function category(v: unknown): JCategory {
  if (!isObject(v)) throw new Mismatch();
  return { id: long(v.id) ?? 0, name: string(v.name) };
}

function tag(v: unknown): JTag {
  if (!isObject(v)) throw new Mismatch();
  return { id: long(v.id) ?? 0, name: string(v.name) };
}

function pet(v: unknown): JPet {
  if (!isObject(v)) throw new Mismatch();
  return {
    id: long(v.id),
    category: v.category === undefined || v.category === null ? null : category(v.category),
    name: string(v.name),
    photoUrls: v.photoUrls === undefined ? [] : list(v.photoUrls, (x) => string(x)!),
    tags: v.tags === undefined ? [] : list(v.tags, tag),
    status: string(v.status),
  };
}

function order(v: unknown): JOrder {
  if (!isObject(v)) throw new Mismatch();
  return {
    id: long(v.id) ?? 0,
    petId: long(v.petId) ?? 0,
    quantity: int(v.quantity) ?? 0,
    shipDate: date(v.shipDate),
    status: string(v.status),
    complete: boolean(v.complete),
  };
}

function user(v: unknown): JUser {
  if (!isObject(v)) throw new Mismatch();
  return {
    id: long(v.id) ?? 0,
    username: string(v.username),
    firstName: string(v.firstName),
    lastName: string(v.lastName),
    email: string(v.email),
    password: string(v.password),
    phone: string(v.phone),
    userStatus: int(v.userStatus) ?? 0,
  };
}

const READERS = {
  pet,
  order,
  user,
  users: (v: unknown) => {
    if (!Array.isArray(v)) throw new Mismatch();
    return v.map((x) => (x === null ? null : user(x)));
  },
};

/**
 * A request body's text as Jackson reads it into `kind`; null for a JSON `null`. Malformed JSON
 * or a value that does not fit is inflector's 400 "unable to convert input to <class>".
 */
export function readEntity<K extends keyof typeof READERS>(text: string, kind: K): ReturnType<(typeof READERS)[K]> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null) return null;
    return READERS[kind](parsed) as ReturnType<(typeof READERS)[K]>;
  } catch (err) {
    if (err instanceof Mismatch || err instanceof SyntaxError) throw inputError(`unable to convert input to ${CLASS[kind]}`);
    throw err;
  }
}

// ── written back (NON_NULL) ──────────────────────────────────────────────────────────────────

const nonNull = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

/** Jackson's StdDateFormat in UTC: `2030-01-02T03:04:05.000+00:00`. */
export const isoDate = (ms: number) => new Date(ms).toISOString().replace(/Z$/, '+00:00');

/** The pet as Petstore sends it; its caller has made sure the id is there (Pet.getId() would throw). */
export function petJson(p: JPet): Record<string, unknown> {
  return nonNull({
    id: p.id,
    category: p.category && nonNull({ ...p.category }),
    name: p.name,
    photoUrls: p.photoUrls,
    tags: p.tags && p.tags.map((t) => t && nonNull({ ...t })),
    status: p.status,
  });
}

export function orderJson(o: JOrder): Record<string, unknown> {
  return nonNull({ id: o.id, petId: o.petId, quantity: o.quantity, shipDate: o.shipDate === null ? null : isoDate(o.shipDate), status: o.status, complete: o.complete });
}

export function userJson(u: JUser): Record<string, unknown> {
  return nonNull({ ...u });
}
