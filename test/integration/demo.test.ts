/**
 * A site's demo mode through the Host against the sandbox (both flavours): the status read and
 * kept as a copy, a baseline captured (`captured: false` without a writable root said in the
 * site's words), a reset restoring the content (`reset: false` without a baseline), the gates
 * (demo accounts and accounts that are not super refused, in words), the lazy reset on the
 * sandbox's clock seen in the status read after it, the copy while the site is away and the writes
 * refused then, never queued.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Site } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { adminApi } from '../support/host-calls';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';

const MIN = 60_000;

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  let route: string;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
    route = fx.cms.content.tree().pages.find((p) => p.route !== '/')!.route;
  });
  afterAll(async () => {
    await fx?.close();
  });
  const siteId = () => fx.site.id;
  const titleOnSite = async () => ((await adminApi(fx.cms).call<{ title: string }>({ path: `/pages${route}` })).data.title);
  /** A site added with an API key of a new account holding `access`. */
  async function siteAs(username: string, access: unknown): Promise<Site> {
    await fx.cms.accounts.create({ username, password: 'a-long-password-1', email: `${username}@example.test`, access });
    const apiKey = fx.cms.apiKeys.create({ username, name: 'test', scopes: [] }).api_key;
    return fx.call('sites.add', { name: `As ${username}`, kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey });
  }

  test('the status before a baseline: nothing captured, the writable permissions and roots, no countdown', async () => {
    const status = await fx.call('demo.status', { siteId: siteId() });
    expect(status).toMatchObject({ baselineExists: false, writable: ['api.pages.write', 'api.media.write'], roots: ['pages', 'media'], resetInterval: 30, resetOnRequest: true, resetOnSchedule: true, lastReset: null, secondsUntilReset: null, copiedAt: null });
    expect(Math.abs(Date.parse(status.readAt) - Date.now())).toBeLessThan(5_000);
  });

  test('gates: a demo account and an account that is not super are refused, said in words', async () => {
    const demo = await siteAs(`visitor-${flavor}`, { api: { access: true, super: true, demo: true } });
    const plain = await siteAs(`sysadmin-${flavor}`, { api: { access: true, system: { read: true, write: true } } });
    for (const channel of ['demo.baseline', 'demo.reset'] as const) {
      const refusedDemo = await fx.fails(channel, { siteId: demo.id });
      expect(refusedDemo.code).toBe('forbidden');
      expect(refusedDemo.message).toMatch(/read-only demo|demo/i);
      const refusedPlain = await fx.fails(channel, { siteId: plain.id });
      expect(refusedPlain.code).toBe('forbidden');
    }
    // the status is any signed-in account's to read
    expect((await fx.call('demo.status', { siteId: plain.id })).baselineExists).toBe(false);
    expect(fx.cms.ops.demo.baselineExists()).toBe(false);
  });

  test('no baseline: a reset answers reset false in the site’s words; no writable root: captured false', async () => {
    const reset = await fx.call('demo.reset', { siteId: siteId() });
    expect(reset).toMatchObject({ done: false, message: 'Nothing to reset — capture a baseline first.', status: { baselineExists: false } });
    fx.cms.ops.demo.knobs.writableRoot = false;
    try {
      const captured = await fx.call('demo.baseline', { siteId: siteId() });
      expect(captured).toMatchObject({ done: false, message: 'No writable demo resources are configured, so there is nothing to capture.', status: { baselineExists: false, roots: [] } });
    } finally {
      fx.cms.ops.demo.knobs.writableRoot = true;
    }
  });

  test('capture, edit, reset: the content is back; the status counts down from the capture', async () => {
    const before = await titleOnSite();
    const captured = await fx.call('demo.baseline', { siteId: siteId() });
    expect(captured).toMatchObject({ done: true, message: 'Demo baseline captured.', status: { baselineExists: true, resetInterval: 30 } });
    expect(captured.status.secondsUntilReset).toBeGreaterThan(30 * 60 - 5);
    expect(captured.status.lastReset).toEqual(expect.any(String));
    // the copy follows the answer
    expect((await fx.call('demo.status', { siteId: siteId() })).baselineExists).toBe(true);

    await adminApi(fx.cms).call({ method: 'PATCH', path: `/pages${route}`, body: { title: 'Vandalised' } });
    expect(await titleOnSite()).toBe('Vandalised');

    fx.cms.clock.advance(5 * MIN);
    const reset = await fx.call('demo.reset', { siteId: siteId() });
    expect(reset).toMatchObject({ done: true, message: 'Demo content reset to baseline.', status: { baselineExists: true } });
    expect(reset.status.secondsUntilReset).toBeGreaterThan(30 * 60 - 5);
    expect(await titleOnSite()).toBe(before);
  });

  test('the lazy reset on the sandbox’s clock: once the interval runs out the next request resets, and the status says so', async () => {
    const start = await fx.call('demo.status', { siteId: siteId() });
    expect(start.baselineExists).toBe(true);
    fx.cms.clock.advance(29 * MIN);
    const near = await fx.call('demo.status', { siteId: siteId() });
    expect(near.secondsUntilReset).toBeLessThanOrEqual(65);
    expect(near.secondsUntilReset).toBeGreaterThan(0);
    const resets = fx.cms.ops.demo.resets;
    fx.cms.clock.advance(2 * MIN);
    // the request itself resets the stale demo first, then answers the fresh countdown
    const after = await fx.call('demo.status', { siteId: siteId() });
    expect(fx.cms.ops.demo.resets).toBe(resets + 1);
    expect(after.secondsUntilReset).toBeGreaterThan(30 * 60 - 5);
    expect(Date.parse(after.lastReset!)).toBeGreaterThan(Date.parse(near.lastReset!));
  });

  test('the site away: the status from the copy with its time; capture and reset refused, nothing queued', async () => {
    await fx.call('demo.status', { siteId: siteId() });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('demo.status', { siteId: siteId() });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.baselineExists).toBe(true);
      expect((await fx.fails('demo.reset', { siteId: siteId() })).message).toMatch(/The demo content was not reset; it is never sent later/);
      expect((await fx.fails('demo.baseline', { siteId: siteId() })).message).toMatch(/The demo baseline was not captured; it is never sent later/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
  });
});
