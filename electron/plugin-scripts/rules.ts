/**
 * What a jailed plugin script may ask of its site (pure, so it is tested without I/O): a path
 * under the site's API, read anywhere except where secrets or accounts live, written only under
 * the plugin's own routes. Refusals say why in words; the jail sees only that sentence.
 */
export type ScriptMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/** Routes a script never reaches, to read or to write: sign-in, accounts and keys, settings, packages, the system. */
const NEVER = [/^\/auth(\/|$)/, /^\/me(\/|$)/, /^\/users(\/|$)/, /^\/config(\/|$)/, /^\/gpm(\/|$)/, /^\/system(\/|$)/, /^\/cache(\/|$)/, /^\/webhooks(\/|$)/, /^\/audit(\/|$)/, /^\/demo(\/|$)/];

/** The path as the Host sends it, or the reason it may not be asked. */
export function scriptPath(plugin: string, method: ScriptMethod, raw: string): { path: string; query: Record<string, string> } | { refused: string } {
  const text = raw.trim();
  if (!text.startsWith('/') || text.startsWith('//')) return { refused: 'A plugin script may only ask for a path of its site’s API (starting with one /).' };
  if (/[\u0000-\u001f\\]/.test(text)) return { refused: 'That path holds characters a path cannot.' };
  const [pathPart, queryPart = ''] = text.split('?', 2) as [string, string?];
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    return { refused: 'That path is not encoded properly.' };
  }
  if (decoded.split('/').some((s) => s === '..' || s === '.')) return { refused: 'A path may not climb with . or ...' };
  if (NEVER.some((re) => re.test(decoded))) return { refused: `Plugin scripts may not use ${decoded.split('/').slice(0, 2).join('/')}: sign-in, accounts, keys, settings, packages and the system stay with Sitedesk.` };
  if (method !== 'GET' && !decoded.startsWith(`/${plugin}/`) && decoded !== `/${plugin}`) return { refused: `A plugin script may change only its own routes (/${plugin}/…).` };
  const query: Record<string, string> = {};
  for (const [k, val] of new URLSearchParams(queryPart)) query[k] = val;
  return { path: pathPart, query };
}

/**
 * The custom element a script of this kind defines, as the official client names it: a page,
 * widget or panel `grav-<plugin>--<kind>`; a report, modal or field `grav-<plugin>--<id>`.
 */
export function scriptTag(plugin: string, kind: string, id?: string): string {
  const clean = (s: string) => s.toLowerCase().replace(/[^a-z0-9-]/g, '-');
  return `grav-${clean(plugin)}--${clean(kind === 'page' || kind === 'widget' || kind === 'panel' || !id ? kind : id)}`;
}
