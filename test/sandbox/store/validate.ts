/**
 * Request bodies of the store, checked the way document 3 sorts its codes. The document lists
 * both "400 invalid input" and "422 validation exception" without drawing the line; the sandbox
 * draws it so a client can rely on it:
 *   400 — the body cannot be read as the resource: not a JSON object, or a field of the wrong JSON
 *         type (a number where a string belongs, a fraction where an integer belongs);
 *   422 — it reads, but breaks a rule: a required field missing or empty, a status outside its
 *         list, a date that is not ISO 8601, a quantity below 1.
 * Users are the exception: their routes list only 400, so every user problem is a 400.
 * Every problem names its field in `errors: [{field, message}]`.
 */
import { fail, fieldsFail, type FieldIssue } from './answers';
import { ORDER_STATUSES, PET_STATUSES, type Category, type OrderStatus, type PetStatus } from './model';

type Obj = Record<string, unknown>;

const isObject = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isId = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x > 0;
const absent = (x: unknown) => x === undefined || x === null;

class Issues {
  readonly malformed: FieldIssue[] = [];
  readonly invalid: FieldIssue[] = [];
  bad(field: string, message: string) {
    this.malformed.push({ field, message });
  }
  rule(field: string, message: string) {
    this.invalid.push({ field, message });
  }
  /** 400 for type problems first (nothing else can be judged then), else 422. */
  throwIfAny(usersOnly400 = false) {
    if (this.malformed.length) throw fieldsFail(400, 'Invalid input', this.malformed);
    if (this.invalid.length) throw fieldsFail(usersOnly400 ? 400 : 422, usersOnly400 ? 'Invalid input' : 'Validation exception', this.invalid);
  }
}

function text(issues: Issues, o: Obj, field: string, label: string, max: number, opts: { required?: boolean; path?: string } = {}): string | undefined {
  const path = opts.path ?? field;
  const v = o[field];
  if (absent(v)) {
    if (opts.required) issues.rule(path, `${label} is required.`);
    return undefined;
  }
  if (typeof v !== 'string') {
    issues.bad(path, `${label} must be a string.`);
    return undefined;
  }
  const t = v.trim();
  if (opts.required && t === '') issues.rule(path, `${label} cannot be empty.`);
  else if (t.length > max) issues.rule(path, `${label} is longer than ${max} characters.`);
  return t;
}

// ── pets ─────────────────────────────────────────────────────────────────────────────────────

export interface PetInput {
  id?: number;
  name: string;
  category?: Category;
  photoUrls: string[];
  /** tags without an id get the id of the known tag of that name, or a new one */
  tags: { id?: number; name: string }[];
  status?: PetStatus;
}

/** POST /pet (`create`: id optional) and PUT /pet (`update`: the id identifies the pet, 400 when unusable). */
export function readPet(body: unknown, mode: 'create' | 'update'): PetInput {
  if (!isObject(body)) throw fail(400, 'Invalid input: send the pet as a JSON object.');
  if (mode === 'update' && !isId(body.id)) {
    throw fieldsFail(400, 'Invalid ID supplied', [{ field: 'id', message: 'The pet id must be a positive whole number.' }]);
  }
  const issues = new Issues();
  if (mode === 'create' && !absent(body.id) && !isId(body.id)) issues.bad('id', 'The pet id must be a positive whole number (or left out to have one assigned).');

  const name = text(issues, body, 'name', 'The name', 100, { required: true });

  const photoUrls: string[] = [];
  if (absent(body.photoUrls)) issues.rule('photoUrls', 'photoUrls is required: a list of image addresses (it may be empty).');
  else if (!Array.isArray(body.photoUrls)) issues.bad('photoUrls', 'photoUrls must be a list of strings.');
  else if (body.photoUrls.length > 50) issues.rule('photoUrls', 'A pet has at most 50 photo URLs.');
  else
    body.photoUrls.forEach((u, i) => {
      if (typeof u !== 'string') issues.bad(`photoUrls.${i}`, 'Each photo URL must be a string.');
      else if (u.trim() === '') issues.rule(`photoUrls.${i}`, 'A photo URL cannot be empty.');
      else if (u.length > 2048) issues.rule(`photoUrls.${i}`, 'A photo URL is longer than 2048 characters.');
      else photoUrls.push(u.trim());
    });

  let category: Category | undefined;
  if (!absent(body.category)) {
    if (!isObject(body.category)) issues.bad('category', 'The category must be an object {id, name}.');
    else {
      const c = body.category;
      category = {};
      if (!absent(c.id)) {
        if (typeof c.id === 'number' && Number.isSafeInteger(c.id) && c.id >= 0) category.id = c.id;
        else issues.bad('category.id', 'The category id must be a whole number.');
      }
      const cname = text(issues, c, 'name', 'The category name', 100, { path: 'category.name' });
      if (cname !== undefined && cname !== '') category.name = cname;
    }
  }

  const tags: PetInput['tags'] = [];
  if (!absent(body.tags)) {
    if (!Array.isArray(body.tags)) issues.bad('tags', 'tags must be a list of {id, name} objects.');
    else if (body.tags.length > 20) issues.rule('tags', 'A pet has at most 20 tags.');
    else
      body.tags.forEach((t, i) => {
        if (!isObject(t)) return issues.bad(`tags.${i}`, 'Each tag must be an object {id, name}.');
        if (!absent(t.id) && !(typeof t.id === 'number' && Number.isSafeInteger(t.id) && t.id >= 0)) issues.bad(`tags.${i}.id`, 'A tag id must be a whole number.');
        const tname = text(issues, t, 'name', 'A tag name', 50, { required: true, path: `tags.${i}.name` });
        if (tname) tags.push({ ...(typeof t.id === 'number' ? { id: t.id } : {}), name: tname });
      });
  }

  let status: PetStatus | undefined;
  if (!absent(body.status)) {
    if (typeof body.status !== 'string') issues.bad('status', 'The status must be a string.');
    else if (!(PET_STATUSES as readonly string[]).includes(body.status)) issues.rule('status', `The status must be one of ${PET_STATUSES.join(', ')}.`);
    else status = body.status as PetStatus;
  }

  issues.throwIfAny();
  return {
    ...(isId(body.id) ? { id: body.id } : {}),
    name: name!,
    ...(category && Object.keys(category).length ? { category } : {}),
    photoUrls,
    tags,
    ...(status ? { status } : {}),
  };
}

