/**
 * Test-only control routes of the store sandbox, outside the API prefix under `/__sandbox`:
 *
 *   /__sandbox/faults and /__sandbox/clock (../control.ts, shared with the CMS sandbox)
 *   GET|POST        /__sandbox/settings  {sessionTtl, uploadMax, timeZone} (timeZone: the real flavour's
 *                                        server zone, an IANA name)
 *   GET|POST        /__sandbox/plans     the plans' budgets; POST merges {free: {perMinute: 5}, …}
 *                                        (null = unlimited)
 *   GET|POST|DELETE /__sandbox/webhooks  GET {targets, deliveries}; POST {url, secret?} registers one;
 *                                        DELETE forgets targets and deliveries
 *   POST            /__sandbox/keys      a new API key {username?: 'admin', plan?: 'free', name?} →
 *                                        {key, plan, username} (real flavour: a made-up string, as
 *                                        Petstore takes any key)
 *
 * Bodies are `{data: …}`; a bad request is a 400 problem.
 */
import { badControl, CONTROL_PREFIX, registerClockControls, registerFaultControls } from '../control';
import type { Faults } from '../faults';
import { json, readBody, Router } from '../http';
import type { StoreContext } from './context';
import { PLAN_NAMES, type PlanName } from './plans';

export { CONTROL_PREFIX };

const isPlan = (x: unknown): x is PlanName => typeof x === 'string' && (PLAN_NAMES as readonly string[]).includes(x);
const isTimeZone = (x: unknown): x is string => {
  try {
    return typeof x === 'string' && new Intl.DateTimeFormat('en-US', { timeZone: x }).resolvedOptions().timeZone !== '';
  } catch {
    return false;
  }
};
const isBudget = (x: unknown) => x === null || (typeof x === 'number' && Number.isInteger(x) && x > 0);

/** Makes a key for an existing account; null when there is no such account. */
export type KeyMaker = (username: string, plan: PlanName, name?: string) => { key: string; username: string } | null;

export function storeControlRouter(ctx: StoreContext, faults: Faults, makeKey: KeyMaker): Router {
  const router = new Router(CONTROL_PREFIX);
  registerFaultControls(router, faults);
  registerClockControls(router, ctx.clock);

  router.on('GET', '/settings', (_req, res) => json(res, 200, { data: ctx.settings }));
  router.on('POST', '/settings', async (req, res) => {
    const body = await readBody(req);
    for (const k of ['sessionTtl', 'uploadMax'] as const) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'number' || !(body[k] > 0)) throw badControl(`${k} must be a positive number.`);
      ctx.settings[k] = body[k];
    }
    if (body.timeZone !== undefined) {
      if (!isTimeZone(body.timeZone)) throw badControl('timeZone must be an IANA time zone name such as Europe/Berlin.');
      ctx.settings.timeZone = body.timeZone;
    }
    json(res, 200, { data: ctx.settings });
  });

  router.on('GET', '/plans', (_req, res) => json(res, 200, { data: ctx.limiter.plans }));
  router.on('POST', '/plans', async (req, res) => {
    const body = await readBody(req);
    for (const [name, change] of Object.entries(body)) {
      if (!isPlan(name)) throw badControl(`No plan ${name}; plans are ${PLAN_NAMES.join(', ')}.`);
      const c = (change ?? {}) as Record<string, unknown>;
      for (const k of ['perMinute', 'perDay'] as const) {
        if (c[k] === undefined) continue;
        if (!isBudget(c[k])) throw badControl(`${name}.${k} must be a positive whole number or null.`);
        ctx.limiter.plans[name][k] = c[k] as number | null;
      }
    }
    json(res, 200, { data: ctx.limiter.plans });
  });

  router.on('GET', '/webhooks', (_req, res) => json(res, 200, { data: { targets: ctx.webhooks.list(), deliveries: ctx.webhooks.deliveries() } }));
  router.on('POST', '/webhooks', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.url !== 'string') throw badControl('Send {"url": "http://…", "secret"?: "…"}.');
    try {
      const target = ctx.webhooks.register({ url: body.url, secret: typeof body.secret === 'string' ? body.secret : null });
      json(res, 201, { data: target });
    } catch (err) {
      throw badControl(err);
    }
  });
  router.on('DELETE', '/webhooks', (_req, res) => {
    ctx.webhooks.clear();
    res.writeHead(204).end();
  });

  router.on('POST', '/keys', async (req, res) => {
    const body = await readBody(req);
    const username = typeof body.username === 'string' ? body.username : 'admin';
    const plan = body.plan === undefined ? 'free' : body.plan;
    if (!isPlan(plan)) throw badControl(`plan must be one of ${PLAN_NAMES.join(', ')}.`);
    const made = makeKey(username, plan, typeof body.name === 'string' ? body.name : undefined);
    if (!made) throw badControl(`No user ${username}.`);
    json(res, 201, { data: { key: made.key, plan, username: made.username } });
  });

  return router;
}
