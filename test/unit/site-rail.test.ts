/**
 * The site rail without a browser: Alt+arrow moves and what the live region says (moved, already
 * at the edge, a refusal put back), the row an arrow key, Home or End goes to, and the drag marks
 * and drop index (a gap next to the row itself moves nothing). The Host is a small stand-in behind
 * the renderer's transport (the edge the renderer has); the rail works on the app-wide site list,
 * loaded from it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { flushSync, tick } from 'svelte';
import type { Site } from '../../electron/contract/index';
import { setTransport } from '../../renderer/lib/client';
import { sites } from '../../renderer/state/sites.svelte';
import { SiteRailState } from '../../renderer/views/sites/site-rail.svelte';

const site = (id: string, name: string) => ({ id, name, kind: 'cms', baseUrl: `https://${id}.example.com/api/v1` }) as unknown as Site;

/** A stand-in Host keeping the saved order; it refuses to save while `refuse` is set. */
class FakeHost {
  list = [site('a', 'Alpha'), site('b', 'Beta'), site('c', 'Gamma')];
  reorders: string[][] = [];
  refuse = false;

  constructor() {
    setTransport({
      kind: 'browser',
      invoke: async (channel, input) => {
        if (channel === 'sites.list') return { ok: true, value: structuredClone(this.list) };
        if (channel === 'sites.reorder') {
          const ids = (input as { ids: string[] }).ids;
          this.reorders.push(ids);
          if (this.refuse) return { ok: false, error: { code: 'internal', message: 'The order could not be saved.' } };
          this.list = ids.map((id) => this.list.find((s) => s.id === id)!);
          return { ok: true, value: structuredClone(this.list) };
        }
        return { ok: false, error: { code: 'internal', message: `no ${channel} here` } };
      },
      on: () => () => {},
    });
  }
}

const names = () => sites.list.map((s) => s.name);

/** The announcement is set after a tick (cleared first, so the same words are read again). */
async function said(rail: SiteRailState) {
  await tick();
  flushSync();
  return rail.announcement;
}

describe('SiteRailState', () => {
  let host: FakeHost;
  let rail: SiteRailState;
  beforeEach(async () => {
    host = new FakeHost();
    await sites.load();
    rail = new SiteRailState();
  });

  it('moves a site one place and says where it went', async () => {
    expect(await rail.move(sites.byId('c')!, -1)).toBe(true);
    expect(names()).toEqual(['Alpha', 'Gamma', 'Beta']);
    expect(host.reorders).toEqual([['a', 'c', 'b']]);
    expect(await said(rail)).toBe('Gamma moved to position 2 of 3.');
  });

  it('at the edge nothing is sent and the rail says why', async () => {
    expect(await rail.move(sites.byId('a')!, -1)).toBe(false);
    expect(await said(rail)).toBe('Alpha is already first.');
    expect(await rail.move(sites.byId('c')!, 1)).toBe(false);
    expect(await said(rail)).toBe('Gamma is already last.');
    expect(host.reorders).toEqual([]);
  });

  it('an order the Host refuses is put back, and nothing is announced', async () => {
    host.refuse = true;
    expect(await rail.move(sites.byId('a')!, 1)).toBe(false);
    expect(names()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await said(rail)).toBe('');
  });

  it('arrow keys, Home and End name the row to go to', () => {
    expect(rail.navTarget('ArrowDown', 0)?.id).toBe('b');
    expect(rail.navTarget('ArrowUp', 0)).toBeUndefined();
    expect(rail.navTarget('ArrowUp', 2)?.id).toBe('b');
    expect(rail.navTarget('End', 0)?.id).toBe('c');
    expect(rail.navTarget('Home', 2)?.id).toBe('a');
    expect(rail.navTarget('Enter', 1)).toBeUndefined();
    expect(rail.isNavKey('Home')).toBe(true);
    expect(rail.isNavKey('Tab')).toBe(false);
  });

  it('a drag draws no line where the drop would not move the row', () => {
    rail.dragOver('b', null);
    expect(rail.dragId).toBe('b');
    expect(rail.dropIndex).toBeNull();
    rail.dragOver('b', 1); // just above itself
    expect(rail.dropIndex).toBeNull();
    rail.dragOver('b', 2); // just below itself
    expect(rail.dropIndex).toBeNull();
    rail.dragOver('b', 0);
    expect(rail.dropIndex).toBe(0);
    expect(rail.dropBefore(0)).toBe(true);
    expect(rail.dropAfter(2)).toBe(false);
    rail.dragOver('a', 3); // the end of the list: the line is after the last row
    expect(rail.dropBefore(2)).toBe(false);
    expect(rail.dropAfter(2)).toBe(true);
    rail.dragOver(null, null);
    expect(rail.dragId).toBeNull();
    expect(rail.dropIndex).toBeNull();
  });

  it('a drop puts the row in the gap, counted without it, and says so', async () => {
    await rail.drop('a', 3);
    expect(names()).toEqual(['Beta', 'Gamma', 'Alpha']);
    expect(host.reorders.at(-1)).toEqual(['b', 'c', 'a']);
    expect(rail.announcement).toBe('Alpha moved to position 3 of 3.');
    await rail.drop('a', 0);
    expect(names()).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(rail.dragId).toBeNull();
  });

  it('a drop next to the row itself sends nothing', async () => {
    await rail.drop('b', 1);
    await rail.drop('b', 2);
    expect(host.reorders).toEqual([]);
    expect(names()).toEqual(['Alpha', 'Beta', 'Gamma']);
  });
});
