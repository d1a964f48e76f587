/**
 * A page header is the site's data, keys included: a key may hold a dot (`og.title`) or be called
 * `__proto__`, `constructor` or `prototype`, and each is one field like any other. Code that walks
 * or builds a header from such keys reads and writes them only through `ownField` / `setField`,
 * so a key never reaches an object's prototype and an inherited member (`constructor`) is never
 * mistaken for a field. A field is addressed by a path of keys (`['og.title']`, `['og', 'title']`),
 * never by a dotted string. Also the header's schemas: `HeaderValue` (any JSON object, every key
 * kept: valibot's `record` drops the three names above) and `HeaderInput` (the same, bounded).
 */
import * as v from 'valibot';

export type Header = Record<string, unknown>;

/** A JSON object (not an array, not null). */
export const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The object's own field `key` (never an inherited member: `constructor` of `{}` is undefined). */
export function ownField(o: unknown, key: string): unknown {
  return isPlainObject(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

/** The own field at `path` (['content', 'order', 'by']); undefined where any step is missing or not an object. */
export function fieldAt(o: unknown, path: readonly string[]): unknown {
  let node = o;
  for (const key of path) node = ownField(node, key);
  return node;
}

/** Sets the own field `key`, as data even when it is called `__proto__` (a plain `o[key] = …` would set the prototype). */
export function setField(o: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Bounds of a header sent to the Host: nesting, the number of values, and the characters of keys and texts together. */
export const HEADER_LIMITS = { depth: 16, values: 10_000, chars: 1_000_000 } as const;

/** Why a header is out of bounds or not JSON, or null when it is fine. Iterative: a deep value cannot overflow the stack. */
export function headerProblem(header: unknown): string | null {
  if (!isPlainObject(header)) return 'The header must be an object.';
  const stack: { value: unknown; depth: number }[] = [{ value: header, depth: 1 }];
  let values = 0;
  let chars = 0;
  while (stack.length) {
    const { value, depth } = stack.pop()!;
    if (++values > HEADER_LIMITS.values) return `The header holds more than ${HEADER_LIMITS.values} values.`;
    if (typeof value === 'string') chars += value.length;
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'The header holds a number JSON cannot carry.';
    } else if (value === null || typeof value === 'boolean') continue;
    else if (Array.isArray(value) || isPlainObject(value)) {
      if (depth > HEADER_LIMITS.depth) return `The header is nested more than ${HEADER_LIMITS.depth} levels deep.`;
      if (Array.isArray(value)) for (const x of value) stack.push({ value: x, depth: depth + 1 });
      else
        for (const k of Object.keys(value)) {
          chars += k.length;
          stack.push({ value: value[k], depth: depth + 1 });
        }
      if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return 'The header holds a value JSON cannot carry.';
    } else return 'The header holds a value JSON cannot carry.';
    if (chars > HEADER_LIMITS.chars) return `The header is longer than ${HEADER_LIMITS.chars} characters.`;
  }
  return null;
}

/** A header as a site sends it: any JSON object, every key kept as it came. */
export const HeaderValue = v.custom<Header>(isPlainObject, 'The header must be an object.');

/** A header sent to the Host: every key kept, within HEADER_LIMITS. */
export const HeaderInput = v.pipe(
  v.custom<Header>(isPlainObject, 'The header must be an object.'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = headerProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);
