/**
 * The CMS sandbox (documents 1 and 2 of ../shared/spec), grown issue by issue: a real HTTP server
 * on a free loopback port with its own data folder (accounts, keys, tokens, pages on disk). So far:
 * the public health check, the authentication endpoints, GET /me, the content: pages, page
 * media, taxonomy, languages, translations and page blueprints (content/); the users with their
 * avatars, 2FA, API keys and the list's extension points (users/); the account, plugin, theme and
 * configuration blueprints, the configuration and the site media library (site/); what two demo
 * plugins add to the admin, the translations, system information and the cache (plugins-ui/);
 * outgoing webhooks that really deliver and the audit trail in SQLite (trail/); the scheduler,
 * dashboard and demo mode (ops/); the mailing plugin's audience (mailer/). Routes live
 * under the configurable prefix, default /api/v1; outside it the site answers HTML like a real CMS
 * (and serves page media under /user/pages/…, the media library under /user/media/…, avatars under
 * /user/accounts/avatars/…), except for the test-only control routes under /__sandbox (see
 * control-routes.ts).
 *
 * `flavor: 'real'` makes it answer as the real Grav API plugin does where that differs from the
 * documents: every reply carries the plugin's headers and its problem bodies, `X-Grav-Environment`
 * is checked before anything else (real-wire.ts, following
 * getgrav/grav-plugin-api:classes/Api/ApiRouter.php process() and applyEnvironment()), /me
 * reports Grav 2.0.7 and admin2 2.0.15 by default, and the route modules pick their real
 * behaviour (the languages and translations have a module of their own).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join, resolve as resolvePath, sep } from 'node:path';
import { dataFolder, serveSandbox } from '../bootstrap';
import { problem, Router } from '../http';
import { Accounts } from './accounts';
import { ApiKeys } from './api-keys';
import { registerAuthRoutes } from './auth-routes';
import { Clock } from '../clock';
import { DEFAULT_SETTINGS, REAL_VERSIONS, type CmsContext, type CmsSettings, type UserListPolicy } from './context';
import { registerBlueprintRoutes } from './content/blueprint-routes';
import { registerBulkRoutes } from './content/bulk-routes';
import { EventLog } from './content/events';
import { registerLanguageRoutes } from './content/language-routes';
import { registerRealLanguageRoutes } from './content/language-routes-real';
import { registerMediaRoutes } from './content/media-routes';
import { registerPageRoutes } from './content/page-routes';
import { defaultLanguages, seedContent, type ContentSeed, type ContentSeedInfo } from './content/seed-content';
import { mimeOf } from './content/serialize';
import { PageFiles, siteConfigFor } from './content/page-files';
import { controlRouter, editPage } from './control-routes';
import { Faults } from '../faults';
import type { Flavor } from '../flavor';
import { Tokens } from './jwt';
import { bucketKey, Limits, rateLimitHeaders, type LimitConfig } from './limits';
import { Mailbox } from './mail';
import { RequestLog } from './request-log';
import { registerMeRoutes } from './me-route';
import { environmentProblem, REAL_HEADERS, realProblem, writeEnvironmentProblem } from './real-wire';
import { seed as seedData, type SeedInfo, type SeedName } from './seed';
import { registerSiteBlueprintRoutes } from './site/blueprint-routes';
import { registerConfigRoutes } from './site/config-routes';
import { registerSiteMediaRoutes } from './site/media-routes';
import { registerPluginUiRoutes } from './plugins-ui/routes';
import { SiteState } from './site/state';
import type { Memberships } from './users/demo-plugins';
import { registerUserRoutes } from './users/user-routes';
import { PackageWorld, type PackageKnobs } from './packages/world';
import { registerPackageRoutes } from './packages/routes';
import { PLUGINS, THEMES } from './site/extensions';
import { AuditTrail, type AuditKnobs } from './trail/audit';
import { registerAuditRoutes } from './trail/audit-routes';
import { runRequest } from './trail/request-context';
import { seedTrail } from './trail/seed-trail';
import { registerWebhookRoutes } from './trail/webhook-routes';
import { Webhooks } from './trail/webhooks';
import { resolveExact } from './access';
import { callerOf, demoRefusal } from './credentials';
import { demoRefuses } from './ops/demo';
import { registerOpsRoutes } from './ops/routes';
import { OpsWorld, type OpsKnobs } from './ops/world';
import { registerMailerRoutes } from './mailer/routes';
import { MailerWorld, type MailerOptions } from './mailer/world';

export interface CmsSandboxOptions {
  /** which service to imitate: the documents (`spec`, default) or the real Grav API plugin (`real`) */
  flavor?: Flavor;
  /** default: a free port */
  port?: number;
  /** default /api/v1 */
  prefix?: string;
  /** use (and keep) this data folder; default: a fresh temporary one, removed on close */
  dataDir?: string;
  /** default 'demo'; applied only when the data folder has no accounts yet */
  seed?: SeedName;
  /** seconds; defaults 3600 / 604800 / 300 / 86400 */
  accessTtl?: number;
  refreshTtl?: number;
  challengeTtl?: number;
  resetTtl?: number;
  /** reported by GET /me; defaults '1.8.0' and '1.0.12' (real flavour: '2.0.7' and '2.0.15', as recorded) */
  cmsVersion?: string;
  adminVersion?: string | null;
  /**
   * rate-limit buckets to change (null switches one off); see limits.ts for the defaults. In the
   * `real` flavour `api` is Grav's token bucket per account (default 120 per 60 s); change it
   * while running with `sandbox.limits.set('api', rule)`.
   */
  limits?: Partial<LimitConfig>;
  /** serve /__sandbox control routes (default true) */
  control?: boolean;
  /**
   * starting content, written only when the data folder has no `pages/` yet: 'demo' (default; 301
   * pages in en, de, fr), 'single' (a single-language site of 7 pages), 'empty', or {pages: N}
   */
  content?: ContentSeed;
  /** keep a log of API requests and their answers (`sandbox.requests`) */
  recordRequests?: boolean;
  /**
   * How page reads notice files changed on disk, like the CMS's `pages.check_method`: 'file'
   * (default) looks at every file on every request; 'none' trusts its scan until the sandbox
   * itself writes (the setting large sites use; the benchmarks' 10,000-page site runs with it).
   */
  pagesCheck?: 'file' | 'none';
  /** the site's content languages, the first the default ([] = single-language); default per seed */
  languages?: string[];
  /** most routes per /pages/batch or operations per /pages/reorganize (default 50) */
  batchMax?: number;
  /** largest media upload per file in bytes (default 64 MB) */
  uploadMax?: number;
  /**
   * the two demo plugins that extend the Users list (users/demo-plugins.ts; default true); false
   * leaves the list's tabs, columns and actions as empty as on the recorded real site
   */
  userListPlugins?: boolean;
  /**
   * how long one package install, update or removal takes, in milliseconds of real time (default
   * 2500, so a client's progress shows; tests pass a few ms); an update-all takes it per package,
   * a core upgrade twice. Changeable while running (`sandbox.packages.knobs.workMs`,
   * `POST /__sandbox/packages {workMs}`).
   */
  packageWorkMs?: number;
  /**
   * the package world's other knobs (packages/world.ts): `coreSymlinked`, `coreLatest`,
   * `repositoryUnreachable` (the repository lists answer 502), `officialGpmOnly` (real flavour:
   * direct installs from a URL refused unless getgrav.org; default true as in Grav),
   * `failingInstalls` (default ['broken-installer']), `failingUpdates` (default ['sitemap'])
   */
  packages?: Partial<Omit<PackageKnobs, 'workMs'>>;
  /**
   * the audit trail's configuration (trail/audit.ts): `enabled` (default false), `available`
   * (SQLite support; false: its routes answer 503), `coverage` ('standard' | 'detailed'),
   * `retentionDays` (90), `retentionMaxRows` (100000), `anonymizeIp`, `maxPerPage` (1000),
   * `pruneEvery` (1000). Changeable while running (`sandbox.audit.knobs`, `POST /__sandbox/audit`).
   */
  audit?: Partial<AuditKnobs>;
  /** start with this many generated audit events over the last 30 days (the benchmarks' million) */
  auditSeed?: number;
  /** real flavour: webhooks may target private addresses (loopback receivers); the real service refuses them */
  webhookPrivateTargets?: boolean;
  /**
   * the scheduler's and demo mode's knobs (ops/): `scheduler: {crontab, failingJobs}` (crontab
   * `installed` by default, real `error` as recorded; failingJobs default ['feed-import']) and
   * `demo: {writable, resetInterval, resetOnRequest, resetOnSchedule, writableRoot}`; changeable
   * while running (`sandbox.ops.scheduler.knobs`, `sandbox.ops.demo.knobs`, `POST /__sandbox/ops`)
   */
  ops?: Partial<OpsKnobs>;
  /**
   * the mailing plugin's audience (mailer/; docs/mailer-audience.md): `subscribers` seeded on the
   * first mailer request (default 20,000; the benchmarks' 500,000), and the knobs `importRate`
   * (rows per second of the sandbox's clock, default 2000; 0 = as fast as it can), `worker` (false:
   * imports refused), `workerEverySeconds` (60), `segmentRecountMinutes` (15); changeable while
   * running (`sandbox.mailer.knobs`, `POST /__sandbox/mailer`)
   */
  mailer?: MailerOptions;
}

