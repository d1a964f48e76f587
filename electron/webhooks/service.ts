/**
 * A CMS site's outgoing webhooks: the list (a copy for offline reading, secrets redacted as the
 * site sends them), one hook with its ETag, create (its full secret answered once, never kept),
 * edit with a conflict answered as an outcome, delete, the deliveries, a test delivery, and the
 * site's health at a glance. Every write is sent now or refused with the reason (`sendNow`).
 *
 * Writes whose answer was lost (`base/uncertain.ts`):
 * - a create: the same create asked again looks for a hook to that address the site made
 *   meanwhile and removes it first (nobody saw its secret, so nobody can check its signatures);
 * - a test: the same test asked again looks for the test delivery the site recorded and answers
 *   it instead of sending another.
 *
 * The real service ignores `If-Match` on an edit (WebhookController::update never checks it), so
 * an edit with an ETag reads the hook first and answers a conflict when its ETag moved on; the
 * document's 412 (and a 409) still guard the moment between.
 */
import { AppError, goneAlready, isAppError, mayHaveArrived } from '../base/app-error';
import { UncertainWrites } from '../base/uncertain';
import { cmsWebhooks } from '../api/cms/webhooks';
import type { Transport } from '../api/transport';
import { DELIVERIES_LOOKED_AT, TEST_EVENTS, UPGRADE_EVENTS, type ChannelParsed, type Webhook, type WebhookCreated, type WebhookHealth, type WebhookTest, type WebhookUpdate } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

const LIST_KEY = 'webhooks:list';
const HEALTH_KEY = 'webhooks:health';
const DAY_MS = 24 * 60 * 60_000;
/** Deliveries read a page at a time for the health (the real service keeps the newest 50 of each hook). */
const HEALTH_PAGE = 50;
/** Hooks whose deliveries are read at once for the health. */
const HEALTH_PARALLEL = 4;

/** A secret as the sites show it after its creation: the first 6 and last 4 characters (all masked up to 10). */
export function redactSecret(secret: string): string {
  if (secret.length <= 10) return '*'.repeat(secret.length);
  return secret.slice(0, 6) + '*'.repeat(secret.length - 10) + secret.slice(-4);
}

/** An ETag as sent back: without `W/`, quotes, or the suffix a compressing proxy adds (`-gzip`). */
export const plainEtag = (etag: string): string =>
  etag
    .trim()
    .replace(/^W\//, '')
    .replace(/^"|"$/g, '')
    .replace(/[-;](?:gzip|br|deflate|zstd)$/i, '');

/**
 * The same events with the core upgrade under its other name, when the site refused the one sent
 * ("Invalid event 'cms.upgraded'": the document's name on the real service, or the other way round).
 */
export function upgradeTwin(events: readonly string[], err: unknown): string[] | null {
  if (!isAppError(err) || err.code !== 'invalid_input') return null;
  const refused = /Invalid event '([^']+)'/i.exec(err.message)?.[1];
  if (!refused || !UPGRADE_EVENTS.includes(refused as never) || !events.includes(refused)) return null;
  const twin = UPGRADE_EVENTS.find((e) => e !== refused)!;
  return events.includes(twin) ? events.filter((e) => e !== refused) : events.map((e) => (e === refused ? twin : e));
}

/** Whether a redacted secret the site answers shows the secret that was sent (its first 6 and last 4). */
const shows = (redacted: string | null, secret: string): boolean =>
  redacted === null || secret.length <= 10 || (redacted.startsWith(secret.slice(0, 6)) && redacted.endsWith(secret.slice(-4)));

