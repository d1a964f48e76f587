/**
 * Three-way merge of a page: the text by lines, the header field by field. Pure: no I/O, so every
 * case is a unit test. A conflict is never resolved by dropping a side: hunks keep base, mine and
 * theirs for the merge view, and an unresolved header field keeps all three values. Changes that
 * merge cleanly are kept apart too (from the site, or mine), so the merge view shows each of them
 * for what it is and lets the person undo it. One copy for both sides: the Host merges on a 409,
 * the renderer's merge view resolves with the same functions.
 */
import { diffIndices } from 'node-diff3';
import { isPlainObject, ownField, setField, type Header, type MergeFieldChange, type MergeFieldConflict, type MergeHeader, type MergeHunk, type MergeText, type PageTextShape } from '../contract';

export type { Header };

/** A stretch of the text: the contract's MergeHunk, one type on both sides. */
export type Hunk = MergeHunk;
export type TextMerge = MergeText;

/** The line ending a text mostly uses (LF when there is none). */
export function eolOf(text: string): '\n' | '\r\n' {
  const crlf = text.match(/\r\n/g)?.length ?? 0;
  const lf = (text.match(/\n/g)?.length ?? 0) - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

const lines = (text: string) => text.split(/\r?\n/);
const sameLines = (x: readonly string[], y: readonly string[]) => x.length === y.length && x.every((l, i) => l === y[i]);

/** Where one side changed the base: base[oStart, oStart + oLength) became side[start, start + length). */
interface Change {
  side: 'mine' | 'theirs';
  oStart: number;
  oLength: number;
  start: number;
  length: number;
}

/**
 * The three texts as regions: runs both sides left as they were, changes of one side only, and the
 * places both sides changed (a conflict unless they changed them alike). The diff3 regions
 * (Khanna, Kunal and Pierce), with the base kept for every change so it can be shown and undone.
 */
export function mergeRegions(o: string[], a: string[], b: string[]): Hunk[] {
  const changes: Change[] = [
    ...diffIndices(o, a).map((d) => ({ side: 'mine' as const, oStart: d.buffer1[0], oLength: d.buffer1[1], start: d.buffer2[0], length: d.buffer2[1] })),
    ...diffIndices(o, b).map((d) => ({ side: 'theirs' as const, oStart: d.buffer1[0], oLength: d.buffer1[1], start: d.buffer2[0], length: d.buffer2[1] })),
  ].sort((x, y) => x.oStart - y.oStart);
  const hunks: Hunk[] = [];
  const keep = (from: number, to: number) => {
    if (to <= from) return;
    const last = hunks.at(-1);
    if (last?.kind === 'same') last.lines.push(...o.slice(from, to));
    else hunks.push({ kind: 'same', lines: o.slice(from, to) });
  };
  let at = 0;
  for (let i = 0; i < changes.length; ) {
    const first = changes[i]!;
    let end = first.oStart + first.oLength;
    let j = i + 1;
    // changes that touch the same stretch of the base make one region
    while (j < changes.length && changes[j]!.oStart <= end) end = Math.max(end, changes[j]!.oStart + changes[j]!.oLength), j++;
    const region = changes.slice(i, j);
    const start = first.oStart;
    keep(at, start);
    const base = o.slice(start, end);
    if (region.length === 1) {
      const text = (first.side === 'mine' ? a : b).slice(first.start, first.start + first.length);
      hunks.push({ kind: first.side, base, lines: text });
    } else {
      // each side's span over the whole region, its edges moved by what that side left unchanged
      const span = (side: 'mine' | 'theirs', buf: string[]) => {
        const own = region.filter((c) => c.side === side);
        if (!own.length) return o.slice(start, end);
        const from = Math.min(...own.map((c) => c.start)) + (start - Math.min(...own.map((c) => c.oStart)));
        const to = Math.max(...own.map((c) => c.start + c.length)) + (end - Math.max(...own.map((c) => c.oStart + c.oLength)));
        return buf.slice(from, to);
      };
      const mine = span('mine', a);
      const theirs = span('theirs', b);
      if (sameLines(mine, theirs)) hunks.push({ kind: 'mine', base, lines: mine, alsoTheirs: true });
      else hunks.push({ kind: 'conflict', base, mine, theirs });
    }
    at = end;
    i = j;
  }
  keep(at, o.length);
  return hunks;
}

/** The lines a clean region puts in the text (its change, or the base where the change is undone). */
const cleanLines = (h: Exclude<Hunk, { kind: 'conflict' }>, undone = false): string[] => (h.kind === 'same' ? h.lines : undone ? h.base : h.lines);

export function mergeText(base: string, mine: string, theirs: string): TextMerge {
  const eol = eolOf(mine || theirs || base);
  const hunks = mergeRegions(lines(base), lines(mine), lines(theirs));
  const out: string[] = [];
  let clean = true;
  for (const h of hunks) {
    if (h.kind === 'conflict') clean = false;
    else out.push(...cleanLines(h));
  }
  return { clean, hunks, text: clean ? out.join(eol) : null, eol };
}

/** Lines that start a list item or a table row: such blocks go on without a blank line between them. */
const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s/;
const TABLE_ROW = /^\s*\|/;

/**
 * Mine then theirs as separate Markdown blocks: a blank line between them, unless one side ends or
 * starts with one already, or both sides are items of the same list or rows of the same table
 * (where a blank line would split them). Never two paragraphs glued into one.
 */
export function bothBlocks(mine: readonly string[], theirs: readonly string[]): string[] {
  const last = mine.at(-1);
  const first = theirs[0];
  if (last === undefined || first === undefined || last.trim() === '' || first.trim() === '') return [...mine, ...theirs];
  if ((LIST_ITEM.test(last) && LIST_ITEM.test(first)) || (TABLE_ROW.test(last) && TABLE_ROW.test(first))) return [...mine, ...theirs];
  return [...mine, '', ...theirs];
}

/** A choice per conflict hunk, in order: one side, both (mine then theirs), or text typed in the merge view. */
export type HunkChoice = 'mine' | 'theirs' | 'base' | 'both' | { text: string };

/** The lines a choice puts in place of one conflicting hunk. */
export function linesFor(h: Extract<Hunk, { kind: 'conflict' }>, choice: HunkChoice): string[] {
  if (choice === 'mine') return h.mine;
  if (choice === 'theirs') return h.theirs;
  if (choice === 'base') return h.base;
  if (choice === 'both') return bothBlocks(h.mine, h.theirs);
  return lines(choice.text);
}

/**
 * The text the choices make: each conflict as chosen (in order), each clean change kept unless its
 * hunk index is in `undone` (then its base stands), joined with the text's line ending.
 */
export function resolveText(merge: Pick<TextMerge, 'hunks' | 'eol'>, choices: readonly HunkChoice[], undone: ReadonlySet<number> = new Set()): string {
  let i = 0;
  const out: string[] = [];
  merge.hunks.forEach((h, index) => {
    if (h.kind !== 'conflict') {
      out.push(...cleanLines(h, undone.has(index)));
      return;
    }
    const c = choices[i++];
    if (c === undefined) throw new Error(`No choice for conflict ${i}.`);
    out.push(...linesFor(h, c));
  });
  return out.join(merge.eol);
}

// ── header ──────────────────────────────────────────────────────────────────────────────────
// A field is a path of keys, never a dotted string: a key may hold a dot (`og.title`). Keys are the
// site's data and are read and set as own fields only (contract/header.ts), so `__proto__`,
// `constructor` and `prototype` are fields like any other.

export type FieldConflict = MergeFieldConflict;
/** A field changed on one side only (or alike on both), merged cleanly: shown, and undone on request. */
export type FieldChange = MergeFieldChange;
export type HeaderMerge = MergeHeader;

/** One text per field path, for keying choices (unambiguous: `['og.title']` and `['og', 'title']` differ). */
export const fieldKey = (path: readonly string[]): string => JSON.stringify(path);

/** A field path as a person reads it: its keys joined with › (`taxonomy › tag`; `og.title` stays one key). */
export const fieldLabel = (path: readonly string[]): string => path.join(' › ');

/** The path is the page's title (merged as a header field). */
export const isTitlePath = (path: readonly string[]): boolean => path.length === 1 && path[0] === 'title';

/** Structural equality for JSON-like values (key order does not matter). */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}