export interface CmsSandbox {
  /** Base URL including the API prefix: http://127.0.0.1:PORT/api/v1 */
  url: string;
  flavor: Flavor;
  origin: string;
  prefix: string;
  dataDir: string;
  /** the sandbox's time: `clock.advance(ms)` / `clock.set(offsetMs)` instead of waiting */
  clock: Clock;
  /** fault injection: `faults.set({route: 'POST /auth/token', status: 500, times: 1})`, `faults.clear()` */
  faults: Faults;
  /** mails "sent": `mail.last()?.token` is the newest reset token */
  mail: Mailbox;
  /** token lifetimes and versions, changeable while running */
  settings: CmsSettings;
  accounts: Accounts;
  apiKeys: ApiKeys;
  tokens: Tokens;
  limits: Limits;
  /** what seeding created (demo passwords, TOTP secret, the admin API key); null when the folder already had accounts */
  seeded: SeedInfo | null;
  /** the pages on disk: `content.tree()`, `content.find(route)`, `content.site`, `content.root` */
  content: PageFiles;
  /** what content seeding wrote; null when the folder already had pages */
  contentSeeded: ContentSeedInfo | null;
  /** the site's configuration (`site.config`) and media library (`site.media`, written on first use; `site.mediaSeeded`) */
  site: SiteState;
  /** the Users-list demo plugins' switch and page policy, changeable while running (`userList.showAll = false`) */
  userList: UserListPolicy;
  /**
   * the site's packages: `packages.knobs` (workMs, coreSymlinked, coreLatest, repositoryUnreachable,
   * officialGpmOnly, failingInstalls, failingUpdates), `packages.get(slug)`, `packages.publish(slug, version)` (a new release, seen
   * after a refresh), `packages.coreVersion`
   */
  packages: PackageWorld;
  /** registered webhooks and their deliveries: `webhooks.list()`, `webhooks.deliveriesOf(id)`, `await webhooks.settled()`, `webhooks.allowPrivate` */
  webhooks: Webhooks;
  /** the audit trail: `audit.knobs`, `audit.store.count()`, `audit.store.query(filters, limit, offset)`, `audit.prune()` */
  audit: AuditTrail;
  /**
   * the scheduler (`ops.scheduler`: knobs, jobs, states, log, run(force)), the dashboard
   * (`ops.dashboard.addViews(route, n)`, `lastBackup`) and demo mode (`ops.demo`: knobs, status(),
   * capture(), reset(), resets)
   */
  ops: OpsWorld;
  /**
   * the mailing plugin's audience: `mailer.knobs`, `mailer.store` (opens and seeds it), `mailer.audience`
   * (the rules), `mailer.reseed(n)`, `await mailer.drain()` (the worker now: imports to the end),
   * `mailer.opened`, `mailer.seeded` ({subscribers, ms} of the last seeding)
   */
  mailer: MailerWorld;
  /** the membership demo plugin's data (`memberships.get(username)`) */
  memberships: Memberships;
  /** the events fired so far: `events.list('onApiPageUpdated')`, `events.names()`, `events.clear()` */
  events: EventLog;
  /** the API requests and their statuses, when started with `recordRequests: true` (empty otherwise) */
  requests: RequestLog;
  /** changes a page file behind the app's back (see POST /__sandbox/pages/edit); returns its new plain-read ETag */
  editPage(edit: { route: string; lang?: string; title?: string; content?: string; header?: Record<string, unknown>; raw?: string }): { route: string; file: string; etag: string | null };
  close(): Promise<void>;
}

