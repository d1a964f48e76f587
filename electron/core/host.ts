/**
 * The Host's composition root: opens the database and the secret store, builds the services, and
 * answers contract calls. The same object serves Electron's MessagePort and browser mode's WebSocket.
 */
import { join } from 'node:path';
import type { AppInfo, DatabaseStatus, EventName, EventPayload, Workspace } from '../contract';
import { closeDatabase, openDatabase, repositories, type Db, type Repositories } from '../db';
import { openSecretStore } from '../secrets/keychain';
import type { SecretStore } from '../secrets/store';
import { sitesService, type SitesService } from '../sites/service';
import { sessionManager, type SessionManager } from '../sessions/cms-session-manager';
import { pagesService, type PagesService } from '../pages/service';
import { syncService, type SyncService } from '../sync/service';
import { mirrorService, type MirrorService } from '../mirror/service';
import { searchService, type SearchService } from '../search/service';
import { autoSync } from '../sync/auto-sync';
import { storeService, type StoreService } from '../store/service';
import type { FetchLike } from '../api/http';
import { AppError, isAppError } from './app-error';
import { createDispatcher, type Handlers, type Log } from './dispatch';
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
}

export interface Host extends HostEndpoint {
  close(): Promise<void>;
}

export const DB_FILE = 'sitedesk.db';

