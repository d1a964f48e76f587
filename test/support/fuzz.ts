/**
 * The fuzz tests' pieces: a small seeded PRNG (one seed per run, printed, so `FUZZ_SEED=…` repeats
 * a run case for case), a sampler of strings a regular expression accepts, and a generator driven
 * by a channel's valibot schema that makes a valid input and then mutates it at a known path. It
 * reads only the schema (types, entries, items, options, pipes and their bounds), so a channel
 * added later is fuzzed without touching the tests.
 */
import * as v from 'valibot';

// ── seed and PRNG ────────────────────────────────────────────────────────────────────────────

/** The run's seed: FUZZ_SEED (a number, or `random` for a fresh one), else a fixed default so CI is deterministic. */
export function fuzzSeed(fallback = 20261124): number {
  const given = process.env.FUZZ_SEED;
  if (given === 'random') return Math.floor(Math.random() * 2 ** 32);
  if (given !== undefined && given !== '') {
    const n = Number(given);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`FUZZ_SEED must be a non-negative integer or "random", not ${given}`);
    return n >>> 0;
  }
  return fallback;
}

export interface Rng {
  /** [0, 1) */
  next(): number;
  /** an integer in [0, n) */
  int(n: number): number;
  /** an integer in [lo, hi] */
  between(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  shuffle<T>(xs: T[]): T[];
  /** A generator of its own, derived from this one's stream (for a part of the run that must not shift the rest). */
  fork(): Rng;
}

/** mulberry32: tiny, fast and good enough to pick cases; the whole run follows from `seed`. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const r: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    between: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (xs) => {
      if (xs.length === 0) throw new Error('pick from an empty list');
      return xs[Math.floor(next() * xs.length)]!;
    },
    chance: (p) => next() < p,
    shuffle: (xs) => {
      for (let i = xs.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        [xs[i], xs[j]] = [xs[j]!, xs[i]!];
      }
      return xs;
    },
    fork: () => rng(Math.floor(next() * 2 ** 32)),
  };
  return r;
}

// ── strings a regular expression accepts ────────────────────────────────────────────────────

type Atom =
  | { t: 'chars'; set: string[]; negated: boolean }
  | { t: 'group'; alts: Atom[][] }
  | { t: 'empty' }; // anchors and lookarounds: matched by checking the result, not by the sample

interface Quantified {
  atom: Atom;
  min: number;
  max: number;
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i));
const DIGITS = range(0x30, 0x39);
const WORD = [...range(0x41, 0x5a), ...range(0x61, 0x7a), ...DIGITS, '_'];
const SPACE = [' ', '\t', '\n'];
/** What a negated class or `.` picks from: printable ASCII and a few letters beyond it. */
const ANY = [...range(0x20, 0x7e), 'é', 'ß', 'Ж', '中'];

/**
 * A sampler for the subset of regular expressions the contract uses (classes, ranges, escapes,
 * groups, alternation, quantifiers, anchors; lookarounds are skipped and the caller checks the
 * result against the expression itself).
 */
export function sampleRegex(re: RegExp, r: Rng): string {
  const src = re.source;
  let i = 0;
  const escape = (inClass: boolean): string[] => {
    const c = src[i++]!;
    if (c === 'd') return DIGITS;
    if (c === 'w') return WORD;
    if (c === 's') return SPACE;
    if (c === 'D' || c === 'W' || c === 'S') return ANY.filter((x) => !(c === 'D' ? DIGITS : c === 'W' ? WORD : SPACE).includes(x));
    if (c === 'u' && src[i] === '{') {
      const end = src.indexOf('}', i);
      const code = parseInt(src.slice(i + 1, end), 16);
      i = end + 1;
      return [String.fromCodePoint(code)];
    }
    if (c === 'u' || c === 'x') {
      const n = c === 'u' ? 4 : 2;
      const code = parseInt(src.slice(i, i + n), 16);
      i += n;
      return [String.fromCharCode(code)];
    }
    if (c === 'n') return ['\n'];
    if (c === 't') return ['\t'];
    if (c === 'r') return ['\r'];
    if (c === 'b' && !inClass) return [];
    return [c];
  };
  const classSet = (): Atom => {
    let negated = false;
    if (src[i] === '^') {
      negated = true;
      i++;
    }
    const set: string[] = [];
    let first = true;
    while (i < src.length && (src[i] !== ']' || first)) {
      first = false;
      let from: string[];
      if (src[i] === '\\') {
        i++;
        from = escape(true);
      } else from = [src[i++]!];
      if (from.length === 1 && src[i] === '-' && src[i + 1] !== ']' && i + 1 < src.length) {
        i++;
        let to: string[];
        if (src[i] === '\\') {
          i++;
          to = escape(true);
        } else to = [src[i++]!];
        set.push(...range(from[0]!.charCodeAt(0), to[0]!.charCodeAt(0)));
      } else set.push(...from);
    }
    i++; // ]
    return { t: 'chars', set, negated };
  };
  const alternatives = (): Atom[][] => {
    const alts: Atom[][] = [[]];
    while (i < src.length && src[i] !== ')') {
      if (src[i] === '|') {
        i++;
        alts.push([]);
        continue;
      }
      alts[alts.length - 1]!.push(repeat(quantified()));
    }
    return alts;
  };
  // a quantified atom becomes a group of its repetitions chosen at sampling time
  const repeats = new WeakMap<Atom, Quantified>();
  const repeat = (q: Quantified): Atom => {
    const holder: Atom = { t: 'group', alts: [] };
    repeats.set(holder, q);
    return holder;
  };
  const atom = (): Atom => {
    const c = src[i++]!;
    if (c === '^' || c === '$') return { t: 'empty' };
    if (c === '\\') return { t: 'chars', set: escape(false), negated: false };
    if (c === '[') return classSet();
    if (c === '.') return { t: 'chars', set: ANY.filter((x) => x !== '\n'), negated: false };
    if (c === '(') {
      let look = false;
      if (src[i] === '?') {
        if (src[i + 1] === ':') i += 2;
        else {
          look = true; // (?= (?! (?<= (?<!
          i += src[i + 1] === '<' ? 3 : 2;
        }
      }
      const alts = alternatives();
      i++; // )
      return look ? { t: 'empty' } : { t: 'group', alts };
    }
    return { t: 'chars', set: [c], negated: false };
  };
  const quantified = (): Quantified => {
    const a = atom();
    let min = 1;
    let max = 1;
    const q = src[i];
    if (q === '?') [min, max, i] = [0, 1, i + 1];
    else if (q === '*') [min, max, i] = [0, 4, i + 1];
    else if (q === '+') [min, max, i] = [1, 5, i + 1];
    else if (q === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (m) {
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? min + 4 : Number(m[3]);
        i += m[0].length;
      }
    }
    if (src[i] === '?' && q !== undefined && '?*+}'.includes(src[i - 1]!)) i++; // lazy
    return { atom: a, min, max };
  };
  const alts = alternatives();
  const caseless = re.flags.includes('i');
  const sample = (a: Atom): string => {
    const q = repeats.get(a);
    if (q) {
      let s = '';
      for (let n = r.between(q.min, Math.min(q.max, q.min + 8)); n > 0; n--) s += sample(q.atom);
      return s;
    }
    if (a.t === 'empty') return '';
    if (a.t === 'group') return r.pick(a.alts).map(sample).join('');
    let pool = a.negated ? ANY.filter((x) => !a.set.includes(x) && !(caseless && (a.set.includes(x.toLowerCase()) || a.set.includes(x.toUpperCase())))) : a.set;
    if (pool.length === 0) pool = ['x'];
    return r.pick(pool);
  };
  return r.pick(alts).map(sample).join('');
}

// ── inputs from a valibot schema ─────────────────────────────────────────────────────────────

/** The parts of a valibot schema or action the generator reads (valibot keeps them on the object). */
interface Node {
  kind: 'schema' | 'validation' | 'transformation' | 'metadata';
  type: string;
  entries?: Record<string, Node>;
  item?: Node;
  options?: readonly unknown[];
  wrapped?: Node;
  literal?: unknown;
  requirement?: unknown;
  pipe?: readonly Node[];
}

export type Key = string | number;
export type Path = readonly Key[];

/** Values for a field by its name, tried first when they fit (the real sites' ids, routes that exist), so valid inputs reach real handlers. */
export type Dictionary = Record<string, () => readonly unknown[]>;

const ABSENT = Symbol('absent');
type Made = unknown | typeof ABSENT;

const node = (s: unknown) => s as Node;
const is = (n: Node, x: unknown) => v.is(n as unknown as v.GenericSchema, x);

/** Every validation and transformation in a schema's pipe, nested pipes included (`v.pipe(trimmed(80), v.minLength(1))`). */
function actionsOf(n: Node): Node[] {
  const out: Node[] = [];
  const visit = (x: Node) => {
    for (const p of x.pipe?.slice(1) ?? []) (p.kind === 'schema' ? visit(p) : out.push(p));
    if (x.pipe?.[0] && x.pipe[0] !== x) visit(x.pipe[0]);
  };
  visit(n);
  return out;
}

const bound = (n: Node, type: string, pick: (a: number, b: number) => number): number | undefined =>
  actionsOf(n)
    .filter((a) => a.type === type && typeof a.requirement === 'number')
    .map((a) => a.requirement as number)
    .reduce<number | undefined>((acc, x) => (acc === undefined ? x : pick(acc, x)), undefined);
const maxLen = (n: Node) => bound(n, 'max_length', Math.min) ?? bound(n, 'length', Math.min);
const minLen = (n: Node) => bound(n, 'min_length', Math.max) ?? bound(n, 'length', Math.max) ?? (actionsOf(n).some((a) => a.type === 'non_empty') ? 1 : undefined);
const maxVal = (n: Node) => bound(n, 'max_value', Math.min);
const minVal = (n: Node) => bound(n, 'min_value', Math.max);
const hasAction = (n: Node, type: string) => actionsOf(n).some((a) => a.type === type);
const isOptional = (n: Node) => n.type === 'optional' || n.type === 'nullish' || n.type === 'exact_optional' || n.type === 'undefinedable';

const word = (r: Rng, n: number) => Array.from({ length: n }, () => r.pick(WORD.slice(0, 62))).join('');
const uuid = (r: Rng) => [8, 4, 4, 4, 12].map((n) => Array.from({ length: n }, () => r.int(16).toString(16)).join('')).join('-');

/** A small JSON object of any shape (a header, batch options). */
function jsonObject(r: Rng, depth = 0): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (let k = r.int(4); k > 0; k--) {
    const roll = r.int(6);
    o[word(r, r.between(1, 8))] =
      roll === 0 ? word(r, r.int(20)) : roll === 1 ? r.int(1000) : roll === 2 ? r.chance(0.5) : roll === 3 ? null : roll === 4 && depth < 3 ? jsonObject(r, depth + 1) : [word(r, 3), r.int(9)];
  }
  return o;
}

