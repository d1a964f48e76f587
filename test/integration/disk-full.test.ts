/**
 * A full disk under the data folder (a small tmpfs, mounted for the test): a draft save answers
 * `disk_full` with the disk named in words (never the data path), nothing saved before is lost or
 * damaged, the Host announces the full disk and, once space returns, that there is room again; the
 * same save then goes through (review L7: it was "Something went wrong inside Sitedesk").
 * Mounting needs root; where it is refused the suite says so and does not run.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createHost, DB_FILE, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { ErrorInfo } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { until } from '../support/until';
import { fillDisk } from '../support/storage-faults';

const mountPoint = mkdtempSync(join(tmpdir(), 'sitedesk-full-disk-'));
function tryMount(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const mounted = tryMount();
if (!mounted) console.warn(`disk-full.test: a tmpfs could not be mounted at ${mountPoint} (needs root); the full-disk suite did not run`);

let cms: CmsSandbox;
let host: Host;
const events: { name: string; payload: unknown }[] = [];
const dataDir = join(mountPoint, 'data');
const filler = join(mountPoint, 'filler');

beforeAll(async () => {
  if (!mounted) return;
  cms = await startCmsSandbox({ seed: 'demo', content: 'demo' });
  host = await createHost({ dataDir, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {}, spacePollMs: 50 });
  host.onEvent((name, payload) => events.push({ name, payload }));
});
afterAll(async () => {
  try {
    if (mounted) {
      await host?.close();
      await cms?.close();
    }
  } finally {
    if (mounted) execFileSync('umount', [mountPoint]); // even when a close failed: no mount is left behind
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await host.invoke(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.message}`), r.error);
  return r.value as T;
}

describe.skipIf(!mounted)('a full disk under the data folder', () => {
  test('the save answers disk_full in words, loses nothing, and goes through once there is room', async () => {
    const site = await call<{ id: string }>('sites.add', { name: 'Demo', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
    await call('pages.get', { siteId: site.id, route: '/home' });
    await call('drafts.save', { siteId: site.id, route: '/home', title: 'Home', header: {}, content: 'saved before the disk filled' });

    fillDisk(filler);
    const big = 'a long text that needs new pages in the file. '.repeat(20_000);
    const r = await host.invoke('drafts.save', { siteId: site.id, route: '/home', title: 'Home', header: {}, content: big });
    expect(r.ok).toBe(false);
    const error = (r as { error: ErrorInfo }).error;
    expect(error.code).toBe('disk_full');
    expect(error.message).toMatch(/^The disk holding Sitedesk’s data folder is full/);
    expect(error.message).not.toContain(mountPoint);
    expect(events.find((e) => e.name === 'database.space')?.payload).toMatchObject({ full: true, message: expect.stringMatching(/is full/) });

    // what was saved before is there, and the file is sound
    const drafts = await call<{ id: number }[]>('drafts.list', {});
    expect(drafts).toHaveLength(1);
    const detail = await call<{ mine: { content: string } }>('drafts.get', { draftId: drafts[0]!.id });
    expect(detail.mine.content).toBe('saved before the disk filled');

    rmSync(filler);
    await until(async () => events.filter((e) => e.name === 'database.space').at(-1)?.payload, (p) => (p as { full?: boolean } | undefined)?.full === false, 5000);
    await call('drafts.save', { siteId: site.id, route: '/home', title: 'Home', header: {}, content: big });
    expect((await call<{ mine: { content: string } }>('drafts.get', { draftId: drafts[0]!.id })).mine.content).toBe(big);
    await host.close();
    const check = new Database(join(dataDir, DB_FILE), { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();
    host = await createHost({ dataDir, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {}, spacePollMs: 50 });
    host.onEvent((name, payload) => events.push({ name, payload }));
  });

  test('a mirror run the full disk stops halts without taking the Host down, and goes on by itself once there is room', async () => {
    events.length = 0;
    const site = await call<{ id: string }>('sites.add', { name: 'Mirror', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
    cms.faults.set({ route: 'GET /pages/*', latencyMs: 30 }); // long enough a run to fill the disk in the middle of it
    await call('mirror.start', { siteId: site.id });
    await until(() => call<{ done: number }[]>('mirror.status', { siteId: site.id }), (s) => (s[0]?.done ?? 0) > 20, 20_000, 20);
    fillDisk(filler);
    await until(async () => events.find((e) => e.name === 'database.space'), (e) => e !== undefined, 20_000);
    expect((await host.invoke('app.info', {})).ok).toBe(true); // the Host is up (a throw in the run's timer used to be uncaught)
    cms.faults.clear();
    rmSync(filler);
    const end = await until(() => call<{ state: string; failed: number }[]>('mirror.status', { siteId: site.id }), (s) => s[0]?.state === 'done', 60_000, 100);
    expect(end[0]).toMatchObject({ state: 'done', failed: 0 });
  }, 120_000);
});
