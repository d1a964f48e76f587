/**
 * The store sandbox (document 3 of ../shared/spec): a real HTTP server on a free loopback port with
 * its own data folder, serving every route of the document under /api/v3 — pets, the inventory,
 * orders and users — with its validation and status codes, API-key and session authentication,
 * the rate-limit plans and the `pet.created` webhook. Outside the prefix it serves pet images
 * (/images/…) and the test-only control routes (/__sandbox, see control-routes.ts).
 *
 * Every API request passes, in order: injected faults (the network misbehaving), the caller's
 * credential (401 when sent but not accepted), the caller's plan budget (429 with Retry-After;
 * anonymous calls count per client address on the Free plan's budget), then the routes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Clock } from '../clock';
import { Faults } from '../faults';
import type { Flavor } from '../flavor';
import { HttpProblem, listen, Router } from '../http';
import { apiError } from './answers';
import { identify, setCaller, type Caller } from './auth';
import { DEFAULT_STORE_SETTINGS, type StoreContext, type StoreSettings } from './context';
import { CONTROL_PREFIX, storeControlRouter } from './control-routes';
import { StoreData } from './data';
import { serveImage } from './images';
import { registerPetRoutes } from './pet-routes';
import { DEFAULT_PLANS, PLAN_LABELS, PlanLimiter, setHeaders, type PlanLimits, type PlanName, type Plans } from './plans';
import { seedStore, type StoreSeedInfo, type StoreSeedName } from './seed';
import { registerStoreRoutes } from './store-routes';
import { registerUserRoutes } from './user-routes';
import { Webhooks } from './webhooks';

export interface StoreSandboxOptions {
  /** which service to imitate: the document (`spec`, default) or the real Swagger Petstore v3 (`real`) */
  flavor?: Flavor;
  /** default: a free port */
  port?: number;
  /** default /api/v3 */
  prefix?: string;
  /** use (and keep) this data folder; default: a fresh temporary one, removed on close */
  dataDir?: string;
  /** default 'demo'; applied only when the data folder holds no store yet */
  seed?: StoreSeedName;
  /** budgets to change per plan (null = unlimited); defaults are the document's */
  plans?: Partial<Record<PlanName, Partial<PlanLimits>>>;
  /** session lifetime in seconds (default 3600) */
  sessionTtl?: number;
  /** largest image upload in bytes (default 10 MB) */
  uploadMax?: number;
  /** URLs that receive the `pet.created` webhook from the start */
  webhooks?: { url: string; secret?: string }[];
  /** serve /__sandbox control routes (default true) */
  control?: boolean;
}

export interface StoreSandbox {
  /** Base URL including the API prefix: http://127.0.0.1:PORT/api/v3 */
  url: string;
  flavor: Flavor;
  origin: string;
  prefix: string;
  dataDir: string;
  /** the sandbox's time: `clock.advance(ms)` instead of waiting (sessions, rate-limit windows) */
  clock: Clock;
  /** fault injection: `faults.set({route: 'GET /pet/findByStatus', status: 500, times: 1})`, `faults.clear()` */
  faults: Faults;
  settings: StoreSettings;
  /** the plans' budgets, changeable while running: `plans.free.perMinute = 3` */
  plans: Plans;
  /** pets, orders, users, keys and sessions */
  data: StoreData;
  /** `webhooks.register({url, secret})`, `webhooks.deliveries()`, `await webhooks.settled()` */
  webhooks: Webhooks;
  /** what seeding created (passwords, one API key per plan); null when the folder already had a store */
  seeded: StoreSeedInfo | null;
  /** a new API key (default: the administrator's, Free plan) */
  createKey(plan?: PlanName, username?: string): string;
  close(): Promise<void>;
}