/** Strings worth trying for a string schema: the dictionary's, then ones its format or pattern accepts, then plain words within its lengths. */
function stringCandidates(n: Node, key: string, r: Rng, dict: Dictionary): string[] {
  const out: string[] = [];
  const known = (dict[key]?.() ?? []).filter((x): x is string => typeof x === 'string');
  if (known.length && r.chance(0.85)) out.push(r.pick(known));
  for (const a of actionsOf(n)) {
    if (a.type === 'uuid') out.push(uuid(r));
    else if (a.type === 'email') out.push(`${word(r, r.between(1, 10))}@example.test`);
    else if (a.type === 'url') out.push(`https://example.test/${word(r, r.between(1, 12))}.png`);
    else if (a.type === 'iso_timestamp') out.push(new Date(Date.UTC(2026, 0, 1) + r.int(1e10)).toISOString());
    else if (a.type === 'regex' && a.requirement instanceof RegExp) for (let k = 0; k < 3; k++) out.push(sampleRegex(a.requirement, r));
  }
  const lo = Math.max(minLen(n) ?? 0, 1);
  const hi = Math.min(maxLen(n) ?? lo + 24, lo + 24);
  out.push(word(r, r.between(lo, Math.max(lo, hi))));
  if (known.length) out.push(...known);
  return out;
}

