/**
 * The CMS sandbox's page writes over real HTTP: create, update (ETag / If-Match), delete, move,
 * reorder, copy; their status codes, what lands on disk, and the events they fire. Small seeds.
 * Every test runs against both flavours; where the real Grav API plugin answers otherwise than the
 * documents (422 for every bad request, `X-Invalidates`, one-value If-Match, the PATCH reply's
 * times, `order` as "NN."), each flavour's own answer is asserted.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, pagePath, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

/** The folder of a page on disk (through the store, so order prefixes are resolved). */
function dirOf(sb: CmsSandbox, route: string): string {
  const node = sb.content.find(route);
  if (!node) throw new Error(`no page ${route}`);
  return node.dir;
}

const files = (dir: string) => readdirSync(dir).filter((f) => !f.startsWith('.')).sort();

/** A header the real service sends with the route's raw UTF-8 bytes, decoded as they were meant. */
const utf8 = (value: string | null) => (value === null ? null : Buffer.from(value, 'latin1').toString('utf8'));

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the documents' 400 is the real service's 422 */
  const BAD = real ? 422 : 400;
  /** `order` as each flavour sends it: a number or null; the real "NN." or false */
  const order = (n: number | null) => (real ? (n === null ? false : `${String(n).padStart(2, '0')}.`) : n);
  /** the X-Invalidates of a write: the real service's tags, nothing in the documents */
  const invalidated = (r: Reply, tags: string) => expect(utf8(r.headers.get('x-invalidates'))).toBe(real ? tags : null);

  describe('single-language site', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor, content: 'single' });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('POST /pages: 201 with Location and the page; an untyped {template}.md on disk; events', async () => {
      sb.events.clear();
      const r = await api.post('/pages', { route: '/blog/hello-world', title: 'Hello, world', template: 'item', content: 'First post.', header: { taxonomy: { tag: ['intro'] } } });
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('location')).toBe('/api/v1/pages/blog/hello-world');
      invalidated(r, 'pages:create:/blog/hello-world, pages:list');
      expect(r.body.data).toMatchObject({ route: '/blog/hello-world', title: 'Hello, world', template: 'item', content: 'First post.', header: { title: 'Hello, world', taxonomy: { tag: ['intro'] } }, order: order(null), media: [] });
      const dir = dirOf(sb, '/blog/hello-world');
      expect(files(dir)).toEqual(['item.md']);
      expect(readFileSync(join(dir, 'item.md'), 'utf8')).toBe('---\ntitle: Hello, world\ntaxonomy:\n  tag:\n    - intro\n---\n\nFirst post.');
      expect(sb.events.names()).toEqual(['onApiBeforePageCreate', 'onAdminSave', 'onAdminAfterSave', 'onApiPageCreated']);
      expect(sb.events.list('onApiPageCreated')[0]!.data).toEqual({ page: { route: '/blog/hello-world', lang: null, title: 'Hello, world', template: 'item' }, route: '/blog/hello-world', lang: null });
      expect(sb.events.list('onApiBeforePageCreate')[0]!.data).toMatchObject({ route: '/blog/hello-world', template: 'item', content: 'First post.', lang: null });
      // the Location answers
      expect((await api.get('/pages/blog/hello-world')).status).toBe(200);
    });

    test('POST /pages: order prefixes (explicit, "auto"), default template', async () => {
      const ordered = await api.post('/pages', { route: '/services', title: 'Services', order: 7 });
      expect(ordered.body.data).toMatchObject({ folder: '07.services', order: order(7), template: 'default', visible: true });
      const auto = await api.post('/pages', { route: '/faq', title: 'FAQ', order: 'auto' });
      expect(auto.body.data).toMatchObject({ folder: '08.faq', order: order(8) });
      // no sibling is ordered under the blog: "auto" leaves the folder unprefixed
      const unordered = await api.post('/pages', { route: '/blog/auto-post', title: 'Auto', order: 'auto' });
      expect(unordered.body.data).toMatchObject({ folder: 'auto-post', order: order(null) });
    });

    test('POST /pages: 422 for missing fields, a missing parent, an existing route, bad values; 401/403', async () => {
      const missing = expectProblem(await api.post('/pages', { content: 'x' }), 422);
      expect(missing.detail).toBe('Missing required fields: route, title');
      expect(missing.errors).toEqual([
        { field: 'route', message: "The 'route' field is required." },
        { field: 'title', message: "The 'title' field is required." },
      ]);
      expect(expectProblem(await api.post('/pages', { route: '/nowhere/child', title: 'x' }), 422).detail).toBe('Parent page not found at route: /nowhere');
      expect(expectProblem(await api.post('/pages', { route: '/about', title: 'Again' }), 422).detail).toBe('A page already exists at route: /about');
      expectProblem(await api.post('/pages', { route: '/x', title: 'x', order: -1 }), 422);
      expectProblem(await api.post('/pages', { route: '/x', title: 'x', header: ['not', 'a', 'map'] }), 422);
      expectProblem(await api.post('/pages', { route: '/x', title: 'x', template: '../evil' }), 422);
      expectProblem(await api.post('/pages', { route: '/..', title: 'x' }), 422);
      expectProblem(await api.post('/pages', '{not json', { 'content-type': 'application/json' }), BAD);
      expectProblem(await api.as({ none: true }).post('/pages', { route: '/x', title: 'x' }), 401);
    });

    test('a slug with a space and one with unicode: created, read and written through percent-encoded routes', async () => {
      const spaced = await api.post('/pages', { route: '/about/meet the team', title: 'Meet the team' });
      expect(spaced.status).toBe(201);
      const uni = await api.post('/pages', { route: '/about/café-straße', title: 'Café' });
      // the documents' Location is percent-encoded; the real service sends the route as it is (raw UTF-8)
      if (real) {
        expect(spaced.headers.get('location')).toBe('/api/v1/pages/about/meet the team');
        expect(utf8(uni.headers.get('location'))).toBe('/api/v1/pages/about/café-straße');
      } else {
        expect(spaced.headers.get('location')).toBe('/api/v1/pages/about/meet%20the%20team');
        expect(uni.headers.get('location')).toBe('/api/v1/pages/about/caf%C3%A9-stra%C3%9Fe');
      }
      const read = await api.get(pagePath('/about/café-straße'));
      expect(read.body.data).toMatchObject({ route: '/about/café-straße', slug: 'café-straße' });
      const patched = await api.patch('/pages/about/meet%20the%20team', { content: 'Hi' }, { 'If-Match': (await api.get('/pages/about/meet%20the%20team')).headers.get('etag')! });
      expect(patched.status).toBe(200);
      expect(existsSync(join(dirOf(sb, '/about'), 'meet the team', 'default.md'))).toBe(true);
    });

    test('PATCH: merges the header, replaces content, answers the page and its ETag; events', async () => {
      await api.post('/pages', { route: '/blog/patch-me', title: 'Patch me', template: 'item', header: { author: 'ada', taxonomy: { category: ['news'], tag: ['a', 'b'] }, extra: { keep: 1, drop: 2 } } });
      const created = (await api.get('/pages/blog/patch-me')).body.data as Json;
      sb.clock.advance(5_000); // the write lands at another second than the create
      sb.events.clear();
      const r = await api.patch('/pages/blog/patch-me', { title: 'Patched', content: 'New body', header: { taxonomy: { tag: ['c'] }, extra: { drop: null }, author: null, subtitle: 'sub' }, published: false, visible: true });
      expect(r.status, r.text).toBe(200);
      invalidated(r, 'pages:update:/blog/patch-me, pages:list');
      expect(r.body.data).toMatchObject({ title: 'Patched', content: 'New body', published: false, visible: true });
      expect(r.body.data.header).toEqual({ title: 'Patched', taxonomy: { category: ['news'], tag: ['c'] }, extra: { keep: 1 }, subtitle: 'sub', published: false, visible: true });
      const read = await api.get('/pages/blog/patch-me');
      if (real) {
        // the real service answers with the page object it loaded before writing: the write shows,
        // but `date` and `modified` are those of before, so its ETag is not the next read's
        expect(r.body.data).toEqual({ ...read.body.data, date: created.date, modified: created.modified });
        expect(read.body.data.modified).not.toBe(created.modified);
        expect(r.headers.get('etag')).not.toBe(read.headers.get('etag'));
      } else {
        expect(r.headers.get('etag')).toBe(read.headers.get('etag'));
        expect(r.body.data).toEqual(read.body.data);
      }
      expect(sb.events.names()).toEqual(['onApiBeforePageUpdate', 'onAdminSave', 'onAdminAfterSave', 'onApiPageUpdated']);
      expect(sb.events.list('onApiBeforePageUpdate')[0]!.data).toMatchObject({ page: { route: '/blog/patch-me', title: 'Patch me' }, data: { title: 'Patched' } });

      // header_mode=replace swaps the header whole
      const replaced = await api.patch('/pages/blog/patch-me', { header: { title: 'Only this' }, header_mode: 'replace' });
      expect(replaced.body.data.header).toEqual({ title: 'Only this' });
    });

    test('PATCH If-Match: one value or a list (documents); the real service takes one value only', async () => {
      await api.post('/pages', { route: '/blog/listed', title: 'Listed', template: 'item' });
      const etag = (await api.get('/pages/blog/listed')).headers.get('etag')!;
      const list = await api.patch('/pages/blog/listed', { content: 'a' }, { 'If-Match': `"0000", ${etag}` });
      const star = await api.patch('/pages/blog/listed', { content: 'b' }, { 'If-Match': '*' });
      if (real) {
        expectProblem(list, 409);
        expectProblem(star, 409);
      } else {
        expect(list.status, list.text).toBe(200);
        expect(star.status, star.text).toBe(200);
      }
    });

    test('PATCH twice with the ETag of the first reply: fine in the documents, 409 in the real service (recording 14)', async () => {
      await api.post('/pages', { route: '/blog/twice', title: 'Twice', template: 'item' });
      sb.clock.advance(5_000);
      const first = await api.patch('/pages/blog/twice', { content: 'one' }, { 'If-Match': (await api.get('/pages/blog/twice')).headers.get('etag')! });
      expect(first.status).toBe(200);
      const second = await api.patch('/pages/blog/twice', { content: 'two' }, { 'If-Match': first.headers.get('etag')! });
      if (real) expectProblem(second, 409);
      else expect(second.status, second.text).toBe(200);
      // a fresh read's ETag always goes through
      expect((await api.patch('/pages/blog/twice', { content: 'three' }, { 'If-Match': (await api.get('/pages/blog/twice')).headers.get('etag')! })).status).toBe(200);
    });

    test('PATCH If-Match: the plain-read ETag 200; a stale one 409; a render/children ETag 409', async () => {
      await api.post('/pages', { route: '/blog/concurrent', title: 'Concurrent', template: 'item' });
      const plain = await api.get('/pages/blog/concurrent');
      const rendered = await api.get('/pages/blog/concurrent?render=true');
      const children = await api.get('/pages/blog/concurrent?children=true');
      const etag = plain.headers.get('etag')!;

      // The real service hashes whatever a read sent: a render/children/translations/summary read
      // has a different ETag, and PATCH (which compares with the plain read's) refuses it.
      expect(rendered.headers.get('etag')).not.toBe(etag);
      const conflict = expectProblem(await api.patch('/pages/blog/concurrent', { content: 'x' }, { 'If-Match': rendered.headers.get('etag')! }), 409);
      expect(conflict.detail).toBe('The resource has been modified since you last retrieved it. Please fetch the latest version and try again.');
      expectProblem(await api.patch('/pages/blog/concurrent', { content: 'x' }, { 'If-Match': children.headers.get('etag')! }), 409);

      // a weak or proxy-suffixed echo of the plain ETag is still that ETag
      const ok = await api.patch('/pages/blog/concurrent', { content: 'mine' }, { 'If-Match': `W/${etag.replace(/"$/, '-gzip"')}` });
      expect(ok.status, ok.text).toBe(200);
      const newEtag = ok.headers.get('etag')!;
      expect(newEtag).not.toBe(etag);

      // someone edits the file behind the app's back: the ETag the app holds is stale now
      const edited = sb.editPage({ route: '/blog/concurrent', content: 'theirs' });
      expect(edited.etag).not.toBe(newEtag);
      expectProblem(await api.patch('/pages/blog/concurrent', { content: 'mine again' }, { 'If-Match': newEtag }), 409);
      expect((await api.get('/pages/blog/concurrent')).body.data.content).toBe('theirs');
      // with the fresh ETag it goes through; without If-Match it always does
      expect((await api.patch('/pages/blog/concurrent', { content: 'merged' }, { 'If-Match': edited.etag! })).status).toBe(200);
      expect((await api.patch('/pages/blog/concurrent', { content: 'forced' })).status).toBe(200);
    });

    test('PATCH: template change renames the file; 422 for bad values; 404', async () => {
      await api.post('/pages', { route: '/blog/retemplate', title: 'Re', template: 'item' });
      const r = await api.patch('/pages/blog/retemplate', { template: 'default' });
      expect(r.body.data.template).toBe('default');
      expect(files(dirOf(sb, '/blog/retemplate'))).toEqual(['default.md']);
      const bad = expectProblem(await api.patch('/pages/blog/retemplate', { title: 5, published: 'yes', header: 'x' }), 422);
      expect((bad.errors as Json[]).map((e) => e.field)).toEqual(['title', 'header', 'published']);
      expectProblem(await api.patch('/pages/blog/retemplate', { title: '   ' }), 422);
      expectProblem(await api.patch('/pages/blog/nope', { title: 'x' }), 404);
    });

    test('DELETE: 204 with children by default; children=false refuses a parent (422); 404; events', async () => {
      await api.post('/pages', { route: '/trash', title: 'Trash' });
      await api.post('/pages', { route: '/trash/a', title: 'A' });
      const dir = dirOf(sb, '/trash');
      expect(expectProblem(await api.delete('/pages/trash?children=false'), 422).detail).toMatch(/has children/);
      expect(existsSync(dir)).toBe(true);
      expect((await api.delete('/pages/trash/a?children=false')).status).toBe(204);
      sb.events.clear();
      const r = await api.delete('/pages/trash');
      expect(r.status).toBe(204);
      invalidated(r, 'pages:delete:/trash, pages:list');
      expect(r.text).toBe('');
      expect(existsSync(dir)).toBe(false);
      expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
        ['onApiBeforePageDelete', { page: { route: '/trash', lang: null, title: 'Trash', template: 'default' }, lang: null }],
        ['onApiPageDeleted', { route: '/trash', lang: null }],
      ]);
      expectProblem(await api.delete('/pages/trash'), 404);
    });

    test('move: to another parent with a new slug and order; 200 with the page and its ETag; event', async () => {
      await api.post('/pages', { route: '/blog/mover', title: 'Mover', template: 'item' });
      await api.upload('/pages/blog/mover/media', [{ name: 'pic.png', data: 'png?', type: 'image/png' }]);
      sb.events.clear();
      const r = await api.post('/pages/blog/mover/move', { parent: '/about', slug: 'moved', order: 3 });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toMatchObject({ route: '/about/moved', folder: '03.moved', order: order(3), title: 'Mover' });
      invalidated(r, 'pages:move:/blog/mover, pages:update:/about/moved, pages:list');
      expect((r.body.data.media as Json[]).map((m) => m.filename)).toEqual(['pic.png']);
      expect(r.headers.get('etag')).toBe((await api.get('/pages/about/moved')).headers.get('etag'));
      expect((await api.get('/pages/blog/mover')).status).toBe(404);
      expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
        ['onApiPageMoved', { page: { route: '/about/moved', lang: null, title: 'Mover', template: 'item' }, old_route: '/blog/mover', new_route: '/about/moved' }],
      ]);
      // to the top level, keeping slug and order
      const top = await api.post('/pages/about/moved/move', { parent: '/' });
      expect(top.body.data).toMatchObject({ route: '/moved', folder: '03.moved' });
    });

    test('move: 422 for a missing parent, its own subtree, an occupied destination, no change; 404', async () => {
      await api.post('/pages', { route: '/blog/stay', title: 'Stay', template: 'item' });
      await api.post('/pages', { route: '/blog/stay/child', title: 'Child' });
      expect(expectProblem(await api.post('/pages/blog/stay/move', { parent: '/nope' }), 422).detail).toBe('Destination parent not found at route: /nope');
      expect(expectProblem(await api.post('/pages/blog/stay/move', { parent: '/blog/stay/child' }), 422).detail).toMatch(/into its own subtree/);
      expectProblem(await api.post('/pages/blog/stay/move', { parent: '/blog/stay' }), 422);
      expect(expectProblem(await api.post('/pages/blog/stay/move', { parent: '/blog', slug: 'post-1' }), 422).detail).toBe('A page already exists at the destination path.');
      expectProblem(await api.post('/pages/blog/stay/move', { parent: '/blog' }), 422); // identical
      expectProblem(await api.post('/pages/blog/stay/move', { parent: '/', slug: '../x' }), 422);
      expectProblem(await api.post('/pages/blog/stay/move', {}), 422);
      expectProblem(await api.post('/pages/blog/gone/move', { parent: '/' }), 404);
      expect(sb.content.find('/blog/stay/child')).not.toBeNull();
    });

    test('reorder: listed children get prefixes 1..n, the rest keep theirs; events; 404; 422', async () => {
      await api.post('/pages', { route: '/shelf', title: 'Shelf' });
      for (const [slug, order] of [['a', 1], ['b', 2], ['c', 3]] as const) await api.post('/pages', { route: `/shelf/${slug}`, title: slug.toUpperCase(), order });
      await api.post('/pages', { route: '/shelf/loose', title: 'Loose' });
      sb.events.clear();
      const r = await api.post('/pages/shelf/reorder', { order: ['c', 'a', 'b'] });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual([
        { route: '/shelf/c', slug: 'c', title: 'C', order: order(1) },
        { route: '/shelf/a', slug: 'a', title: 'A', order: order(2) },
        { route: '/shelf/b', slug: 'b', title: 'B', order: order(3) },
        { route: '/shelf/loose', slug: 'loose', title: 'Loose', order: order(null) },
      ]);
      invalidated(r, 'pages:reorder:/shelf, pages:list');
      expect(files(dirOf(sb, '/shelf'))).toEqual(['01.c', '02.a', '03.b', 'default.md', 'loose']);
      expect(sb.events.names()).toEqual(['onApiBeforePagesReorder', 'onApiPagesReordered']);
      expect(sb.events.list('onApiPagesReordered')[0]!.data).toEqual({ parent: { route: '/shelf', lang: null, title: 'Shelf', template: 'default' }, order: ['c', 'a', 'b'] });
      expectProblem(await api.post('/pages/shelf/reorder', { order: ['zzz'] }), 422);
      expectProblem(await api.post('/pages/shelf/reorder', { order: 'a,b' }), 422);
      expectProblem(await api.post('/pages/shelf/reorder', { order: ['a', 'a'] }), 422);
      expectProblem(await api.post('/pages/no-shelf/reorder', { order: [] }), 404);
    });

    test('copy: 201 with Location; content, media and children come along; 400s (real: 422s); 404', async () => {
      await api.post('/pages', { route: '/src', title: 'Source', content: 'Body' });
      await api.post('/pages', { route: '/src/kid', title: 'Kid' });
      await api.upload('/pages/src/media', [{ name: 'doc.txt', data: 'text' }]);
      const r = await api.post('/pages/src/copy', { route: '/about/src-copy' });
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('location')).toBe('/api/v1/pages/about/src-copy');
      invalidated(r, 'pages:create:/about/src-copy, pages:list');
      expect(r.body.data).toMatchObject({ route: '/about/src-copy', slug: 'src-copy', title: 'Source', template: 'default', content: 'Body' });
      expect((r.body.data.media as Json[]).map((m) => m.filename)).toEqual(['doc.txt']);
      expect((await api.get('/pages/about/src-copy/kid')).body.data.title).toBe('Kid');
      expect((await api.get('/pages/src')).status).toBe(200);

      expect(expectProblem(await api.post('/pages/src/copy', {}), BAD).detail).toBe('Missing required fields: route');
      expect(expectProblem(await api.post('/pages/src/copy', { route: '/nope/x' }), BAD).detail).toBe('Destination parent not found at route: /nope');
      expect(expectProblem(await api.post('/pages/src/copy', { route: '/about/src-copy' }), BAD).detail).toBe('A page already exists at route: /about/src-copy');
      expectProblem(await api.post('/pages/src/copy', { route: '/src/kid/inside' }), BAD);
      expectProblem(await api.post('/pages/missing/copy', { route: '/x' }), 404);
    });

    test('a page whose front matter is invalid YAML: reads and writes answer 500 with the file; lists keep going', async () => {
      await api.post('/pages', { route: '/broken', title: 'Broken' });
      sb.editPage({ route: '/broken', raw: '---\ntitle: [unclosed\nfoo: bar: baz\n---\n\nBody\n' });
      const p = expectProblem(await api.get('/pages/broken'), 500);
      expect(p.detail).toMatch(/^Invalid front matter in \S*default\.md: Invalid YAML in the front matter: Unterminated flow sequence/);
      // the documents' answer names the page and file in fields of their own; the real problem body has none
      if (real) expect(Object.keys(p)).toEqual(['status', 'title', 'detail']);
      else expect(p).toMatchObject({ route: '/broken', file: expect.stringMatching(/broken\/default\.md$/) });
      expectProblem(await api.patch('/pages/broken', { title: 'Fixed?' }), 500);
      // the listing still answers, with what can be said about the page
      const rows = (await api.get('/pages?children_of=/&per_page=100')).body.data as Json[];
      // an empty header is PHP's empty array, `[]`, in the real service
      expect(rows.find((r) => r.route === '/broken')).toMatchObject({ title: 'Broken', header: real ? [] : {} });
      // an unclosed front matter block is invalid too
      sb.editPage({ route: '/broken', raw: '---\ntitle: x\n' });
      expectProblem(await api.get('/pages/broken'), 500);
      // fixed on disk: readable again
      sb.editPage({ route: '/broken', raw: '---\ntitle: Repaired\n---\nBody\n' });
      expect((await api.get('/pages/broken')).body.data.title).toBe('Repaired');
    });
  });

  describe('multilanguage site: language files on write', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor, content: 'empty', languages: ['en', 'de', 'fr'] });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('create with lang writes {template}.{lang}.md; without lang the untyped {template}.md', async () => {
      const en = await api.post('/pages', { route: '/news', title: 'News', lang: 'en' });
      expect(en.body.data).toMatchObject({ language: 'en' });
      expect(files(dirOf(sb, '/news'))).toEqual(['default.en.md']);
      await api.post('/pages', { route: '/plain', title: 'Plain' });
      expect(files(dirOf(sb, '/plain'))).toEqual(['default.md']);
      expectProblem(await api.post('/pages', { route: '/x', title: 'x', lang: 'xx' }), 422);
    });

    test('PATCH ?lang: only an existing translation (422 otherwise); each language its own file and ETag', async () => {
      await api.post('/pages', { route: '/multi', title: 'Multi', lang: 'en', content: 'English' });
      expect((await api.post('/pages/multi/translate', { lang: 'de', title: 'Mehrfach', content: 'Deutsch' })).status).toBe(201);
      const de = await api.get('/pages/multi?lang=de');
      const en = await api.get('/pages/multi?lang=en');
      expect(de.headers.get('etag')).not.toBe(en.headers.get('etag'));
      const r = await api.patch('/pages/multi?lang=de', { content: 'Neu' }, { 'If-Match': de.headers.get('etag')! });
      expect(r.status, r.text).toBe(200);
      // (the real translate copies the source header over the title it was given: the German page
      // kept the English title)
      expect(r.body.data).toMatchObject({ language: 'de', content: 'Neu', title: real ? 'Multi' : 'Mehrfach' });
      expect((await api.get('/pages/multi')).body.data.content).toBe('English');
      // the English ETag is for English only
      expectProblem(await api.patch('/pages/multi?lang=de', { content: 'x' }, { 'If-Match': en.headers.get('etag')! }), 409);
      const missing = expectProblem(await api.patch('/pages/multi?lang=fr', { content: 'x' }), 422);
      expect(missing.detail).toMatch(/No 'fr' translation exists for this page/);
      expectProblem(await api.patch('/pages/multi?lang=xx', { content: 'x' }), 422);
    });

    test('DELETE ?lang removes one language file; the last one takes the page; 404; 422', async () => {
      await api.post('/pages', { route: '/bye', title: 'Bye', lang: 'en' });
      await api.post('/pages/bye/translate', { lang: 'fr' });
      expect(files(dirOf(sb, '/bye'))).toEqual(['default.en.md', 'default.fr.md']);
      sb.events.clear();
      expect((await api.delete('/pages/bye?lang=fr')).status).toBe(204);
      expect(files(dirOf(sb, '/bye'))).toEqual(['default.en.md']);
      expect(sb.events.list().map((e) => [e.name, e.data.lang])).toEqual([
        ['onApiBeforePageDelete', 'fr'],
        ['onApiPageDeleted', 'fr'],
      ]);
      expectProblem(await api.delete('/pages/bye?lang=fr'), 404);
      expectProblem(await api.delete('/pages/bye?lang=xx'), 422);
      const dir = dirOf(sb, '/bye');
      expect((await api.delete('/pages/bye?lang=en')).status).toBe(204);
      expect(existsSync(dir)).toBe(false);
    });
  });

  describe('control routes for content', () => {
    test('GET|DELETE /__sandbox/events, POST /__sandbox/pages/edit, GET /__sandbox/content', async () => {
      const sb = await startCmsSandbox({ flavor, content: 'single' });
      try {
        const api = new SandboxClient(sb);
        const control = (method: string, path: string, body?: unknown) =>
          fetch(`${sb.origin}/__sandbox${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
        expect(((await (await control('GET', '/content')).json()) as Json).data).toEqual({ pages: 7, languages: [], default_language: null, root: sb.content.root });

        const before = (await api.get('/pages/about')).headers.get('etag');
        await api.patch('/pages/about', { title: 'About us' });
        const events = ((await (await control('GET', '/events?name=onApiPageUpdated')).json()) as Json).data as Json[];
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ seq: expect.any(Number), name: 'onApiPageUpdated', data: { page: { route: '/about', title: 'About us' } }, at: expect.any(String) });
        expect((await control('DELETE', '/events')).status).toBe(204);
        expect(sb.events.list()).toEqual([]);

        const etag = (await api.get('/pages/about')).headers.get('etag');
        expect(etag).not.toBe(before);
        const edit = await control('POST', '/pages/edit', { route: '/about', header: { subtitle: 'edited' } });
        const edited = ((await edit.json()) as Json).data as Json;
        expect(edited).toMatchObject({ route: '/about', file: '03.about/default.md', etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) });
        const now = await api.get('/pages/about');
        expect(now.headers.get('etag')).toBe(edited.etag);
        expect(now.body.data.header).toEqual({ title: 'About us', subtitle: 'edited' });
        // same text, new ETag: the file's modification time moved
        const again = ((await (await control('POST', '/pages/edit', { route: '/about' })).json()) as Json).data as Json;
        expect(again.etag).not.toBe(edited.etag);
        expect((await control('POST', '/pages/edit', { route: '/nope' })).status).toBe(404);
        expect((await control('POST', '/pages/edit', {})).status).toBe(400);
      } finally {
        await sb.close();
      }
    });
  });
});
