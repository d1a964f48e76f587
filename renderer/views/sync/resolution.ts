/**
 * The merge view's arithmetic, pure so it is unit-tested: the text that a set of per-hunk choices
 * (and the clean changes undone) makes, the header that per-field choices make, and what
 * `drafts.resolve` is sent. Mirrors the Host's resolveText/resolveHeader/bothBlocks
 * (electron/sync/merge.ts), which the renderer may not import.
 */
import type { DraftDetail, Header, MergeFieldChange, MergeHunk } from '../../../electron/contract/index';

export type HunkChoice = 'mine' | 'theirs' | 'both' | 'base';
export type FieldChoice = 'mine' | 'theirs';

export const HUNK_CHOICES: readonly { value: HunkChoice; label: string }[] = [
  { value: 'mine', label: 'Mine' },
  { value: 'theirs', label: 'Theirs' },
  { value: 'both', label: 'Both (mine then theirs)' },
  { value: 'base', label: 'Base' },
];

export type Merge = NonNullable<DraftDetail['merge']>;
export type FieldConflict = Merge['header']['conflicts'][number];

const LIST_ITEM = /^\s{0,3}([-*+]|\d{1,9}[.)])\s/;
const TABLE_ROW = /^\s*\|/;

/**
 * Mine then theirs as separate Markdown blocks: a blank line between them, unless one side ends or
 * starts with one, or both are items of a list or rows of a table (a blank line would split them).
 */
export function bothBlocks(mine: readonly string[], theirs: readonly string[]): string[] {
  const last = mine.at(-1);
  const first = theirs[0];
  if (last === undefined || first === undefined || last.trim() === '' || first.trim() === '') return [...mine, ...theirs];
  if ((LIST_ITEM.test(last) && LIST_ITEM.test(first)) || (TABLE_ROW.test(last) && TABLE_ROW.test(first))) return [...mine, ...theirs];
  return [...mine, '', ...theirs];
}

/** The lines a choice puts in place of one conflicting hunk. */
export function linesFor(h: Extract<MergeHunk, { kind: 'conflict' }>, choice: HunkChoice): string[] {
  switch (choice) {
    case 'mine':
      return h.mine;
    case 'theirs':
      return h.theirs;
    case 'base':
      return h.base;
    case 'both':
      return bothBlocks(h.mine, h.theirs);
  }
}

/**
 * The whole text: unchanged parts as they are, each clean change kept unless its hunk index is in
 * `undone` (then its base), each conflict as chosen (in order), joined with the text's line ending.
 */
export function resolvedText(hunks: readonly MergeHunk[], choices: readonly HunkChoice[], eol: '\n' | '\r\n', undone: ReadonlySet<number> = new Set()): string {
  const out: string[] = [];
  let i = 0;
  hunks.forEach((h, index) => {
    if (h.kind === 'same') out.push(...h.lines);
    else if (h.kind === 'conflict') out.push(...linesFor(h, choices[i++] ?? 'mine'));
    else out.push(...(undone.has(index) ? h.base : h.lines));
  });
  return out.join(eol);
}

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

function setPath(out: Header, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = out;
  for (const p of parts.slice(0, -1)) {
    if (!isPlain(node[p])) node[p] = {};
    node = node[p] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === undefined) delete node[last];
  else node[last] = structuredClone(value);
}

/**
 * The merged header with each clean change in `undone` back at its base, and each conflicting
 * field (dotted path) set to the chosen side; a side without the field removes it.
 */
export function resolvedHeader(
  merged: Header,
  conflicts: readonly FieldConflict[],
  choices: Readonly<Record<string, FieldChoice>>,
  changes: readonly MergeFieldChange[] = [],
  undone: ReadonlySet<string> = new Set(),
): Header {
  const out = structuredClone(merged);
  for (const c of changes) if (undone.has(c.path)) setPath(out, c.path, c.base);
  for (const c of conflicts) setPath(out, c.path, (choices[c.path] ?? 'mine') === 'mine' ? c.mine : c.theirs);
  return out;
}

/**
 * The header to send with the resolution. The Host merges the title as a header field (`title`);
 * it travels as its own field, so the header keeps a `title` key only where mine had one (then
 * with the title chosen), as the Host's clean merge does.
 */
export function headerToSend(resolved: Header, mine: Header, title: string): Header {
  const out = { ...resolved };
  if (Object.hasOwn(mine, 'title')) out.title = title;
  else delete out.title;
  return out;
}

/** The title a set of field choices gives (the `title` conflict, else the merged title or its base when its change is undone, else mine). */
export function resolvedTitle(merge: Merge, choices: Readonly<Record<string, FieldChoice>>, mineTitle: string, undone: ReadonlySet<string> = new Set()): string {
  const c = merge.header.conflicts.find((x) => x.path === 'title');
  const change = merge.header.changes.find((x) => x.path === 'title');
  const value = c ? ((choices.title ?? 'mine') === 'mine' ? c.mine : c.theirs) : change && undone.has('title') ? change.base : merge.header.merged.title;
  return typeof value === 'string' ? value : mineTitle;
}

/** A header value as one short readable text (the field list shows it; `undefined` = the side has no such field). */
export function showValue(value: unknown): string {
  if (value === undefined) return '(not set)';
  if (value === null) return '(empty)';
  if (typeof value === 'string') return value === '' ? '(empty text)' : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
