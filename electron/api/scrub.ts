/**
 * The one scrubber for text a server sent that Sitedesk passes on (an error's message, its field
 * messages, its detail): such text reaches the renderer, its toasts and banners, and a server that
 * echoes a request or a half-broken answer may hold a credential. Two rules: every secret the app
 * holds for that site is hidden wherever it appears, and so is anything shaped like a token or a
 * key (a JWT, a `Bearer …`, the value of a `…token`/`…key`/`secret`/`password`/`session` field, a long
 * run of letters and digits mixed as random strings are, unlike words, slugs and numbers).
 */
import { hasBrokenCharacter } from '../contract';

export const HIDDEN = '[hidden]';

/** Secrets shorter than this are not searched for: they would hide ordinary words. */
const MIN_KNOWN = 6;

const JWT = /\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*)?/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
/** `"refresh_token": "…"`, `api_key=…`, `password: …`: the name is kept, the value hidden. */
const NAMED = /((?:["']?)[A-Za-z0-9_-]*(?:token|secret|password|passwd|api[_-]?key|apikey|session|authorization)(?:["']?)\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s,;&}\][]+)/gi;
/** A run long enough to be a key: judged by its parts (see randomLooking). */
const LONG_RUN = /[A-Za-z0-9_+/=~-]{20,}/g;

/**
 * A part of a run is word-like when it is letters only (a word, a camelCase name), a number up to
 * a date's length, or short (`v2`, `mp4`, `h264` in a route): random strings have long mixed parts.
 */
const wordLike = (part: string) => /^[A-Za-z]{1,24}$/.test(part) || /^\d{1,8}$/.test(part) || part.length <= 5;

/** Random strings mix letters and digits inside one part; slugs and words keep them apart. */
function randomLooking(run: string): boolean {
  return !run.split(/[-_+/=~]/).every(wordLike);
}

function hideKnown(text: string, known: readonly string[]): string {
  let out = text;
  const values = new Set<string>();
  for (const k of known) {
    if (typeof k !== 'string' || k.length < MIN_KNOWN) continue;
    values.add(k);
    if (!hasBrokenCharacter(k)) values.add(encodeURIComponent(k)); // a broken character has no URL form (it would throw)
    values.add(JSON.stringify(k).slice(1, -1));
  }
  // the longest first, so a secret that contains another is hidden whole
  for (const v of [...values].sort((a, b) => b.length - a.length)) out = out.split(v).join(HIDDEN);
  return out;
}

/** `text` with every held secret (`known`) and everything token- or key-shaped replaced by [hidden]. */
export function scrubSecrets(text: string, known: readonly string[] = []): string {
  return hideKnown(text, known)
    .replace(JWT, HIDDEN)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${HIDDEN}`)
    .replace(NAMED, (whole, name: string, value: string) =>
      // `Authorization: Bearer [hidden]` is already done; a value hidden by the first rule stays as it is
      value === `"${HIDDEN}"` || /^(bearer|basic)$/i.test(value) ? whole : `${name}${value.startsWith('"') ? `"${HIDDEN}"` : HIDDEN}`,
    )
    .replace(LONG_RUN, (run) => (randomLooking(run) ? HIDDEN : run));
}

/**
 * Server text as an error's detail may carry it: scrubbed (by `scrub`, which knows the site's
 * secrets), then cut to `max` characters — after, so no secret is cut in two and half of it kept.
 */
export function serverText(text: string, scrub: (text: string) => string = (t) => scrubSecrets(t), max = 200): string {
  const clean = scrub(text.slice(0, max * 20));
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}
