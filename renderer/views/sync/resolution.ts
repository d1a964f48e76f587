/**
 * The merge view's side of a resolution: the choices it offers (with their labels), what it starts
 * from (a conflict or field with no choice yet counts as mine), the title and header it sends with
 * `drafts.resolve`, and values as readable text. The arithmetic itself is the shared merge
 * (electron/common/merge.ts), the same functions the Host merges with.
 */
import { ownField, type DraftDetail, type Header, type MergeFieldChange, type MergeHunk } from '../../../electron/contract/index';
import { bothBlocks, fieldKey, fieldLabel, headerToSend, isTitlePath, linesFor, resolveHeader, resolveText } from '../../../electron/common/merge';

export { bothBlocks, fieldKey, fieldLabel, headerToSend, isTitlePath, linesFor };

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

/**
 * The whole text: unchanged parts as they are, each clean change kept unless its hunk index is in
 * `undone` (then its base), each conflict as chosen (in order; not chosen yet: mine).
 */
export function resolvedText(hunks: readonly MergeHunk[], choices: readonly HunkChoice[], eol: '\n' | '\r\n', undone: ReadonlySet<number> = new Set()): string {
  const conflicts = hunks.filter((h) => h.kind === 'conflict').length;
  const all = Array.from({ length: conflicts }, (_, i) => choices[i] ?? 'mine');
  return resolveText({ hunks: [...hunks], eol }, all, undone);
}

/**
 * The merged header with each clean change in `undone` back at its base, and each conflicting
 * field set to the chosen side (not chosen yet: mine); a side without the field removes it. Choices
 * and `undone` are keyed by `fieldKey(path)`.
 */
export function resolvedHeader(
  merged: Header,
  conflicts: readonly FieldConflict[],
  choices: Readonly<Record<string, FieldChoice>>,
  changes: readonly MergeFieldChange[] = [],
  undone: ReadonlySet<string> = new Set(),
): Header {
  const all = Object.fromEntries(conflicts.map((c) => [fieldKey(c.path), chosen(choices, c.path)]));
  return resolveHeader({ merged, conflicts: [...conflicts], changes: [...changes] }, all, undone);
}

/** The choice made for the field at `path` (not chosen yet: mine). */
export const chosen = (choices: Readonly<Record<string, FieldChoice>>, path: readonly string[]): FieldChoice => {
  const key = fieldKey(path);
  return (Object.hasOwn(choices, key) ? choices[key] : undefined) ?? 'mine';
};

/** The title a set of field choices gives (the `title` conflict, else the merged title or its base when its change is undone, else mine). */
export function resolvedTitle(merge: Merge, choices: Readonly<Record<string, FieldChoice>>, mineTitle: string, undone: ReadonlySet<string> = new Set()): string {
  const c = merge.header.conflicts.find((x) => isTitlePath(x.path));
  const change = merge.header.changes.find((x) => isTitlePath(x.path));
  const value = c ? (chosen(choices, c.path) === 'mine' ? c.mine : c.theirs) : change && undone.has(fieldKey(change.path)) ? change.base : ownField(merge.header.merged, 'title');
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
