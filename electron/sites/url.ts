import { DEFAULT_PREFIX, plainHttpToAnotherComputer, type SiteKind } from '../contract';

/** Pure checks of what a person typed; each failure names the field and says how to fix it. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/** Said where plain http:// to another computer was not chosen (the form shows the same warning). */
export const PLAIN_HTTP_REFUSED =
  'Plain http:// to another computer sends passwords, tokens and keys readable by anyone on the network. Use https://, or choose “Allow plain HTTP for this site”.';

/**
 * Normalises a site address: http(s) only, no credentials, query or fragment, no trailing slash;
 * an address with no path gets the kind's default API prefix. Plain http:// to a host other than
 * this computer only with `allowPlainHttp` (the person's explicit choice).
 */
export function checkBaseUrl(raw: string, kind: SiteKind, allowPlainHttp = false): Checked<string> {
  const text = raw.trim();
  if (!text) return { ok: false, message: 'Enter the address of the site.' };
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) {
    return { ok: false, message: `Include the scheme, for example https://${text.replace(/^\/+/, '')}` };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'This is not a valid web address.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: `Only http:// and https:// addresses can be used (not ${url.protocol}//).` };
  }
  if (!url.hostname) return { ok: false, message: 'The address has no host name.' };
  if (url.username || url.password) {
    return { ok: false, message: 'Leave user names and passwords out of the address; set them under Sign-in.' };
  }
  if (url.search || url.hash || text.includes('?') || text.includes('#')) {
    return { ok: false, message: 'The address cannot contain a query (?…) or a fragment (#…).' };
  }
  if (!allowPlainHttp && plainHttpToAnotherComputer(url.href)) return { ok: false, message: PLAIN_HTTP_REFUSED };
  let path = url.pathname.replace(/\/+$/, '');
  if (path === '') path = DEFAULT_PREFIX[kind];
  return { ok: true, value: `${url.origin}${path}` };
}

/**
 * Grav's rule for the environment it is asked for (ApiRouter::applyEnvironment): a letter or digit,
 * then letters, digits, dots, underscores and hyphens. Any other value makes every call answer 400.
 */
const ENVIRONMENT = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

/** The environment sent as X-Grav-Environment (an environment folder's name, often a host name); empty means none. */
export function checkEnvironment(raw: string | null): Checked<string | null> {
  const text = (raw ?? '').trim();
  if (!text) return { ok: true, value: null };
  if (ENVIRONMENT.test(text)) return { ok: true, value: text };
  return {
    ok: false,
    message: `Grav takes only letters, digits, dots, underscores and hyphens here, starting with a letter or digit.${whyNot(text)}`,
  };
}

/** The first thing Grav would refuse, said plainly. */
function whyNot(text: string): string {
  if (/^[._-]/.test(text)) return ` It cannot start with “${text[0]}”.`;
  const bad = [...text].find((c) => !/[a-zA-Z0-9._-]/.test(c));
  if (bad === undefined) return '';
  if (bad === ':') return ' Leave the port out.';
  if (/\s/.test(bad)) return ' It cannot contain spaces or line breaks.';
  return ` “${bad}” is not allowed.`;
}

/** Where the kind's default prefix would be on the same server (for "wrong prefix" hints). */
export function defaultBaseOf(baseUrl: string, kind: SiteKind): string {
  return `${new URL(baseUrl).origin}${DEFAULT_PREFIX[kind]}`;
}

/**
 * Whether a site's secrets (its API key, sign-in tokens, store session) may stay with it after an
 * edit: only while it stays the same kind of service at the same origin (scheme, host and port). A
 * key given for one server is never sent to another, nor used as another kind's credential.
 */
export function secretsStayWith(before: { baseUrl: string; kind: SiteKind }, after: { baseUrl: string; kind: SiteKind }): boolean {
  return before.kind === after.kind && new URL(before.baseUrl).origin === new URL(after.baseUrl).origin;
}