/** A pet id in the path: a positive whole number, else 400 "Invalid ID supplied". */
export function petIdParam(raw: string): number {
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!isId(id)) throw fail(400, `Invalid ID supplied: a pet id is a positive whole number, not “${raw}”.`);
  return id;
}

// ── orders ───────────────────────────────────────────────────────────────────────────────────

export interface OrderInput {
  petId: number;
  quantity: number;
  shipDate?: string;
  status: OrderStatus;
  complete: boolean;
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** POST /store/order. The id is assigned by the store; one sent along is ignored. */
export function readOrder(body: unknown): OrderInput {
  if (!isObject(body)) throw fail(400, 'Invalid input: send the order as a JSON object.');
  const issues = new Issues();
  const integer = (field: 'petId' | 'quantity', label: string, min: number, max: number): number | undefined => {
    const v = body[field];
    if (absent(v)) return void issues.rule(field, `${label} is required.`);
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) return void issues.bad(field, `${label} must be a whole number.`);
    if (v < min || v > max) return void issues.rule(field, `${label} must be from ${min} to ${max}.`);
    return v;
  };
  const petId = integer('petId', 'petId', 1, Number.MAX_SAFE_INTEGER);
  const quantity = integer('quantity', 'The quantity', 1, 1000);

  let shipDate: string | undefined;
  if (!absent(body.shipDate)) {
    if (typeof body.shipDate !== 'string') issues.bad('shipDate', 'shipDate must be a string.');
    else if (!ISO_DATE_TIME.test(body.shipDate) || Number.isNaN(Date.parse(body.shipDate))) {
      issues.rule('shipDate', 'shipDate must be an ISO 8601 date-time such as 2025-06-01T12:00:00Z.');
    } else shipDate = new Date(body.shipDate).toISOString();
  }
  let status: OrderStatus = 'placed';
  if (!absent(body.status)) {
    if (typeof body.status !== 'string') issues.bad('status', 'The status must be a string.');
    else if (!(ORDER_STATUSES as readonly string[]).includes(body.status)) issues.rule('status', `The status must be one of ${ORDER_STATUSES.join(', ')}.`);
    else status = body.status as OrderStatus;
  }
  if (!absent(body.complete) && typeof body.complete !== 'boolean') issues.bad('complete', 'complete must be true or false.');

  issues.throwIfAny();
  return { petId: petId!, quantity: quantity!, ...(shipDate ? { shipDate } : {}), status, complete: body.complete === true };
}

/**
 * The order id rules of document 3: GET takes ids 1 to 10 (the demo data's ids); DELETE takes any
 * positive whole number. Anything else is a 400 that says the rule.
 */
export function orderIdParam(raw: string, op: 'get' | 'delete'): number {
  if (!/^-?\d{1,15}$/.test(raw)) {
    throw fail(400, `Invalid ID supplied: an order id is a whole number, not “${raw}”.`);
  }
  const id = Number(raw);
  if (op === 'get' && (id < 1 || id > 10)) throw fail(400, `Invalid ID supplied: orders can be looked up by ids 1 to 10; ${id} is out of range.`);
  if (op === 'delete' && id < 1) throw fail(400, `Invalid ID supplied: an order id to delete is a positive whole number; ${id} is not.`);
  return id;
}

