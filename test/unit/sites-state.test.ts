/**
 * The app-wide site list (renderer/state/sites.svelte.ts) against a stand-in Host behind the
 * renderer's transport: a `sites.list` answer that left the Host before a `sites.changed` event
 * arrived is older than the event, and never undoes it (the rule HostMirror keeps for the others).
 */
import { describe, expect, test } from 'vitest';
import type { Site } from '../../electron/contract/index';
import { setTransport } from '../../renderer/lib/client';
import { sites } from '../../renderer/state/sites.svelte';

const site = (id: string, name: string) => ({ id, name, kind: 'cms', baseUrl: `https://${id}.example.com/api/v1` }) as unknown as Site;

describe('the site list', () => {
  test('a slow list answer does not undo a newer sites.changed event', async () => {
    let answer: ((list: Site[]) => void) | undefined;
    const listeners = new Set<(list: Site[]) => void>();
    setTransport({
      kind: 'browser',
      invoke: (channel) =>
        channel === 'sites.list'
          ? new Promise((resolve) => (answer = (list) => resolve({ ok: true, value: list })))
          : Promise.resolve({ ok: false, error: { code: 'internal', message: `no ${channel} here` } }),
      on: (event, cb) => {
        if (event !== 'sites.changed') return () => {};
        const l = cb as (list: Site[]) => void;
        listeners.add(l);
        return () => listeners.delete(l);
      },
    });
    const stop = sites.start();
    try {
      const loading = sites.load();
      // the list call is on its way; meanwhile a site is renamed on the Host
      for (const l of listeners) l([site('a', 'Renamed')]);
      answer!([site('a', 'Old name')]);
      await loading;
      expect(sites.list.map((s) => s.name)).toEqual(['Renamed']);

      // with no event in between, a list answer is taken as it is
      const again = sites.load();
      answer!([site('a', 'Renamed'), site('b', 'Second')]);
      await again;
      expect(sites.list.map((s) => s.name)).toEqual(['Renamed', 'Second']);
    } finally {
      stop();
    }
  });
});
