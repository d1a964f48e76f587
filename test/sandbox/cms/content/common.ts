/**
 * What the content route modules share: query flags, the `lang` parameter, body field checks,
 * paths for Location headers.
 */
import { fieldProblem, HttpProblem } from '../../http';
import type { CmsContext } from '../context';
import type { PageNode } from './page-files';

export type Body = Record<string, unknown>;

const TRUE = new Set(['1', 'true', 'yes', 'on']);

/** A query flag the way the real service reads it (PHP's FILTER_VALIDATE_BOOLEAN): true for 1/true/yes/on. */
export function flagParam(url: URL, name: string): boolean {
  const v = url.searchParams.get(name);
  return v !== null && TRUE.has(v.trim().toLowerCase());
}

export function isBoolText(v: string): boolean {
  return ['1', 'true', 'yes', 'on', '0', 'false', 'no', 'off', ''].includes(v.trim().toLowerCase());
}

export function boolText(v: string): boolean {
  return TRUE.has(v.trim().toLowerCase());
}

/**
 * The `lang` query parameter: null when absent or when multilanguage is off (the real service then
 * ignores it); a code the site does not have is a problem with `status` (400 where the endpoint
 * documents 400 for bad input, 422 where it documents only 422).
 */
export function langParam(ctx: CmsContext, url: URL, status: 400 | 422 = 400, value = url.searchParams.get('lang')): string | null {
  if (value === null || value === '' || !ctx.content.multilang) return null;
  checkLanguage(ctx, value, status);
  return value;
}

/** Throws unless multilanguage is on and `code` is one of the site's languages. */
export function checkLanguage(ctx: CmsContext, code: unknown, status: 400 | 422 = 400): asserts code is string {
  if (!ctx.content.multilang) throw new HttpProblem(status, status === 400 ? 'Bad Request' : 'Unprocessable Entity', 'Multi-language is not enabled on this site.');
  if (typeof code !== 'string' || !ctx.content.isLanguage(code)) {
    throw fieldProblem(status, `Invalid language code '${String(code)}'. Supported languages: ${ctx.content.site.languages.join(', ')}`, [
      { field: 'lang', message: `'${String(code)}' is not a language of this site.` },
    ]);
  }
}

export function invalid(status: 400 | 422, field: string, message: string): HttpProblem {
  return fieldProblem(status, message, [{ field, message }]);
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The page at `route`, or 404 as the real service words it. */
export function requirePage(ctx: CmsContext, route: string, depth = 1): PageNode {
  const node = ctx.content.find(route, depth);
  if (!node) throw new HttpProblem(404, 'Not Found', `Page not found at route: /${route.replace(/^\/+/, '')}`);
  return node;
}

/** `/api/v1/pages/a/b%20c` for `/a/b c` (each segment percent-encoded, as a header must be ASCII). */
export function pageLocation(prefix: string, route: string, suffix = ''): string {
  return `${prefix}/pages/${route.split('/').filter(Boolean).map(encodeURIComponent).join('/')}${suffix}`;
}

/**
 * A list-aware recursive merge of a header patch (the real service's `mergePatch`): maps merge key
 * by key, lists and scalars replace; then `null` values are removed (a null deletes a key).
 */
export function mergeHeader(existing: Record<string, unknown>, incoming: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...existing };
  for (const [k, v] of Object.entries(incoming)) {
    out[k] = isObject(v) && isObject(out[k]) ? mergeHeader(out[k] as Record<string, unknown>, v) : v;
  }
  return stripNulls(out);
}

function stripNulls(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(data)) {
    if (v === null || v === undefined) continue;
    if (isObject(v)) {
      const inner = stripNulls(v);
      if (Object.keys(inner).length) out[k] = inner;
    } else out[k] = v;
  }
  return out;
}
