/**
 * Control routes every sandbox serves under `/__sandbox`, so one running in another process
 * (Playwright's, `npm run sandbox`) can be steered the way in-process tests steer its handle:
 *
 *   GET|POST|DELETE /__sandbox/faults  rules (POST replaces: a rule, an array, or {rules})
 *   GET|POST        /__sandbox/clock   {offsetMs} sets, {advanceMs} moves; answers {offsetMs, now}
 *
 * Bodies are `{data: …}`; a bad request is a 400 problem.
 */
import type { Clock } from './clock';
import type { FaultRule, Faults } from './faults';
import { HttpProblem, json, readBody, readJson, type Router } from './http';

export const CONTROL_PREFIX = '/__sandbox';

export const badControl = (err: unknown) => new HttpProblem(400, 'Bad Request', err instanceof Error ? err.message : String(err));

export function registerFaultControls(router: Router, faults: Faults): void {
  router.on('GET', '/faults', (_req, res) => json(res, 200, { data: faults.list() }));
  router.on('POST', '/faults', async (req, res) => {
    const body = await readJson(req);
    const wrapped = typeof body === 'object' && body !== null && 'rules' in body ? (body as { rules: unknown }).rules : body;
    const rules = (Array.isArray(wrapped) ? wrapped : [wrapped]) as FaultRule[];
    try {
      faults.set(rules);
    } catch (err) {
      throw badControl(err);
    }
    json(res, 200, { data: faults.list() });
  });
  router.on('DELETE', '/faults', (_req, res) => {
    faults.clear();
    res.writeHead(204).end();
  });
}

export function registerClockControls(router: Router, clock: Clock): void {
  const state = () => ({ offsetMs: clock.offsetMs, now: clock.now() });
  router.on('GET', '/clock', (_req, res) => json(res, 200, { data: state() }));
  router.on('POST', '/clock', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.offsetMs === 'number') clock.set(body.offsetMs);
    else if (typeof body.advanceMs === 'number') clock.advance(body.advanceMs);
    else throw badControl('Send {"offsetMs": n} or {"advanceMs": n}.');
    json(res, 200, { data: state() });
  });
}
