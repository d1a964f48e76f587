/**
 * Document 2's webhook routes, both flavours (the real one after
 * getgrav/grav-plugin-api:classes/Api/Controllers/WebhookController.php, recordings 54, 77, 78):
 *
 *   GET    /webhooks                  api.webhooks.read; secrets redacted
 *   POST   /webhooks                  api.webhooks.write; 201 + Location, the full secret once;
 *                                     spec 400 / real 422: no url, not an http(s) URL, unknown event;
 *                                     real 422 also for a private or unresolvable host (knob `allowPrivate`)
 *   GET    /webhooks/{id}             api.webhooks.read; ETag; spec: 304 on If-None-Match; 404
 *   PATCH  /webhooks/{id}             api.webhooks.write; url and events revalidated; spec: 412 when
 *                                     If-Match names another ETag (the real service does not check it)
 *   DELETE /webhooks/{id}             api.webhooks.write; 204, history removed; 404
 *   GET    /webhooks/{id}/deliveries  api.webhooks.read; paged, newest first (real default per_page 20)
 *   POST   /webhooks/{id}/test        api.webhooks.write; 200 with the delivery, 502 with it when the receiver fails
 */
import { HttpProblem, json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { etagMatches, etagOf } from '../content/etag';
import { paged } from '../content/paging';
import { redacted, targetIsPublic, validEvents, type Webhook, type Webhooks } from './webhooks';

const SPEC_DELIVERIES_PER_PAGE = 20;

export function registerWebhookRoutes(router: Router, ctx: CmsContext, hooks: Webhooks): void {
  const real = ctx.flavor === 'real';
  const READ = 'api.webhooks.read';
  const WRITE = 'api.webhooks.write';
  const invalid = (detail: string) => new HttpProblem(real ? 422 : 400, real ? 'Unprocessable Entity' : 'Bad Request', detail);
  const notFound = (id: string) => new HttpProblem(404, 'Not Found', `Webhook '${id}' not found.`);

  const checkUrl = (url: unknown): string => {
    if (typeof url !== 'string' || !isUrl(url)) throw invalid(`Invalid webhook URL: ${typeof url === 'string' ? url : '(non-string)'}`);
    const scheme = new URL(url).protocol;
    if (scheme !== 'http:' && scheme !== 'https:') throw invalid(`Webhook URL must use the http or https scheme: ${url}`);
    if (real && !hooks.allowPrivate && !targetIsPublic(url)) throw invalid(`Webhook URL must not target a private or reserved address: ${url}`);
    return url;
  };
  const checkEvents = (events: unknown): string[] => {
    if (!Array.isArray(events)) throw invalid("The 'events' field must be an array of event names.");
    const valid = validEvents(ctx.flavor);
    for (const e of events) if (typeof e !== 'string' || !valid.includes(e)) throw invalid(`Invalid event '${String(e)}'. Valid events: ${valid.join(', ')}`);
    return events as string[];
  };
  const checkSecret = (secret: unknown): string | undefined => {
    if (secret === undefined || real) return undefined;
    if (typeof secret !== 'string' || secret === '') throw invalid("The 'secret' field must be a non-empty string.");
    return secret;
  };
  const checkEnabled = (enabled: unknown): boolean | undefined => {
    if (enabled === undefined) return undefined;
    if (typeof enabled !== 'boolean') {
      // the real service casts whatever it gets
      if (real) return Boolean(enabled);
      throw invalid("The 'enabled' field must be a boolean.");
    }
    return enabled;
  };
  const find = (id: string): Webhook => {
    const hook = hooks.get(id);
    if (!hook) throw notFound(id);
    return hook;
  };

  router.on('GET', '/webhooks', (req, res, _p, url) => {
    authorize(ctx, req, url, READ);
    json(res, 200, { data: hooks.list().map(redacted) });
  });

  router.on('POST', '/webhooks', async (req, res, _p, url) => {
    authorize(ctx, req, url, WRITE);
    const body = await readBody(req);
    if (body.url === undefined || body.url === null || body.url === '') throw invalid(real ? "Missing required field(s): url" : "The 'url' field is required.");
    const target = checkUrl(body.url);
    const events = body.events === undefined ? undefined : checkEvents(body.events);
    const hook = hooks.create({ url: target, events, secret: checkSecret(body.secret), enabled: checkEnabled(body.enabled), headers: real && isStringMap(body.headers) ? body.headers : undefined });
    json(res, 201, { data: hook }, { Location: `${ctx.prefix}/webhooks/${hook.id}` });
  });

  router.on('GET', '/webhooks/{id}', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const data = redacted(find(params.id!));
    const etag = etagOf(data);
    if (!real && etagMatches(req.headers['if-none-match'], etag)) {
      res.writeHead(304, { ETag: etag }).end();
      return;
    }
    json(res, 200, { data }, { ETag: etag });
  });

  router.on('PATCH', '/webhooks/{id}', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const body = await readBody(req);
    const id = params.id!;
    const current = hooks.get(id);
    // the real service validates before it looks the hook up
    if (!real && !current) throw notFound(id);
    const patch = {
      url: body.url === undefined ? undefined : checkUrl(body.url),
      events: body.events === undefined ? undefined : checkEvents(body.events),
      secret: checkSecret(body.secret),
      enabled: checkEnabled(body.enabled),
      headers: real && isStringMap(body.headers) ? body.headers : undefined,
    };
    if (!real && current && req.headers['if-match'] !== undefined && !etagMatches(req.headers['if-match'], etagOf(redacted(current)))) {
      throw new HttpProblem(412, 'Precondition Failed', 'The webhook was changed since it was read; reload it and try again.');
    }
    const updated = hooks.update(id, patch);
    if (!updated) throw notFound(id);
    const data = redacted(updated);
    json(res, 200, { data }, { ETag: etagOf(data) });
  });

  router.on('DELETE', '/webhooks/{id}', (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    if (!hooks.remove(params.id!)) throw notFound(params.id!);
    res.writeHead(204).end();
  });

  router.on('GET', '/webhooks/{id}/deliveries', (req, res, params, url) => {
    authorize(ctx, req, url, READ);
    const id = params.id!;
    find(id);
    const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? 1)) || 1);
    const perPage = Math.min(1000, Math.max(1, Math.trunc(Number(url.searchParams.get('per_page') ?? SPEC_DELIVERIES_PER_PAGE)) || SPEC_DELIVERIES_PER_PAGE));
    const all = hooks.deliveriesOf(id);
    json(res, 200, paged(ctx.flavor, ctx.prefix, `/webhooks/${id}/deliveries`, all.slice((page - 1) * perPage, page * perPage), all.length, page, perPage));
  });

  router.on('POST', '/webhooks/{id}/test', async (req, res, params, url) => {
    authorize(ctx, req, url, WRITE);
    const delivery = await hooks.sendTest(find(params.id!));
    json(res, delivery.success ? 200 : 502, { data: delivery });
  });
}

function isUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.hostname !== '';
  } catch {
    return false;
  }
}

function isStringMap(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}