export function webhooksService(deps: SiteCallDeps & { siteCache: SiteCacheRepo; now?: () => number }) {
  const { t, once, read, withCopy, sendNow } = siteCalls(deps);
  const now = () => (deps.now ?? Date.now)();
  /** A create whose answer was lost, by site and address: the hooks to that address there were before it. */
  const lostCreates = new UncertainWrites<{ before: ReadonlySet<string> }>(deps.now);
  /** A test whose answer was lost, by site and hook: the deliveries there were before it. */
  const lostTests = new UncertainWrites<{ before: ReadonlySet<string> }>(deps.now);

  /** The copy follows what the site confirmed (its time stays the time it was read). */
  const keep = (siteId: string, change: (hooks: Webhook[]) => Webhook[]) => {
    const kept = deps.siteCache.get<Webhook[]>(siteId, LIST_KEY);
    if (kept) deps.siteCache.put(siteId, LIST_KEY, change(kept.value), kept.fetchedAt);
  };
  const keepHook = (siteId: string, hook: Webhook) => keep(siteId, (hooks) => (hooks.some((h) => h.id === hook.id) ? hooks.map((h) => (h.id === hook.id ? hook : h)) : [...hooks, hook]));

  /** Sends once more with the core upgrade's other name when the site refused the one asked for. */
  async function twinned<T>(events: string[] | undefined, send: (events: string[] | undefined) => Promise<T>): Promise<T> {
    try {
      return await send(events);
    } catch (err) {
      // a refusal made nothing: sending the corrected list is not sending twice
      const other = events ? upgradeTwin(events, err) : null;
      if (!other) throw err;
      return send(other);
    }
  }

  const gone = (id: string) => (err: unknown): never => {
    if (isAppError(err) && err.code === 'not_found') throw new AppError({ ...err.info, message: `The site has no webhook ${id} any more: it was deleted, perhaps by someone else. Read the list again.` }, { cause: err });
    throw err;
  };

  async function get(siteId: string, id: string, transport: Transport = read(siteId)): Promise<{ hook: Webhook; etag: string | null }> {
    const r = await cmsWebhooks.get(transport, id).catch(gone(id));
    keepHook(siteId, r.hook);
    return r;
  }

  return {
    async list(siteId: string) {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, LIST_KEY, (transport) => cmsWebhooks.list(transport));
      return { hooks: value, copiedAt };
    },

    get: (siteId: string, id: string) => get(siteId, id),

    async create(input: ChannelParsed<'webhooks.create'>): Promise<WebhookCreated> {
      const { siteId, url } = input;
      const key = `${siteId}\n${url}`;
      const sameUrl = async (transport: Transport) => (await cmsWebhooks.list(transport)).filter((h) => h.url === url);
      const earlier = lostCreates.get(key)?.value;
      let replacedLost = 0;
      if (earlier) {
        // a hook the site made while its answer was lost: nobody saw its secret, so it goes
        await sendNow('No webhook was made', async () => {
          for (const h of await sameUrl(t(siteId))) {
            if (earlier.before.has(h.id)) continue;
            await cmsWebhooks.remove(t(siteId), h.id).catch(goneAlready);
            keep(siteId, (hooks) => hooks.filter((x) => x.id !== h.id));
            replacedLost++;
          }
        });
        lostCreates.forget(key);
      }
      // the hooks to that address there are now, so one made by a lost answer can be told apart
      // later (not known: such a hook cannot be found, and no hook of the person's is touched)
      const before = await sameUrl(once(siteId)).then((hs) => new Set(hs.map((h) => h.id)), () => undefined);
      try {
        const made = await sendNow('No webhook was made', () =>
          twinned(input.events, (events) =>
            cmsWebhooks.create(t(siteId), { url, events: events ?? input.events, ...(input.secret !== undefined ? { secret: input.secret } : {}), ...(input.enabled !== undefined ? { enabled: input.enabled } : {}) }),
          ),
        );
        // never kept whole: the copy holds what a list would show
        const hook = { ...made.hook, secret: made.secret === null ? made.hook.secret : redactSecret(made.secret) };
        keepHook(siteId, hook);
        return { hook, secret: made.secret, ownSecretIgnored: input.secret !== undefined && made.secret !== null && made.secret !== input.secret, replacedLost };
      } catch (err) {
        if (mayHaveArrived(err) && before) lostCreates.remember(key, { before });
        throw err;
      }
    },

    async update(input: ChannelParsed<'webhooks.update'>): Promise<WebhookUpdate> {
      const { siteId, id, etag, changes } = input;
      const conflict = async (): Promise<WebhookUpdate> => {
        const theirs = await get(siteId, id, t(siteId));
        return { outcome: 'conflict', theirs: theirs.hook, etag: theirs.etag };
      };
      return sendNow('The webhook was not changed', async () => {
        if (etag !== null) {
          const current = await get(siteId, id, t(siteId));
          if (current.etag !== null && plainEtag(current.etag) !== plainEtag(etag)) return { outcome: 'conflict', theirs: current.hook, etag: current.etag };
        }
        try {
          const r = await twinned(changes.events, (events) => cmsWebhooks.update(t(siteId), id, { ...changes, ...(events ? { events } : {}) }, etag));
          keepHook(siteId, r.hook);
          return { outcome: 'saved', hook: r.hook, etag: r.etag, secretIgnored: changes.secret !== undefined && !shows(r.hook.secret, changes.secret) };
        } catch (err) {
          // the document answers 412 for a stale If-Match, the real service 409 where it checks one
          if (isAppError(err) && err.code === 'conflict') return conflict();
          return gone(id)(err);
        }
      });
    },

    async remove(siteId: string, id: string): Promise<{ id: string }> {
      await sendNow('The webhook was not deleted', () => cmsWebhooks.remove(t(siteId), id).catch(goneAlready));
      keep(siteId, (hooks) => hooks.filter((h) => h.id !== id));
      return { id };
    },

    deliveries: (siteId: string, id: string, page: number, perPage: number) => cmsWebhooks.deliveries(read(siteId), id, { page, perPage }).catch(gone(id)),

    async test(siteId: string, id: string): Promise<WebhookTest> {
      const key = `${siteId}\n${id}`;
      const newest = async (transport: Transport) => (await cmsWebhooks.deliveries(transport, id, { page: 1, perPage: 20 })).items;
      const after = async (): Promise<Webhook | null> => get(siteId, id, t(siteId)).then((r) => r.hook, () => null);
      const earlier = lostTests.get(key)?.value;
      if (earlier) {
        // the site may have sent it: its delivery is the answer, not a second test
        const found = await sendNow('No test was sent', () => newest(t(siteId)).catch(gone(id))).then((ds) => ds.find((d) => TEST_EVENTS.includes(d.event) && !earlier.before.has(d.id)));
        lostTests.forget(key);
        if (found) return { delivery: found, earlier: true, hook: await after() };
      }
      const before = await newest(once(siteId)).then((ds) => new Set(ds.map((d) => d.id)), () => undefined);
      try {
        const delivery = await sendNow('No test was sent', () => cmsWebhooks.test(t(siteId), id).catch(gone(id)));
        // the site counts failures and may have turned the hook off (the real service after 5)
        return { delivery, earlier: false, hook: await after() };
      } catch (err) {
        if (mayHaveArrived(err) && before) lostTests.remember(key, { before });
        throw err;
      }
    },

    async health(siteId: string): Promise<WebhookHealth> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, HEALTH_KEY, (transport) => healthOf(transport, now()));
      return { ...value, copiedAt };
    },
  };
}

