/** The updates across sites: rows from each site's summary, and the work a selection asks for. */
import { describe, expect, test } from 'vitest';
import type { SiteUpdates, UpdateSummary } from '../../electron/contract';
import { requestsFor, updateRows } from '../../renderer/views/packages/updates-across';

const summary = (o: Partial<UpdateSummary> = {}): UpdateSummary => ({
  core: { installed: '1.8.0', available: '1.8.2', updatable: true, symlink: false, date: null },
  plugins: [{ slug: 'email', type: 'plugin', name: 'Email', installed: '5.0.3', available: '5.1.0', symlink: false }],
  themes: [],
  total: 2,
  installed: 10,
  copiedAt: null,
  ...o,
});

describe('updates across sites', () => {
  test('a row per update and core; a site skipped, or only read from the copy, has none', () => {
    const sites: SiteUpdates[] = [
      { siteId: 'a', summary: summary(), skipped: null },
      { siteId: 'b', summary: null, skipped: 'B is not signed in.' },
      { siteId: 'c', summary: summary({ copiedAt: '2026-11-24T10:00:00Z' }), skipped: 'C is not answering' },
      { siteId: 'd', summary: summary({ core: { installed: '1.8.0', available: '1.8.2', updatable: false, symlink: true, date: null }, plugins: [{ slug: 'dev', type: 'plugin', name: 'Dev', installed: '1', available: '2', symlink: true }] }), skipped: null },
    ];
    const rows = updateRows(sites);
    expect(rows.map((r) => r.key)).toEqual(['a/core', 'a/plugin/email', 'd/core', 'd/plugin/dev']);
    expect(rows.find((r) => r.key === 'd/core')!.symlink).toBe(true);
  });

  test('the chosen rows become work, packages before the core of a site, never a symlinked one', () => {
    const rows = updateRows([
      { siteId: 'a', summary: summary(), skipped: null },
      { siteId: 'd', summary: summary({ plugins: [{ slug: 'dev', type: 'plugin', name: 'Dev', installed: '1', available: '2', symlink: true }] }), skipped: null },
    ]);
    const all = new Set(rows.map((r) => r.key));
    expect(requestsFor(rows, all)).toEqual([
      { kind: 'update', siteId: 'a', slug: 'email' },
      { kind: 'upgrade', siteId: 'a' },
      { kind: 'upgrade', siteId: 'd' },
    ]);
    expect(requestsFor(rows, new Set(['d/plugin/dev']))).toEqual([]);
  });
});
