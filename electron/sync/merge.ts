/**
 * Three-way merge of a page: the text by lines, the header field by field. Pure: no I/O, so every
 * case is a unit test. A conflict is never resolved by dropping a side: hunks keep base, mine and
 * theirs for the merge view, and an unresolved header field keeps all three values.
 */
import { diff3Merge } from 'node-diff3';

export type Hunk = { kind: 'same'; lines: string[] } | { kind: 'conflict'; base: string[]; mine: string[]; theirs: string[] };

export interface TextMerge {
  clean: boolean;
  hunks: Hunk[];
  /** The merged text when clean (with mine's line endings). */
  text: string | null;
  eol: '\n' | '\r\n';
}

/** The line ending a text mostly uses (LF when there is none). */
export function eolOf(text: string): '\n' | '\r\n' {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

const lines = (text: string) => text.split(/\r?\n/);

export function mergeText(base: string, mine: string, theirs: string): TextMerge {
  const eol = eolOf(mine || theirs || base);
  const join = (xs: string[]) => xs.join(eol);
  const [o, a, b] = [lines(base), lines(mine), lines(theirs)];
  const same = (x: string[], y: string[]) => x.length === y.length && x.every((l, i) => l === y[i]);
  // line endings alone never make a conflict: compare by lines
  if (same(a, b) || same(o, b)) return { clean: true, hunks: [{ kind: 'same', lines: a }], text: join(a), eol };
  if (same(o, a)) return { clean: true, hunks: [{ kind: 'same', lines: b }], text: join(b), eol };

  const hunks: Hunk[] = [];
  for (const region of diff3Merge<string>(a, o, b, { excludeFalseConflicts: true })) {
    if (region.ok) {
      const last = hunks.at(-1);
      if (last?.kind === 'same') last.lines.push(...region.ok);
      else hunks.push({ kind: 'same', lines: [...region.ok] });
    } else if (region.conflict) {
      hunks.push({ kind: 'conflict', base: region.conflict.o, mine: region.conflict.a, theirs: region.conflict.b });
    }
  }
  const clean = hunks.every((h) => h.kind === 'same');
  return { clean, hunks, text: clean ? join(hunks.flatMap((h) => (h.kind === 'same' ? h.lines : []))) : null, eol };
}

/** A choice per conflict hunk, in order: one side, both (mine then theirs), or text typed in the merge view. */
export type HunkChoice = 'mine' | 'theirs' | 'base' | 'both' | { text: string };

export function resolveText(merge: TextMerge, choices: HunkChoice[]): string {
  let i = 0;
  const out: string[] = [];
  for (const h of merge.hunks) {
    if (h.kind === 'same') {
      out.push(...h.lines);
      continue;
    }
    const c = choices[i++];
    if (c === undefined) throw new Error(`No choice for conflict ${i}.`);
    if (c === 'mine') out.push(...h.mine);
    else if (c === 'theirs') out.push(...h.theirs);
    else if (c === 'base') out.push(...h.base);
    else if (c === 'both') out.push(...h.mine, ...h.theirs);
    else out.push(...lines(c.text));
  }
  return out.join(merge.eol);
}

// ── header ──────────────────────────────────────────────────────────────────────────────────

export type Header = Record<string, unknown>;

export interface FieldConflict {
  /** Dotted path of the field (`taxonomy.tag`). */
  path: string;
  /** undefined = the field does not exist on that side. */
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

export interface HeaderMerge {
  /** Clean fields merged; a conflicting field holds mine until resolved. */
  merged: Header;
  conflicts: FieldConflict[];
}

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Structural equality for JSON-like values (key order does not matter). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isPlain(a) && isPlain(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

function mergeObject(base: Header | undefined, mine: Header, theirs: Header, prefix: string, conflicts: FieldConflict[]): Header {
  const out: Header = {};
  const keys = [...new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base ?? {})])];
  for (const k of keys) {
    const [o, a, b] = [base?.[k], mine[k], theirs[k]];
    const path = prefix ? `${prefix}.${k}` : k;
    let v: unknown;
    if (same(a, b)) v = a;
    else if (same(a, o)) v = b; // only theirs changed (or removed) it
    else if (same(b, o)) v = a; // only mine did
    else if (isPlain(a) && isPlain(b) && (o === undefined || isPlain(o))) v = mergeObject(o as Header | undefined, a, b, path, conflicts);
    else {
      conflicts.push({ path, base: o, mine: a, theirs: b });
      v = a;
    }
    if (v !== undefined) out[k] = v;
  }
  return out;
}

export function mergeHeader(base: Header, mine: Header, theirs: Header): HeaderMerge {
  const conflicts: FieldConflict[] = [];
  const merged = mergeObject(base, mine, theirs, '', conflicts);
  return { merged, conflicts };
}

/** Applies the merge view's choices to the conflicting fields (by path). */
export function resolveHeader(m: HeaderMerge, choices: Record<string, 'mine' | 'theirs' | 'base' | { value: unknown }>): Header {
  const out = structuredClone(m.merged);
  for (const c of m.conflicts) {
    const pick = choices[c.path];
    if (pick === undefined) throw new Error(`No choice for header field ${c.path}.`);
    const value = pick === 'mine' ? c.mine : pick === 'theirs' ? c.theirs : pick === 'base' ? c.base : pick.value;
    const parts = c.path.split('.');
    let node: Record<string, unknown> = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlain(node[p])) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    const last = parts.at(-1)!;
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return out;
}