/**
 * A value `n` accepts (ABSENT for an optional field left out). Throws when none can be made: a
 * schema type or format the generator does not know yet must be taught, not skipped.
 */
function valid(n: Node, key: string, path: Path, r: Rng, dict: Dictionary): Made {
  for (let attempt = 0; attempt < 40; attempt++) {
    const x = make(n, key, path, r, dict);
    if (x === ABSENT || is(n, x)) return x;
  }
  throw new Error(`The fuzz generator cannot make a valid value for ${path.join('.') || '(input)'} (${n.type}); teach test/support/fuzz.ts its format`);
}

function make(n: Node, key: string, path: Path, r: Rng, dict: Dictionary): Made {
  switch (n.type) {
    case 'optional':
    case 'nullish':
    case 'exact_optional':
    case 'undefinedable':
      if (r.chance(0.35)) return n.type === 'nullish' && r.chance(0.5) ? null : ABSENT;
      return valid(n.wrapped!, key, path, r, dict);
    case 'nullable':
      return r.chance(0.2) ? null : valid(n.wrapped!, key, path, r, dict);
    case 'strict_object':
    case 'object':
    case 'loose_object': {
      const o: Record<string, unknown> = {};
      for (const [k, e] of Object.entries(n.entries!)) {
        const x = valid(e, k, [...path, k], r, dict);
        if (x !== ABSENT) o[k] = x;
      }
      return o;
    }
    case 'array': {
      const lo = minLen(n) ?? 0;
      const hi = Math.min(maxLen(n) ?? lo + 3, lo + 3);
      return Array.from({ length: r.between(lo, hi) }, (_, i) => valid(n.item!, key, [...path, i], r, dict));
    }
    case 'union':
    case 'variant':
      return valid(node(r.pick(n.options!)), key, path, r, dict);
    case 'picklist':
      return r.pick(n.options!);
    case 'literal':
      return n.literal;
    case 'null':
      return null;
    case 'boolean':
      return r.chance(0.5);
    case 'number': {
      const known = (dict[key]?.() ?? []).filter((x) => typeof x === 'number');
      if (known.length && r.chance(0.8)) return r.pick(known);
      const lo = minVal(n) ?? 0;
      const hi = Math.min(maxVal(n) ?? lo + 1000, lo + 1_000_000);
      return hasAction(n, 'integer') || hasAction(n, 'safe_integer') ? r.between(Math.ceil(lo), Math.floor(hi)) : lo + r.next() * (hi - lo);
    }
    case 'string': {
      for (const s of stringCandidates(n, key, r, dict)) if (is(n, s)) return s;
      return word(r, 3);
    }
    case 'custom': {
      const known = dict[key]?.() ?? [];
      if (known.length && r.chance(0.5)) return r.pick(known);
      return r.chance(0.3) ? {} : jsonObject(r);
    }
    case 'unknown': // any JSON value (a setting's value): a scalar, a list or a map
      return r.chance(0.4) ? jsonObject(r) : r.pick<unknown>(['text', 42, true, null, [], ['a', 'b'], 0.5]);
    default:
      throw new Error(`The fuzz generator does not know valibot's ${n.type} schema (at ${path.join('.') || '(input)'}); teach test/support/fuzz.ts to make one`);
  }
}

