/**
 * The write path as a person's steps, one Host call each, against the CMS sandbox: Save
 * (`drafts.submit`: pushed, queued, conflicted, rejected), opening a page with its draft
 * (`pages.open`), discarding a draft (`drafts.discard`), resolving a conflict (`drafts.resolve`
 * pushes that page only), keeping mine as a copy (`pages.copyAsNew` finds the free `-copy-N`), and
 * a batch or a reorganize over more routes than the site takes at once (`pages.batch` and
 * `pages.reorganize` split to the site's limit), and a reorder answering the parent's new level.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { Host } from '../../electron/core/host';
import { cmsPages } from '../../electron/api/cms/pages';
import type { ChannelInput, Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { adminApi, hostCalls } from '../support/host-calls';

let cms: CmsSandbox;
let host: Host;
let fx: DemoHost;
let site: Site;
const requests: string[] = [];

const { call } = hostCalls(() => host);
const server = () => adminApi(cms);
const serverPage = async (route: string) => (await cmsPages.get(server(), route));
const L = (...xs: string[]) => xs.join('\n');

describe.each(flavors)('%s flavour', (flavor) => {
  beforeAll(async () => {
    // a site that takes fewer routes per batch request than the documents' 50
    fx = await withHost({
      sandbox: { flavor, batchMax: 3 },
      host: {
        fetch: async (input, init) => {
          requests.push(`${init?.method ?? 'GET'} ${new URL(String(input)).pathname}`);
          return fetch(input, init);
        },
      },
    });
    ({ cms, host, site } = fx);
  });
  afterAll(() => fx.close());
  afterEach(async () => {
    cms.faults.clear();
    // each test starts with nothing unsent
    for (const d of await call('drafts.list', { siteId: site.id })) await call('drafts.discard', { draftId: d.id });
  });

  /** The editor's Save of `route` with its text changed by `edit`. */
  async function submit(route: string, edit: (content: string) => string, extra: Partial<ChannelInput<'drafts.submit'>> = {}) {
    const { page } = await call('pages.open', { siteId: site.id, route });
    return call('drafts.submit', { siteId: site.id, route, title: page.title, header: page.header, content: edit(page.content), ...extra });
  }

  test('Save: one call puts the text on the site and answers its new copy', async () => {
    await cmsPages.update(server(), '/about/history', { content: L('one', 'two') });
    const r = await submit('/about/history', () => L('one', 'TWO'));
    expect(r).toMatchObject({ outcome: 'pushed', page: { route: '/about/history', content: L('one', 'TWO') } });
    if (r.outcome !== 'pushed') throw new Error('not pushed');
    expect(r.page.etag).toBeTruthy();
    expect((await serverPage('/about/history')).content).toBe(L('one', 'TWO'));
    expect(await call('drafts.list', { siteId: site.id })).toEqual([]);
  });

  test('Save pushes that page only: a change of another page waits', async () => {
    const other = await call('pages.get', { siteId: site.id, route: '/about/press' });
    await call('drafts.save', { siteId: site.id, route: '/about/press', title: other.title, header: other.header, content: 'Not yet.' });
    expect(await submit('/about/history', () => 'Only this one.')).toMatchObject({ outcome: 'pushed' });
    expect((await serverPage('/about/press')).content).not.toBe('Not yet.');
    expect(await call('drafts.list', { siteId: site.id })).toMatchObject([{ route: '/about/press', state: 'pending' }]);
  });

  test('Save of a page changed on the site in the same place: conflicted; opening it carries the merge', async () => {
    await cmsPages.update(server(), '/about/history', { content: L('x', 'y', 'z') });
    const { page } = await call('pages.open', { siteId: site.id, route: '/about/history' });
    await cmsPages.update(server(), '/about/history', { content: L('x', 'theirs', 'z') });
    const r = await call('drafts.submit', { siteId: site.id, route: '/about/history', title: page.title, header: page.header, content: L('x', 'mine', 'z') });
    expect(r).toMatchObject({ outcome: 'conflicted', draft: { state: 'conflicted' } });
    expect((await serverPage('/about/history')).content).toBe(L('x', 'theirs', 'z'));
    const opened = await call('pages.open', { siteId: site.id, route: '/about/history' });
    expect(opened.page.content).toBe(L('x', 'theirs', 'z'));
    expect(opened.draft?.merge?.text.hunks).toContainEqual({ kind: 'conflict', base: ['y'], mine: ['mine'], theirs: ['theirs'] });

    // resolve: that page goes out at once, the answer says so
    if (r.outcome !== 'conflicted') throw new Error('not conflicted');
    const resolved = await call('drafts.resolve', { draftId: r.draft.id, title: page.title, header: page.header, content: L('x', 'mine', 'theirs', 'z') });
    expect(resolved).toMatchObject({ outcome: 'pushed', page: { content: L('x', 'mine', 'theirs', 'z') } });
    expect((await serverPage('/about/history')).content).toBe(L('x', 'mine', 'theirs', 'z'));
  });

  test('a resolution the site changed again meanwhile: conflicted again, nothing overwritten', async () => {
    await cmsPages.update(server(), '/about/history', { content: L('a', 'b', 'c') });
    const { page } = await call('pages.open', { siteId: site.id, route: '/about/history' });
    await cmsPages.update(server(), '/about/history', { content: L('a', 'theirs', 'c') });
    const r = await call('drafts.submit', { siteId: site.id, route: '/about/history', title: page.title, header: page.header, content: L('a', 'mine', 'c') });
    if (r.outcome !== 'conflicted') throw new Error(`expected a conflict, got ${r.outcome}`);
    await cmsPages.update(server(), '/about/history', { content: L('a', 'theirs again', 'c') });
    const again = await call('drafts.resolve', { draftId: r.draft.id, title: page.title, header: page.header, content: L('a', 'resolved', 'c') });
    expect(again).toMatchObject({ outcome: 'conflicted', draft: { id: r.draft.id } });
    expect((await serverPage('/about/history')).content).toBe(L('a', 'theirs again', 'c'));
  });

  test('Save the site refuses: rejected, with the fields by name; the draft stays', async () => {
    const r = await submit('/about/press', (c) => c + '\nmore', { template: 'bad.name' });
    expect(r).toMatchObject({ outcome: 'rejected', draft: { state: 'rejected' }, problem: { fields: { template: expect.any(String) } } });
    expect(await call('drafts.list', { siteId: site.id })).toHaveLength(1);
  });

  test('discard: the draft and its queued change go; the site’s copy stands', async () => {
    const page = await call('pages.get', { siteId: site.id, route: '/about/history' });
    const d = await call('drafts.save', { siteId: site.id, route: '/about/history', title: page.title, header: page.header, content: 'Dropped.' });
    expect(await call('sync.outbox', { siteId: site.id })).toHaveLength(1);
    expect(await call('drafts.discard', { draftId: d.id })).toEqual({ id: d.id });
    expect(await call('drafts.list', { siteId: site.id })).toEqual([]);
    expect(await call('sync.outbox', { siteId: site.id })).toEqual([]);
    expect((await call('pages.open', { siteId: site.id, route: '/about/history' })).draft).toBeNull();
  });

  test('keep mine as a copy: the Host picks the first free -copy-N name; the same text again is that copy, not another', async () => {
    const mine = { siteId: site.id, route: '/about/history', title: 'History (mine)', content: 'My version.', header: { title: 'History (mine)' } };
    const first = await call('pages.copyAsNew', mine);
    expect(first).toMatchObject({ route: '/about/history-copy', title: 'History (mine)', content: 'My version.' });
    // a retry after a lost answer: the copy is there already
    expect((await call('pages.copyAsNew', mine)).route).toBe('/about/history-copy');
    const second = await call('pages.copyAsNew', { ...mine, content: 'My other version.' });
    expect(second.route).toBe('/about/history-copy-2');
    expect((await serverPage('/about/history-copy-2')).content).toBe('My other version.');
  });

  test('batch: the Host splits the routes to the limit the site names, and merges the results', async () => {
    const routes = (await call('pages.level', { siteId: site.id, route: '/blog' }).then((l) => l.items)).map((p) => p.route).slice(0, 7);
    expect(routes.length).toBeGreaterThan(3);
    const r = await call('pages.batch', { siteId: site.id, operation: 'unpublish', routes });
    expect(r).toMatchObject({ operation: 'unpublish', limit: 3, requests: Math.ceil(routes.length / 3), total: routes.length, successful: routes.length, failed: 0 });
    expect(r.results.map((x) => x.route).sort()).toEqual([...routes].sort());
    const back = await call('pages.batch', { siteId: site.id, operation: 'publish', routes });
    expect(back.successful).toBe(routes.length);
  });

  test('reorganize: the Host splits the operations to the limit the site names, in order, and answers every row', async () => {
    const level = (await call('pages.level', { siteId: site.id, route: '/blog' })).items.slice(0, 5);
    requests.length = 0;
    const rows = await call('pages.reorganize', { siteId: site.id, operations: level.map((p) => ({ route: p.route, parent: '/about' })) });
    // 5 refused at the documents' 50 ("limited to 3"), then 3 and 2
    expect(requests.filter((r) => r === 'POST /api/v1/pages/reorganize')).toHaveLength(3);
    for (const p of level) expect(rows).toContainEqual(expect.objectContaining({ route: `/about/${p.slug}`, parent: '/about' }));
    expect(new Set(rows.map((r) => r.route)).size).toBe(rows.length);
    const back = await call('pages.reorganize', { siteId: site.id, operations: level.map((p) => ({ route: `/about/${p.slug}`, parent: '/blog' })) });
    for (const p of level) expect(back).toContainEqual(expect.objectContaining({ route: `/blog/${p.slug}` }));
  });

  test('reorder answers the parent’s level in its new order (no second read needed)', async () => {
    const before = (await call('pages.level', { siteId: site.id, route: '/about' })).items.map((p) => p.slug);
    const reversed = [...before].reverse();
    const after = await call('pages.reorder', { siteId: site.id, route: '/about', order: reversed });
    expect(after.items.map((p) => p.slug)).toEqual(reversed);
    expect((await call('pages.reorder', { siteId: site.id, route: '/about', order: before })).items.map((p) => p.slug)).toEqual(before);
  });

  // last: the Host then takes the site for away until a probe says otherwise (reads answer from the copy)
  test('Save while the site does not answer: queued, with the draft and the reason; the text is kept', async () => {
    await call('pages.open', { siteId: site.id, route: '/about/history' });
    cms.faults.set({ route: '*', drop: true });
    const r = await submit('/about/history', () => 'Written on a train.');
    expect(r).toMatchObject({ outcome: 'queued', draft: { route: '/about/history', state: 'pending' }, problem: { message: expect.any(String) } });
    cms.faults.clear();
    const opened = await call('pages.open', { siteId: site.id, route: '/about/history' });
    expect(opened.draft).toMatchObject({ route: '/about/history', mine: { content: 'Written on a train.' } });
  });
});
