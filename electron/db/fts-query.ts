/**
 * What a person types → an FTS5 MATCH expression that cannot be a syntax error. FTS5's own query
 * language (AND, OR, NOT, NEAR(…), column filters, `^`, `*`, parentheses, quotes) is never
 * passed through: every word becomes a quoted string, so `AND OR`, `NEAR(` or a lone `"` search
 * for those words (or for nothing). Two things are kept because people expect them:
 *   "an exact phrase"   quoted words stay together, in order
 *   garden*             a trailing star on a word of 2+ characters searches for the prefix
 * Terms are ANDed.
 */

/** A word of the query as the index sees it: letters and digits only (the tokenizer drops the rest). */
const WORD = /[\p{L}\p{N}\p{M}]/u;

/** Quotes a string for FTS5: inside "…" only the double quote needs escaping (doubled). */
const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

export interface FtsQuery {
  /** The MATCH expression; null when the text holds no searchable word. */
  match: string | null;
  /** The words searched for (for messages and tests). */
  terms: string[];
}

export function ftsQuery(text: string): FtsQuery {
  const parts: string[] = [];
  const terms: string[] = [];
  // an even number of quotes: the quoted runs are phrases; an odd one: every quote is just a character
  const phrases = (text.match(/"/g)?.length ?? 0) % 2 === 0;
  const re = phrases ? /"([^"]*)"|(\S+)/g : /(\S+)/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const phrase = phrases ? m[1] : undefined;
    if (phrase !== undefined) {
      const words = phrase.split(/\s+/).filter((w) => WORD.test(w));
      if (!words.length) continue;
      parts.push(quote(words.join(' ')));
      terms.push(words.join(' '));
      continue;
    }
    let word = (phrases ? m[2] : m[1])!.replace(/"/g, ' ').trim();
    if (!word) continue;
    let prefix = false;
    if (word.endsWith('*')) {
      word = word.replace(/\*+$/, '');
      prefix = [...word].filter((c) => WORD.test(c)).length >= 2;
    }
    if (!WORD.test(word)) continue;
    parts.push(prefix ? `${quote(word)}*` : quote(word));
    terms.push(word);
  }
  return { match: parts.length ? parts.join(' ') : null, terms };
}

/** Private-use characters mark the matches in snippet(); they never occur in page text we index. */
export const MARK_OPEN = '\uE000';
export const MARK_CLOSE = '\uE001';

/** snippet() output → parts, matches flagged; the renderer shows them as text, never as HTML. */
export function snippetParts(raw: string): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let rest = raw;
  while (rest.length) {
    const open = rest.indexOf(MARK_OPEN);
    if (open < 0) {
      parts.push({ text: rest, match: false });
      break;
    }
    if (open > 0) parts.push({ text: rest.slice(0, open), match: false });
    const close = rest.indexOf(MARK_CLOSE, open + 1);
    const end = close < 0 ? rest.length : close;
    const hit = rest.slice(open + 1, end);
    if (hit) parts.push({ text: hit, match: true });
    rest = close < 0 ? '' : rest.slice(close + 1);
  }
  return parts.filter((p) => p.text !== '');
}
