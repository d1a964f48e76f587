/**
 * A page's media panel without a browser: reading the route's list (again when the route changes,
 * an answer for a route no longer shown dropped), the sort and the filter sent to the site (a
 * refused filter said at the filter, the list kept), a failed read and its retry, deleting, and
 * what an upload's answer does (taken as it is, or read again while a filter or sort is on). The
 * Host is a small stand-in behind the renderer's transport (the edge the renderer has); what the
 * real Host answers is covered by the integration tests of the same channels.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PageMediaItem, Site } from '../../electron/contract/index';
import { PageMediaState } from '../../renderer/views/media/page-media.svelte';
import { FakeHost, settle, stubFileReader, type Handler } from './support/fake-host';

const item = (filename: string, size = 100): PageMediaItem =>
  ({ filename, type: 'image/png', size, modified: '2026-01-01T00:00:00Z', url: `/user/pages/${filename}` }) as unknown as PageMediaItem;

const site = { id: 's1', name: 'Blog', kind: 'cms', baseUrl: 'https://cms.example.com/api/v1' } as unknown as Site;

/** A stand-in Host: each route's media, and every call it was asked. */
class MediaHost extends FakeHost {
  media: Record<string, PageMediaItem[]> = { '/blog': [item('a.png', 300), item('b.png', 100)], '/about': [item('team.jpg')] };
  handlers: Record<string, Handler> = {
    'media.list': (i) => {
      if (Array.isArray(i.filter) && i.filter.some((f) => String(f).startsWith('caption:'))) {
        throw { code: 'invalid_input', message: 'The site refused the filter.', fields: { filter: 'This site cannot filter by caption.' } };
      }
      if (i.route === '/broken') throw { code: 'network', message: 'The site did not answer.' };
      const list = [...(this.media[String(i.route)] ?? [])];
      if (i.sort === 'size') list.sort((a, b) => (i.order === 'asc' ? a.size - b.size : b.size - a.size));
      return list;
    },
    'media.delete': (i) => {
      this.media[String(i.route)] = (this.media[String(i.route)] ?? []).filter((m) => m.filename !== i.filename);
      return { ok: true };
    },
    'media.uploadChunk': (i) => ({ received: String(i.data).length }),
    'media.upload': (i) => {
      const list = (this.media[String(i.route)] ??= []);
      list.push(item(String(i.filename), 5));
      return [...list];
    },
  };


  listed(): Record<string, unknown>[] {
    return this.calls.filter((c) => c.channel === 'media.list').map((c) => c.input);
  }
}

