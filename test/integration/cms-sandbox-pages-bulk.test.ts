/**
 * The CMS sandbox's bulk page operations over real HTTP: POST /pages/batch (per-route results, the
 * batch limit) and POST /pages/reorganize (validate all, then two rename phases with best-effort
 * rollback: a refused or failed reorganize leaves the tree as it was). Every test runs against
 * both flavours (the real Grav API plugin: 422 for every refusal, `X-Invalidates`, `order` as
 * "NN." or false).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

/** Every file and folder under the pages root, relative: the whole tree as a comparable list. */
function snapshot(sb: CmsSandbox): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      out.push(relative(sb.content.root, path));
      if (statSync(path).isDirectory()) walk(path);
    }
  };
  walk(sb.content.root);
  return out;
}

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the documents' 400 is the real service's 422 */
  const BAD = real ? 422 : 400;
  const order = (n: number | null) => (real ? (n === null ? false : `${String(n).padStart(2, '0')}.`) : n);

  describe('POST /pages/batch', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor, content: 'single', batchMax: 5 });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('publish and unpublish: every route a success row; the header on disk changes', async () => {
      const r = await api.post('/pages/batch', { operation: 'unpublish', routes: ['/blog/post-1', 'blog/post-2/'] });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual({
        operation: 'unpublish',
        results: [
          { route: '/blog/post-1', status: 'success' },
          { route: '/blog/post-2', status: 'success' },
        ],
        total: 2,
        successful: 2,
        failed: 0,
      });
      expect(r.headers.get('x-invalidates')).toBe(real ? 'pages:list, pages:update:/blog/post-1, pages:update:/blog/post-2' : null);
      expect((await api.get('/pages/blog/post-1')).body.data).toMatchObject({ published: false, header: { published: false } });
      expect(readFileSync(join(sb.content.find('/blog/post-2')!.dir, 'item.md'), 'utf8')).toContain('published: false');
      await api.post('/pages/batch', { operation: 'publish', routes: ['/blog/post-1'] });
      expect((await api.get('/pages/blog/post-1')).body.data.published).toBe(true);
    });

    test('copy with one failure: the others still run; per-route results count it', async () => {
      await api.post('/pages', { route: '/blog/post-3-copy', title: 'In the way', template: 'item' });
      const r = await api.post('/pages/batch', { operation: 'copy', routes: ['/blog/post-1', '/blog/post-3', '/about'], options: { destination: '/blog' } });
      expect(r.status).toBe(200);
      expect(r.body.data).toEqual({
        operation: 'copy',
        results: [
          { route: '/blog/post-1', status: 'success' },
          { route: '/blog/post-3', status: 'error', message: 'A page already exists at the copy destination for: /blog/post-3' },
          { route: '/about', status: 'success' },
        ],
        total: 3,
        successful: 2,
        failed: 1,
      });
      // a copy's tag names the page copied
      expect(r.headers.get('x-invalidates')).toBe(real ? 'pages:list, pages:create:/blog/post-1, pages:create:/about' : null);
      expect((await api.get('/pages/blog/post-1-copy')).body.data.title).toBe('Post 1');
      expect((await api.get('/pages/blog/about-copy')).body.data.title).toBe('About');
      expect((await api.get('/pages/blog/post-3-copy')).body.data.title).toBe('In the way');
    });

    test('delete: a page deleted with its parent earlier in the batch is an error row', async () => {
      await api.post('/pages', { route: '/tmp', title: 'Tmp' });
      await api.post('/pages', { route: '/tmp/inner', title: 'Inner' });
      const r = await api.post('/pages/batch', { operation: 'delete', routes: ['/tmp', '/tmp/inner'] });
      expect(r.body.data).toMatchObject({ total: 2, successful: 1, failed: 1, results: [{ route: '/tmp', status: 'success' }, { route: '/tmp/inner', status: 'error', message: 'Page not found at route: /tmp/inner' }] });
      expect(sb.content.find('/tmp')).toBeNull();
    });

    test('400 (real: 422): over the batch limit, an unknown operation, no routes, a missing route (nothing done); 401/403', async () => {
      const before = snapshot(sb);
      const six = ['/about', '/contact', '/home', '/blog', '/blog/post-1', '/blog/post-2'];
      const over = expectProblem(await api.post('/pages/batch', { operation: 'publish', routes: six }), BAD);
      expect(over.detail).toBe('Batch operations are limited to 5 items.');
      expectProblem(await api.post('/pages/batch', { operation: 'archive', routes: ['/about'] }), BAD);
      expectProblem(await api.post('/pages/batch', { routes: ['/about'] }), BAD);
      expectProblem(await api.post('/pages/batch', { operation: 'delete', routes: [] }), BAD);
      expectProblem(await api.post('/pages/batch', { operation: 'delete' }), BAD);
      const missing = expectProblem(await api.post('/pages/batch', { operation: 'delete', routes: ['/about', '/nope'] }), BAD);
      expect(missing.detail).toBe('Page not found at route: /nope');
      expect(snapshot(sb)).toEqual(before);
      expectProblem(await api.as({ none: true }).post('/pages/batch', { operation: 'delete', routes: ['/about'] }), 401);
      // the default limit is 50, and the limit can change while running
      sb.settings.batchMax = 50;
      expect((await api.post('/pages/batch', { operation: 'publish', routes: six })).status).toBe(200);
      sb.settings.batchMax = 5;
    });
  });

  describe('POST /pages/reorganize', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeEach(async () => {
      await sb?.close();
      sb = await startCmsSandbox({ flavor, content: 'single', batchMax: 4 });
      api = new SandboxClient(sb);
      // 01.home 02.blog(post-1..3) 03.about 04.contact; give the about page ordered children
      await api.post('/pages', { route: '/about/team', title: 'Team', order: 1 });
      await api.post('/pages', { route: '/about/history', title: 'History', order: 2 });
    });
    afterAll(() => sb?.close());

    test('moves and reorders in one go; answers every child of every affected parent; events', async () => {
      sb.events.clear();
      const r = await api.post('/pages/reorganize', {
        operations: [
          { route: '/blog/post-2', parent: '/about', position: 1 },
          { route: '/about/team', position: 2 },
          { route: '/about/history', position: 3 },
        ],
      });
      expect(r.status, r.text).toBe(200);
      expect(r.body.data).toEqual([
        { route: '/blog/post-1', slug: 'post-1', title: 'Post 1', order: order(null), parent: '/blog' },
        { route: '/blog/post-3', slug: 'post-3', title: 'Post 3', order: order(null), parent: '/blog' },
        { route: '/about/post-2', slug: 'post-2', title: 'Post 2', order: order(1), parent: '/about' },
        { route: '/about/team', slug: 'team', title: 'Team', order: order(2), parent: '/about' },
        { route: '/about/history', slug: 'history', title: 'History', order: order(3), parent: '/about' },
      ]);
      expect(r.headers.get('x-invalidates')).toBe(real ? 'pages:list, pages:move:/blog/post-2, pages:move:/about/team, pages:move:/about/history' : null);
      expect(readdirSync(sb.content.find('/about')!.dir).sort()).toEqual(['01.post-2', '02.team', '03.history', 'default.md']);
      expect(sb.events.names()).toEqual(['onApiBeforePagesReorganize', 'onApiPagesReorganized']);
      expect(sb.events.list('onApiBeforePagesReorganize')[0]!.data.operations).toEqual([
        { route: '/blog/post-2', parent: '/about', position: 1, from_parent: '/blog' },
        { route: '/about/team', parent: '/about', position: 2, from_parent: '/about' },
        { route: '/about/history', parent: '/about', position: 3, from_parent: '/about' },
      ]);
    });

    test('to the top level; an omitted position keeps the page\'s prefix', async () => {
      const r = await api.post('/pages/reorganize', { operations: [{ route: '/about/history', parent: '/' }] });
      expect(r.status, r.text).toBe(200);
      expect((r.body.data as Json[]).filter((x) => x.parent === '/').map((x) => x.route)).toContain('/history');
      expect(sb.content.find('/history')!.folder).toBe('02.history');
    });

    test('validation failures are 400 (real: 422) and leave the tree unchanged', async () => {
      const before = snapshot(sb);
      const cases: [unknown, RegExp][] = [
        [{ operations: [] }, /non-empty array/],
        [{}, /non-empty array/],
        [{ operations: [{ route: '/about' }, { route: '/about/' }] }, /^Duplicate route '\/about' in operations\.$/],
        [{ operations: [{ route: '/about', parent: '/about/team' }] }, /^Cannot move '\/about' into its own subtree '\/about\/team'\.$/],
        [{ operations: [{ route: '/about', parent: '/about' }] }, /own subtree/],
        [{ operations: [{ route: '/blog/post-1', position: 1 }, { route: '/blog/post-2', position: 1 }] }, /^Position conflict: both '\/blog\/post-1' and '\/blog\/post-2' target position 1 under '\/blog'\.$/],
        [{ operations: [{ route: '/blog/post-1', parent: '/about', position: 2 }, { route: '/about/team', position: 2 }] }, /Position conflict/],
        [{ operations: [{ route: '/nope' }] }, /^Page not found at route: \/nope$/],
        [{ operations: [{ route: '/blog/post-1', parent: '/nowhere' }] }, /Destination parent not found/],
        [{ operations: [{ route: '/blog/post-1', parent: '/about' }, { route: '/about', parent: '/contact' }] }, /is also being moved in the same batch/],
        [{ operations: [{ route: '/about/team', parent: '/blog' }, { route: '/contact/team', parent: '/blog' }] }, /Page not found/],
        [{ operations: [{ route: '/blog/post-1', position: 'first' }] }, /non-negative integer/],
        [{ operations: ['just a string'] }, /must have a 'route' field/],
        [{ operations: [{ route: '/a' }, { route: '/b' }, { route: '/c' }, { route: '/d' }, { route: '/e' }] }, /^Reorganize operations are limited to 4 items\.$/],
      ];
      for (const [body, detail] of cases) {
        const p = expectProblem(await api.post('/pages/reorganize', body), BAD);
        expect(p.detail, JSON.stringify(body)).toMatch(detail);
      }
      // a slug already taken at the destination
      await api.post('/pages', { route: '/contact/team', title: 'Contact team' });
      const taken = snapshot(sb);
      expect(expectProblem(await api.post('/pages/reorganize', { operations: [{ route: '/about/team', parent: '/contact' }] }), BAD).detail).toBe("A page with slug 'team' already exists under '/contact'.");
      expect(snapshot(sb)).toEqual(taken);
      expect(before.every((p) => taken.includes(p))).toBe(true);
    });

    test('a filesystem failure half way: 400 (real: 422), and the completed renames are rolled back', async () => {
      const before = snapshot(sb);
      sb.events.clear();
      // phase 2 moves three folders to temporary names, phase 3 renames them: fail the fifth move
      sb.content.failMoveAfter(5);
      const p = expectProblem(
        await api.post('/pages/reorganize', {
          operations: [
            { route: '/blog/post-2', parent: '/about', position: 1 },
            { route: '/about/team', position: 2 },
            { route: '/about/history', position: 3 },
          ],
        }),
        BAD,
      );
      expect(p.detail).toMatch(/^Reorganize failed during filesystem operations: EIO: injected failure/);
      expect(snapshot(sb)).toEqual(before);
      expect(sb.events.names()).toEqual(['onApiBeforePagesReorganize']);
      // the same operations go through once the disk behaves
      expect((await api.post('/pages/reorganize', { operations: [{ route: '/blog/post-2', parent: '/about', position: 1 }] })).status).toBe(200);
    });

    test('the failure knob over HTTP', async () => {
      const arm = await fetch(`${sb.origin}/__sandbox/content/fail-moves`, { method: 'POST', body: JSON.stringify({ after: 1 }) });
      expect(arm.status).toBe(200);
      expectProblem(await api.post('/pages/reorganize', { operations: [{ route: '/about/team', position: 5 }] }), BAD);
      expect(sb.content.find('/about/team')!.folder).toBe('01.team');
      expect((await fetch(`${sb.origin}/__sandbox/content/fail-moves`, { method: 'POST', body: JSON.stringify({ after: 0 }) })).status).toBe(400);
    });
  });
});
