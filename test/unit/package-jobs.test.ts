/**
 * The package work queue without I/O: one job at a time per site, a few sites side by side, each
 * change reported, a failure recorded in words, a retry that keeps no licence, and a close that
 * skips what had not started.
 */
import { describe, expect, test } from 'vitest';
import { AppError } from '../../electron/base/app-error';
import type { PackageJob, PackageJobRequest } from '../../electron/contract';
import { packageJobs, type JobOutcome } from '../../electron/packages/jobs';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const C = '00000000-0000-4000-8000-00000000000c';

function harness(concurrency = 2) {
  const pending = new Map<string, { resolve: (o: JobOutcome) => void; reject: (e: unknown) => void }>();
  const started: string[] = [];
  const events: PackageJob[] = [];
  const jobs = packageJobs({
    concurrency,
    execute: (job) =>
      new Promise<JobOutcome>((resolve, reject) => {
        started.push(job.label);
        pending.set(job.label, { resolve, reject });
      }),
    emit: (j) => events.push(j),
    label: (r) => `${r.kind} ${'slug' in r ? r.slug : ''} ${r.siteId.slice(-1)}`.replace(/\s+/g, ' ').trim(),
  });
  const settle = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { jobs, pending, started, events, settle };
}

describe('packageJobs', () => {
  test('one at a time per site, a few sites at once, in the order asked', async () => {
    const h = harness(2);
    const reqs: PackageJobRequest[] = [
      { kind: 'update', siteId: A, slug: 'one' },
      { kind: 'update', siteId: A, slug: 'two' },
      { kind: 'update', siteId: B, slug: 'one' },
      { kind: 'update', siteId: C, slug: 'one' },
    ];
    const queued = h.jobs.run(reqs);
    expect(queued.map((j) => j.state)).toEqual(['queued', 'queued', 'queued', 'queued']);
    expect(new Set(queued.map((j) => j.batchId)).size).toBe(1);
    await h.settle();
    expect(h.started).toEqual(['update one a', 'update one b']); // A's second waits for A; C waits for a free slot
    h.pending.get('update one a')!.resolve({ message: 'ok', fromVersion: '1.0', toVersion: '1.1' });
    await h.settle();
    expect(h.started).toEqual(['update one a', 'update one b', 'update two a']);
    h.pending.get('update one b')!.reject(new AppError({ code: 'http', message: 'The site said no.' }));
    await h.settle();
    expect(h.started.at(-1)).toBe('update one c');
    const list = h.jobs.list();
    expect(list.find((j) => j.label === 'update one a')).toMatchObject({ state: 'done', message: 'ok', fromVersion: '1.0', toVersion: '1.1', endedAt: expect.any(String) });
    expect(list.find((j) => j.label === 'update one b')).toMatchObject({ state: 'failed', message: 'The site said no.' });
    // every change was reported: queued, running, ended
    expect(h.events.filter((e) => e.label === 'update one a').map((e) => e.state)).toEqual(['queued', 'running', 'done']);
  });

  test('a skip is said, not failed; an unexpected error is a plain sentence; finished jobs can be cleared', async () => {
    const h = harness(3);
    const [x, y] = h.jobs.run([
      { kind: 'upgrade', siteId: A },
      { kind: 'remove', siteId: B, slug: 'gone' },
    ]);
    await h.settle();
    h.pending.get('upgrade a')!.resolve({ skipped: true, message: 'The core is installed through a symlink.' });
    h.pending.get('remove gone b')!.reject(new TypeError('boom'));
    await h.settle();
    expect(h.jobs.list().find((j) => j.id === x!.id)).toMatchObject({ state: 'skipped', message: 'The core is installed through a symlink.' });
    expect(h.jobs.list().find((j) => j.id === y!.id)!.message).toMatch(/^Something went wrong in Sitedesk/);
    expect(h.jobs.clear([x!.id])).toBe(1);
    expect(h.jobs.list().map((j) => j.id)).toEqual([y!.id]);
  });

  test('a retry keeps the request but not a licence; a staged zip cannot be retried', () => {
    const h = harness(0); // nothing starts
    const [install, zip] = h.jobs.run([
      { kind: 'install', siteId: A, slug: 'pro', type: 'plugin', licence: 'ABCDEF01-ABCDEF01-ABCDEF01-ABCDEF01' },
      { kind: 'directZip', siteId: A, uploadId: 'u1', filename: 'x.zip' },
    ]);
    expect(install!.retry).toEqual({ kind: 'install', siteId: A, slug: 'pro', type: 'plugin' });
    expect(JSON.stringify(h.jobs.list())).not.toContain('ABCDEF01');
    expect(zip!.retry).toBeNull();
  });

  test('closing skips what had not started; a removed site’s queued work is skipped', async () => {
    const h = harness(1);
    h.jobs.run([
      { kind: 'update', siteId: A, slug: 'one' },
      { kind: 'update', siteId: B, slug: 'one' },
      { kind: 'update', siteId: C, slug: 'one' },
    ]);
    await h.settle();
    h.jobs.dropSite(B);
    h.jobs.close();
    const byLabel = Object.fromEntries(h.jobs.list().map((j) => [j.label, j]));
    expect(byLabel['update one a']!.state).toBe('running');
    expect(byLabel['update one b']).toMatchObject({ state: 'skipped', message: 'The site was removed from Sitedesk.' });
    expect(byLabel['update one c']).toMatchObject({ state: 'skipped', message: expect.stringMatching(/closed before this started/) });
    expect(() => h.jobs.run([{ kind: 'upgrade', siteId: A }])).toThrow(/closing/);
  });
});