function mergeObject(base: Header | undefined, mine: Header, theirs: Header, prefix: readonly string[], conflicts: FieldConflict[], changes: FieldChange[]): Header {
  const out: Header = {};
  const keys = [...new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base ?? {})])];
  for (const k of keys) {
    const [o, a, b] = [ownField(base, k), ownField(mine, k), ownField(theirs, k)];
    const path = [...prefix, k];
    let v: unknown;
    if (same(a, b)) {
      v = a;
      if (!same(a, o)) changes.push({ path, side: 'mine', base: o, value: a, alsoTheirs: true });
    } else if (same(a, o)) {
      v = b; // only theirs changed (or removed) it
      changes.push({ path, side: 'theirs', base: o, value: b });
    } else if (same(b, o)) {
      v = a; // only mine did
      changes.push({ path, side: 'mine', base: o, value: a });
    } else if (isPlainObject(a) && isPlainObject(b) && (o === undefined || isPlainObject(o))) v = mergeObject(o as Header | undefined, a, b, path, conflicts, changes);
    else {
      conflicts.push({ path, base: o, mine: a, theirs: b });
      v = a;
    }
    if (v !== undefined) setField(out, k, v);
  }
  return out;
}

export function mergeHeader(base: Header, mine: Header, theirs: Header): HeaderMerge {
  const conflicts: FieldConflict[] = [];
  const changes: FieldChange[] = [];
  const merged = mergeObject(base, mine, theirs, [], conflicts, changes);
  return { merged, conflicts, changes };
}

