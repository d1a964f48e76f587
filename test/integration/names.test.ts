/**
 * Names from input or from a site cannot climb (review L1): `.`, `..`, separators and control
 * characters in a file name or a route segment are refused at the contract, with the field named,
 * and again where the API module makes the URL path, before any request leaves. The repro: a media
 * delete of `..` was sent as DELETE …/pages/about/media/.., which the URL parser made DELETE
 * …/pages/about/ — the page was deleted. Against the CMS sandbox on both flavours, over loopback.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withHost, type DemoHost } from '../support/demo-host';
import { adminApi } from '../support/host-calls';
import { flavors } from '../support/flavors';
import { Transport } from '../../electron/api/transport';
import { cmsMedia } from '../../electron/api/cms/media';
import { cmsPages } from '../../electron/api/cms/pages';
import { cmsBlueprints } from '../../electron/api/cms/blueprints';

const CLIMBING = ['..', '.', 'a/b', '../x', 'a\\b', 'a\u0000b', 'a\nb', 'a\u007fb'];

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor } });
  });
  afterAll(() => fx?.close());

  test('media.delete of a name that climbs or holds a control character is refused at the field; the page stays', async () => {
    for (const filename of CLIMBING) {
      const e = await fx.fails('media.delete', { siteId: fx.site.id, route: '/about', filename });
      expect(e.code, JSON.stringify(filename)).toBe('invalid_input');
      expect(e.fields, JSON.stringify(filename)).toHaveProperty('filename');
    }
    expect((await fx.call('pages.get', { siteId: fx.site.id, route: '/about' })).route).toBe('/about');
  });

  test('a route segment with a control character or a backslash is refused at the field', async () => {
    for (const route of ['/about/a\u0001b', '/about/a\\b', '/about/..']) {
      const e = await fx.fails('pages.delete', { siteId: fx.site.id, route });
      expect(e.code, JSON.stringify(route)).toBe('invalid_input');
      expect(e.fields, JSON.stringify(route)).toHaveProperty('route');
    }
  });

  test('the API modules refuse the same names where they make the path, before any request leaves', async () => {
    const sent: string[] = [];
    const admin = adminApi(fx.cms);
    const t = new Transport({
      baseUrl: fx.cms.url,
      fetch: ((input: string | URL | Request, init?: RequestInit) => (sent.push(String(input)), fetch(input, init))) as typeof fetch,
      credentials: { headers: async () => ({ 'X-API-Key': fx.cms.seeded!.adminApiKey! }), unauthorized: async () => false },
    });
    for (const name of CLIMBING) await expect(cmsMedia.remove(t, '/about', name), JSON.stringify(name)).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(cmsPages.remove(t, '/about/..')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(cmsPages.remove(t, '/about/./.')).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(cmsBlueprints.page(t, '../default')).rejects.toMatchObject({ code: 'invalid_input' });
    expect(sent).toEqual([]);
    expect((await admin.call({ path: '/pages/about' })).status).toBe(200);
  });

  test('real names with dots, spaces and letters of any language still go through', async () => {
    const page = await fx.call('pages.get', { siteId: fx.site.id, route: '/about/our team' });
    expect(page.route).toBe('/about/our team');
    await fx.call('media.delete', { siteId: fx.site.id, route: '/home', filename: 'notes.txt' });
    const list = await fx.call('media.list', { siteId: fx.site.id, route: '/home' });
    expect(list.map((m) => m.filename)).not.toContain('notes.txt');
  });
});