// ── users ────────────────────────────────────────────────────────────────────────────────────

const USERNAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Path words of /user/… that a username would shadow. */
const RESERVED = new Set(['login', 'logout', 'createwithlist']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface UserInput {
  username: string;
  firstName?: string;
  lastName?: string;
  email: string;
  password: string;
  phone?: string;
  userStatus?: number;
}

export type UserChanges = Partial<Omit<UserInput, 'username'>>;

/** A username in the path: 400 "Invalid username supplied" when it could never be one. */
export function usernameParam(raw: string): string {
  if (!USERNAME.test(raw)) throw fail(400, 'Invalid username supplied: 1 to 64 letters, digits, dots, hyphens or underscores.');
  return raw;
}

function userFields(issues: Issues, o: Obj, prefix: string, required: boolean): UserChanges {
  const p = (f: string) => `${prefix}${f}`;
  const out: UserChanges = {};
  const email = text(issues, o, 'email', 'The email', 254, { required, path: p('email') });
  if (email === '') {
    if (!required) issues.rule(p('email'), 'The email cannot be empty.'); // required: text() said so
  } else if (email !== undefined) {
    if (!EMAIL.test(email)) issues.rule(p('email'), 'The email must look like name@example.com.');
    else out.email = email;
  }
  if (absent(o.password)) {
    if (required) issues.rule(p('password'), 'A password is required.');
  } else if (typeof o.password !== 'string') issues.bad(p('password'), 'The password must be a string.');
  else if (o.password === '') issues.rule(p('password'), 'The password cannot be empty.');
  else if (o.password.length > 200) issues.rule(p('password'), 'The password is longer than 200 characters.');
  else out.password = o.password;
  for (const [f, label] of [
    ['firstName', 'The first name'],
    ['lastName', 'The last name'],
    ['phone', 'The phone'],
  ] as const) {
    const v = text(issues, o, f, label, 100, { path: p(f) });
    if (v !== undefined) out[f] = v;
  }
  if (!absent(o.userStatus)) {
    if (typeof o.userStatus !== 'number' || !Number.isSafeInteger(o.userStatus)) issues.bad(p('userStatus'), 'userStatus must be a whole number.');
    else out.userStatus = o.userStatus;
  }
  return out;
}

function readNewUser(issues: Issues, body: unknown, prefix: string): UserInput | undefined {
  if (!isObject(body)) {
    issues.bad(prefix.replace(/\.$/, '') || 'body', 'A user must be a JSON object.');
    return undefined;
  }
  const username = text(issues, body, 'username', 'The username', 64, { required: true, path: `${prefix}username` });
  if (username && !USERNAME.test(username)) issues.rule(`${prefix}username`, 'The username may hold letters, digits, dots, hyphens and underscores only.');
  else if (username && RESERVED.has(username.toLowerCase())) issues.rule(`${prefix}username`, `“${username}” is reserved.`);
  const fields = userFields(issues, body, prefix, true);
  return { username: username ?? '', ...fields } as UserInput;
}

/** POST /user. */
export function readUser(body: unknown): UserInput {
  if (!isObject(body)) throw fail(400, 'Invalid input: send the user as a JSON object.');
  const issues = new Issues();
  const user = readNewUser(issues, body, '');
  issues.throwIfAny(true);
  return user!;
}

/** POST /user/createWithList: all or nothing; problems are named `2.email` (item index first). */
export function readUserList(body: unknown): UserInput[] {
  if (!Array.isArray(body)) throw fail(400, 'Invalid input: send a JSON array of users.');
  if (body.length === 0) throw fail(400, 'Invalid input: the list holds no users.');
  if (body.length > 1000) throw fail(400, 'Invalid input: at most 1000 users per list.');
  const issues = new Issues();
  const users = body.map((u, i) => readNewUser(issues, u, `${i}.`));
  const seen = new Map<string, number>();
  users.forEach((u, i) => {
    if (!u?.username) return;
    const key = u.username.toLowerCase();
    if (seen.has(key)) issues.rule(`${i}.username`, `“${u.username}” appears twice in the list (also item ${seen.get(key)}).`);
    else seen.set(key, i);
  });
  issues.throwIfAny(true);
  return users as UserInput[];
}

/** PUT /user/{username}: only the fields sent change. The username itself cannot change. */
export function readUserChanges(body: unknown, username: string): UserChanges {
  if (!isObject(body)) throw fail(400, 'Invalid input: send the changes as a JSON object.');
  const issues = new Issues();
  if (!absent(body.username) && body.username !== username) issues.rule('username', 'The username cannot be changed.');
  const changes = userFields(issues, body, '', false);
  issues.throwIfAny();
  if (Object.keys(changes).length === 0) {
    throw fail(400, 'Invalid input: send at least one of email, firstName, lastName, password, phone, userStatus.');
  }
  return changes;
}