export async function startStoreSandbox(opts: StoreSandboxOptions = {}): Promise<StoreSandbox> {
  const prefix = opts.prefix ?? '/api/v3';
  const ownDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'sitedesk-store-'));
  mkdirSync(dataDir, { recursive: true });

  const clock = new Clock();
  const plans: Plans = {
    free: { ...DEFAULT_PLANS.free, ...opts.plans?.free },
    pro: { ...DEFAULT_PLANS.pro, ...opts.plans?.pro },
    enterprise: { ...DEFAULT_PLANS.enterprise, ...opts.plans?.enterprise },
  };
  const settings: StoreSettings = {
    ...DEFAULT_STORE_SETTINGS,
    ...(opts.sessionTtl !== undefined ? { sessionTtl: opts.sessionTtl } : {}),
    ...(opts.uploadMax !== undefined ? { uploadMax: opts.uploadMax } : {}),
  };
  const flavor = opts.flavor ?? 'spec';
  const ctx: StoreContext = {
    flavor,
    dataDir,
    origin: '',
    prefix,
    clock,
    data: new StoreData(dataDir, clock),
    limiter: new PlanLimiter(plans, clock),
    webhooks: new Webhooks(clock),
    settings,
  };
  for (const w of opts.webhooks ?? []) ctx.webhooks.register(w);
  const faults = new Faults(apiError);

  const api = new Router(prefix, apiError);
  registerPetRoutes(api, ctx);
  registerStoreRoutes(api, ctx);
  registerUserRoutes(api, ctx);
  const control = opts.control === false ? null : storeControlRouter(ctx, faults);

  const server = await listen((req, res) => {
    const path = new URL(req.url ?? '/', 'http://sandbox').pathname;
    if (control && path.startsWith(`${CONTROL_PREFIX}/`)) {
      void control.handle(req, res);
      return;
    }
    if (req.method === 'GET' && path.startsWith('/images/') && serveImage(dataDir, path, res)) return;
    if (!path.startsWith(prefix + '/')) {
      apiError(res, 404, 'Not Found', `No route for ${path}: the store API is under ${prefix}.`);
      return;
    }
    void (async () => {
      if (await faults.apply(req, res, path.slice(prefix.length), clock.nowSec())) return;
      let caller: Caller | null;
      try {
        caller = identify(ctx, req);
      } catch (err) {
        if (!(err instanceof HttpProblem)) throw err;
        setHeaders(res, err.headers);
        apiError(res, err.status, err.title, err.message, err.extra);
        return;
      }
      setCaller(req, caller);
      const plan: PlanName = caller?.plan ?? 'free';
      const verdict = ctx.limiter.take(plan, caller?.limitKey ?? `ip:${req.socket.remoteAddress ?? ''}`);
      setHeaders(res, verdict.headers);
      if (verdict.limited) {
        res.setHeader('Retry-After', String(verdict.retryAfter));
        const budget = verdict.window === 'day' ? `${plans[plan].perDay} requests per day` : `${plans[plan].perMinute} requests per minute`;
        const who = caller ? `the ${PLAN_LABELS[plan]} plan` : 'anonymous requests (the Free plan per address)';
        apiError(res, 429, 'Too Many Requests', `Rate limit exceeded: ${who} allows ${budget}. Try again in ${verdict.retryAfter} s.`);
        return;
      }
      await api.handle(req, res);
    })().catch((err: unknown) => {
      if (!res.headersSent) apiError(res, 500, 'Internal Server Error', err instanceof Error ? err.message : String(err));
      else res.destroy();
    });
  }, opts.port);
  ctx.origin = server.origin;
  const seeded = await seedStore(opts.seed ?? 'demo', ctx.data, server.origin, clock.now());

  return {
    url: `${server.origin}${prefix}`,
    flavor,
    origin: server.origin,
    prefix,
    dataDir,
    clock,
    faults,
    settings,
    plans,
    data: ctx.data,
    webhooks: ctx.webhooks,
    seeded,
    createKey: (plan = 'free', username = 'admin') => ctx.data.createKey(username, plan).key,
    close: async () => {
      await server.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
