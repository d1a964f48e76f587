/**
 * The Host's composition root: opens the database and the secret store, builds the services, and
 * answers contract calls through the areas' handler slices (<area>/handlers.ts), one line each. The same object serves Electron's MessagePort and browser mode's WebSocket.
 */
import { join } from 'node:path';
import type { DatabaseStatus, EventName, EventPayload } from '../contract';
import { closeDatabase, openDatabase, repositories, type Db, type Repositories } from '../db';
import { DatabaseRefused } from '../db/open';
import { migrations } from '../db/migrations';
import { checkIntegrity } from '../db/integrity';
import { faultError, storageFault } from '../db/faults';
import { moveAside } from '../db/aside';
import { databaseService } from '../database/service';
import { databaseHandlers } from '../database/handlers';
import { diskSpace } from './disk-space';
import { openSecretStore } from '../secrets/keychain';
import type { SecretStore } from '../secrets/secret-store';
import { sitesService, type SitesService } from '../sites/service';
import { sessionManager, type SessionManager } from '../sessions/cms-session-manager';
import { SiteRows } from '../sessions/site-rows';
import { ApiKeys } from '../sessions/api-keys';
import { pagesService, type PagesService } from '../pages/service';
import { translationsService, type TranslationsService } from '../translations/service';
import { mediaService, type MediaService } from '../media/service';
import { blueprintsService, type BlueprintsService } from '../blueprints/service';
import { settingsService, type SettingsService } from '../settings/service';
import { usersService, type UsersService } from '../users/service';
import { libraryService, type LibraryService } from '../library/service';
import { packagesService, type PackagesService } from '../packages/service';
import { addonsService, type AddonsService } from '../addons/service';
import { systemService, type SystemService } from '../system/service';
import { pluginScriptsService, type PluginScriptsService } from '../plugin-scripts/service';
import { schedulerService, type SchedulerService } from '../scheduler/service';
import { dashboardService, type DashboardService } from '../dashboard/service';
import { overviewService, type OverviewService } from '../overview/service';
import { demoService, type DemoService } from '../demo/service';
import { webhooksService, type WebhooksService } from '../webhooks/service';
import { auditService, type AuditService } from '../audit/service';
import { auditCopyService, type AuditCopyService } from '../audit-copy/service';
import { mailerService, type MailerService } from '../mailer/service';
import { syncService, type SyncService } from '../sync/service';
import { mirrorService, type MirrorService } from '../mirror/service';
import { searchService, type SearchService } from '../search/service';
import { autoSync } from '../sync/auto-sync';
import { storeService, type StoreService } from '../store/service';
import type { FetchLike } from '../api/http';
import { AppError, isAppError } from '../base/app-error';
import type { Handlers } from '../base/handlers';
import { createDispatcher, type Log } from './dispatch';
import { appHandlers } from './app-handlers';
import { sitesHandlers } from '../sites/handlers';
import { authHandlers } from '../auth/handlers';
import { pagesHandlers } from '../pages/handlers';
import { translationsHandlers } from '../translations/handlers';
import { mediaHandlers } from '../media/handlers';
import { blueprintsHandlers } from '../blueprints/handlers';
import { settingsHandlers } from '../settings/handlers';
import { usersHandlers } from '../users/handlers';
import { libraryHandlers } from '../library/handlers';
import { packagesHandlers } from '../packages/handlers';
import { addonsHandlers } from '../addons/handlers';
import { systemHandlers } from '../system/handlers';
import { aboutService } from '../about/service';
import { aboutHandlers } from '../about/handlers';
import { scriptsHandlers } from '../plugin-scripts/handlers';
import { schedulerHandlers } from '../scheduler/handlers';
import { dashboardHandlers } from '../dashboard/handlers';
import { overviewHandlers } from '../overview/handlers';
import { demoHandlers } from '../demo/handlers';
import { webhooksHandlers } from '../webhooks/handlers';
import { auditHandlers } from '../audit/handlers';
import { auditCopyHandlers } from '../audit-copy/handlers';
import { mailerHandlers } from '../mailer/handlers';
import { syncHandlers } from '../sync/handlers';
import { mirrorHandlers } from '../mirror/handlers';
import { searchHandlers } from '../search/handlers';
import { workspaceHandlers } from '../workspace/handlers';
import { storeHandlers } from '../store/handlers';
import { workspaceService, type WorkspaceService } from '../workspace/service';
import type { EventListener, HostEndpoint } from './host-types';

