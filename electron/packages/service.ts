/**
 * A CMS site's packages: the installed plugins and themes and the update summary (kept as copies,
 * readable while the site is away with the time they were read), a package's readme and changelog,
 * the repository, the updates of many sites at once (each read on its own: one failing is said, the
 * rest shown), and the package work, run as jobs (jobs.ts).
 *
 * A job never touches a symlinked package or core (a developer's checkout: the site would refuse an
 * upgrade, and an update or removal would overwrite or delete their work), checked from the site's
 * own list before anything is sent. Package work is never queued for later: a site away is skipped
 * with the reason; one that stops answering mid-way is said to have perhaps done it, to be checked
 * in its list before trying again.
 */
import { AppError, goneAlready, isAppError, mayHaveArrived } from '../base/app-error';
import { cmsPackages } from '../api/cms/packages';
import { can } from '../contract';
import type { ChannelParsed, InstalledPackages, PackageInfo, PackageJob, PackageJobRequest, PackageType, PackageUpdate, SiteUpdates, UpdateSummary } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import type { Transport } from '../api/transport';
import { uploadStaging } from '../media/upload-staging';
import { PACKAGE_ZIP_MAX_BYTES } from '../contract';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';
import { packageJobs, type JobOutcome } from './jobs';

const INSTALLED_KEY = 'packages:installed';
const UPDATES_KEY = 'packages:updates';

export interface PackagesDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
  siteName: (siteId: string) => string | undefined;
  emit: (job: PackageJob) => void;
  /** Sites worked on at once. */
  concurrency?: number;
  now?: () => number;
}

