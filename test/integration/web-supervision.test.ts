/**
 * Browser mode supervises its Host: the Host process killed (SIGKILL) in the middle of a push of
 * 40 drafts and in the middle of a mirror run. The page's socket is closed with "restarting", a
 * new socket opens once the restarted Host can answer, and the work finishes by itself in the new
 * Host: every draft on the site exactly once, the mirror done with nothing failed. The keychain is
 * real (the Host's secrets must survive its restart), under a service of the test's own.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { ErrorInfo } from '../../electron/contract';
import { BRIDGE_CLOSE } from '../../electron/contract/protocol';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { UNHURRIED } from '../support/limits';
import { tempDir } from '../support/tmp';
import { until } from '../support/until';
import { removeWebBuild, startWeb, type WebProcess } from '../support/web-process';

let cms: CmsSandbox;
let dir: ReturnType<typeof tempDir>;
let web: WebProcess & { port: number; token: string };

beforeAll(async () => {
  cms = await startCmsSandbox({ seed: 'demo', content: 'demo', recordRequests: true, ...UNHURRIED });
  dir = tempDir();
  web = await startWeb(dir.path, { SITEDESK_SECRETS: '', SITEDESK_KEYCHAIN_SERVICE: `SitedeskTest-${randomUUID()}` });
}, 60_000);

afterAll(async () => {
  await web?.stop();
  await cms?.close();
  dir?.remove();
  removeWebBuild();
});

/** A page's line to the Host, as the renderer's transport uses it. */
interface Line {
  call<T = unknown>(channel: string, input: unknown): Promise<T>;
  closed: Promise<number>;
  close(): void;
}

async function line(): Promise<Line> {
  const ws = new WebSocket(`ws://127.0.0.1:${web.port}/bridge?token=${web.token}`, { origin: `http://127.0.0.1:${web.port}` });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map<number, { resolve: (v: never) => void; reject: (e: Error) => void }>();
  ws.on('message', (d) => {
    const m = JSON.parse(d.toString()) as { id?: number; ok?: boolean; value?: unknown; error?: ErrorInfo };
    if (m.id === undefined) return;
    const w = waiting.get(m.id);
    waiting.delete(m.id);
    if (m.ok) w?.resolve(m.value as never);
    else w?.reject(new Error(`${m.error?.code}: ${m.error?.message}`));
  });
  const closed = new Promise<number>((resolve) =>
    ws.once('close', (code) => {
      for (const w of waiting.values()) w.reject(new Error('the line closed'));
      resolve(code);
    }),
  );
  return {
    call: (channel, input) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, channel, input }));
      }),
    closed,
    close: () => ws.close(),
  };
}

/** The Host's process: the one child of browser mode's process. */
function hostPid(): number {
  const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(web.child.pid)], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean).map(Number);
  expect(pids).toHaveLength(1);
  return pids[0]!;
}

/** Kills the Host mid-work; answers the page's old line's close code and a new line (opened as the page reconnects). */
async function killHost(old: Line): Promise<{ code: number; fresh: Line; pid: number }> {
  const pid = hostPid();
  process.kill(pid, 'SIGKILL');
  const code = await old.closed;
  const fresh = await line(); // waits while the Host restarts
  return { code, fresh, pid };
}