/** A valid input for a channel's schema (undefined for a channel that takes none and left it out). */
export function validInput(schema: v.GenericSchema, r: Rng, dict: Dictionary): unknown {
  const x = valid(node(schema), '', [], r, dict);
  return x === ABSENT ? undefined : x;
}

// ── mutations ────────────────────────────────────────────────────────────────────────────────

/** A place in an input: its path, the schema there, the value (ABSENT when an optional field is left out), and the union paths above it. */
interface Spot {
  path: Path;
  node: Node;
  value: Made;
  /** a field of an object (so it can be left out) */
  inObject: boolean;
  /** paths of the unions and variants above (a union cannot tell which option was meant, so it names itself) */
  unions: Path[];
}

function spotsOf(n: Node, value: Made, path: Path, unions: Path[], inObject: boolean, out: Spot[]): Spot[] {
  out.push({ path, node: n, value, inObject, unions });
  descend(n, value, path, unions, out);
  return out;
}

function descend(n: Node, value: Made, path: Path, unions: Path[], out: Spot[]): void {
  if (value === ABSENT || value === null || value === undefined) return;
  switch (n.type) {
    case 'optional':
    case 'nullish':
    case 'exact_optional':
    case 'undefinedable':
    case 'nullable':
      return descend(n.wrapped!, value, path, unions, out);
    case 'strict_object':
    case 'object':
    case 'loose_object':
      if (typeof value !== 'object') return;
      for (const [k, e] of Object.entries(n.entries!)) {
        spotsOf(e, Object.hasOwn(value, k) ? (value as Record<string, unknown>)[k] : ABSENT, [...path, k], unions, true, out);
      }
      return;
    case 'array':
      if (Array.isArray(value)) value.forEach((x, i) => spotsOf(n.item!, x, [...path, i], unions, false, out));
      return;
    case 'union':
    case 'variant': {
      const option = n.options!.map(node).find((o) => is(o, value));
      if (option) descend(option, value, path, [...unions, path], out);
      return;
    }
  }
}

