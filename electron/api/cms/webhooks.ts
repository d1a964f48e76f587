/**
 * A CMS site's outgoing webhooks (document 2 "Webhooks"; the real WebhookController and
 * WebhookManager, recordings 54, 77, 78). Read tolerantly, both shapes:
 * - a hook: the document's {id, url, events, secret, enabled}; the real service adds `headers`,
 *   `created` (epoch seconds), `failure_count` and `disabled_reason`;
 * - a delivery: the document's {id, event, url, status_code, success, duration_ms, delivered_at};
 *   the real one {…, created (epoch seconds), response_body | error, request_headers, request_body}
 *   (the request's headers and body are not read: the body holds the event's data, an account's
 *   address perhaps, and the headers its signature);
 * - a create answers 201 with the full secret and a `Location` (the id is taken from it when the
 *   body lacks one); a read and an edit carry an `ETag`;
 * - a test answers 200 with its delivery, or 502 with it when the receiver failed (document and
 *   real alike): the 502's delivery is the answer, not an error;
 * - refusals are the site's words only (spec 400, real 422): the words are put under the field they
 *   are about (url, events, secret) so the form shows them there.
 */
import * as v from 'valibot';
import type { Webhook, WebhookDelivery, WebhookDeliveryPage } from '../../contract';
import { isPlainObject } from '../../contract';
import { AppError, isAppError } from '../../base/app-error';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, listCall, nextPage, request } from './envelope';
import { segment } from '../url-path';

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : null);
const count = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : null);
/** ISO text as sent, or epoch seconds made ISO. */
const timeOf = (x: unknown): string | null => {
  if (typeof x === 'number' && x > 0) return new Date(x * 1000).toISOString();
  const s = text(x);
  if (s && /^\d{9,11}$/.test(s)) return new Date(Number(s) * 1000).toISOString();
  return s;
};

const hookPath = (id: string) => `/webhooks/${segment(id, 'webhook id')}`;

export function hookOf(raw: unknown): Webhook | null {
  if (!isPlainObject(raw) || !text(raw.id) || !text(raw.url)) return null;
  const events = Array.isArray(raw.events) ? raw.events.filter((e): e is string => typeof e === 'string' && e !== '') : [];
  return {
    id: text(raw.id)!,
    url: text(raw.url)!,
    // the site's default when none is kept is every event
    events: events.length ? events : ['*'],
    secret: typeof raw.secret === 'string' ? raw.secret : null,
    // the real service casts what it was given; a hook without the field is on (its default)
    enabled: raw.enabled === undefined || raw.enabled === null ? true : raw.enabled === true || raw.enabled === 1 || raw.enabled === '1' || raw.enabled === 'true',
    created: timeOf(raw.created ?? raw.created_at),
    failureCount: count(raw.failure_count),
    disabledReason: text(raw.disabled_reason),
    headerNames: isPlainObject(raw.headers) ? Object.keys(raw.headers).slice(0, 50) : [],
  };
}

export function deliveryOf(raw: unknown, t: Transport): WebhookDelivery | null {
  if (!isPlainObject(raw)) return null;
  const id = text(raw.id);
  const event = text(raw.event);
  if (!id || !event) return null;
  const status = count(raw.status_code);
  const response = text(raw.response_body);
  return {
    id,
    event,
    url: text(raw.url),
    statusCode: status,
    success: raw.success === true || (raw.success === undefined && status !== null && status >= 200 && status < 300),
    durationMs: count(raw.duration_ms),
    at: timeOf(raw.delivered_at ?? raw.created),
    // the receiver's words and the site's: passed through the scrubber like all server text
    error: text(raw.error) ? t.scrub(text(raw.error)!).slice(0, 300) : null,
    response: response ? t.scrub(response).slice(0, 300) : null,
  };
}