export function packagesService(deps: PackagesDeps) {
  const { t, read, withCopy, isAway } = siteCalls(deps);
  const staging = uploadStaging({ maxFileBytes: PACKAGE_ZIP_MAX_BYTES, maxTotalBytes: 2 * PACKAGE_ZIP_MAX_BYTES });
  const name = (siteId: string) => deps.siteName(siteId) ?? 'the site';

  async function installedOf(transport: Transport): Promise<Omit<InstalledPackages, 'copiedAt'>> {
    const [plugins, themes] = await Promise.all([cmsPackages.installed(transport, 'plugin'), cmsPackages.installed(transport, 'theme')]);
    // the document's lists say only `updatable`; its summary has the version waiting (best effort)
    const lacking = [...plugins.items, ...themes.items].some((p) => p.updatable && !p.availableVersion);
    const summary = lacking ? await cmsPackages.updates(transport).catch(() => null) : null;
    const withVersion = (p: PackageInfo): PackageInfo => {
      if (!p.updatable || p.availableVersion || !summary) return p;
      const u = [...summary.plugins, ...summary.themes].find((x) => x.slug === p.slug && x.type === p.type);
      return u?.available ? { ...p, availableVersion: u.available } : p;
    };
    return { plugins: plugins.items.map(withVersion), themes: themes.items.map(withVersion), problems: [...plugins.problems, ...themes.problems] };
  }

  /** The package as the site lists it now, to check before work is sent. */
  async function findInstalled(siteId: string, slug: string): Promise<PackageInfo | null> {
    const list = await installedOf(t(siteId));
    return [...list.plugins, ...list.themes].find((p) => p.slug === slug) ?? null;
  }

  /** A write the site did not answer, or answered with a 5xx: it may have been done. */
  function lost(err: unknown, what: string): never {
    if (isAppError(err) && mayHaveArrived(err)) {
      throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}. The site may have ${what} all the same: look at its packages before trying again.` }, { cause: err });
    }
    throw err;
  }

  /**
   * Sends a write; when its answer is lost (or a 5xx), looks at the site's list once to tell:
   * done after all (said), not done (said, to try again), or unknown (the site may have done it).
   */
  async function settled<T>(send: () => Promise<T>, happened: () => Promise<boolean>, what: string): Promise<{ value: T | null; late: boolean }> {
    try {
      return { value: await send(), late: false };
    } catch (err) {
      if (!(isAppError(err) && mayHaveArrived(err))) throw err;
      const seen = await happened().catch(() => null);
      if (seen === true) return { value: null, late: true };
      if (seen === false) throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}. The site has not ${what}; try again.` }, { cause: err });
      return lost(err, what);
    }
  }
  const lateWord = (what: string) => `The site’s answer was lost, but its list shows it ${what}.`;

  async function execute(job: PackageJob, request: PackageJobRequest): Promise<JobOutcome> {
    const { siteId } = request;
    if (isAway(siteId)) return { skipped: true, message: `${name(siteId)} is not answering; nothing was sent. Package work is never sent later by itself.` };
    const transport = t(siteId);
    switch (request.kind) {
      case 'install': {
        const r = await settled(() => cmsPackages.install(transport, request.slug, request.type, request.licence), async () => (await findInstalled(siteId, request.slug)) !== null, 'installed it');
        const now = await findInstalled(siteId, request.slug).catch(() => null);
        return { message: r.late ? lateWord('installed') : r.value, toVersion: now?.version ?? null };
      }
      case 'update': {
        const before = await findInstalled(siteId, request.slug);
        if (!before) throw new AppError({ code: 'not_found', message: `${request.slug} is not installed on ${name(siteId)}.` });
        if (before.symlink) return { skipped: true, message: `${before.name} is installed through a symlink (a developer’s copy); Sitedesk never updates it.` };
        const r = await settled(() => cmsPackages.update(transport, request.slug), async () => (await findInstalled(siteId, request.slug))?.version !== before.version, 'updated it');
        const after = await findInstalled(siteId, request.slug).catch(() => null);
        return { message: r.late ? lateWord('updated') : r.value, fromVersion: before.version, toVersion: after?.version ?? before.availableVersion };
      }
      case 'remove': {
        const before = await findInstalled(siteId, request.slug);
        if (!before) return { message: `${request.slug} was not installed (any more).` };
        if (before.symlink) return { skipped: true, message: `${before.name} is installed through a symlink (a developer’s copy); Sitedesk never removes it.` };
        const r = await settled(() => cmsPackages.remove(transport, request.slug).catch(goneAlready), async () => (await findInstalled(siteId, request.slug)) === null, 'removed it');
        return { message: r.late ? lateWord('removed') : `${before.name} was removed.`, fromVersion: before.version };
      }
      case 'updateAll': {
        const results = await cmsPackages.updateAll(transport).catch((e) => lost(e, 'updated some of them'));
        const failed = results.filter((r) => !r.ok).length;
        const done = results.length - failed;
        const message = results.length === 0 ? 'Nothing needed an update.' : `${done} updated${failed ? `, ${failed} failed` : ''}.`;
        if (failed) return { results, message: `${message} See each package below.` };
        return { results, message };
      }
      case 'upgrade': {
        const summary = await cmsPackages.updates(transport, true);
        if (summary.core.symlink) return { skipped: true, message: 'The core is installed through a symlink; Sitedesk never upgrades it.' };
        if (!summary.core.updatable) return { skipped: true, message: `The core is at the latest version already (${summary.core.installed ?? 'unknown'}).` };
        const r = await cmsPackages.upgrade(transport).catch((e) => lost(e, 'upgraded'));
        return { message: r.message, fromVersion: r.from ?? summary.core.installed, toVersion: r.to ?? summary.core.available };
      }
      case 'directUrl':
        return { message: await cmsPackages.directUrl(transport, request.url).catch((e) => lost(e, 'installed it')) };
      case 'directZip': {
        const bytes = staging.take(request.uploadId);
        if (bytes.subarray(0, 4).toString('binary') !== 'PK\u0003\u0004') throw new AppError({ code: 'invalid_input', message: `${request.filename} is not a zip file.` });
        return { message: await cmsPackages.directZip(transport, request.filename, bytes).catch((e) => lost(e, 'installed it')) };
      }
    }
  }

  function label(r: PackageJobRequest): string {
    const on = `on ${name(r.siteId)}`;
    switch (r.kind) {
      case 'install':
        return `Install ${r.slug} ${on}`;
      case 'update':
        return `Update ${r.slug} ${on}`;
      case 'remove':
        return `Remove ${r.slug} ${on}`;
      case 'updateAll':
        return `Update everything ${on}`;
      case 'upgrade':
        return `Upgrade the core ${on}`;
      case 'directUrl':
        return `Install from ${r.url.replace(/[?#].*$/, '')} ${on}`;
      case 'directZip':
        return `Install ${r.filename} ${on}`;
    }
  }

  const jobs = packageJobs({ execute, emit: deps.emit, label, ...(deps.concurrency ? { concurrency: deps.concurrency } : {}), ...(deps.now ? { now: deps.now } : {}) });

  async function updates(siteId: string, flush = false): Promise<UpdateSummary> {
    // a flush asks the site to look again: never answered from the copy while the site answers
    const { value, copiedAt } = await withCopy(siteId, deps.siteCache, UPDATES_KEY, (transport) => cmsPackages.updates(transport, flush));
    // the document's summary names packages by slug: their names from the installed lists last read
    const known = deps.siteCache.get<Omit<InstalledPackages, 'copiedAt'>>(siteId, INSTALLED_KEY)?.value;
    const named = (u: PackageUpdate): PackageUpdate => {
      if (u.name !== u.slug || !known) return u;
      const p = (u.type === 'plugin' ? known.plugins : known.themes).find((x) => x.slug === u.slug);
      return p ? { ...u, name: p.name } : u;
    };
    return { ...value, plugins: value.plugins.map(named), themes: value.themes.map(named), copiedAt };
  }

  return {
    async installed(siteId: string): Promise<InstalledPackages> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, INSTALLED_KEY, installedOf);
      return { ...value, copiedAt };
    },

    document: async (siteId: string, type: PackageType, slug: string, which: 'readme' | 'changelog') => ({ content: await cmsPackages.document(read(siteId), type, slug, which) }),

    coreChangelog: async (siteId: string) => ({ content: await cmsPackages.coreChangelog(read(siteId)) }),

    updates,

    /** Each site on its own, at once: a site signed out, not allowed, or not answering says why. */
    async updatesAcross(siteIds: readonly string[], flush = false): Promise<SiteUpdates[]> {
      return Promise.all(
        [...new Set(siteIds)].map(async (siteId): Promise<SiteUpdates> => {
          let info;
          try {
            info = deps.sessions.get(siteId).info();
          } catch (err) {
            if (!isAppError(err)) throw err;
            return { siteId, summary: null, skipped: err.message };
          }
          if (info.state !== 'signed_in') return { siteId, summary: null, skipped: `${name(siteId)} is not signed in.` };
          if (info.me && !can(info.me, 'api.gpm.read')) return { siteId, summary: null, skipped: `This account may not read ${name(siteId)}’s packages (it lacks api.gpm.read).` };
          try {
            const summary = await updates(siteId, flush);
            return { siteId, summary, skipped: summary.copiedAt ? `${name(siteId)} is not answering: these are the updates read ${summary.copiedAt}, and nothing can be updated until it answers.` : null };
          } catch (err) {
            if (!isAppError(err)) throw err;
            return { siteId, summary: null, skipped: unreachable(err) ? `${name(siteId)} is not answering.` : err.message };
          }
        }),
      );
    },

    repository: (q: ChannelParsed<'packages.repository'>) => cmsPackages.repository(read(q.siteId), { type: q.type, page: q.page, perPage: q.perPage, ...(q.q ? { q: q.q } : {}) }),

    repositoryPackage: (siteId: string, type: PackageType, slug: string) => cmsPackages.repositoryPackage(read(siteId), type, slug),

    uploadChunk: (uploadId: string, offset: number, data: string) => ({ received: staging.add(uploadId, offset, Buffer.from(data, 'base64')) }),

    run: (requests: readonly PackageJobRequest[]) => jobs.run(requests),
    jobs: () => jobs.list(),
    clearJobs: (ids?: readonly string[]) => ({ cleared: jobs.clear(ids) }),
    dropSite: (siteId: string) => jobs.dropSite(siteId),
    close: () => jobs.close(),
  };
}

export type PackagesService = ReturnType<typeof packagesService>;