export interface Mutated {
  /** what was done, for the failure message and the tally */
  kind: string;
  /** where: the field the refusal must name (or its parent, or a union above it) */
  path: Path;
  unions: Path[];
  input: unknown;
  /** the schema cannot accept it: the Host must answer invalid_input naming the field */
  mustRefuse: boolean;
}

const POLLUTION = { polluted: 'yes' };
/** An object with an own key that would otherwise set the prototype (`{__proto__: …}` in a literal does). */
const withOwn = (o: Record<string, unknown>, key: string, value: unknown) => {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  return o;
};
const nested = (levels: number, leaf: unknown, asArray: boolean) => {
  let x: unknown = leaf;
  for (let i = 0; i < levels; i++) x = asArray ? [x] : { n: x };
  return x;
};

/** Strings a name, a path, a header or a parser may trip on. */
const ODD_STRINGS = [
  '',
  ' ',
  '.',
  '..',
  '../../etc/passwd',
  '..\\..\\windows',
  'a/b',
  'a\\b',
  '%2e%2e%2f',
  '/..',
  '\u0000',
  'a\u0007b',
  'x\r\nX-Injected: 1',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '😀',
  'ǅ\u0301',
  '__proto__',
  'constructor',
  '<img src=x onerror=alert(1)>',
  '${7*7}',
  "' OR 1=1 --",
  '"quoted"',
  '\t\n',
  '０',
];

const WRONG_VALUES: (() => unknown)[] = [
  () => null,
  () => true,
  () => 0,
  () => -1,
  () => 1.5,
  () => 'x',
  () => '',
  () => [],
  () => ({}),
  () => nested(64, [], true),
  () => 1e308,
  () => Number.NaN,
  () => 'x'.repeat(100_000),
  () => withOwn({}, '__proto__', POLLUTION),
  () => ({ constructor: { prototype: POLLUTION } }),
];

const clone = (x: unknown): unknown => {
  if (Array.isArray(x)) return x.map(clone);
  if (x && typeof x === 'object') {
    const o: Record<string, unknown> = {};
    for (const k of Object.keys(x)) withOwn(o, k, clone((x as Record<string, unknown>)[k]));
    return o;
  }
  return x;
};

/** The input with the value at `path` replaced (ABSENT: the key removed). */
function put(input: unknown, path: Path, value: Made): unknown {
  if (path.length === 0) return value === ABSENT ? undefined : value;
  const root = clone(input);
  let at = root as Record<Key, unknown>;
  for (const k of path.slice(0, -1)) at = at[k] as Record<Key, unknown>;
  const last = path[path.length - 1]!;
  if (value === ABSENT) delete at[last];
  else if (Array.isArray(at)) at[last as number] = value;
  else withOwn(at as Record<string, unknown>, String(last), value);
  return root;
}

/**
 * One mutation of a valid input at a random place: a wrong type, a missing required key, an
 * unknown key (`__proto__`, `constructor`, `prototype`…), a string past its maximum or under its
 * minimum, a number out of range or not a number, an empty, oversized or deeply nested array,
 * control characters, `..` and separators, lone surrogates, very long strings, odd header objects.
 */
export function mutate(schema: v.GenericSchema, input: unknown, r: Rng, dict: Dictionary): Mutated {
  const spots = spotsOf(node(schema), input === undefined ? ABSENT : input, [], [], false, []);
  for (let attempt = 0; attempt < 50; attempt++) {
    const spot = r.pick(spots);
    const m = mutateAt(spot, input, r, dict);
    if (m) return m;
  }
  // every input has a root: a wrong type there is always possible
  const root = spots[0]!;
  const value = WRONG_VALUES.map((f) => f()).find((x) => !is(root.node, x))!;
  return { kind: 'wrong type', path: [], unions: [], input: value, mustRefuse: true };
}