/** Sets (or, for undefined, removes) a field by its path of keys. */
function setPath(out: Header, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = out;
  for (const p of path.slice(0, -1)) {
    if (!isPlainObject(ownField(node, p))) setField(node, p, {});
    node = node[p] as Record<string, unknown>;
  }
  const last = path.at(-1);
  if (last === undefined) return;
  if (value === undefined) delete node[last];
  else setField(node, last, structuredClone(value));
}

/** A choice per conflicting header field: one side, the base, or a value given in the merge view. */
export type FieldChoice = 'mine' | 'theirs' | 'base' | { value: unknown };

/**
 * Applies the merge view's choices to the conflicting fields (keyed by `fieldKey` of their path; a
 * side without the field removes it), and puts back the base of the clean changes undone (their
 * `fieldKey`s).
 */
export function resolveHeader(m: HeaderMerge, choices: Readonly<Record<string, FieldChoice>>, undone: ReadonlySet<string> = new Set()): Header {
  const out = structuredClone(m.merged);
  for (const c of m.changes) if (undone.has(fieldKey(c.path))) setPath(out, c.path, c.base);
  for (const c of m.conflicts) {
    const key = fieldKey(c.path);
    const pick = Object.hasOwn(choices, key) ? choices[key] : undefined;
    if (pick === undefined) throw new Error(`No choice for header field ${fieldLabel(c.path)}.`);
    setPath(out, c.path, pick === 'mine' ? c.mine : pick === 'theirs' ? c.theirs : pick === 'base' ? c.base : pick.value);
  }
  return out;
}

/**
 * The page's title travels as its own field, but the merge treats it as a header field (`title`),
 * so a change to it on either side is merged like any other: the header the merge reads.
 */
export const headerWithTitle = (t: PageTextShape): Header => ({ ...t.header, title: t.title });

/**
 * The header to send after a merge (the Host's clean one or a person's resolution): it keeps a
 * `title` key only where mine had one, then with the title chosen, so a merge never adds a title
 * key to a header that had none.
 */
export function headerToSend(merged: Header, mine: Header, title: string): Header {
  const out = { ...merged };
  if (Object.hasOwn(mine, 'title')) out.title = title;
  else delete out.title;
  return out;
}

/** The three-way merge of page text: the content by lines, the title and header field by field (what the merge view shows). */
export function mergePageText(base: PageTextShape, mine: PageTextShape, theirs: PageTextShape): { text: TextMerge; header: HeaderMerge } {
  return { text: mergeText(base.content, mine.content, theirs.content), header: mergeHeader(headerWithTitle(base), headerWithTitle(mine), headerWithTitle(theirs)) };
}

/**
 * Mine merged onto theirs from the base, the text by lines and the title and header field by
 * field; null when a hunk or a field needs a person. Mine's other fields ride along.
 */
export function mergeClean<T extends PageTextShape>(base: PageTextShape, mine: T, theirs: PageTextShape): T | null {
  const { text, header } = mergePageText(base, mine, theirs);
  if (!text.clean || header.conflicts.length) return null;
  const title = typeof header.merged.title === 'string' ? header.merged.title : mine.title;
  return { ...mine, title, header: headerToSend(header.merged, mine.header, title), content: text.text! };
}
