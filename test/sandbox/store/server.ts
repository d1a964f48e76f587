/**
 * The store sandbox: a real HTTP server on a free loopback port with its own data folder, serving
 * the store API under /api/v3 in one of two flavours:
 *
 * - `spec` (default): document 3 of ../shared/spec, every route with its validation and status
 *   codes, API-key and session authentication, the rate-limit plans and the `pet.created`
 *   webhook. Every API request passes, in order: injected faults (the network misbehaving), the
 *   caller's credential (401 when sent but not accepted), the caller's plan budget (429 with
 *   Retry-After; anonymous calls count per client address on the Free plan's budget), then the
 *   routes.
 * - `real`: the Swagger Petstore v3 as it runs (swagger-api/swagger-petstore on
 *   swagger-inflector v2.0.11), from real/: injected faults, then the routes. Petstore checks no
 *   credential, has no plans, sends no rate-limit headers, never answers 429 and sends no
 *   webhook; each file of real/ says which upstream code it follows.
 *
 * Outside the prefix it serves pet images (/images/…) and the test-only control routes
 * (/__sandbox, see control-routes.ts), in both flavours.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dataFolder, serveSandbox } from '../bootstrap';
import { Clock } from '../clock';
import { Faults } from '../faults';
import type { Flavor } from '../flavor';
import { HttpProblem, Router, type ErrorWriter } from '../http';
import { apiError } from './answers';
import { identify, setCaller, type Caller } from './auth';
import { DEFAULT_STORE_SETTINGS, type SpecStoreContext, type StoreContext, type StoreSettings } from './context';
import { storeControlRouter, type KeyMaker } from './control-routes';
import { StoreData } from './data';
import { serveImage } from './images';
import { registerPetRoutes } from './pet-routes';
import { DEFAULT_PLANS, PLAN_LABELS, PlanLimiter, setHeaders, type PlanLimits, type PlanName, type Plans } from './plans';
import { seedStore, type StoreSeedInfo, type StoreSeedName } from './seed';
import { registerStoreRoutes } from './store-routes';
import { registerUserRoutes } from './user-routes';
import { Webhooks } from './webhooks';
import { inflectorError } from './real/answers';
import { PetstoreData } from './real/data';
import { registerRealPetRoutes } from './real/pet-routes';
import { seedPetstore } from './real/seed';
import { registerRealStoreRoutes } from './real/store-routes';
import { registerRealUserRoutes } from './real/user-routes';

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

interface StoreSandboxBase {
  /** Base URL including the API prefix: http://127.0.0.1:PORT/api/v3 */
  url: string;
  origin: string;
  prefix: string;
  dataDir: string;
  /** the sandbox's time: `clock.advance(ms)` instead of waiting (sessions, rate-limit windows) */
  clock: Clock;
  /** fault injection: `faults.set({route: 'GET /pet/findByStatus', status: 500, times: 1})`, `faults.clear()` */
  faults: Faults;
  settings: StoreSettings;
  /** the plans' budgets, changeable while running: `plans.free.perMinute = 3` (spec flavour; real has none) */
  plans: Plans;
  /** `webhooks.register({url, secret})`, `webhooks.deliveries()`, `await webhooks.settled()` (real: never sent) */
  webhooks: Webhooks;
  /** what seeding created (passwords, one API key per plan); null when the folder already had a store */
  seeded: StoreSeedInfo | null;
  /** a new API key (default: the administrator's, Free plan); real: a made-up one, Petstore takes any */
  createKey(plan?: PlanName, username?: string): string;
  close(): Promise<void>;
}

/** Document 3's store: `data` holds pets, orders, users, keys and sessions. */
export interface SpecStoreSandbox extends StoreSandboxBase {
  flavor: 'spec';
  data: StoreData;
}

/** The Swagger Petstore v3: `data` holds its three lists as Petstore keeps them. */
export interface RealStoreSandbox extends StoreSandboxBase {
  flavor: 'real';
  data: PetstoreData;
}

export type StoreSandbox = SpecStoreSandbox | RealStoreSandbox;

