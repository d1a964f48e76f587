/**
 * The merge view's arithmetic, pure so it is unit-tested: the text that a set of per-hunk choices
 * makes, the header that per-field choices make, and what `drafts.resolve` is sent. Mirrors the
 * Host's resolveText/resolveHeader (electron/sync/merge.ts), which the renderer may not import.
 */
import type { DraftDetail, Header, MergeHunk } from '../../../electron/contract/index';

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
      return [...h.mine, ...h.theirs];
  }
}

/** The whole text: unchanged parts as they are, each conflict as chosen (in order), joined with the text's line ending. */
export function resolvedText(hunks: readonly MergeHunk[], choices: readonly HunkChoice[], eol: '\n' | '\r\n'): string {
  const out: string[] = [];
  let i = 0;
  for (const h of hunks) {
    if (h.kind === 'same') out.push(...h.lines);
    else out.push(...linesFor(h, choices[i++] ?? 'mine'));
  }
  return out.join(eol);
}

const isPlain = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The merged header with each conflicting field (dotted path) set to the chosen side; a side without the field removes it. */
export function resolvedHeader(merged: Header, conflicts: readonly FieldConflict[], choices: Readonly<Record<string, FieldChoice>>): Header {
  const out = structuredClone(merged);
  for (const c of conflicts) {
    const value = (choices[c.path] ?? 'mine') === 'mine' ? c.mine : c.theirs;
    const parts = c.path.split('.');
    let node: Record<string, unknown> = out;
    for (const p of parts.slice(0, -1)) {
      if (!isPlain(node[p])) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    const last = parts.at(-1)!;
    if (value === undefined) delete node[last];
    else node[last] = structuredClone(value);
  }
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

/** The title a set of field choices gives (the `title` conflict, else the merged title, else mine). */
export function resolvedTitle(merge: Merge, choices: Readonly<Record<string, FieldChoice>>, mineTitle: string): string {
  const c = merge.header.conflicts.find((x) => x.path === 'title');
  const value = c ? ((choices.title ?? 'mine') === 'mine' ? c.mine : c.theirs) : merge.header.merged.title;
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