export async function startCmsSandbox(opts: CmsSandboxOptions = {}): Promise<CmsSandbox> {
  const prefix = opts.prefix ?? '/api/v1';
  const folder = dataFolder(opts.dataDir, 'cms');
  const { dataDir } = folder;

  const clock = new Clock();
  const flavor = opts.flavor ?? 'spec';
  const settings: CmsSettings = { ...DEFAULT_SETTINGS, ...(flavor === 'real' ? REAL_VERSIONS : {}) };
  for (const k of ['accessTtl', 'refreshTtl', 'challengeTtl', 'resetTtl', 'cmsVersion', 'adminVersion', 'batchMax', 'uploadMax'] as const) {
    if (opts[k] !== undefined) Object.assign(settings, { [k]: opts[k] });
  }
  const content = new PageFiles(dataDir, clock);
  const accounts = new Accounts(dataDir, clock);
  const webhooks = new Webhooks({ flavor, clock, dataDir });
  webhooks.allowPrivate = opts.webhookPrivateTargets ?? false;
  const ctx = {
    flavor,
    dataDir,
    origin: '',
    clock,
    accounts,
    apiKeys: new ApiKeys(dataDir, clock),
    tokens: new Tokens(dataDir, clock, flavor),
    limits: new Limits(opts.limits ?? {}, clock, flavor),
    mail: new Mailbox(),
    settings,
    content,
    site: new SiteState(dataDir, content),
    events: new EventLog(clock),
    prefix,
    userList: { plugins: opts.userListPlugins ?? true, defaultFilter: 'billing', showAll: true },
    packages: new PackageWorld(dataDir, clock, settings, { ...opts.packages, ...(opts.packageWorkMs !== undefined ? { workMs: opts.packageWorkMs } : {}) }, { plugin: PLUGINS, theme: THEMES }),
    trail: { webhooks, audit: new AuditTrail({ flavor, clock, dataDir, accounts, content }, opts.audit) },
  } satisfies Omit<CmsContext, 'ops' | 'mailer'> as CmsContext;
  ctx.ops = new OpsWorld(ctx, opts.ops);
  ctx.mailer = new MailerWorld(flavor, clock, dataDir, opts.mailer);
  // every recorded event reaches the webhooks and the audit trail
  ctx.events.listen((e) => webhooks.onEvent(e));
  ctx.events.listen((e) => ctx.trail.audit.onEvent(e));
  if (opts.auditSeed) seedTrail(ctx.trail.audit.store, clock.now(), opts.auditSeed);
  const faults = new Faults();
  const seeded = await seedData(opts.seed ?? 'demo', ctx.accounts, ctx.apiKeys, { dataDir, clock });
  // Content is written on first use (the first request that looks at pages, or `content`/
  // `contentSeeded` on this handle), so sandboxes that never serve a page start as fast as before.
  let contentSeeded: ContentSeedInfo | null = null;
  if (!ctx.content.exists()) {
    const seed = opts.content ?? 'demo';
    ctx.content.configure(siteConfigFor(opts.languages ?? defaultLanguages(seed)));
    ctx.content.onFirstUse(() => {
      contentSeeded = seedContent(ctx.content, seed, ctx.content.site.languages);
    });
  } else if (opts.languages) ctx.content.configure({ ...ctx.content.site, ...siteConfigFor(opts.languages) });

  // the real service's problem bodies (and its 422 for every validation failure); see real-wire.ts
  const api = new Router(prefix, flavor === 'real' ? realProblem : problem);
  registerMeRoutes(api, ctx);
  registerAuthRoutes(api, ctx);
  // order matters: fixed paths and sub-resources before the catch-all `/pages/{route+}`
  registerBulkRoutes(api, ctx);
  // the real service's languages and translations differ enough to have their own module
  (flavor === 'real' ? registerRealLanguageRoutes : registerLanguageRoutes)(api, ctx);
  registerMediaRoutes(api, ctx);
  registerPageRoutes(api, ctx);
  registerBlueprintRoutes(api, ctx);
  registerSiteBlueprintRoutes(api, ctx);
  registerConfigRoutes(api, ctx);
  registerSiteMediaRoutes(api, ctx);
  registerPackageRoutes(api, ctx);
  // what plugins add to the admin (sidebar, menubar, pages, scripts …), translations, system, cache
  registerPluginUiRoutes(api, ctx);
  registerWebhookRoutes(api, ctx, ctx.trail.webhooks);
  registerAuditRoutes(api, ctx, ctx.trail.audit);
  // scheduler, dashboard and demo mode (document 2)
  registerOpsRoutes(api, ctx);
  // the mailing plugin's audience (document 2; real: Grav's Mailroom under /mailroom)
  registerMailerRoutes(api, ctx);
  const userPlugins = registerUserRoutes(api, ctx);
  const control = opts.control === false ? null : controlRouter(ctx, faults);

  const requests = new RequestLog();
  if (opts.pagesCheck) ctx.content.checkMethod = opts.pagesCheck;
  const writeError = flavor === 'real' ? realProblem : problem;
  const server = await serveSandbox({
    prefix,
    port: opts.port,
    clock,
    faults,
    control,
    writeError,
    observe: (req, res, path) => {
      if (opts.recordRequests && path.startsWith(prefix + '/')) requests.record(req, res);
    },
    outside: (req, res, path) => {
      // page media, where their `url` points
      if (req.method === 'GET' && path.startsWith('/user/pages/')) {
        ctx.content.ready();
        if (serveMedia(ctx.content.root, path.slice('/user/pages/'.length), res)) return;
      }
      // the media library, where its items' `url` points
      if (req.method === 'GET' && path.startsWith('/user/media/') && serveMedia(ctx.site.media.ready().root, path.slice('/user/media/'.length), res)) return;
      // account avatars, where a user's `avatar_url` points
      if (req.method === 'GET' && path.startsWith('/user/accounts/avatars/') && serveMedia(join(dataDir, 'avatars'), path.slice('/user/accounts/avatars/'.length), res)) return;
      // outside the API prefix a CMS serves its web pages: HTML, like a real site would
      res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><title>Not found</title><h1>Not found</h1>');
    },
    // past the faults (the network in front of the service), the service's own limiter first
    api: async (req, res, path) => {
      if (flavor === 'real') {
        // every reply of the real service carries these; a bad environment name fails every route
        for (const [k, v] of Object.entries(REAL_HEADERS)) res.setHeader(k, v);
        const env = environmentProblem(req);
        if (env) {
          writeEnvironmentProblem(res, env);
          return;
        }
      }
      const bucket = ctx.limits.bucket();
      if (ctx.flavor === 'real' && bucket) {
        // Grav: after authentication, per account; excluded paths report a full, untouched bucket
        const key = ctx.limits.excludedPaths.some((p) => p !== '' && path.includes(p)) ? 'excluded' : bucketKey(ctx, req, new URL(req.url ?? '/', 'http://sandbox'), path.slice(prefix.length));
        if (key !== null) {
          const s = key === 'excluded' ? bucket.untouched() : bucket.take(key);
          rateLimitHeaders(res, s);
          if (s.limited) {
            problem(res, 429, 'Too Many Requests', 'Rate limit exceeded. Try again later.');
            return;
          }
        }
      }
      const general = ctx.flavor === 'real' ? null : ctx.limits.get('api');
      if (general) {
        const s = general.attempt(`api:${req.socket.remoteAddress ?? ''}`);
        rateLimitHeaders(res, s);
        if (s.limited) {
          res.setHeader('Retry-After', String(s.retryAfter));
          problem(res, 429, 'Too Many Requests', 'Rate limit exceeded. Try again later.');
          return;
        }
      }
      // demo mode, as the real plugin runs it before dispatch: a demo account's refused writes, then
      // the lazy reset of stale demo content
      if (demoRefuses(req.method ?? 'GET', path.slice(prefix.length))) {
        const caller = callerOf(ctx, req, new URL(req.url ?? '/', 'http://sandbox'));
        if (caller && resolveExact(caller.account.access, 'api.demo') === true) {
          const refusal = demoRefusal();
          writeError(res, refusal.status, refusal.title, refusal.message, refusal.extra);
          return;
        }
      }
      if (ctx.ops.demo.maybeAutoReset() && flavor === 'spec') res.setHeader('X-Invalidates', 'demo:status');
      // the caller of this request is known to what its events reach (the audit trail's actor)
      await runRequest(ctx, req, () => api.handle(req, res));
    },
  });
  ctx.origin = server.origin;

  return {
    url: `${server.origin}${prefix}`,
    flavor,
    origin: server.origin,
    prefix,
    dataDir,
    clock,
    faults,
    mail: ctx.mail,
    settings,
    accounts: ctx.accounts,
    apiKeys: ctx.apiKeys,
    tokens: ctx.tokens,
    limits: ctx.limits,
    seeded,
    get content() {
      ctx.content.ready();
      return ctx.content;
    },
    get contentSeeded() {
      ctx.content.ready();
      return contentSeeded;
    },
    site: ctx.site,
    events: ctx.events,
    userList: ctx.userList,
    packages: ctx.packages,
    webhooks: ctx.trail.webhooks,
    audit: ctx.trail.audit,
    ops: ctx.ops,
    mailer: ctx.mailer,
    memberships: userPlugins.memberships,
    requests,
    editPage: (edit) => editPage(ctx, edit),
    close: async () => {
      await server.close();
      await ctx.trail.webhooks.settled();
      await ctx.mailer.settled();
      ctx.mailer.close();
      ctx.trail.audit.store.close();
      folder.remove();
    },
  };
}

/** Streams a file below a root (pages or the media library; not page files or sidecars); false when there is none. */
function serveMedia(root: string, rel: string, res: ServerResponse): boolean {
  let segments: string[];
  try {
    segments = rel.split('/').map(decodeURIComponent);
  } catch {
    return false;
  }
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.startsWith('.'))) return false;
  const file = resolvePath(root, ...segments);
  const name = segments[segments.length - 1]!;
  if (!file.startsWith(root + sep) || name.endsWith('.md') || name.endsWith('.meta.yaml') || !existsSync(file)) return false;
  const st = statSync(file);
  if (!st.isFile()) return false;
  res.writeHead(200, { 'Content-Type': mimeOf(name), 'Content-Length': st.size, 'Cache-Control': 'no-cache' });
  createReadStream(file).pipe(res);
  return true;
}
