/**
 * Every site at a glance (`overview.site`): for one CMS site, whether it answers and what only it
 * can say — its version, pending updates, the scheduler's health, failed webhook deliveries of the
 * last day, demo mode's next reset. Each part is read on its own through the area that owns it
 * (the composition root hands the readers over), so a part the site refuses, or this account may
 * not read, is said while the rest show; a part read from a copy carries the copy's time.
 */
import { isAppError } from '../base/app-error';
import type { DemoGlimpse, Glimpse, MailerGlimpse, Me, SchedulerGlimpse, SiteGlance, UpdatesGlimpse, WebhooksGlimpse } from '../contract';
import { can, mailerBlockedReason } from '../contract';
import type { SessionManager } from '../sessions/cms-session-manager';
import { unreachable } from '../sites/calls';

type Copied<T> = T & { copiedAt: string | null };

/** How each part is read: the owning area's own read (with its copy), or absent where not built. */
export interface GlanceReaders {
  updates?: (siteId: string) => Promise<Copied<UpdatesGlimpse>>;
  scheduler?: (siteId: string) => Promise<Copied<SchedulerGlimpse>>;
  webhooks?: (siteId: string) => Promise<Copied<WebhooksGlimpse>>;
  demo?: (siteId: string) => Promise<Copied<DemoGlimpse>>;
  mailer?: (siteId: string) => Promise<Copied<MailerGlimpse>>;
}

export interface OverviewDeps {
  sessions: SessionManager;
  readers: GlanceReaders;
  /** Asks the site's public /ping once (for a site not signed in); its answer reaches `online`. */
  ping: (siteId: string) => Promise<void>;
  online: (siteId: string) => boolean | null;
  now?: () => number;
}

/** Why this account may not read a part, as the site checks it (document 2; the real plugin agrees), or null. */
const api = (permission: string) => (me: Me) => (can(me, permission) ? null : `This account may not read it (${permission}).`);
const PART_REFUSED: Record<keyof GlanceReaders, ((me: Me) => string | null) | null> = {
  updates: api('api.gpm.read'),
  scheduler: api('api.scheduler.read'),
  webhooks: api('api.webhooks.read'),
  demo: null,
  // either plugin's spelling (mailer.view, mailroom.view): which one the site runs is the mailer's to find
  mailer: (me) => mailerBlockedReason(me, 'view'),
};

export function overviewService(deps: OverviewDeps) {
  const now = () => (deps.now ?? Date.now)();

  async function part<T>(siteId: string, name: keyof GlanceReaders, read: ((siteId: string) => Promise<Copied<T>>) | undefined): Promise<Glimpse<T>> {
    if (!read) return { skipped: 'Sitedesk does not read this yet.' };
    const info = deps.sessions.get(siteId).info();
    if (info.state !== 'signed_in') return { skipped: 'Not signed in.' };
    const refused = info.me ? PART_REFUSED[name]?.(info.me) : null;
    if (refused) return { skipped: refused };
    try {
      const { copiedAt, ...value } = await read(siteId);
      return { value: value as T, copiedAt };
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (unreachable(err)) return { problem: 'The site is not answering, and Sitedesk has no copy of this.' };
      if (err.code === 'not_found') return { skipped: 'The site does not offer this.' };
      return { problem: err.message };
    }
  }

  return {
    async site(siteId: string): Promise<SiteGlance> {
      // the site's record first: an unknown site is refused before anything is asked
      const session = deps.sessions.get(siteId);
      const readAt = new Date(now()).toISOString();
      // signed in: /me says whether the site answers, its version now (an upgrade since is seen)
      // and what the account may read; otherwise the public /ping asks whether it answers
      let info = session.info();
      if (info.state === 'signed_in') info = await session.refreshMe().catch(() => session.info());
      else await deps.ping(siteId).catch(() => {});
      const [updates, scheduler, webhooks, demo, mailer] = await Promise.all([
        part(siteId, 'updates', deps.readers.updates),
        part(siteId, 'scheduler', deps.readers.scheduler),
        part(siteId, 'webhooks', deps.readers.webhooks),
        part(siteId, 'demo', deps.readers.demo),
        part(siteId, 'mailer', deps.readers.mailer),
      ]);
      return { siteId, reachable: deps.online(siteId), version: info.me?.cmsVersion ?? null, updates, scheduler, webhooks, demo, mailer, readAt };
    },
  };
}

export type OverviewService = ReturnType<typeof overviewService>;