export interface HostOptions {
  /** Folder for the database (and later caches). */
  dataDir: string;
  shell: 'electron' | 'browser';
  version: string;
  /** Defaults to the OS keychain, or session-only memory when none answers. */
  secrets?: SecretStore;
  /** Electron injects net.fetch (system proxies); Node's fetch otherwise. */
  fetch?: FetchLike;
  log?: Log;
  /** The clock sessions use for token expiry (tests move it; a true edge). */
  now?: () => number;
  /** The system's folder dialog (Electron's shell), for saving a damaged database's unsynced work; browser mode asks for a path. */
  chooseFolder?: () => Promise<string | null>;
  /** The system's save dialog (Electron's shell), for an audit export; browser mode asks for a path. */
  chooseSaveFile?: (o: { title: string; defaultName: string; format: 'csv' | 'json' }) => Promise<string | null>;
  /** The system's open-file dialog (Electron's shell), for importing an audit export or a mailer CSV; browser mode asks for a path. */
  chooseOpenFile?: (o?: { title?: string }) => Promise<string | null>;
  /** How often an import the Host follows is read (default 1 s; tests shorten it). */
  mailerPollMs?: number;
  /** How often free space is looked at while the disk is full (default 2 s; tests shorten it). */
  spacePollMs?: number;
  /** Waits between retries of a site's idempotent calls (default 250 ms, then 1 s; tests shorten them). */
  retryDelaysMs?: number[];
  /** The build's licence notices (licences.json beside the Host's bundle), for About Sitedesk; absent when run from the sources. */
  noticesFile?: string;
}

export interface Host extends HostEndpoint {
  close(): Promise<void>;
}

export const DB_FILE = 'sitedesk.db';
/** How long closing waits for calls still running: well inside the 3 s both shells give before a kill. */
const CALLS_DRAIN_MS = 1500;

const defaultLog: Log = (level, message, extra) => {
  const line = `[host] ${level}: ${message}${extra ? ` ${JSON.stringify(extra)}` : ''}`;
  if (level === 'error') console.error(line);
  else console.warn(line);
};