export async function startStoreSandbox(opts: StoreSandboxOptions & { flavor: 'real' }): Promise<RealStoreSandbox>;
export async function startStoreSandbox(opts?: StoreSandboxOptions & { flavor?: 'spec' }): Promise<SpecStoreSandbox>;
export async function startStoreSandbox(opts?: StoreSandboxOptions): Promise<StoreSandbox>;
export async function startStoreSandbox(opts: StoreSandboxOptions = {}): Promise<StoreSandbox> {
  const prefix = opts.prefix ?? '/api/v3';
  const folder = dataFolder(opts.dataDir, 'store');
  const { dataDir } = folder;

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
    limiter: new PlanLimiter(plans, clock),
    webhooks: new Webhooks(clock),
    settings,
  };
  for (const w of opts.webhooks ?? []) ctx.webhooks.register(w);
  const flavored = flavor === 'real' ? realStore(ctx) : specStore(ctx, plans);
  const faults = new Faults(flavored.writeError);
  const control = opts.control === false ? null : storeControlRouter(ctx, faults, flavored.makeKey);

  const server = await serveSandbox({
    prefix,
    port: opts.port,
    clock,
    faults,
    control,
    writeError: flavored.writeError,
    outside: (req, res, path) => {
      if (req.method === 'GET' && path.startsWith('/images/') && serveImage(dataDir, path, res)) return;
      flavored.writeError(res, 404, 'Not Found', `No route for ${path}: the store API is under ${prefix}.`);
    },
    api: (req, res) => flavored.handle(req, res),
  });
  ctx.origin = server.origin;
  const seeded = await flavored.seed(opts.seed ?? 'demo', server.origin, clock.now());

  const common = {
    url: `${server.origin}${prefix}`,
    origin: server.origin,
    prefix,
    dataDir,
    clock,
    faults,
    settings,
    plans,
    webhooks: ctx.webhooks,
    seeded,
    createKey: (plan: PlanName = 'free', username = 'admin') => {
      const made = flavored.makeKey(username, plan);
      if (!made) throw new Error(`No user ${username} in the store sandbox.`);
      return made.key;
    },
    close: async () => {
      await server.close();
      folder.remove();
    },
  };
  return flavored.flavor === 'real' ? { ...common, flavor: 'real', data: flavored.data } : { ...common, flavor: 'spec', data: flavored.data };
}

interface Flavored<F extends Flavor, D> {
  flavor: F;
  data: D;
  writeError: ErrorWriter;
  makeKey: KeyMaker;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  seed(name: StoreSeedName, origin: string, now: number): Promise<StoreSeedInfo | null>;
}

/** Document 3: credentials, plans, then the routes. */
function specStore(base: StoreContext, plans: Plans): Flavored<'spec', StoreData> {
  const ctx: SpecStoreContext = Object.assign(base, { data: new StoreData(base.dataDir, base.clock) });
  const api = new Router(ctx.prefix, apiError);
  registerPetRoutes(api, ctx);
  registerStoreRoutes(api, ctx);
  registerUserRoutes(api, ctx);
  return {
    flavor: 'spec',
    data: ctx.data,
    writeError: apiError,
    makeKey: (username, plan, name) => {
      const user = ctx.data.user(username);
      return user ? { key: ctx.data.createKey(user.username, plan, name).key, username: user.username } : null;
    },
    seed: (name, origin, now) => seedStore(name, ctx.data, origin, now),
    async handle(req, res) {
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
    },
  };
}

/** The Swagger Petstore v3: straight to the routes; any key is as good as another. */
function realStore(ctx: StoreContext): Flavored<'real', PetstoreData> {
  const data = new PetstoreData(ctx.dataDir);
  const api = new Router(ctx.prefix, inflectorError);
  registerRealPetRoutes(api, ctx, data);
  registerRealStoreRoutes(api, data);
  registerRealUserRoutes(api, ctx, data);
  return {
    flavor: 'real',
    data,
    writeError: inflectorError,
    makeKey: (username, plan) => (data.user(username) ? { key: `sk_${plan}_${randomBytes(16).toString('hex')}`, username } : null),
    seed: async (name, origin, now) => seedPetstore(name, data, origin, now),
    handle: (req, res) => api.handle(req, res),
  };
}
