/**
 * Replies neither flavour sends — a field left out, a wrong type, a web page instead of JSON — for
 * a page list, a tree level, a page, page media and /me, made by a proxy in front of each flavour's
 * CMS sandbox: each gets the clear "the site sent something Sitedesk cannot read" message naming
 * the call and the field, and the rest keeps working (the next call, the other site, the session).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import type { Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { HTML_FAULT_BODY } from '../sandbox/faults';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { hostCalls } from '../support/host-calls';
import { startProxy, type Bend, type Proxy } from '../support/proxy';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let proxy: Proxy;
let host: Host;
let dir: ReturnType<typeof tempDir>;
/** The site through the proxy, whose answers the tests bend. */
let bent: Site;
/** The same site, straight: it keeps working whatever the other one was sent. */
let straight: Site;

const { call, fails } = hostCalls(() => host);

type Json = Record<string, unknown>;

/** Bends the answers of calls matching `pattern` (METHOD and path, without the query). */
function bendOnly(pattern: RegExp, change: (body: Json) => unknown): Bend {
  return (called, answer) => {
    if (!pattern.test(called.replace(/\?.*$/, '')) || typeof answer.json !== 'object' || answer.json === null) return null;
    return { status: answer.status, body: JSON.stringify(change(structuredClone(answer.json) as Json)) };
  };
}
const html: Bend = () => ({ status: 200, contentType: 'text/html; charset=utf-8', body: HTML_FAULT_BODY });
const htmlOnly = (pattern: RegExp): Bend => (called, answer) => (pattern.test(called.replace(/\?.*$/, '')) ? html(called, answer) : null);

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor }, site: false });
    ({ cms, host, dir } = fx);
    proxy = await startProxy(cms.origin);
    const key = cms.seeded!.adminApiKey!;
    bent = await call('sites.add', { name: 'Bent', kind: 'cms', baseUrl: `${proxy.origin}${cms.prefix}`, environment: null, authMode: 'apikey', apiKey: key });
    straight = await call('sites.add', { name: 'Straight', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: key });
  });
  afterAll(async () => {
    await proxy.close();
    await fx.close();
  });
  afterEach(() => {
    proxy.bend = null;
  });

  /** After a bad reply: the same call answers again once the site does, and the other site never stopped. */
  async function stillWorking() {
    proxy.bend = null;
    expect((await call('pages.list', { siteId: bent.id, parent: '/about', perPage: 10 })).items.length).toBeGreaterThan(0);
    expect((await call('pages.get', { siteId: bent.id, route: '/about' })).title).toBeTruthy();
    expect((await call('pages.level', { siteId: straight.id, route: '/' }).then((l) => l.items)).length).toBeGreaterThan(0);
    expect((await call('auth.sessions', {})).every((s) => s.state === 'signed_in')).toBe(true);
  }

  describe('a page list', () => {
    test('rows without a route: the others are listed, each bad row named with its field', async () => {
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages$/, (body) => {
        const rows = body.data as Json[];
        for (const row of rows.slice(0, 2)) {
          delete row.route;
          delete row.raw_route;
        }
        return body;
      });
      const r = await call('pages.list', { siteId: bent.id, parent: '/about', perPage: 10 });
      expect(r.unreadable).toEqual([
        expect.objectContaining({ position: 0, route: null, problem: expect.stringMatching(/^route: missing/) }),
        expect.objectContaining({ position: 1, route: null, problem: expect.stringMatching(/^route: missing/) }),
      ]);
      expect(r.items.length).toBeGreaterThan(0);
      await stillWorking();
    });

    test('no data at all, data of the wrong type, a web page: one clear message naming the call and the field', async () => {
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages$/, (body) => ({ meta: body.meta }));
      expect(await fails('pages.list', { siteId: bent.id, perPage: 10 })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent a page list Sitedesk cannot read \(GET \/pages, field data\)/),
      });
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages$/, (body) => ({ ...body, data: 'three pages' }));
      expect(await fails('pages.list', { siteId: bent.id, perPage: 10 })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent a page list Sitedesk cannot read \(GET \/pages, field data\)/),
      });
      proxy.bend = htmlOnly(/^GET \/api\/v1\/pages$/);
      expect(await fails('pages.list', { siteId: bent.id, perPage: 10 })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/answered with a web page instead of JSON.*GET \/pages\b/),
      });
      await stillWorking();
    });

    test('a tree level with a row of the wrong type: the level is shown, the row named', async () => {
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages$/, (body) => {
        const rows = body.data as Json[];
        if (rows[1]) rows[1].published = 'perhaps';
        return body;
      });
      const level = await call('pages.level', { siteId: bent.id, route: '/about' });
      expect(level.items.length).toBeGreaterThan(0);
      expect(level.unreadable).toEqual([expect.objectContaining({ position: 1, route: expect.stringMatching(/^\/about\//), problem: expect.stringMatching(/^published: got "perhaps"|^published: /) })]);
      await stillWorking();
    });
  });

  describe('a page', () => {
    test('a field left out, a wrong type, a web page: the call and the field are named; the cached copy is not touched', async () => {
      // (read through the other site: a copy of its own would make the documents' server answer 304)
      const before = await call('pages.get', { siteId: straight.id, route: '/about/history' });
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages\/about\/history$/, (body) => {
        delete (body.data as Json).route;
        return body;
      });
      expect(await fails('pages.get', { siteId: bent.id, route: '/about/history' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent a page Sitedesk cannot read \(GET \/pages\/about\/history, field data\.route\)/),
      });
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages\/about\/history$/, (body) => {
        (body.data as Json).content = { markdown: 'not text' };
        return body;
      });
      expect(await fails('pages.get', { siteId: bent.id, route: '/about/history' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent a page Sitedesk cannot read \(GET \/pages\/about\/history, field data\.content\)/),
      });
      proxy.bend = htmlOnly(/^GET \/api\/v1\/pages\/about\/history$/);
      expect(await fails('pages.get', { siteId: bent.id, route: '/about/history' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/answered with a web page instead of JSON.*GET \/pages\/about\/history/),
      });
      proxy.bend = null;
      expect(await call('pages.get', { siteId: bent.id, route: '/about/history' })).toMatchObject({ title: before.title, content: before.content });
      await stillWorking();
    });
  });

  describe('page media', () => {
    test('a media list of the wrong shape names the call and the field', async () => {
      proxy.bend = bendOnly(/^GET \/api\/v1\/pages\/home\/media$/, (body) => {
        (body.data as Json[])[0]!.filename = 7;
        return body;
      });
      expect(await fails('media.list', { siteId: bent.id, route: '/home' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent a media list Sitedesk cannot read \(GET \/pages\/home\/media, field data\.0\.filename\)/),
      });
      proxy.bend = htmlOnly(/^GET \/api\/v1\/pages\/home\/media$/);
      expect(await fails('media.list', { siteId: bent.id, route: '/home' })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/web page.*GET \/pages\/home\/media/),
      });
      proxy.bend = null;
      expect((await call('media.list', { siteId: bent.id, route: '/home' })).length).toBeGreaterThan(0);
      await stillWorking();
    });
  });

  describe('/me', () => {
    test('a field left out, a wrong type, a web page: named, and the session is not ended for it', async () => {
      await call('auth.refreshMe', { siteId: bent.id });
      proxy.bend = bendOnly(/^GET \/api\/v1\/me$/, (body) => {
        delete (body.data as Json).username;
        return body;
      });
      expect(await fails('auth.refreshMe', { siteId: bent.id })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent an account description Sitedesk cannot read \(GET \/me, field data\.username\)/),
      });
      proxy.bend = bendOnly(/^GET \/api\/v1\/me$/, (body) => {
        (body.data as Json).access = 'everything';
        return body;
      });
      expect(await fails('auth.refreshMe', { siteId: bent.id })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/sent an account description Sitedesk cannot read \(GET \/me, field data\.access\)/),
      });
      proxy.bend = htmlOnly(/^GET \/api\/v1\/me$/);
      expect(await fails('auth.refreshMe', { siteId: bent.id })).toMatchObject({
        code: 'bad_response',
        message: expect.stringMatching(/web page.*GET \/me/),
      });
      // what was known of the account is kept
      expect((await call('auth.sessions', {})).find((s) => s.siteId === bent.id)).toMatchObject({ state: 'signed_in', me: { username: 'admin' } });
      proxy.bend = null;
      expect(await call('auth.refreshMe', { siteId: bent.id })).toMatchObject({ state: 'signed_in', me: { username: 'admin' } });
      await stillWorking();
    });
  });
});
