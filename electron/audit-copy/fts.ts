/**
 * What a person types into the kept copies' search → the FTS5 expression (pure). Words are quoted
 * as for pages (db/fts-query.ts: FTS5 syntax is never read from what a person types). One kind of
 * word is searched otherwise: an address. The tokenizer cuts `203.0.113.7` into four words, three
 * of which every event of a network has, so as a phrase it read a million rows' positions to count
 * twenty thousand; the index also holds each address whole (`zzip203x0x113x7`: the view
 * audit_words, migration 12), and an address typed whole, or its start with a `*`
 * (`203.0.113.*`), is looked up as that one word.
 *
 * The events' index holds one word for an event's kind and one for its actor (zzk<id>, zza<id>),
 * not their event code, name and user agent: those are the words of audit_labels, once per kind and
 * actor (migration 12). So each part of the expression also looks for the words of the kinds and
 * actors whose labels it matches (`withLabels`): "curl" finds the events of every actor whose user
 * agent says curl, as it finds "curl" in a target or a context.
 */
import { ftsQuery, type FtsQuery } from '../db/fts-query';

/** The whole-address word the index holds for an address (audit_words: dots and colons made x). */
export const addressWord = (ip: string): string => `zzip${ip.toLowerCase().replace(/[.:]/g, 'x')}`;

const IPV4 = /^(?:\d{1,3}\.){3}\d{1,3}$/;
const IPV4_START = /^(?:\d{1,3}\.){1,3}\d{0,3}\*$/;
const IPV6 = /^(?=[0-9a-f:]*:[0-9a-f:]*:)[0-9a-f:]{2,39}\*?$/i;

export function auditFtsQuery(text: string): FtsQuery {
  const originals = new Map<string, string>();
  // whole words outside quotes (an even number of quotes: quoted runs are phrases, left as typed)
  const phrases = (text.match(/"/g)?.length ?? 0) % 2 === 0;
  const re = phrases ? /"[^"]*"|\S+/g : /\S+/g;
  const rewritten = text.replace(re, (word) => {
    if (word.startsWith('"')) return word;
    const prefix = word.endsWith('*');
    const bare = prefix ? word.replace(/\*+$/, '') : word;
    if (!(IPV4.test(word) || IPV4_START.test(word) || IPV6.test(word))) return word;
    const token = addressWord(bare);
    originals.set(token, bare);
    return prefix ? `${token}*` : token;
  });
  const q = ftsQuery(rewritten);
  return { match: q.match, terms: q.terms.map((t) => originals.get(t) ?? t) };
}

/** The parts of a MATCH expression auditFtsQuery wrote: quoted words and phrases, a prefix with its star. */
export const matchParts = (match: string): string[] => match.match(/"(?:[^"]|"")*"\*?/g) ?? [];

/**
 * The expression with each part also looking for the kinds' and actors' own words whose labels it
 * matches (`labelWords`: the repository's audit_labels), ANDed as the parts were.
 */
export function withLabels(match: string, labelWords: (part: string) => string[]): string {
  return matchParts(match)
    .map((part) => {
      if (part.startsWith('"zzip')) return part; // an address is no label's word
      const words = labelWords(part);
      return words.length ? `(${[part, ...words.map((w) => `"${w}"`)].join(' OR ')})` : part;
    })
    .join(' ');
}
