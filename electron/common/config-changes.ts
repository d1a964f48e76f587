/**
 * What a settings form changed, leaf by leaf: the diff shown before a save, the nested patch the
 * site gets (only the changed leaves, so a value the person never touched — a masked secret, a
 * setting another admin changed meanwhile — is not sent back), and the patch that undoes a save.
 * Lists are leaves (the site replaces them whole). Keys are read as own fields only.
 */
import { isPlainObject, ownField, setField } from '../contract/header';

export interface LeafChange {
  /** The leaf's path (`['mailer', 'smtp', 'port']`). */
  path: string[];
  /** undefined: the leaf did not exist. */
  before: unknown;
  after: unknown;
}

function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same(ownField(a, k), ownField(b, k)));
  }
  return false;
}

/** Every leaf whose value differs between `before` and `after`, in `after`'s order, removals last. */
export function leafChanges(before: Record<string, unknown>, after: Record<string, unknown>, prefix: string[] = []): LeafChange[] {
  const out: LeafChange[] = [];
  for (const key of Object.keys(after)) {
    const a = ownField(before, key);
    const b = ownField(after, key);
    if (isPlainObject(a) && isPlainObject(b)) out.push(...leafChanges(a, b, [...prefix, key]));
    else if (isPlainObject(b) && a === undefined) out.push(...leafChanges({}, b, [...prefix, key]));
    else if (!same(a, b)) out.push({ path: [...prefix, key], before: a, after: b });
  }
  for (const key of Object.keys(before)) {
    if (Object.hasOwn(after, key)) continue;
    const a = ownField(before, key);
    if (isPlainObject(a)) out.push(...leafChanges(a, {}, [...prefix, key]));
    else if (a !== undefined) out.push({ path: [...prefix, key], before: a, after: undefined });
  }
  return out;
}

/**
 * The changes as the nested object a PATCH takes. A removed leaf is sent as null (the site's
 * merge keeps a key that is left out, so leaving it out would not remove it).
 */
export function patchOf(changes: readonly Pick<LeafChange, 'path' | 'after'>[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const { path, after } of changes) {
    let node = root;
    path.forEach((key, i) => {
      if (i === path.length - 1) setField(node, key, after === undefined ? null : after);
      else {
        const next = ownField(node, key);
        if (isPlainObject(next)) node = next;
        else {
          const made: Record<string, unknown> = {};
          setField(node, key, made);
          node = made;
        }
      }
    });
  }
  return root;
}

/** The changes that put every leaf of a save back as it was. */
export const undoOf = (changes: readonly LeafChange[]): LeafChange[] => changes.map((c) => ({ path: c.path, before: c.after, after: c.before }));