function mutateAt(spot: Spot, input: unknown, r: Rng, dict: Dictionary): Mutated | null {
  const n = spot.node;
  let inner = unwrapped(n);
  if ((inner.type === 'union' || inner.type === 'variant') && spot.value !== ABSENT) {
    // mutate the option the value is: the union above names itself when it refuses
    const option = inner.options!.map(node).find((o) => is(o, spot.value));
    if (!option) return null;
    inner = option;
    spot = { ...spot, unions: [...spot.unions, spot.path] };
  }
  // what another option of a union (or the field's optional/nullable) takes is no refusal
  const at = (kind: string, value: Made, mustRefuse: boolean): Mutated => ({ kind, path: spot.path, unions: spot.unions, input: put(input, spot.path, value), mustRefuse: mustRefuse && !is(n, value) });
  const roll = r.int(8);
  if (roll === 0) {
    const wrong = WRONG_VALUES.map((f) => f()).filter((x) => !is(n, x));
    return wrong.length ? at('wrong type', r.pick(wrong), true) : null;
  }
  if (roll === 1 && spot.inObject && spot.value !== ABSENT && !isOptional(n)) return at('missing key', ABSENT, true);
  if (roll === 2 && (inner.type === 'strict_object' || inner.type === 'custom') && spot.value && typeof spot.value === 'object') {
    const key = r.pick(['__proto__', 'constructor', 'prototype', 'polluted', 'toString', 'x'.repeat(300), word(r, 6)]);
    const value = r.pick([POLLUTION, 'yes', { prototype: POLLUTION }]);
    const object = withOwn(clone(spot.value) as Record<string, unknown>, key, value);
    // a header is the site's data: any key is a field of it, so it may pass
    return inner.type === 'strict_object'
      ? { kind: `unknown key ${key.length > 20 ? 'long' : /^[a-zA-Z0-9]{6}$/.test(key) ? '(a word)' : key}`, path: [...spot.path, key], unions: spot.unions, input: put(input, spot.path, object), mustRefuse: true }
      : at(`header key ${key.length > 20 ? 'long' : key}`, object, false);
  }
  if (inner.type === 'string') {
    const max = maxLen(inner);
    const min = minLen(inner);
    if (roll === 3 && max !== undefined) return at('string past its maximum', 'x'.repeat(max + 1 + r.int(64)), true);
    if (roll === 4 && min !== undefined && min > 0) return at('string under its minimum', r.chance(0.5) ? '' : 'x'.repeat(min - 1), true);
    if (roll === 5) return at('very long string', 'é'.repeat(r.pick([10_000, 100_000, 1_000_000])), false);
    const base = typeof spot.value === 'string' ? spot.value : '';
    const odd = r.pick(ODD_STRINGS);
    const s = r.pick([odd, base + odd, odd + base, `${base}/${odd}`]);
    return at('odd string', s, max !== undefined && s.length > max && /\S/.test(s) && !hasAction(inner, 'trim') ? true : false);
  }
  if (inner.type === 'number') {
    const lo = minVal(inner);
    const hi = maxVal(inner);
    const integer = hasAction(inner, 'integer') || hasAction(inner, 'safe_integer');
    const choices: [string, number, boolean][] = [
      ['NaN', Number.NaN, true],
      ['Infinity', Infinity, integer || hi !== undefined],
      ['-Infinity', -Infinity, integer || lo !== undefined],
      ['huge number', 1e308, hi !== undefined || hasAction(inner, 'safe_integer')],
      ['negative number', -1e9, lo !== undefined && lo > -1e9],
      ['-0', -0, false],
      ['unsafe integer', 2 ** 53 + 2, hi !== undefined && hi < 2 ** 53 + 2],
    ];
    if (integer) choices.push(['fraction', 0.5 + (lo ?? 0), true]);
    if (lo !== undefined) choices.push(['below its minimum', lo - 1, true]);
    if (hi !== undefined) choices.push(['above its maximum', hi + 1, true]);
    const [kind, value, must] = r.pick(choices);
    return at(kind, value, must);
  }
  if (inner.type === 'array') {
    const max = maxLen(inner);
    const min = minLen(inner) ?? 0;
    if (roll <= 4 && (max === undefined || max <= 20_000)) {
      // past its maximum, or very long where it has none (each item may cost a request)
      const item = valid(inner.item!, String(spot.path[spot.path.length - 1] ?? ''), [...spot.path, 0], r, dict);
      return max === undefined ? at('very long array', Array.from({ length: 10_000 }, () => item), false) : at('array past its maximum', Array.from({ length: max + 1 }, () => item), true);
    }
    if (roll <= 6) return at('empty array', [], min > 0);
    return at('deeply nested array', [nested(r.pick([50, 500, 5000]), 'x', true)], !is(inner.item!, nested(1, 'x', true)));
  }
  if (inner.type === 'custom') {
    const choices: [string, unknown][] = [
      ['header nested deep', nested(r.pick([20, 200, 20_000]), 1, false)],
      ['header with __proto__', withOwn({ title: 'x' }, '__proto__', POLLUTION)],
      ['header with constructor.prototype', { constructor: { prototype: POLLUTION } }],
      ['header with dotted keys', { 'og.title': 'x', 'a..b': { '': 1 }, prototype: 2 }],
      ['header with many values', Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, i]))],
      ['header with NaN', { n: Number.NaN }],
      ['header with a long text', { t: 'x'.repeat(1_000_001) }],
      ['header with odd strings', Object.fromEntries(ODD_STRINGS.map((s, i) => [s || `empty${i}`, s]))],
    ];
    const [kind, value] = r.pick(choices);
    return at(kind, value, false);
  }
  return null;
}

