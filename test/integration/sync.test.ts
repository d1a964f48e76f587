/**
 * Drafts and push against the CMS sandbox: clean merges, conflicts resolved in the merge view,
 * 422 parked with its fields, network failure kept queued with backoff, and the "may have arrived"
 * cases after a crash (nothing sent twice).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { openDatabase, closeDatabase, repositories } from '../../electron/db';
import { cmsPages } from '../../electron/api/cms/pages';
import { pushSite } from '../../electron/sync/push';
import type { ChannelInput, Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { DEMO_ACCOUNTS } from '../sandbox/cms/seed';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { adminApi, hostCalls } from '../support/host-calls';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let site: Site;
const requests: string[] = [];
/** Each answer's request and status, in order (the token test watches for 401s). */
const answers: string[] = [];
/** Called before each request goes out. */
let beforeRequest: ((what: string) => void) | null = null;

const { call, fails } = hostCalls(() => host);
const server = () => adminApi(cms);
const serverPage = async (route: string) => (await cmsPages.get(server(), route));

/** The Host's fetch: records each request and its answer. */
const recording: typeof fetch = async (input, init) => {
  const what = `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`;
  requests.push(what);
  beforeRequest?.(what);
  const res = await fetch(input, init);
  answers.push(`${what} ${res.status}`);
  return res;
};
let fx: DemoHost;
/** opens the Host again after a test closed it and changed its database */
const openHost = async () => {
  host = await fx.open();
};

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor }, host: { fetch: recording } });
    ({ cms, host, dir, site } = fx);
  });
  afterAll(() => fx.close());
  afterEach(() => cms.faults.clear());

  const L = (...xs: string[]) => xs.join('\n');

  async function draftOf(route: string, edit: (content: string) => string, extra: Partial<ChannelInput<'drafts.save'>> = {}) {
    const page = await call('pages.get', { siteId: site.id, route });
    return call('drafts.save', { siteId: site.id, route, title: page.title, header: page.header, content: edit(page.content), ...extra });
  }

  describe('push', () => {
    test('a draft is saved locally at once and reaches the site on push', async () => {
      await cmsPages.update(server(), '/about/history', { content: L('one', 'two', 'three') });
      const d = await draftOf('/about/history', () => L('one', 'TWO', 'three'));
      expect(d.state).toBe('pending');
      expect((await call('sync.status', {})).find((s) => s.siteId === site.id)).toMatchObject({ pending: 1 });
      expect((await serverPage('/about/history')).content).toBe(L('one', 'two', 'three')); // nothing sent yet
      const r = await call('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ pushed: 1, conflicted: 0, remaining: 0 });
      expect((await serverPage('/about/history')).content).toBe(L('one', 'TWO', 'three'));
      expect(await call('drafts.list', { siteId: site.id })).toEqual([]);
    });

    test('another client edited other lines meanwhile: merged cleanly, both edits kept', async () => {
      await cmsPages.update(server(), '/about/history', { content: L('a', 'b', 'c', 'd', 'e') });
      await draftOf('/about/history', () => L('A', 'b', 'c', 'd', 'e'));
      await cmsPages.update(server(), '/about/history', { content: L('a', 'b', 'c', 'd', 'E') }); // the other client
      const r = await call('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ pushed: 1, conflicted: 0 });
      expect((await serverPage('/about/history')).content).toBe(L('A', 'b', 'c', 'd', 'E'));
    });

    test('the same line edited on both sides: conflicted, resolved in the merge view, then pushed', async () => {
      await cmsPages.update(server(), '/about/history', { content: L('x', 'y', 'z') });
      const d = await draftOf('/about/history', () => L('x', 'mine', 'z'));
      await cmsPages.update(server(), '/about/history', { content: L('x', 'theirs', 'z') });
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 0, conflicted: 1, remaining: 1 });
      const detail = await call('drafts.get', { draftId: d.id });
      expect(detail.state).toBe('conflicted');
      expect(detail.merge!.text.hunks).toContainEqual({ kind: 'conflict', base: ['y'], mine: ['mine'], theirs: ['theirs'] });
      expect((await serverPage('/about/history')).content).toBe(L('x', 'theirs', 'z')); // theirs untouched
      // a second push leaves it waiting
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 0, remaining: 1 });
      // resolving pushes that page at once and says so
      const resolved = await call('drafts.resolve', { draftId: d.id, title: detail.mine.title, header: detail.mine.header, content: L('x', 'mine', 'theirs', 'z') });
      expect(resolved).toMatchObject({ outcome: 'pushed', page: { route: '/about/history', content: L('x', 'mine', 'theirs', 'z') } });
      expect((await serverPage('/about/history')).content).toBe(L('x', 'mine', 'theirs', 'z'));
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 0, remaining: 0 });
    });

    test('a 422 parks that draft with the fields; the others go on', async () => {
      const bad = await draftOf('/about/press', (c) => c + '\nmore', { template: 'bad.name' });
      await draftOf('/about/history', () => 'fine');
      const r = await call('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ pushed: 1, rejected: 1, remaining: 1 });
      const [d] = await call('drafts.list', { siteId: site.id });
      expect(d).toMatchObject({ id: bad.id, state: 'rejected', problem: { fields: { template: expect.any(String) } } });
      // fixing the draft queues it again
      await draftOf('/about/press', (c) => c, { template: 'default' });
      expect((await call('drafts.list', { siteId: site.id }))[0]).toMatchObject({ state: 'pending' });
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1, remaining: 0 });
    });

    test('offline: the change stays queued with backoff and the push says why', async () => {
      await draftOf('/about/history', () => 'written on a train');
      cms.faults.set({ route: '*', drop: true });
      const r = await call('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ pushed: 0, remaining: 1, stopped: { reason: 'offline' } });
      const [item] = await call('sync.outbox', { siteId: site.id });
      expect(item).toMatchObject({ state: 'sending', attempts: 1, nextAt: expect.any(String) });
      // each change comes with its draft: the Changes area reads nothing else
      expect(item!.draft).toMatchObject({ id: item!.draftId, route: '/about/history', state: 'pending' });
      expect((await call('sync.status', {})).find((s) => s.siteId === site.id)).toMatchObject({ online: false, pending: 1 });
      cms.faults.clear();
      // backing off: a push nobody asked for (auto-sync) waits for the item's time…
      const db = openDatabase(`${dir.path}/sitedesk.db`);
      const repos = repositories(db);
      try {
        expect(await pushSite(site.id, { transport: server(), repo: repos.sync, cache: repos.pages })).toMatchObject({ pushed: 0, remaining: 1 });
      } finally {
        closeDatabase(db);
      }
      expect((await serverPage('/about/history')).content).not.toBe('written on a train');
      // …a person asking (Push now, Save) tries at once
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1, remaining: 0 });
      expect((await serverPage('/about/history')).content).toBe('written on a train');
      expect(await call('drafts.list', { siteId: site.id })).toEqual([]);
    });
  });

  describe('after a crash', () => {
    test('a save that reached the site before the crash is not sent again', async () => {
      await cmsPages.update(server(), '/about/history', { content: 'before' });
      const d = await draftOf('/about/history', () => 'after');
      // the crash: the PATCH arrived, the Host died before recording it
      await cmsPages.update(server(), '/about/history', { content: 'after', title: (await serverPage('/about/history')).title });
      await host.close();
      const db = openDatabase(`${dir.path}/sitedesk.db`);
      const repo = repositories(db).sync;
      const [it] = repo.items(site.id);
      repo.setItem(it!.id, { state: 'sending', attempts: 0, nextAt: null, lastError: null });
      closeDatabase(db);
      await openHost();
      requests.length = 0;
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1, conflicted: 0 });
      expect(requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1); // the If-Match probe that answered 409, no second write
      expect((await serverPage('/about/history')).content).toBe('after');
      expect(await call('drafts.list', {})).toEqual([]);
      expect(d.id).toBeGreaterThan(0);
    });

    test('a create that may have arrived is checked on the site before it is sent again', async () => {
      await host.close();
      const db = openDatabase(`${dir.path}/sitedesk.db`);
      const repo = repositories(db).sync;
      const it = repo.enqueue(site.id, { op: 'create', route: '/about/created-offline', payload: { route: '/about/created-offline', title: 'Created offline', content: 'x' } });
      repo.setItem(it.id, { state: 'sending', attempts: 1, nextAt: null, lastError: 'timeout' });
      closeDatabase(db);
      await cmsPages.create(server(), { route: '/about/created-offline', title: 'Created offline', content: 'x' }); // it did arrive
      await openHost();
      requests.length = 0;
      expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1 });
      expect(requests.filter((r) => r.startsWith('POST'))).toEqual([]);
      const list = await cmsPages.list(server(), { parent: '/about', perPage: 100 });
      expect(list.items.filter((p) => p.route.startsWith('/about/created-offline'))).toHaveLength(1);
    });

    test('editing offline needs the page read once before', async () => {
      expect(await fails('drafts.save', { siteId: site.id, route: '/never/read', title: 't', header: {}, content: '' })).toMatchObject({ code: 'not_found' });
    });
  });

  describe('structural writes offline', () => {
    test('create, move and translate made offline are queued, shown from the cache, and pushed in order', async () => {
      await call('pages.level', { siteId: site.id, route: '/about' }).then((l) => l.items);
      await call('pages.get', { siteId: site.id, route: '/about/press' });
      cms.faults.set({ route: '*', drop: true });

      const created = await call('pages.create', { siteId: site.id, route: '/about/made-on-a-train', title: 'Made on a train', content: 'first line' });
      expect(created).toMatchObject({ queued: true, etag: null, title: 'Made on a train' });
      expect(created.cachedAt).toEqual(expect.any(String));
      // the tree offline: the new page is among the cached children
      expect((await call('pages.level', { siteId: site.id, route: '/about' }).then((l) => l.items)).map((p) => p.route)).toContain('/about/made-on-a-train');
      // and it can be edited at once: the draft goes out right behind its create
      await call('drafts.save', { siteId: site.id, route: '/about/made-on-a-train', title: 'Made on a train', header: {}, content: 'first line\nsecond line' });

      const moved = await call('pages.move', { siteId: site.id, route: '/about/press', parent: '/blog', slug: 'the-press' });
      expect(moved).toEqual({ route: '/blog/the-press', queued: true });
      expect((await call('pages.get', { siteId: site.id, route: '/blog/the-press' })).title).toBe('Press');
      // a translation made offline is editable at once, from the copy it was made from
      await call('pages.get', { siteId: site.id, route: '/about/history' });
      const tr = await call('translations.translate', { siteId: site.id, route: '/about/history', lang: 'fr', title: 'Histoire' });
      expect(tr).toMatchObject({ queued: true, lang: 'fr' });
      expect(await call('pages.get', { siteId: site.id, route: '/about/history', lang: 'fr' })).toMatchObject({ title: 'Histoire', cachedAt: expect.any(String) });
      expect(await call('sync.outbox', { siteId: site.id })).toEqual(
        expect.arrayContaining([expect.objectContaining({ op: 'create' }), expect.objectContaining({ op: 'save' }), expect.objectContaining({ op: 'move', draft: null }), expect.objectContaining({ op: 'translate' })]),
      );
      expect((await call('sync.status', {})).find((s) => s.siteId === site.id)).toMatchObject({ pending: 4 });

      cms.faults.clear();
      const r = await call('sync.push', { siteId: site.id });
      expect(r).toMatchObject({ pushed: 4, remaining: 0 });
      expect((await serverPage('/about/made-on-a-train')).content).toBe('first line\nsecond line');
      expect((await serverPage('/blog/the-press')).route).toBe('/blog/the-press');
      expect(await fails('pages.get', { siteId: site.id, route: '/about/press' })).toMatchObject({ code: 'not_found' });
      expect((await cmsPages.get(server(), '/about/history', { lang: 'fr' }) as { title: string }).title).toBe('Histoire');
    });

    test("the editor's Save pushes that page's changes and leaves the others queued", async () => {
      await draftOf('/about/history', (c) => c + '\nonly this one');
      await draftOf('/about', (c) => c + '\nnot this one');
      const r = await call('sync.push', { siteId: site.id, route: '/about/history' });
      expect(r).toMatchObject({ pushed: 1, remaining: 1 });
      expect((await serverPage('/about/history')).content).toContain('only this one');
      expect((await serverPage('/about')).content).not.toContain('not this one');
      expect((await call('drafts.list', { siteId: site.id })).map((d) => d.route)).toEqual(['/about']);
      await call('sync.push', { siteId: site.id });
    });
  });

  test('a header key removed in a draft is removed on the site', async () => {
    await cmsPages.update(server(), '/about/history', { header: { subtitle: 'to remove', keep: 'kept' } });
    const page = await call('pages.get', { siteId: site.id, route: '/about/history' });
    const { subtitle: _gone, ...rest } = page.header;
    await call('drafts.save', { siteId: site.id, route: '/about/history', title: page.title, header: rest, content: page.content });
    expect(await call('sync.push', { siteId: site.id })).toMatchObject({ pushed: 1 });
    const after = await serverPage('/about/history');
    expect(after.header).not.toHaveProperty('subtitle');
    expect(after.header).toMatchObject({ keep: 'kept' });
  });

  test('an access token that runs out in the middle of a push: refreshed once, and the push goes on to the end', async () => {
    const admin = await call('sites.add', { name: 'Demo as admin', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'password' });
    await call('auth.signIn', { siteId: admin.id, username: 'admin', password: DEMO_ACCOUNTS.admin.password });
    const posts = ((await call('pages.level', { siteId: admin.id, route: '/blog' }).then((l) => l.items)) as { route: string }[]).slice(0, 6).map((p) => p.route);
    expect(posts).toHaveLength(6);
    for (const route of posts) {
      const page = await call('pages.get', { siteId: admin.id, route });
      await call('drafts.save', { siteId: admin.id, route, title: page.title, header: page.header, content: `${page.content}\n\nEdited on the train (${route}).` });
    }
    // the server's clock runs past the access token's life as the third page goes out; the Host's clock does not know
    let patches = 0;
    beforeRequest = (what) => {
      if (what.startsWith('PATCH ') && ++patches === 3) cms.clock.advance(2 * 3600_000);
    };
    answers.length = 0;
    try {
      expect(await call('sync.push', { siteId: admin.id })).toMatchObject({ pushed: 6, conflicted: 0, remaining: 0 });
    } finally {
      beforeRequest = null;
    }
    expect(answers.filter((a) => a.endsWith(' 401'))).toHaveLength(1);
    expect(answers.filter((a) => a.startsWith('POST /api/v1/auth/refresh'))).toEqual(['POST /api/v1/auth/refresh 200']);
    for (const route of posts) expect((await serverPage(route)).content).toContain(`Edited on the train (${route}).`);
    expect(await call('drafts.list', { siteId: admin.id })).toEqual([]);
    expect((await call('auth.sessions', {})).find((x) => x.siteId === admin.id)).toMatchObject({ state: 'signed_in', username: 'admin' });
    await call('sites.remove', { id: admin.id });
  });
});
