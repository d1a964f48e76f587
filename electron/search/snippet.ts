/**
 * A search snippet as text a person reads: FTS5 cuts its snippets out of the page's Markdown, so
 * `# Title`, `**bold**`, `[a link](…)`, list bullets and tables would show as syntax. This keeps the
 * words (and the match marks, MARK_OPEN / MARK_CLOSE) and drops the syntax, on one line. Pure; a
 * snippet may start or end inside a construct, so each rule stands alone.
 */
import { MARK_CLOSE, MARK_OPEN } from '../db/fts-query';

/** Anything but whitespace, the marks included (a mark next to a `*` is part of the word). */
const WORD = `[^\\s]`;
/** Characters after which an emphasis marker closes. */
const AFTER = `(?=$|[\\s.,;:!?)\\]"'${MARK_CLOSE}${MARK_OPEN}…])`;

export function plainSnippet(raw: string): string {
  const lines = raw.split(/\r?\n/).map((line) =>
    line
      // block syntax at the start of a line: headings, quotes, list bullets and numbers, task boxes
      .replace(/^\s*#{1,6}(\s+|$)/, '')
      .replace(/^\s*(>\s?)+/, '')
      .replace(/^\s*([-*+]|\d{1,9}[.)])\s+(\[[ xX]\]\s+)?/, '')
      // a rule or a table's divider row says nothing
      .replace(/^\s*([-*_=]\s*){3,}$/, '')
      .replace(/^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$/, '')
      // a closing run of #s on a heading
      .replace(/\s+#+\s*$/, ''),
  );
  return (
    lines
      .join(' ')
      // images: their alt text; links: their text (the address is not what was searched for)
      .replace(/!\[([^\]]*)\]\([^)]*\)?/g, '$1')
      .replace(/\[([^\]]*)\]\([^)]*\)?/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      // HTML tags and the table's cell bars
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      .replace(/\s*\|\s*/g, ' ')
      // inline code ticks, strike-through, emphasis at the edges of words (snake_case stays)
      .replace(/`+/g, '')
      .replace(/~~/g, '')
      .replace(new RegExp(`(^|[\\s(\\["'${MARK_OPEN}])[*_]{1,3}(?=${WORD})`, 'g'), '$1')
      .replace(new RegExp(`(?<=${WORD})[*_]{1,3}${AFTER}`, 'g'), '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