/** The id from a `Location` (`/api/v1/webhooks/wh_…` or a full URL). */
function idFromLocation(location: string | null): string | null {
  if (!location) return null;
  const m = /\/webhooks\/([^/?#]+)\/?(?:[?#].*)?$/.exec(location);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** Which field a refusal is about, from the site's words (neither service sends field names). */
function fieldOf(message: string): 'url' | 'events' | 'secret' | 'enabled' | null {
  if (/invalid event|'events'/i.test(message)) return 'events';
  if (/\burl\b/i.test(message)) return 'url';
  if (/\bevents?\b/i.test(message)) return 'events';
  if (/\bsecret\b/i.test(message)) return 'secret';
  if (/\benabled\b/i.test(message)) return 'enabled';
  return null;
}

const PRIVATE = /private or reserved address/i;

/**
 * A 400/422 said under its field: the site's words, and for the real service's guard against
 * private targets what it means (it also refuses a name it cannot look up).
 */
export function refusalWithField(err: unknown, prefix = ''): never {
  if (!isAppError(err) || err.code !== 'invalid_input' || err.info.fields) throw err;
  const field = fieldOf(err.message);
  if (!field) throw err;
  const words = PRIVATE.test(err.message)
    ? `${err.message.replace(/\.$/, '')}. The site sends only to public addresses it can look up (not this computer, a private network, or a name its server cannot resolve).`
    : err.message;
  throw new AppError({ ...err.info, message: words, fields: { [`${prefix}${field}`]: words } }, { cause: err });
}

export const cmsWebhooks = {
  async list(t: Transport): Promise<Webhook[]> {
    const call: CallOptions = { path: '/webhooks' };
    const r = await request(t, call);
    return parseAnswer(v.array(v.unknown()), r.data, t, 'the webhooks', callName(call))
      .map(hookOf)
      .filter((h): h is Webhook => h !== null);
  },

  async get(t: Transport, id: string): Promise<{ hook: Webhook; etag: string | null }> {
    const call: CallOptions = { path: hookPath(id) };
    const r = await request(t, call);
    const hook = hookOf(r.data);
    if (!hook) throw readError(t, 'the webhook', call);
    return { hook, etag: r.etag ?? null };
  },

  /** The hook made, with its full secret (this answer only; null when the site sent it redacted or not at all). */
  async create(t: Transport, input: { url: string; events: string[]; secret?: string; enabled?: boolean }): Promise<{ hook: Webhook; secret: string | null }> {
    const call: CallOptions = { method: 'POST', path: '/webhooks', body: input };
    const r = await request(t, call).catch((err: unknown) => refusalWithField(err));
    const raw = isPlainObject(r.data) ? r.data : {};
    const hook = hookOf({ ...raw, id: raw.id ?? idFromLocation(r.headers.get('location')) });
    // a site that masks it even now (as its lists do) has made the hook all the same
    const secret = typeof raw.secret === 'string' && raw.secret !== '' && !/^[^*]{0,6}\*{3,}[^*]{0,4}$/.test(raw.secret) ? raw.secret : null;
    if (!hook) throw readError(t, 'the new webhook', call);
    return { hook, secret };
  },

  async update(t: Transport, id: string, changes: Record<string, unknown>, etag: string | null): Promise<{ hook: Webhook; etag: string | null }> {
    const call: CallOptions = { method: 'PATCH', path: hookPath(id), body: changes, ...(etag ? { ifMatch: etag } : {}) };
    const r = await request(t, call).catch((err: unknown) => refusalWithField(err, 'changes.'));
    const hook = hookOf(r.data);
    if (!hook) throw readError(t, 'the webhook', call);
    return { hook, etag: r.etag ?? null };
  },

  async remove(t: Transport, id: string): Promise<void> {
    await request(t, { method: 'DELETE', path: hookPath(id) });
  },

  async deliveries(t: Transport, id: string, q: { page: number; perPage: number }): Promise<WebhookDeliveryPage> {
    const call: CallOptions = { path: `${hookPath(id)}/deliveries`, query: { page: String(q.page), per_page: String(q.perPage) } };
    const { data, paging } = await listCall(t, call, 'the deliveries');
    const rows = parseAnswer(v.array(v.unknown()), data, t, 'the deliveries', callName(call));
    const items = rows.map((x) => deliveryOf(x, t)).filter((x): x is WebhookDelivery => x !== null);
    return { items, total: paging.total, page: paging.page ?? q.page, perPage: paging.perPage ?? q.perPage, next: nextPage(paging, q, rows.length) };
  },

  /** The test delivery, whatever the receiver answered (the site's 502 carries it). */
  async test(t: Transport, id: string): Promise<WebhookDelivery> {
    // the site waits for the receiver (the real service up to 10 s)
    const call: CallOptions = { method: 'POST', path: `${hookPath(id)}/test`, answers: [502], timeoutMs: 30_000 };
    const r = await request(t, call);
    const delivery = deliveryOf(r.data, t);
    if (!delivery) {
      if (r.status === 502) throw new AppError({ code: 'http', status: 502, message: `${t.host} could not send the test (HTTP 502) and did not say what the receiver answered.` });
      throw readError(t, 'the test delivery', call);
    }
    return delivery;
  },
};

function readError(t: Transport, what: string, call: CallOptions): AppError {
  return new AppError({ code: 'bad_response', message: `${t.host} sent ${what} Sitedesk cannot read (${callName(call)}: no id or address).` });
}
