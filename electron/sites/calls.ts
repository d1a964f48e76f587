/**
 * How the CMS areas (pages, translations, media, blueprints) call a site, shared so each follows
 * the same rules:
 *
 * Offline: a site known to be away (its last request got no answer, no probe has reached it since)
 * is not asked again for a read the copy can answer: the copy answers at once and the site is
 * probed in the background (`nudge`). A read the copy could answer is sent once, without retries
 * when nothing answers. A read the copy cannot answer asks the site once, which is a probe too.
 * A structural write the site does not answer goes to the outbox (`sendOrQueue`); a write that is
 * never queued (settings, accounts, keys, the media library) is refused with the reason (`sendNow`).
 * A small answer kept as a copy in site_cache (settings, the library's folders, the languages) is
 * read through `withCopy`.
 */
import { AppError, isUnreachable } from '../base/app-error';
import type { Transport } from '../api/transport';
import type { SessionManager } from '../sessions/cms-session-manager';
import type { StructuralOp } from '../db/repos/sync';
import type { SiteCacheRepo } from '../db/repos/site-cache';

export interface SiteCallDeps {
  sessions: SessionManager;
  /** Puts a write the site could not take now into the site's outbox (replayed by the next push). */
  queue?: (siteId: string, op: StructuralOp) => void;
  /** Whether the site answers (sync/connectivity.ts): false once a request got no answer; null when not known. */
  online?: (siteId: string) => boolean | null;
  /** A read was answered from the copy because the site is away: probe it in the background. */
  nudge?: (siteId: string) => void;
}

/** The site did not answer (offline, timeout): reads fall back to the cache. */
export const unreachable = isUnreachable;

/** The cache's language key: '' for the site's default language. */
export const langKey = (lang?: string) => lang ?? '';

export function siteCalls({ sessions, queue, online, nudge }: SiteCallDeps) {
  const t = (siteId: string) => sessions.get(siteId).transport();
  /** For a read the copy can answer: a connection that gets no answer is not tried again. */
  const once = (siteId: string) => t(siteId).derive({ networkRetries: false });
  /** The site is known to be away: the copy answers without asking it, and a probe goes in the background. */
  const away = (siteId: string): boolean => {
    if (online?.(siteId) !== false) return false;
    nudge?.(siteId);
    return true;
  };
  return {
    /** The site's transport, with its usual retries (writes, and reads that must reach the site). */
    t,
    once,
    /** For a read without a copy: tried once while the site is known away (it is a probe too), else as usual. */
    read: (siteId: string) => (online?.(siteId) === false ? once(siteId) : t(siteId)),
    /** Whether the site is known to be away (false when not known). */
    isAway: (siteId: string) => online?.(siteId) === false,

    away,

    /**
     * A read of a small answer kept as a copy (site_cache, under `key`): while the site is known
     * away the copy answers at once; else the site is asked (once, when a copy could answer) and
     * its answer kept; a read the site does not answer falls back to the copy (read again: the
     * mirror may have kept one meanwhile). `copiedAt` is the copy's time, null for the site's answer.
     */
    async withCopy<T>(siteId: string, copies: SiteCacheRepo, key: string, read: (t: Transport) => Promise<T>): Promise<{ value: T; copiedAt: string | null }> {
      const copy = copies.get<T>(siteId, key);
      if (copy && away(siteId)) return { value: copy.value, copiedAt: copy.fetchedAt };
      try {
        const value = await read(copy ? once(siteId) : t(siteId));
        copies.put(siteId, key, value);
        return { value, copiedAt: null };
      } catch (err) {
        const late = unreachable(err) ? copies.get<T>(siteId, key) : undefined;
        if (late) return { value: late.value, copiedAt: late.fetchedAt };
        throw err;
      }
    },

    /**
     * A write that is never queued (security-relevant, or a person's file work): always tried (the
     * site may be back though it was away a moment ago); one the site does not answer is refused
     * with the reason. `refused` says what did not happen ("The settings were not saved").
     */
    async sendNow<T>(refused: string, send: () => Promise<T>): Promise<T> {
      try {
        return await send();
      } catch (err) {
        if (!unreachable(err)) throw err;
        throw new AppError(
          { ...err.info, message: `${err.message.replace(/\.$/, '')}. ${refused}; it is never sent later by itself (nothing waits to be sent): try again once the site answers.` },
          { cause: err },
        );
      }
    },

    /**
     * Sends a structural write; when the site does not answer, the write goes to the outbox instead
     * and the cache is changed as the site will be, so the tree and the editor go on offline.
     */
    async sendOrQueue<T>(siteId: string, op: StructuralOp, send: () => Promise<T>, offline: () => T): Promise<T> {
      try {
        return await send();
      } catch (err) {
        if (!queue || !unreachable(err)) throw err;
        queue(siteId, op);
        return offline();
      }
    },
  };
}

export type SiteCalls = ReturnType<typeof siteCalls>;