function unwrapped(n: Node): Node {
  return n.wrapped && (isOptional(n) || n.type === 'nullable') ? unwrapped(n.wrapped) : n;
}

/**
 * Whether a refusal's field `name` points at the mutation: its path, the path's parent, a union
 * above it (which cannot tell which option was meant), or a place inside the value put there (a
 * list given where an object belongs is refused for the keys it lacks). `_` is the input itself.
 */
export function namesMutation(name: string, m: Mutated): boolean {
  const dot = (p: Path) => (p.length ? p.map(String).join('.') : '_');
  const own = dot(m.path);
  if (name === own || name === dot(m.path.slice(0, -1)) || m.unions.some((u) => dot(u) === name)) return true;
  return m.path.length === 0 || name.startsWith(`${own}.`);
}

/** Whether a regular expression accepts only strings of a bounded length (anchored, no `*`, `+` or `{n,}` outside lookarounds). */
function regexBounded(re: RegExp): boolean {
  const src = re.source.replace(/\(\?<?[=!](?:[^()\\]|\\.)*\)/g, '');
  return src.startsWith('^') && src.endsWith('$') && !/(^|[^\\])[*+]|\{\d+,\}/.test(src);
}

/**
 * The places in a schema where a string or a list has no upper bound (`siteId`, `statuses[]`): a
 * string needs a maximum length, a fixed format (uuid, timestamp) or a pattern of bounded length;
 * a list needs a maximum length. A very long value there is only stopped by the message size.
 */
export function unboundedPlaces(schema: v.GenericSchema): string[] {
  const out: string[] = [];
  const walk = (n: Node, at: string) => {
    switch (n.type) {
      case 'optional':
      case 'nullish':
      case 'exact_optional':
      case 'undefinedable':
      case 'nullable':
        return walk(n.wrapped!, at);
      case 'strict_object':
      case 'object':
      case 'loose_object':
        for (const [k, e] of Object.entries(n.entries!)) walk(e, at ? `${at}.${k}` : k);
        return;
      case 'array':
        if (maxLen(n) === undefined) out.push(at || '_');
        return walk(n.item!, `${at}[]`);
      case 'union':
      case 'variant':
        for (const o of n.options!) walk(node(o), at);
        return;
      case 'string': {
        const acts = actionsOf(n);
        const bounded = maxLen(n) !== undefined || acts.some((a) => a.type === 'uuid' || a.type === 'iso_timestamp' || (a.type === 'regex' && a.requirement instanceof RegExp && regexBounded(a.requirement)));
        if (!bounded) out.push(at || '_');
      }
    }
  };
  walk(node(schema), '');
  return out;
}