describe('PageMediaState', () => {
  let host: MediaHost;
  let route: string;
  let changed: string[][];
  let stops: (() => void)[];

  beforeEach(() => {
    host = new MediaHost();
    route = '/blog';
    changed = [];
    stops = [];
    stubFileReader();
  });
  afterEach(() => {
    for (const stop of stops) stop();
    vi.unstubAllGlobals();
  });

  async function opened() {
    const media = new PageMediaState({ site: () => site, route: () => route, onChanged: (list) => changed.push(list.map((m) => m.filename)) });
    stops.push(media.start());
    await media.open();
    return media;
  }

  it('reads the route’s list and hands the whole list on', async () => {
    const media = await opened();
    expect(media.loading).toBe(false);
    expect(media.loadError).toBeNull();
    expect(media.items.map((m) => m.filename)).toEqual(['a.png', 'b.png']);
    expect(host.listed()).toEqual([{ siteId: 's1', route: '/blog' }]);
    expect(changed).toEqual([['a.png', 'b.png']]);
  });

  it('sends the sort; another route is read from the start', async () => {
    const media = await opened();
    media.sort = 'size:asc';
    await media.load();
    expect(host.listed().at(-1)).toEqual({ siteId: 's1', route: '/blog', sort: 'size', order: 'asc' });
    expect(media.items.map((m) => m.filename)).toEqual(['b.png', 'a.png']);
    media.failedThumbs.add('a.png');
    route = '/about';
    const reading = media.open();
    expect(media.loading).toBe(true);
    expect(media.failedThumbs.size).toBe(0);
    await reading;
    expect(media.items.map((m) => m.filename)).toEqual(['team.jpg']);
  });

  it('an answer for a route no longer shown is dropped', async () => {
    const media = await opened();
    host.hold = true;
    const slow = media.load();
    route = '/about';
    host.hold = false;
    const fresh = media.open();
    host.held.splice(0).forEach((go) => go());
    await Promise.all([slow, fresh]);
    expect(media.items.map((m) => m.filename)).toEqual(['team.jpg']);
    // the slow answer for /blog was not taken, nor handed on as the new route's list
    expect(changed).toEqual([['a.png', 'b.png'], ['team.jpg']]);
  });

  it('applies the filter’s clauses; a filtered list is not handed on as the whole', async () => {
    const media = await opened();
    media.toggleFilter();
    expect(media.filterOpen).toBe(true);
    expect(media.clauses).toHaveLength(1); // an empty first clause to fill in
    media.clauses = [{ ...media.clauses[0]!, field: 'title', op: 'contains', value: 'a' }];
    await media.applyFilter();
    expect(media.applied).toEqual(['title:contains:a']);
    expect(host.listed().at(-1)).toEqual({ siteId: 's1', route: '/blog', filter: ['title:contains:a'] });
    expect(changed).toHaveLength(1);
    await media.clearFilter();
    expect(media.applied).toEqual([]);
    expect(host.listed().at(-1)).toEqual({ siteId: 's1', route: '/blog' });
    expect(changed).toHaveLength(2);
  });

  it('a filter the site refuses is said at the filter; the list stays', async () => {
    const media = await opened();
    media.clauses = [{ id: 1, field: 'caption', op: 'contains', value: 'x' }];
    await media.applyFilter();
    expect(media.filterError).toBe('This site cannot filter by caption.');
    expect(media.loadError).toBeNull();
    expect(media.items.map((m) => m.filename)).toEqual(['a.png', 'b.png']);
  });

  it('a failed read is an error with the site’s words; reading again clears it', async () => {
    route = '/broken';
    const media = await opened();
    expect(media.loadError?.message).toBe('The site did not answer.');
    expect(changed).toEqual([]);
    host.handlers['media.list'] = () => [item('back.png')];
    await media.load();
    expect(media.loadError).toBeNull();
    expect(media.items.map((m) => m.filename)).toEqual(['back.png']);
  });

  it('deletes the file asked about and hands the list on', async () => {
    const media = await opened();
    media.askDelete(media.items[0]!);
    expect(media.deleteOpen).toBe(true);
    await media.remove();
    expect(host.calls.at(-1)).toEqual({ channel: 'media.delete', input: { siteId: 's1', route: '/blog', filename: 'a.png' } });
    expect(media.items.map((m) => m.filename)).toEqual(['b.png']);
    expect(changed.at(-1)).toEqual(['b.png']);
  });

  it('previews a file, with its thumbnail’s failure', async () => {
    const media = await opened();
    media.preview(media.items[1]!);
    expect(media.previewOpen).toBe(true);
    expect(media.previewFailed).toBe(false);
    media.failedThumbs.add('b.png');
    expect(media.previewFailed).toBe(true);
    // a file named like an Object member is not taken for a failed one
    media.preview({ ...media.items[1]!, filename: 'constructor' });
    expect(media.previewFailed).toBe(false);
  });

  it('an upload’s answer is the new list; with a sort on, the list is read again', async () => {
    const media = await opened();
    media.uploads.add([new File(['hello'], 'new.png', { type: 'image/png' })]);
    await settle();
    expect(media.uploads.items[0]?.state).toBe('done');
    expect(media.items.map((m) => m.filename)).toEqual(['a.png', 'b.png', 'new.png']);
    expect(changed.at(-1)).toEqual(['a.png', 'b.png', 'new.png']);
    const reads = host.listed().length;

    media.sort = 'size:desc';
    await media.load();
    media.uploads.add([new File(['x'], 'tiny.png', { type: 'image/png' })]);
    await settle();
    expect(host.listed().length).toBe(reads + 2); // the sort's read, then the read after the upload
    expect(media.items.map((m) => m.filename)).toEqual(['a.png', 'b.png', 'new.png', 'tiny.png']);
  });
});