export async function createHost(opts: HostOptions): Promise<Host> {
  const log = opts.log ?? defaultLog;
  const listeners = new Set<EventListener>();
  const emit = <K extends EventName>(name: K, payload: EventPayload<K>) => {
    for (const l of listeners) l(name, payload);
  };

  let sites: SitesService | undefined;
  let sessions: SessionManager | undefined;
  let pages: PagesService | undefined;
  let translations: TranslationsService | undefined;
  let media: MediaService | undefined;
  let blueprints: BlueprintsService | undefined;
  let settings: SettingsService | undefined;
  let users: UsersService | undefined;
  let library: LibraryService | undefined;
  let packages: PackagesService | undefined;
  let addons: AddonsService | undefined;
  let system: SystemService | undefined;
  let scripts: PluginScriptsService | undefined;
  let scheduler: SchedulerService | undefined;
  let dashboard: DashboardService | undefined;
  let overview: OverviewService | undefined;
  let demo: DemoService | undefined;
  let webhooks: WebhooksService | undefined;
  let audit: AuditService | undefined;
  let auditCopy: AuditCopyService | undefined;
  let mailer: MailerService | undefined;
  let sync: SyncService | undefined;
  let mirror: MirrorService | undefined;
  let search: SearchService | undefined;
  let offline: ReturnType<typeof autoSync> | undefined;
  let store: StoreService | undefined;
  let workspace: WorkspaceService | undefined;

  // A database that cannot be used does not stop the Host: every call that needs it answers
  // with the reason, and app.info (then `database.status`) tells the renderer to show it.
  const dbFile = join(opts.dataDir, DB_FILE);
  let db: Db | undefined;
  let repos: Repositories | undefined;
  let dbStatus: DatabaseStatus = { ok: true };
  let dbError: AppError | undefined;
  let integrity: ReturnType<typeof checkIntegrity> | undefined;
  const space = diskSpace({
    folder: opts.dataDir,
    changed: (full, message) => {
      emit('database.space', full ? { full, message: message ?? '' } : { full });
      if (full) return;
      try {
        mirror?.resumeInterrupted(); // a run a full disk stopped goes on
      } catch (err) {
        log('warn', 'mirror runs did not resume', { detail: err instanceof Error ? err.message : String(err) }); // a timer has no caller to tell
      }
    },
    ...(opts.spacePollMs ? { everyMs: opts.spacePollMs } : {}),
  });

  /** Damage found after start (the check, or a read that hit it): stop using the file and say so. */
  const damaged = (detail: string) => {
    if (!dbStatus.ok) return;
    const err = faultError('damaged', opts.dataDir, detail);
    dbError = err;
    dbStatus = { ok: false, problem: 'damaged', message: err.message, location: { folder: opts.dataDir, file: DB_FILE } };
    log('error', 'database damaged', { detail });
    stopServices();
    emit('database.status', dbStatus);
  };

  const openDb = () => {
    let ready = false;
    try {
      const opened = openDatabase(dbFile, migrations, (fault) => {
        if (fault === 'damaged' && ready) damaged('a read hit a damaged part of the file');
        else if (fault === 'full') space.full();
      });
      db = opened;
      repos = repositories(opened);
      ready = true;
      dbStatus = { ok: true };
      dbError = undefined;
      integrity = checkIntegrity(dbFile);
      void integrity.result.then((r) => {
        if (db !== opened) return; // a later file
        if (r.ok === false) damaged(r.problems.slice(0, 3).join('; '));
        else if (r.ok === null) log('warn', 'integrity check did not run', { detail: r.error });
      });
    } catch (err) {
      closeQuietly();
      repos = undefined;
      dbError = isAppError(err) ? err : new AppError({ code: 'database', message: String(err) });
      const problem = err instanceof DatabaseRefused ? err.problem : storageFault(dbError.cause) === 'damaged' ? 'damaged' : 'other';
      dbStatus = { ok: false, problem, message: dbError.message, ...(problem === 'damaged' ? { location: { folder: opts.dataDir, file: DB_FILE } } : {}) };
      log('error', 'database unavailable', { detail: dbError.message });
    }
  };
  /** Closes the file without PRAGMA optimize (a damaged or half-open file is not written to). */
  function closeQuietly(): void {
    try {
      db?.close();
    } catch {
      // already closed
    }
    db = undefined;
  }
  openDb();

  const secrets = opts.secrets ?? (await openSecretStore());
  if (secrets.status.mode === 'memory') log('warn', 'secrets kept in memory', { reason: secrets.status.reason });

  const fetchImpl = opts.fetch ?? globalThis.fetch;


  /** The background loops stop (auto-sync, mirror runs); what they had done is in the file. */
  function stopServices(): Promise<void> {
    packages?.close();
    audit?.close();
    void mailer?.close();
    offline?.close();
    offline = undefined;
    const checked = integrity?.cancel();
    const m = mirror;
    const a = auditCopy;
    return Promise.all([m?.close().catch(() => {}), a?.close().catch(() => {}), checked]).then(() => undefined);
  }

  function startServices(r: Repositories): void {
    // every request reports whether its site answered (auto-sync when back online)
    const reach = { reachable: (id: string) => offline?.connectivity.reachable(id), unreachable: (id: string) => offline?.connectivity.unreachable(id) };
    // each site row and API key read once for the whole Host, forgotten at every edit and removal
    const rows = new SiteRows(r.sites);
    const apiKeys = new ApiKeys(secrets);
    const s = sessionManager({
      sites: r.sites,
      rows,
      apiKeys,
      repo: r.sessions,
      secrets,
      fetch: fetchImpl,
      emit: (info) => emit('auth.session', info),
      reach,
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}),
    });
    sessions = s;
    sites = sitesService({
      repo: r.sites,
      secrets,
      fetch: fetchImpl,
      changed: (list) => emit('sites.changed', list),
      edited: async (before, after) => {
        rows.forget(after.id);
        apiKeys.forget(after.id); // an edit may have replaced or removed the key
        await s.siteChanged(before, after);
        await store?.siteChanged(before, after);
      },
      added: (site) => (site.kind === 'cms' ? emit('auth.session', s.get(site.id).info()) : store && emit('store.session', store.session(site.id))),
      purgeCache: (id) => {
        rows.forget(id);
        apiKeys.forget(id);
        s.dropped(id);
        store?.dropped(id);
        packages?.dropSite(id);
        void mirror?.dropped(id);
        auditCopy?.dropped(id);
        mailer?.dropped(id);
        offline?.connectivity.forget(id);
      },
    });
    // how the CMS areas call a site: queued when it does not answer, read from the copy while it is away
    const calls = {
      sessions: s,
      queue: (...a: Parameters<SyncService['queue']>) => need(sync).queue(...a),
      online: (id: string) => offline?.connectivity.state(id) ?? null,
      nudge: (id: string) => offline?.connectivity.nudge(id),
    };
    pages = pagesService({ ...calls, cache: r.pages });
    translations = translationsService({ ...calls, cache: r.pages, siteCache: r.siteCache });
    media = mediaService({ ...calls, progress: (p) => emit('media.progress', p) });
    blueprints = blueprintsService(calls);
    settings = settingsService({ ...calls, siteCache: r.siteCache });
    users = usersService({ ...calls, siteCache: r.siteCache, ...(opts.now ? { now: opts.now } : {}) });
    library = libraryService({ ...calls, siteCache: r.siteCache, progress: (p) => emit('library.progress', p), ...(opts.now ? { now: opts.now } : {}) });
    addons = addonsService({ ...calls, siteCache: r.siteCache, ...(opts.now ? { now: opts.now } : {}) });
    system = systemService({ ...calls, siteCache: r.siteCache });
    scripts = pluginScriptsService({ ...calls, siteCache: r.siteCache });
    dashboard = dashboardService({ ...calls, siteCache: r.siteCache });
    scheduler = schedulerService({ ...calls, siteCache: r.siteCache, ...(opts.now ? { now: opts.now } : {}) });
    demo = demoService({ ...calls, siteCache: r.siteCache, ...(opts.now ? { now: opts.now } : {}) });
    webhooks = webhooksService({ ...calls, siteCache: r.siteCache, ...(opts.now ? { now: opts.now } : {}) });
    audit = auditService({ ...calls, siteCache: r.siteCache, progress: (p) => emit('audit.exportProgress', p), ...(opts.chooseSaveFile ? { chooseSaveFile: opts.chooseSaveFile } : {}) });
    auditCopy = auditCopyService({
      ...calls,
      repo: r.auditCopy,
      sites: r.sites,
      emitJob: (job) => emit('auditCopy.job', job),
      emitCopies: (list) => emit('auditCopy.changed', list),
      ...(opts.chooseOpenFile ? { chooseOpenFile: opts.chooseOpenFile } : {}),
    });
    mailer = mailerService({
      ...calls,
      siteCache: r.siteCache,
      repo: r.mailer,
      emit: {
        offline: (st) => emit('mailer.offlineChanged', st),
        exportProgress: (p) => emit('mailer.exportProgress', p),
        bulkProgress: (p) => emit('mailer.bulkProgress', p),
        importProgress: (p) => emit('mailer.importProgress', p),
      },
      ...(opts.chooseSaveFile ? { chooseSaveFile: opts.chooseSaveFile } : {}),
      ...(opts.chooseOpenFile ? { chooseOpenFile: opts.chooseOpenFile } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.mailerPollMs ? { importPollMs: opts.mailerPollMs } : {}),
      drafts: r.mailDrafts,
      draftsChanged: () => sync?.changed(),
    });
    packages = packagesService({ ...calls, siteCache: r.siteCache, siteName: (id) => r.sites.get(id)?.name, emit: (job) => emit('packages.job', job), ...(opts.now ? { now: opts.now } : {}) });
    const pk = packages;
    const sc = scheduler;
    const dm = demo;
    const wh = webhooks;
    const ml = mailer;
    overview = overviewService({
      sessions: s,
      ping: (id) => s.ping(id),
      online: (id) => offline?.connectivity.state(id) ?? null,
      readers: {
        updates: async (id) => {
          const u = await pk.updates(id);
          return { total: u.total, core: u.core.updatable ? u.core.available : null, copiedAt: u.copiedAt };
        },
        scheduler: async (id) => {
          const st = await sc.status(id);
          return { crontab: st.crontab, health: st.health?.status ?? null, message: st.health?.message ?? null, failedJobs24h: st.health?.failedJobs24h ?? null, jobsDue: st.health?.jobsDue ?? null, copiedAt: st.copiedAt };
        },
        webhooks: async (id) => {
          const w = await wh.health(id);
          return { hooks: w.hooks, enabled: w.enabled, failedLastDay: w.failed24h, partial: w.partial, unread: w.unread.length, copiedAt: w.copiedAt };
        },
        demo: async (id) => {
          const d = await dm.status(id);
          return { baseline: d.baselineExists, secondsUntilReset: d.secondsUntilReset, intervalMinutes: d.resetInterval, copiedAt: d.copiedAt };
        },
        mailer: async (id) => {
          const o = await ml.overview(id, undefined);
          const pressing = o.alerts.filter((a) => a.severity !== 'info');
          return {
            subscribed: o.subscribers.subscribed,
            net: o.growth.net,
            days: o.growth.days,
            errors: o.alerts.filter((a) => a.severity === 'error').length,
            warnings: o.alerts.filter((a) => a.severity === 'warning').length,
            first: pressing[0] ? `${pressing[0].title}: ${pressing[0].detail}` : null,
            copiedAt: o.copiedAt,
          };
        },
      },
      ...(opts.now ? { now: opts.now } : {}),
    });
    const sy = syncService({ sites: r.sites, sessions: s, repo: r.sync, cache: r.pages, emit: (st) => emit('sync.status', st), online: (id) => offline?.connectivity.state(id) ?? null, also: [ml.drafts] });
    sync = sy;
    const m = mirrorService({ sites: r.sites, rows, sessions: s, pages: r.pages, repo: r.mirror, prefs: r.prefs, siteCache: r.siteCache, emit: (p) => emit('mirror.progress', p) });
    mirror = m;
    search = searchService(r.search);
    const si = sites;
    workspace = workspaceService({ prefs: r.prefs, siteIds: () => si.list().map((x) => x.id) });
    store = storeService({
      sites: r.sites,
      rows,
      apiKeys,
      repo: r.store,
      secrets,
      fetch: fetchImpl,
      session: (info) => emit('store.session', info),
      budget: (b) => emit('store.budget', b),
      progress: (p) => emit('store.progress', p),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.retryDelaysMs ? { retryDelaysMs: opts.retryDelaysMs } : {}),
    });
    offline = autoSync({
      sites: () => r.sites.list().filter((x) => x.kind === 'cms').map((x) => x.id),
      settings: (id) => m.settings(id),
      pending: (id) => sy.counts().get(id)?.pending ?? 0,
      clearBackoff: (id) => {
        r.sync.clearBackoff(id);
        ml.drafts.clearBackoff(id);
      },
      push: (id) => sy.push(id),
      ping: (id) => s.ping(id),
      statusChanged: () => sy.changed(),
      log: (message, extra) => log('warn', message, extra),
    });
    offline.start();
    m.resumeInterrupted();
    auditCopy.resume();
  }

  /** Starts the services; damage met while they start (their first reads) is what the status reports. */
  function start(r: Repositories): void {
    try {
      startServices(r);
    } catch (err) {
      if (dbStatus.ok) throw err;
    }
  }
  if (repos) start(repos);

  /** Keeps the damaged file aside (renamed, never deleted) and opens a fresh one; answers the name it was kept as. */
  async function startFresh(): Promise<string> {
    await stopServices();
    closeQuietly();
    const keptAs = moveAside(dbFile);
    log('warn', 'damaged database kept aside', { keptAs });
    openDb();
    if (!repos) throw dbError ?? new AppError({ code: 'database', message: 'The new database could not be opened.' });
    start(repos);
    emit('database.status', dbStatus);
    return keptAs;
  }
  const database = databaseService({
    file: dbFile,
    damaged: () => !dbStatus.ok && dbStatus.problem === 'damaged',
    startFresh,
    ...(opts.chooseFolder ? { chooseFolder: opts.chooseFolder } : {}),
  });

  const about = aboutService({ noticesFile: opts.noticesFile });

  const need = <T>(x: T | undefined): T => {
    if (x === undefined || !dbStatus.ok) throw dbError ?? new AppError({ code: 'database', message: 'The database is not open.' });
    return x;
  };

  const handlers: Handlers = {
    ...appHandlers({ version: opts.version, shell: opts.shell, secrets: () => secrets.status, database: () => dbStatus }),
    ...sitesHandlers(() => need(sites)),
    ...authHandlers(() => need(sessions)),
    ...pagesHandlers(() => need(pages), () => need(sync)),
    ...translationsHandlers(() => need(translations)),
    ...mediaHandlers(() => need(media)),
    ...blueprintsHandlers(() => need(blueprints)),
    ...settingsHandlers(() => need(settings)),
    ...usersHandlers(() => need(users)),
    ...libraryHandlers(() => need(library)),
    ...packagesHandlers(() => need(packages)),
    ...addonsHandlers(() => need(addons)),
    ...systemHandlers(() => need(system)),
    ...scriptsHandlers(() => need(scripts)),
    ...schedulerHandlers(() => need(scheduler)),
    ...dashboardHandlers(() => need(dashboard)),
    ...overviewHandlers(() => need(overview)),
    ...demoHandlers(() => need(demo)),
    ...webhooksHandlers(() => need(webhooks)),
    ...auditHandlers(() => need(audit)),
    ...auditCopyHandlers(() => need(auditCopy)),
    ...mailerHandlers(() => need(mailer)),
    ...syncHandlers(() => need(sync)),
    ...mirrorHandlers(() => need(mirror)),
    ...searchHandlers(() => need(search)),
    ...workspaceHandlers(() => need(workspace)),
    ...storeHandlers(() => need(store)),
    ...databaseHandlers(() => database),
    // the licences need no database: a file of the build
    ...aboutHandlers(() => about),
  };

  const dispatcher = createDispatcher(handlers, log);

  return {
    invoke: dispatcher.invoke,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
    async close() {
      await dispatcher.drain(CALLS_DRAIN_MS); // within the shells' grace before a kill
      space.close();
      await stopServices(); // mirror runs stop where they are and go on at the next start
      listeners.clear();
      if (db && dbStatus.ok) closeDatabase(db);
      else closeQuietly();
    },
  };
}