/** The counts of `WebhookHealth`, read from each hook's deliveries, newest first, bounded. */
async function healthOf(transport: Transport, nowMs: number): Promise<Omit<WebhookHealth, 'copiedAt'>> {
  const sinceMs = nowMs - DAY_MS;
  const hooks = await cmsWebhooks.list(transport);
  let failed24h = 0;
  let delivered24h = 0;
  let partial = false;
  const unread: WebhookHealth['unread'] = [];
  const one = async (hook: Webhook) => {
    let page = 1;
    let looked = 0;
    for (;;) {
      const r = await cmsWebhooks.deliveries(transport, hook.id, { page, perPage: HEALTH_PAGE });
      let older = false;
      for (const d of r.items) {
        const at = d.at ? Date.parse(d.at) : NaN;
        if (Number.isNaN(at)) continue;
        if (at < sinceMs) {
          older = true;
          continue;
        }
        delivered24h++;
        if (!d.success) failed24h++;
      }
      looked += r.items.length;
      // newest first: a page reaching past the 24 hours is the last one needed
      if (older || r.next === null || r.items.length === 0) return;
      if (looked >= DELIVERIES_LOOKED_AT) {
        partial = true;
        return;
      }
      page = r.next;
    }
  };
  const queue = [...hooks];
  await Promise.all(
    Array.from({ length: Math.min(HEALTH_PARALLEL, queue.length) }, async () => {
      for (let hook = queue.shift(); hook; hook = queue.shift()) {
        try {
          await one(hook);
        } catch (err) {
          // nothing answered: the whole count fails, so the copy answers instead
          if (unreachable(err) || !isAppError(err)) throw err;
          unread.push({ id: hook.id, reason: err.message });
        }
      }
    }),
  );
  return { hooks: hooks.length, enabled: hooks.filter((h) => h.enabled).length, failed24h, delivered24h, since: new Date(sinceMs).toISOString(), partial, unread };
}

export type WebhooksService = ReturnType<typeof webhooksService>;