describe('browser mode restarts a Host that dies', () => {
  let siteId = '';

  test('killed mid-push: the page reconnects, and the outbox finishes by itself, each page written exactly once', async () => {
    let page = await line();
    const site = await page.call<{ id: string }>('sites.add', { name: 'Demo', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
    siteId = site.id;
    const posts = (await page.call<{ items: { route: string }[] }>('pages.level', { siteId, route: '/blog' }).then((l) => l.items)).slice(0, 40).map((p) => p.route);
    expect(posts).toHaveLength(40);
    for (const route of posts) {
      const p = await page.call<{ title: string; header: Record<string, unknown>; content: string }>('pages.get', { siteId, route });
      await page.call('drafts.save', { siteId, route, title: p.title, header: p.header, content: `${p.content}\n\nEdited offline: ${route}` });
    }
    cms.events.clear();
    cms.faults.set({ route: 'PATCH /pages/*', latencyMs: 40 });
    const push = page.call('sync.push', { siteId }).catch((e: Error) => e);
    await until(async () => cms.events.list('onApiPageUpdated').length, (n) => n >= 10, 20_000, 5);
    const { code, fresh, pid } = await killHost(page);
    cms.faults.clear();
    expect(code).toBe(BRIDGE_CLOSE.restarting);
    expect(await push).toBeInstanceOf(Error); // the call in flight failed at once, it did not hang
    expect(cms.events.list('onApiPageUpdated').length).toBeLessThan(40);
    page = fresh;
    expect(hostPid()).not.toBe(pid);

    // nobody pushes again: auto-sync in the new Host finds the outbox and sends what is left
    await until(() => page.call<unknown[]>('sync.outbox', { siteId }), (items) => items.length === 0, 30_000, 100);
    const writes = new Map<string, number>();
    for (const e of cms.events.list('onApiPageUpdated')) {
      const route = (e.data.page as { route: string }).route;
      writes.set(route, (writes.get(route) ?? 0) + 1);
    }
    expect([...writes.keys()].sort()).toEqual([...posts].sort());
    expect([...writes.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(await page.call('drafts.list', {})).toEqual([]);
    for (const route of posts.slice(0, 3)) {
      expect((await page.call<{ content: string }>('pages.get', { siteId, route })).content).toContain(`Edited offline: ${route}`);
    }
    page.close();
  }, 90_000);

  test('killed mid-mirror: the page reconnects, and the run goes on by itself to the end with nothing failed', async () => {
    let page = await line();
    cms.faults.set({ route: 'GET /pages/*', latencyMs: 20 });
    const started = await page.call<{ runId: number }>('mirror.start', { siteId, revalidateAll: true, fresh: true });
    const status = () => page.call<{ runId: number; state: string; done: number; total: number; failed: number; unreadable: number; listed: boolean }[]>('mirror.status', { siteId }).then((s) => s[0]!);
    await until(status, (s) => s.done >= 40, 30_000, 20);
    const { code, fresh } = await killHost(page);
    cms.faults.clear();
    expect(code).toBe(BRIDGE_CLOSE.restarting);
    page = fresh;
    const end = await until(status, (s) => s.state !== 'running', 60_000, 100);
    expect(end).toMatchObject({ runId: started.runId, state: 'done', failed: 0, listed: true });
    expect(end.done).toBeGreaterThan(40);
    // every read the run planned is in the copy (or is a page its API cannot read by route)
    expect(end.done + end.unreadable).toBe(end.total);
    await page.call('sites.remove', { id: siteId }); // and its keychain entries go with it
    page.close();
  }, 120_000);
});

describe('browser mode without a keychain', () => {
  let memWeb: WebProcess & { port: number; token: string };
  let memDir: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    memDir = tempDir();
    memWeb = await startWeb(memDir.path, { SITEDESK_SECRETS: 'memory' });
  }, 60_000);
  afterAll(async () => {
    await memWeb?.stop();
    memDir?.remove();
  });

  test("a restarted Host still has the session's API key: the server keeps session-only secrets, not the Host", async () => {
    const saved = web;
    web = memWeb; // line() and killHost() speak to this browser mode
    try {
      let page = await line();
      const site = await page.call<{ id: string; hasApiKey: boolean }>('sites.add', { name: 'Keyed', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
      expect(site.hasApiKey).toBe(true);
      await page.call('pages.level', { siteId: site.id, route: '/blog' });
      page = (await killHost(page)).fresh;
      // a read the new Host has never made needs the key
      const docs = await page.call<{ items: { route: string }[] }>('pages.level', { siteId: site.id, route: '/docs' }).then((l) => l.items);
      expect(docs.length).toBeGreaterThan(0);
      expect((await page.call<{ id: string; hasApiKey: boolean }[]>('sites.list', {}))[0]).toMatchObject({ hasApiKey: true });
      page.close();
    } finally {
      web = saved;
    }
  }, 60_000);
});
