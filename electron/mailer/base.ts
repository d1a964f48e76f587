/**
 * Which mailing plugin a site runs — document 2's under `/mailer/` or Grav's Mailroom under
 * `/mailroom/` (docs/mailer-audience.md, "The app finds the plugin") — found by asking the site
 * once and kept with the site in site_cache (`mailer:base`, its time = when it was found), so every
 * later call goes straight to it, after a restart too and while the site is away (the copies need
 * no request to be read). The permission prefix follows the base. A call that meets a 404 the
 * plugin did not send (no problem code: the route itself is unknown, say the site swapped plugins)
 * makes the Host ask again and, when the base moved, sends the call once more on the new one (a
 * route that did not exist did nothing, so a write is not sent twice). A site with neither keeps
 * nothing, so the next call asks again.
 */
import { AppError, isAppError } from '../base/app-error';
import { cmsMailer } from '../api/cms/mailer';
import type { Transport } from '../api/transport';
import type { MailerBase, MailerPlugin } from '../contract';
import { MAILER_WORDS } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';

export const BASE_KEY = 'mailer:base';

/** A 404 of a route the site does not know (the plugin's own 404s name a `not_found` problem). */
export const routeMissing = (err: unknown): boolean => isAppError(err) && (err.info.status === 404 || err.code === 'not_found') && !err.info.reason;

const noPlugin = (cause?: unknown) => new AppError({ code: 'not_found', status: 404, message: MAILER_WORDS.none }, cause ? { cause } : undefined);

/** A record the site answers not_found for (its own 404, with a code), said as deleted, perhaps by someone else. */
export const gone =
  (what: string) =>
  (err: unknown): never => {
    if (isAppError(err) && err.code === 'not_found' && err.info.reason) throw new AppError({ ...err.info, message: `The site has no ${what} of that id any more: it was deleted, perhaps by someone else.` }, { cause: err });
    throw err;
  };

/** A delete the site answers not_found for: gone already, which is what was asked. */
export const goneAlready = (err: unknown): Promise<void> => (isAppError(err) && err.info.reason === 'not_found' ? Promise.resolve() : Promise.reject(err));

export const pluginOf = (base: MailerBase, foundAt: string): MailerPlugin => ({ base, permissionPrefix: base, name: base === 'mailroom' ? 'Mailroom' : 'Mailer', foundAt });

export function mailerBases(deps: { siteCache: SiteCacheRepo; transport: (siteId: string) => Transport; read: (siteId: string) => Transport }) {
  /** Asks the site which plugin it runs and keeps (or forgets) the answer. */
  async function find(siteId: string, t: Transport): Promise<MailerBase | null> {
    const found = await cmsMailer.detect(t);
    if (found) deps.siteCache.put(siteId, BASE_KEY, { base: found });
    else deps.siteCache.remove(siteId, BASE_KEY);
    return found;
  }

  const kept = (siteId: string): { base: MailerBase; foundAt: string } | null => {
    const k = deps.siteCache.get<{ base: MailerBase }>(siteId, BASE_KEY);
    return k && (k.value.base === 'mailer' || k.value.base === 'mailroom') ? { base: k.value.base, foundAt: k.fetchedAt } : null;
  };

  /** The site's base: the kept one, else found now (refused when the site has none). */
  async function base(siteId: string): Promise<MailerBase> {
    const k = kept(siteId);
    if (k) return k.base;
    const found = await find(siteId, deps.read(siteId));
    if (!found) throw noPlugin();
    return found;
  }

  return {
    kept,
    base,

    /** The plugin as kept, else as found now; null when the site has neither. */
    async plugin(siteId: string): Promise<MailerPlugin | null> {
      const k = kept(siteId);
      if (k) return pluginOf(k.base, k.foundAt);
      const found = await find(siteId, deps.read(siteId));
      const now = kept(siteId);
      return found && now ? pluginOf(found, now.foundAt) : null;
    },

    /**
     * Runs `call` on the site's base. A 404 of an unknown route: the site is asked again; the call
     * goes once more on a base that moved, else the 404 stands (or "no plugin" when there is none).
     */
    async on<T>(siteId: string, call: (b: MailerBase) => Promise<T>): Promise<T> {
      const b = await base(siteId);
      try {
        return await call(b);
      } catch (err) {
        if (!routeMissing(err)) throw err;
        const again = await find(siteId, deps.transport(siteId));
        if (!again) throw noPlugin(err);
        if (again === b) throw err;
        return call(again);
      }
    },
  };
}

export type MailerBases = ReturnType<typeof mailerBases>;
