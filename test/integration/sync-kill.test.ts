/**
 * The Host killed with SIGKILL in the middle of pushing many drafts, then started again: every
 * draft ends up on the site exactly once, none is lost, none is written twice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createHost } from '../../electron/core/host';
import type { Result } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { FileSecretStore } from '../support/file-secrets';
import { flavors } from '../support/flavors';
import { tempDir } from '../support/tmp';
import { until } from '../support/until';

let cms: CmsSandbox;
let dir: ReturnType<typeof tempDir>;
let childEntry: string;

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    const { bundleTs } = await import('../../scripts/bundle-ts.mjs');
    childEntry = await bundleTs('test/support/host-child.ts', 'out/test/host-child.mjs');
    // not a test of the rate limit: the real service's 120 a minute would only make it wait
    cms = await startCmsSandbox({ flavor, seed: 'demo', content: 'demo', limits: { api: { limit: 10_000, windowSec: 60 } } });
    dir = tempDir();
  });
  afterAll(async () => {
    await cms.close();
    dir.remove();
  });

  function startChild(): Promise<{ child: ChildProcess; call: (channel: string, input: unknown) => Promise<Result<unknown>> }> {
    const child = fork(childEntry, [dir.path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let next = 1;
    const waiting = new Map<number, (r: Result<unknown>) => void>();
    return new Promise((resolve, reject) => {
      child.on('message', (m: { ready?: boolean; id?: number; result?: Result<unknown> }) => {
        if (m.ready) resolve({ child, call: (channel, input) => new Promise((res) => (waiting.set(next, res), child.send({ id: next++, channel, input }))) });
        else if (m.id !== undefined) waiting.get(m.id)?.(m.result!);
      });
      child.once('exit', (code) => reject(new Error(`host child exited with ${code}`)));
    });
  }

  test('SIGKILL during a push of 40 drafts: after a restart each is on the site exactly once', async () => {
    const { child, call } = await startChild();
    const ok = async (channel: string, input: unknown) => {
      const r = await call(channel, input);
      if (!r.ok) throw new Error(`${channel}: ${r.error.message}`);
      return r.value as never;
    };
    const site = await ok('sites.add', { name: 'Demo', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! }) as { id: string };
    const posts = (await ok('pages.level', { siteId: site.id, route: '/blog' }) as { items: { route: string }[] }).items.slice(0, 40).map((p) => p.route);
    for (const route of posts) {
      const page = await ok('pages.get', { siteId: site.id, route }) as { title: string; header: Record<string, unknown>; content: string };
      await ok('drafts.save', { siteId: site.id, route, title: page.title, header: page.header, content: `${page.content}\n\nEdited offline: ${route}` });
    }
    cms.events.clear();
    cms.faults.set({ route: 'PATCH /pages/*', latencyMs: 30 });
    void call('sync.push', { siteId: site.id });
    // kill it mid-way: some PATCHes answered, one perhaps in flight, the rest not sent
    try {
      await until(async () => cms.events.list('onApiPageUpdated').length, (n) => n >= 12, 15_000, 5);
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    cms.faults.clear();
    const before = cms.events.list('onApiPageUpdated').length;
    expect(before).toBeGreaterThanOrEqual(12);
    expect(before).toBeLessThan(40);

    const host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets: new FileSecretStore(join(dir.path, 'secrets.json')), log: () => {} });
    try {
      // what the dead Host had not confirmed is still queued: the unsent ones, plus at most the one in flight
      const queued = await host.invoke('sync.outbox', { siteId: site.id });
      const left = queued.ok ? (queued.value as unknown[]).length : -1;
      expect(left).toBeGreaterThanOrEqual(40 - before);
      expect(left).toBeLessThanOrEqual(40 - before + 1);
      const r = await host.invoke('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ ok: true, value: { conflicted: 0, rejected: 0, remaining: 0 } });
      // exactly one write per page, and every page holds its offline edit
      const writes = new Map<string, number>();
      for (const e of cms.events.list('onApiPageUpdated')) {
        const route = (e.data.page as { route: string }).route;
        writes.set(route, (writes.get(route) ?? 0) + 1);
      }
      expect([...writes.keys()].sort()).toEqual([...posts].sort());
      expect([...writes.values()].every((n) => n === 1)).toBe(true);
      const drafts = await host.invoke('drafts.list', {});
      expect(drafts).toEqual({ ok: true, value: [] });
      for (const route of posts.slice(0, 5)) {
        const p = await host.invoke('pages.get', { siteId: site.id, route });
        expect(p.ok && (p.value as { content: string }).content).toContain(`Edited offline: ${route}`);
      }
    } finally {
      await host.close();
    }
  });
});
