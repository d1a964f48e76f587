/**
 * A person clicking around while the demo site is mirrored, against the CMS sandbox's real-flavour
 * limiter with a small bucket (Grav's token bucket per account: 30 tokens, refilled over 3 s):
 * the mirror is bound by the site's budget, the person's page reads go first, and nothing — not
 * the Host's callers, not the server — ever sees a 429. The mirror finishes, and while it runs
 * its progress says how long is left and that the site's limit is why.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import type { MirrorProgress, Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { mirrorStatus, withHost, type DemoHost } from '../support/demo-host';
import { until } from '../support/until';
import { hostCalls } from '../support/host-calls';
import { tempDir } from '../support/tmp';

const LIMIT = 30;
const WINDOW_S = 3;

let cms: CmsSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let site: Site;
const events: MirrorProgress[] = [];
const { call } = hostCalls(() => host);

let fx: DemoHost | undefined;

beforeAll(async () => {
  fx = await withHost({ sandbox: { flavor: 'real', recordRequests: true, limits: { api: { limit: LIMIT, windowSec: WINDOW_S } } } });
  ({ cms, host, dir, site } = fx);
  host.onEvent((name, payload) => {
    if (name === 'mirror.progress') events.push(payload as MirrorProgress);
  });
});
afterAll(() => fx?.close());

test('a mirror bound by a small bucket, a person reading pages meanwhile: no 429 anywhere, the person answered promptly', async () => {
  const routes = cms.content.tree().pages.map((n) => n.route);
  const started = Date.now();
  const run = await call('mirror.start', { siteId: site.id });

  // the person: every second opens a page (its content, its children), until the mirror is done
  const waits: number[] = [];
  const failures: unknown[] = [];
  let mirrorDone = false;
  const person = (async () => {
    for (let i = 0; !mirrorDone; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const route = routes[(i * 37) % routes.length]!;
      const t = Date.now();
      try {
        const page = await call('pages.get', { siteId: site.id, route });
        expect(page.route).toBe(route);
        await call('pages.level', { siteId: site.id, route }).then((l) => l.items);
      } catch (err) {
        failures.push(err);
      }
      waits.push(Date.now() - t);
    }
  })();

  // the test's own time bounds the wait; a look every 200 ms keeps the polling off the budget's clock
  const last = await until(() => mirrorStatus(call, site.id), (s) => s.runId === run.runId && s.state !== 'running', 240_000, 200).finally(() => (mirrorDone = true));
  await person;
  const seconds = (Date.now() - started) / 1000;

  expect(last.state).toBe('done');
  expect(last.done + last.failed).toBe(last.total);
  // nothing fails, least of all for the limit (the demo has no page the API cannot read)
  const failed = await call('mirror.failures', { siteId: site.id });
  expect(failed).toMatchObject({ items: [], unreadable: [] });
  expect(failures).toEqual([]);
  // the server answered no request with a 429, and answered every one
  const log = cms.requests.list();
  expect(log.filter((r) => r.status === 429)).toEqual([]);
  expect(log.filter((r) => r.status === 0)).toEqual([]);
  // the run was bound by the budget (it could not have been quicker than the bucket allows), and
  // used it: not much slower either (measured: 62 s for 60 s of budget)
  const budgetS = (log.length - LIMIT) / (LIMIT / WINDOW_S);
  expect(seconds).toBeGreaterThanOrEqual(budgetS * 0.9);
  expect(seconds).toBeLessThan(budgetS * 1.5 + 10);
  // the person: a page open every second, none kept waiting beyond a refill step or two
  // (measured: median 25 ms, longest 72 ms)
  expect(waits.length).toBeGreaterThan(20);
  expect(Math.max(...waits)).toBeLessThan(2000);
  const sorted = [...waits].sort((a, b) => a - b);
  expect(sorted[Math.floor(sorted.length / 2)]!).toBeLessThan(500);
  // while it read, it said how long was left, and why: the site's limit
  const paced = events.filter((e) => e.runId === run.runId && e.eta?.siteLimit);
  expect(paced.length).toBeGreaterThan(0);
  expect(paced.at(-1)!.eta!.siteLimit).toEqual({ requests: LIMIT, perSeconds: WINDOW_S });
}, 240_000);
