/**
 * Word-level differences for the compare and sync views (jsdiff's diffWordsWithSpace, so spaces
 * and line breaks are kept exactly). A very different pair of long texts is cut off after a time
 * limit and compared line by line instead, so the window never stalls.
 */
import { diffLines, diffWordsWithSpace, type ChangeObject } from 'diff';

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

export interface DiffResult {
  parts: DiffPart[];
  /** 'words' normally; 'lines' when the word diff took too long. */
  granularity: 'words' | 'lines';
  added: number;
  removed: number;
}

const toParts = (changes: ChangeObject<string>[]): DiffPart[] =>
  changes.map((c) => ({ kind: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));

function count(parts: DiffPart[], kind: DiffPart['kind']): number {
  let n = 0;
  for (const p of parts) if (p.kind === kind) n += p.text.split(/\s+/).filter(Boolean).length || (p.text ? 1 : 0);
  return n;
}

/** `before` → `after`: what was removed from before and added in after. */
export function wordDiff(before: string, after: string, timeoutMs = 800): DiffResult {
  const words = diffWordsWithSpace(before, after, { timeout: timeoutMs });
  let parts: DiffPart[];
  let granularity: DiffResult['granularity'] = 'words';
  if (words) parts = toParts(words);
  else {
    parts = toParts(diffLines(before, after));
    granularity = 'lines';
  }
  return { parts, granularity, added: count(parts, 'added'), removed: count(parts, 'removed') };
}

/** True when the two sides are the same text. */
export const unchanged = (r: DiffResult) => r.parts.every((p) => p.kind === 'same');

/**
 * One side of a side-by-side view: the parts that side has ('same' and, for the old side,
 * 'removed'; for the new side, 'added'), with a run of changed words kept together when only
 * whitespace the two texts share lies between them ("−keeps the text", not "−keeps −the −text").
 */
export function sideRuns(parts: DiffPart[], side: 'before' | 'after'): DiffPart[] {
  const changed: DiffPart['kind'] = side === 'before' ? 'removed' : 'added';
  const mine = parts.filter((p) => p.kind === 'same' || p.kind === changed);
  const out: DiffPart[] = [];
  for (let i = 0; i < mine.length; i++) {
    const p = mine[i]!;
    const prev = out.at(-1);
    const next = mine[i + 1];
    const bridge = p.kind === 'same' && /^[ \t]+$/.test(p.text) && prev?.kind === changed && next?.kind === changed;
    if (bridge || (p.kind === changed && prev?.kind === changed)) prev!.text += p.text;
    else out.push({ ...p });
  }
  return out;
}