const EMPTY_WORKSPACE: Workspace = { tabs: [], active: null, split: null, ratio: 0.5 };

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

  // A database that cannot be used does not stop the Host: every call that needs it answers
  // with the reason, and app.info tells the renderer to show it.
  let db: Db | undefined;
  let repos: Repositories | undefined;
  let dbStatus: DatabaseStatus = { ok: true };
  let dbError: AppError | undefined;
  try {
    db = openDatabase(join(opts.dataDir, DB_FILE));
    repos = repositories(db);
  } catch (err) {
    dbError = isAppError(err) ? err : new AppError({ code: 'database', message: String(err) });
    dbStatus = { ok: false, message: dbError.message };
    log('error', 'database unavailable', { detail: dbError.message });
  }

  const secrets = opts.secrets ?? (await openSecretStore());
  if (secrets.status.mode === 'memory') log('warn', 'secrets kept in memory', { reason: secrets.status.reason });

  const fetchImpl = opts.fetch ?? globalThis.fetch;

  let sites: SitesService | undefined;
  let sessions: SessionManager | undefined;
  let pages: PagesService | undefined;
  let sync: SyncService | undefined;
  let mirror: MirrorService | undefined;
  let search: SearchService | undefined;
  let offline: ReturnType<typeof autoSync> | undefined;
  let store: StoreService | undefined;
  if (repos) {
    const r = repos;
    // every request reports whether its site answered (auto-sync when back online)
    const reach = { reachable: (id: string) => offline?.connectivity.reachable(id), unreachable: (id: string) => offline?.connectivity.unreachable(id) };
    const s = sessionManager({ sites: repos.sites, repo: repos.sessions, secrets, fetch: fetchImpl, emit: (info) => emit('auth.session', info), reach, ...(opts.now ? { now: opts.now } : {}) });
    sessions = s;
    sites = sitesService({
      repo: repos.sites,
      secrets,
      fetch: fetchImpl,
      changed: (list) => emit('sites.changed', list),
      edited: async (before, after) => {
        await s.siteChanged(before, after);
        await store?.siteChanged(before, after);
      },
      added: (site) => (site.kind === 'cms' ? emit('auth.session', s.get(site.id).info()) : store && emit('store.session', store.session(site.id))),
      purgeCache: (id) => {
        s.dropped(id);
        store?.dropped(id);
        void mirror?.dropped(id);
        offline?.connectivity.forget(id);
      },
    });
    pages = pagesService({
      sessions: s,
      cache: repos.pages,
      siteCache: repos.siteCache,
      progress: (p) => emit('media.progress', p),
      queue: (...a) => need(sync).queue(...a),
      // a site known to be away is read from the copy and probed in the background
      online: (id) => offline?.connectivity.state(id) ?? null,
      nudge: (id) => offline?.connectivity.nudge(id),
    });
    const sy = syncService({ sites: repos.sites, sessions: s, repo: repos.sync, cache: repos.pages, emit: (st) => emit('sync.status', st), online: (id) => offline?.connectivity.state(id) ?? null });
    sync = sy;
    const m = mirrorService({ sites: r.sites, sessions: s, pages: r.pages, repo: r.mirror, prefs: r.prefs, siteCache: r.siteCache, emit: (p) => emit('mirror.progress', p) });
    mirror = m;
    search = searchService(r.search);
    store = storeService({
      sites: r.sites,
      repo: r.store,
      secrets,
      fetch: fetchImpl,
      session: (info) => emit('store.session', info),
      budget: (b) => emit('store.budget', b),
      progress: (p) => emit('store.progress', p),
      ...(opts.now ? { now: opts.now } : {}),
    });
    offline = autoSync({
      sites: () => r.sites.list().filter((x) => x.kind === 'cms').map((x) => x.id),
      settings: (id) => m.settings(id),
      pending: (id) => r.sync.counts().get(id)?.pending ?? 0,
      clearBackoff: (id) => r.sync.clearBackoff(id),
      push: (id) => sy.push(id),
      ping: (id) => s.ping(id),
      statusChanged: () => sy.changed(),
      log: (message, extra) => log('warn', message, extra),
    });
    offline.start();
    m.resumeInterrupted();
  }

  const need = <T>(x: T | undefined): T => {
    if (x === undefined) throw dbError ?? new AppError({ code: 'database', message: 'The database is not open.' });
    return x;
  };

  const handlers: Handlers = {
    'app.info': (): AppInfo => ({
      version: opts.version,
      shell: opts.shell,
      platform: process.platform,
      secrets: secrets.status,
      database: dbStatus,
    }),
    'sites.list': () => need(sites).list(),
    'sites.add': (input) => need(sites).add(input),
    'sites.update': (input) => need(sites).update(input),
    'sites.remove': (input) => need(sites).remove(input.id),
    'sites.reorder': (input) => need(sites).reorder(input.ids),
    'sites.test': (input) => need(sites).test(input),
    'auth.sessions': () => need(sessions).all(),
    'auth.setupStatus': ({ siteId }) => need(sessions).get(siteId).setupStatus(),
    'auth.setup': ({ siteId, ...body }) => need(sessions).get(siteId).setup(body),
    'auth.signIn': ({ siteId, username, password }) => need(sessions).get(siteId).signIn(username, password),
    'auth.verify2fa': ({ siteId, code }) => need(sessions).get(siteId).verify2fa(code),
    'auth.cancel2fa': ({ siteId }) => {
      const session = need(sessions).get(siteId);
      session.cancelChallenge();
      return session.info();
    },
    'auth.signOut': async ({ siteId }) => {
      const { info, revoked } = await need(sessions).get(siteId).signOut();
      return { ...info, revoked };
    },
    'auth.refreshMe': ({ siteId }) => need(sessions).get(siteId).refreshMe(),
    'auth.forgotPassword': async ({ siteId, email }) => ({ message: await need(sessions).get(siteId).forgotPassword(email) }),
    'auth.resetPassword': async ({ siteId, username, token, password }) => ({
      message: await need(sessions).get(siteId).resetPassword(username, token, password),
    }),
    'pages.list': (q) => need(pages).list(q),
    'pages.children': ({ siteId, route }) => need(pages).children(siteId, route),
    'pages.level': ({ siteId, route }) => need(pages).level(siteId, route),
    'pages.get': (q) => need(pages).get(q),
    'pages.create': (q) => need(pages).create(q),
    'pages.save': (q) => need(pages).save(q),
    'pages.delete': (q) => need(pages).remove(q),
    'pages.move': (q) => need(pages).move(q),
    'pages.reorder': (q) => need(pages).reorder(q),
    'pages.copy': (q) => need(pages).copy(q),
    'pages.batch': (q) => need(pages).batch(q),
    'pages.reorganize': (q) => need(pages).reorganize(q),
    'pages.taxonomy': ({ siteId }) => need(pages).taxonomy(siteId),
    'translations.siteLanguages': ({ siteId }) => need(pages).siteLanguages(siteId),
    'translations.languages': ({ siteId, route }) => need(pages).languages(siteId, route),
    'translations.translate': (q) => need(pages).translate(q),
    'translations.adopt': (q) => need(pages).adopt(q),
    'translations.sync': (q) => need(pages).sync(q),
    'translations.compare': (q) => need(pages).compare(q),
    'translations.matrix': ({ siteId }) => need(pages).matrix(siteId),
    'media.list': (q) => need(pages).media(q),
    'media.uploadChunk': (q) => need(pages).stageChunk(q),
    'media.upload': (q) => need(pages).upload(q),
    'media.delete': (q) => need(pages).removeMedia(q),
    'blueprints.templates': ({ siteId }) => need(pages).templates(siteId),
    'blueprints.page': ({ siteId, template }) => need(pages).blueprint(siteId, template),
    'drafts.save': (q) => need(sync).saveDraft(q),
    'drafts.list': ({ siteId }) => need(sync).drafts(siteId),
    'drafts.get': ({ draftId }) => need(sync).draft(draftId),
    'drafts.resolve': (q) => need(sync).resolve(q),
    'sync.status': () => need(sync).status(),
    'sync.outbox': ({ siteId }) => need(sync).outbox(siteId),
    'sync.discard': ({ itemId }) => need(sync).discard(itemId),
    // from the renderer, a push is always a person asking (Save, Push now, Sync now)
    'sync.push': ({ siteId, route }) => need(sync).push(siteId, { ...(route ? { only: route } : {}), asked: true }),
    'mirror.start': (q) => need(mirror).start(q),
    'mirror.cancel': async ({ siteId }) => ({ run: await need(mirror).cancel(siteId) }),
    'mirror.status': (q) => need(mirror).status(q?.siteId),
    'mirror.failures': ({ siteId }) => need(mirror).failures(siteId),
    'mirror.settings': ({ siteId }) => need(mirror).settings(siteId),
    'mirror.setSettings': (q) => need(mirror).setSettings(q),
    'search.query': (q) => need(search).query(q),
    'store.sessions': () => need(store).sessions(),
    'store.session': ({ siteId }) => need(store).session(siteId),
    'store.login': ({ siteId, username, password }) => need(store).login(siteId, username, password),
    'store.logout': ({ siteId }) => need(store).logout(siteId),
    'store.budget': ({ siteId }) => ({ budget: need(store).budget(siteId) }),
    'store.pets.list': (q) => need(store).pets(q),
    'store.pets.get': ({ siteId, petId }) => need(store).pet(siteId, petId),
    'store.pets.create': (q) => need(store).createPet(q),
    'store.pets.update': (q) => need(store).updatePet(q),
    'store.pets.delete': ({ siteId, petId }) => need(store).deletePet(siteId, petId),
    'store.pets.uploadImage': (q) => need(store).uploadImage(q),
    'store.inventory': ({ siteId }) => need(store).inventory(siteId),
    'store.orders.place': (q) => need(store).placeOrder(q),
    'store.orders.get': ({ siteId, orderId }) => need(store).order(siteId, orderId),
    'store.orders.delete': ({ siteId, orderId }) => need(store).deleteOrder(siteId, orderId),
    'store.users.create': ({ siteId, user }) => need(store).createUser(siteId, user),
    'store.users.createList': ({ siteId, users }) => need(store).createUsers(siteId, users),
    'store.users.get': ({ siteId, username }) => need(store).user(siteId, username),
    'store.users.update': ({ siteId, username, changes }) => need(store).updateUser(siteId, username, changes),
    'store.users.delete': ({ siteId, username }) => need(store).deleteUser(siteId, username),
    'workspace.get': () => {
      const saved = need(repos).prefs.get<Workspace>('workspace') ?? EMPTY_WORKSPACE;
      // sites removed since the layout was saved simply drop out of it
      const known = new Set(need(sites).list().map((s) => s.id));
      const tabs = saved.tabs.filter((id) => known.has(id));
      const pick = (id: string | null) => (id && known.has(id) ? id : null);
      return { tabs, active: pick(saved.active) ?? tabs[0] ?? null, split: pick(saved.split), ratio: saved.ratio };
    },
    'workspace.set': (input) => {
      need(repos).prefs.set('workspace', input);
      return input;
    },
  };

  const invoke = createDispatcher(handlers, log);

  return {
    invoke,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit,
    async close() {
      offline?.close();
      await mirror?.close(); // runs stop where they are and go on at the next start
      listeners.clear();
      if (db) closeDatabase(db);
    },
  };
}
