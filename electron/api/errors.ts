/**
 * Server answers → AppError. The CMS sends problem+json ({status,title,detail,errors:[{field,message}]});
 * other services send {error}, {message} or an HTML page. Whatever came, the person gets one clear
 * sentence, the status, and field messages to show next to the fields.
 */
import { setField, type ErrorCode } from '../contract';
import { AppError } from '../base/app-error';
import { parseJson, type HttpResponse } from './http';
import { scrubSecrets, serverText } from './scrub';
import { isPlainObject } from '../contract';

/**
 * How text from an answer may go into an error (and so to the renderer): `scrub` hides the site's
 * secrets and anything token-shaped (the transport's, which knows the site's secrets); `echo: false`
 * for the public auth routes, whose bodies carry tokens: their text is never copied into `detail`.
 */
export interface ServerTextRules {
  scrub: (text: string) => string;
  echo: boolean;
}

const ANONYMOUS: ServerTextRules = { scrub: (t) => scrubSecrets(t), echo: true };


/** Seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function fieldsOf(body: Record<string, unknown>): Record<string, string> | undefined {
  const list = body.errors;
  const fields: Record<string, string> = {};
  if (Array.isArray(list)) {
    for (const e of list) if (isPlainObject(e) && typeof e.field === 'string' && typeof e.message === 'string' && !Object.hasOwn(fields, e.field)) setField(fields, e.field, e.message);
  } else if (isPlainObject(list)) {
    // {errors: {field: "message" | ["message"]}}
    for (const [k, m] of Object.entries(list)) {
      const text = Array.isArray(m) ? m[0] : m;
      if (typeof text === 'string') setField(fields, k, text); // a field's name is the site's text: set as data
    }
  }
  return Object.keys(fields).length ? fields : undefined;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  412: 'conflict',
  422: 'invalid_input',
  429: 'rate_limited',
};

const FALLBACK: Record<number, string> = {
  400: 'The site refused the request as invalid.',
  401: 'The site did not accept the credentials.',
  403: 'This account is not allowed to do that.',
  404: 'The site does not have that.',
  409: 'The site reports a conflict.',
  412: 'The copy on the site changed in the meantime.',
  422: 'The site refused some fields.',
  429: 'The site is rate-limiting requests.',
};

/**
 * The `detail` of a refusal the real service gives a demo account (problem `code`
 * `demo_mode_write_blocked`): it may read, but every permission that is not a `.read` (nor one of
 * the site's `demo.writable`) is refused, /me's `api.access` included. Not a signed-out account.
 */
export const DEMO_REFUSAL = 'demo_mode_write_blocked';

/** A 403 of the real service's demo lock (see DEMO_REFUSAL). */
export const isDemoRefusal = (err: unknown): boolean =>
  err instanceof AppError && err.code === 'forbidden' && err.info.detail === DEMO_REFUSAL;

/**
 * `retryAfterS`: the caller's reading of how long a 429 asks to wait (the transport reads the
 * rate-limit headers too); without it, Retry-After. Neither: the message names no time.
 */
export function errorFromResponse(res: HttpResponse, host: string, rules: ServerTextRules = ANONYMOUS, retryAfterS?: number): AppError {
  const body = parseJson(res);
  const status = res.status;
  const code: ErrorCode = CODE_BY_STATUS[status] ?? 'http';
  let message: string | undefined;
  let fields: Record<string, string> | undefined;
  if (isPlainObject(body)) {
    const nested = isPlainObject(body.error) ? body.error : undefined;
    const pick = (...xs: unknown[]) => xs.find((x): x is string => typeof x === 'string' && x.trim() !== '');
    const said = pick(body.detail, body.message, nested?.message, typeof body.error === 'string' ? body.error : undefined, body.title);
    message = said === undefined ? undefined : rules.scrub(said);
    const found = fieldsOf(body) ?? (nested ? fieldsOf(nested) : undefined);
    fields = found && Object.fromEntries(Object.entries(found).map(([k, m]) => [k, rules.scrub(m)]));
  }
  const demo = status === 403 && isPlainObject(body) && body.code === DEMO_REFUSAL;
  // the problem's own word for it (`suppressed`, `note_required`): a short identifier, never text to show
  const reason = isPlainObject(body) && typeof body.code === 'string' && /^[a-z][a-z0-9_.-]{0,63}$/i.test(body.code) ? body.code : undefined;
  if (demo) message = `This is a demo account: ${host} lets it read but refuses this change${message ? ` (it says: ${message.replace(/\.$/, '')})` : ''}.`;
  if (status >= 500) message = `${host} had a problem (HTTP ${status})${message ? `: ${message}` : '.'}`;
  // the site's own words ("Rate limit exceeded") do not say which site: the person may have several
  if (status === 429) message = `${host} is rate-limiting requests${message ? ` (it says: ${message.replace(/\.$/, '')})` : ''}.`;
  message ??= FALLBACK[status] ?? `${host} answered HTTP ${status}.`;
  const retryAfter = status === 429 ? (retryAfterS ?? retryAfterSeconds(res.headers.get('retry-after'))) : undefined;
  if (retryAfter !== undefined) message = `${message.replace(/\.$/, '')}. Try again in ${retryAfter} s.`;
  return new AppError({
    code,
    message,
    status,
    ...(fields ? { fields } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
    ...(demo ? { detail: DEMO_REFUSAL } : {}),
    ...(reason ? { reason } : {}),
  });
}

/** A 2xx whose body is not what an API sends. */
export function badResponse(res: HttpResponse, host: string, expected: string, rules: ServerTextRules = ANONYMOUS): AppError {
  const type = res.headers.get('content-type') ?? '';
  const looksHtml = type.includes('html') || /^\s*</.test(res.text);
  return new AppError({
    code: 'bad_response',
    status: res.status,
    message: looksHtml
      ? `${host} answered with a web page instead of ${expected}. Check the site's address and API prefix.`
      : `${host} sent an answer Sitedesk cannot read (expected ${expected}).`,
    ...(rules.echo ? { detail: serverText(res.text, rules.scrub) } : {}),
  });
}
