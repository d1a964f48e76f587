/**
 * The CMS sandbox's page media over real HTTP: the listing with every filter operator and sort
 * rule, multipart upload (same-name overwrite, avoid_overwriting, refused types and sizes), delete,
 * events, permissions. The demo home page holds five media files with `.meta.yaml` sidecars.
 * Every test runs against both flavours (the real Grav API plugin: 422 for every refusal, its own
 * 404 wording, `X-Invalidates` on writes).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { expectProblem, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const names = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Json[]).map((m) => m.filename as string);
};

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  /** the documents' 400 is the real service's 422 */
  const BAD = real ? 422 : 400;

  describe('listing, filters and sort (demo home page)', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    const q = (query: string) => api.get(`/pages/home/media${query}`);
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('all media of the page, by file name, not paged', async () => {
      const r = await q('');
      expect(names(r)).toEqual(['banner.png', 'brochure.pdf', 'hero.png', 'logo.png', 'notes.txt']);
      expect(r.body).not.toHaveProperty('meta');
      expect((r.body.data as Json[]).find((m) => m.filename === 'brochure.pdf')).toEqual({
        filename: 'brochure.pdf',
        url: '/user/pages/01.home/brochure.pdf',
        type: 'application/pdf',
        size: expect.any(Number),
        title: 'Brochure',
        modified: '2024-01-01T09:00:00+00:00',
      });
      expect(expectProblem(await api.get('/pages/nope/media'), 404).detail).toBe(real ? "Page '/nope' not found." : 'Page not found at route: /nope');
    });

    test('field:value infers == (text) and contains (tags); every operator', async () => {
      expect(names(await q('?filter=title:Harbour'))).toEqual(['hero.png']);
      expect(names(await q('?filter=title:harbour'))).toEqual(['hero.png']); // case-insensitive
      expect(names(await q('?filter=tags:team'))).toEqual(['banner.png']);
      expect(names(await q('?filter=title:==:Workshop'))).toEqual(['banner.png']);
      // != matches files without the field too
      expect(names(await q('?filter=title:!=:Harbour'))).toEqual(['banner.png', 'brochure.pdf', 'logo.png', 'notes.txt']);
      expect(names(await q('?filter=alt:contains:the'))).toEqual(['banner.png', 'hero.png']);
      expect(names(await q('?filter=title:in:Harbour,Notes,,Nothing'))).toEqual(['hero.png', 'notes.txt']);
      expect(names(await q('?filter=tags:in:sunset,internal'))).toEqual(['hero.png', 'notes.txt']);
      expect(names(await q('?filter=tags:contains:SUNSET'))).toEqual(['hero.png']);
      // ordering operators compare strings case-insensitively (numbers numerically); absent fields never match
      expect(names(await q('?filter=title:>:N'))).toEqual(['banner.png', 'notes.txt']);
      expect(names(await q('?filter=title:>=:Notes'))).toEqual(['banner.png', 'notes.txt']);
      expect(names(await q('?filter=title:<:Harbour'))).toEqual(['brochure.pdf']);
      expect(names(await q('?filter=title:<=:Harbour'))).toEqual(['brochure.pdf', 'hero.png']);
    });

    test('clauses AND together, as filter or filter[]; unknown fields are ignored', async () => {
      expect(names(await q('?filter=alt:contains:the&filter=tags:sunset'))).toEqual(['hero.png']);
      expect(names(await q('?filter[]=alt:contains:the&filter[]=tags:team'))).toEqual(['banner.png']);
      expect(names(await q('?filter=colour:red'))).toHaveLength(5);
      expect(names(await q('?filter=size:>:100'))).toHaveLength(5); // intrinsic fields are not filterable
      expect(names(await q('?filter=caption:Evening light'))).toEqual(['hero.png']);
      expect(names(await q('?filter=caption:Evening%20%3Cb%3Elight%3C/b%3E'))).toEqual(['hero.png']); // tags stripped from values
    });

    test('400 (real: 422) for malformed clauses, unknown operators, tags misuse, more than 10 clauses', async () => {
      expect(expectProblem(await q('?filter=alt'), BAD).detail).toBe("Malformed filter clause 'alt'. Use field:value or field:operator:value.");
      expect(expectProblem(await q('?filter=:x'), BAD).detail).toBe("Malformed filter field in ':x'.");
      expectProblem(await q('?filter=al%20t:x'), BAD);
      expect(expectProblem(await q('?filter=alt:~=:x'), BAD).detail).toBe("Unsupported filter operator '~='.");
      expect(expectProblem(await q('?filter=tags:==:team'), BAD).detail).toBe("Field 'tags' is a tags field; use the 'in' or 'contains' operator.");
      const eleven = Array.from({ length: 11 }, (_, i) => `filter=alt:contains:${i}`).join('&');
      expect(expectProblem(await q(`?${eleven}`), BAD).detail).toBe('Too many filter clauses (maximum 10).');
      const ten = Array.from({ length: 10 }, () => 'filter=alt:contains:e').join('&');
      expect((await q(`?${ten}`)).status).toBe(200);
      // an unknown field is ignored before its operator is looked at
      expect((await q('?filter=colour:~=:x')).status).toBe(200);
    });

    test('sort: filename, size, modified, a metadata field (missing last), order/dir', async () => {
      expect(names(await q('?sort=filename&order=desc'))).toEqual(['notes.txt', 'logo.png', 'hero.png', 'brochure.pdf', 'banner.png']);
      const bySize = (await q('?sort=size')).body.data as Json[];
      expect(bySize.map((m) => m.size)).toEqual([...bySize.map((m) => m.size as number)].sort((a, b) => a - b));
      const bySizeDesc = (await q('?sort=size&dir=desc')).body.data as Json[];
      expect(bySizeDesc.map((m) => m.size)).toEqual([...bySize.map((m) => m.size as number)].sort((a, b) => b - a));
      expect(names(await q('?sort=title'))).toEqual(['brochure.pdf', 'hero.png', 'notes.txt', 'banner.png', 'logo.png']);
      // items lacking the field stay last in either direction (brochure's alt is empty)
      expect(names(await q('?sort=alt&order=desc'))).toEqual(['banner.png', 'hero.png', 'brochure.pdf', 'logo.png', 'notes.txt']);
      expect(names(await q('?sort=alt'))).toEqual(['hero.png', 'banner.png', 'brochure.pdf', 'logo.png', 'notes.txt']);
      expect(names(await q('?sort=modified'))).toHaveLength(5);
      expect(names(await q('?filter=tags:in:team,sunset&sort=filename&order=desc'))).toEqual(['hero.png', 'banner.png']);
      expect(expectProblem(await q('?sort=colour'), BAD).detail).toBe("Invalid sort field 'colour'.");
    });

    test('permissions: api.media.read to list; a pages-only key is refused', async () => {
      const key = await fetch(`${sb.origin}/__sandbox/api-keys`, { method: 'POST', body: JSON.stringify({ username: 'admin', scopes: ['api.pages'] }) });
      const pagesOnly = api.as({ apiKey: ((await key.json()) as Json).data.api_key as string });
      expect(expectProblem(await pagesOnly.get('/pages/home/media'), 403).detail).toBe('API key is not authorized for: api.media.read');
      expectProblem(await api.as({ none: true }).get('/pages/home/media'), 401);
    });
  });

  describe('upload and delete', () => {
    let sb: CmsSandbox;
    let api: SandboxClient;
    beforeAll(async () => {
      sb = await startCmsSandbox({ flavor, content: 'single', uploadMax: 1024 });
      api = new SandboxClient(sb);
    });
    afterAll(() => sb?.close());

    test('multipart upload: 201 with every media item of the page and Location; events; the page ETag moves', async () => {
      const etag = (await api.get('/pages/about')).headers.get('etag');
      sb.events.clear();
      const r = await api.upload('/pages/about/media', [
        { name: 'map.png', data: 'not really a png', type: 'image/png' },
        { name: 'a b ü.txt', data: 'hello', field: 'files[]' },
      ]);
      expect(r.status, r.text).toBe(201);
      expect(r.headers.get('location')).toBe('/api/v1/pages/about/media');
      expect(r.headers.get('x-invalidates')).toBe(real ? 'media:update:pages/about, pages:update:/about' : null);
      expect((r.body.data as Json[]).map((m) => [m.filename, m.type, m.size])).toEqual([
        ['a b ü.txt', 'text/plain', 5],
        ['map.png', 'image/png', 16],
      ]);
      expect((r.body.data as Json[])[0]!.url).toBe('/user/pages/03.about/a%20b%20%C3%BC.txt');
      expect(await (await fetch(sb.origin + (r.body.data as Json[])[0]!.url)).text()).toBe('hello');
      expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
        ['onApiBeforeMediaUpload', { page: { route: '/about', lang: null, title: 'About', template: 'default' }, filename: 'map.png', type: 'image/png', size: 16 }],
        ['onApiBeforeMediaUpload', { page: { route: '/about', lang: null, title: 'About', template: 'default' }, filename: 'a b ü.txt', type: 'application/octet-stream', size: 5 }],
        ['onApiMediaUploaded', { page: { route: '/about', lang: null, title: 'About', template: 'default' }, filenames: ['map.png', 'a b ü.txt'] }],
      ]);
      expect((await api.get('/pages/about')).headers.get('etag')).not.toBe(etag);
      expect(((await api.get('/pages/about')).body.data.media as Json[]).map((m) => m.filename)).toEqual(['a b ü.txt', 'map.png']);
    });

    test('a same-name upload overwrites; avoid_overwriting=true keeps both', async () => {
      await api.upload('/pages/contact/media', [{ name: 'doc.txt', data: 'one' }]);
      const again = await api.upload('/pages/contact/media', [{ name: 'doc.txt', data: 'second version' }]);
      expect((again.body.data as Json[]).map((m) => [m.filename, m.size])).toEqual([['doc.txt', 14]]);
      const kept = await api.upload('/pages/contact/media', [{ name: 'doc.txt', data: 'third' }], { avoid_overwriting: 'true' });
      const files = (kept.body.data as Json[]).map((m) => m.filename as string);
      expect(files).toHaveLength(2);
      expect(files).toContain('doc.txt');
      expect(files.find((f) => f !== 'doc.txt')).toMatch(/^\d{14}-doc\.txt$/);
    });

    test('422: no file, a dangerous extension (anywhere in the name), no extension, a bad name, over the size limit; nothing written', async () => {
      const dir = sb.content.find('/home')!.dir;
      const refused: [Parameters<SandboxClient['upload']>[1], RegExp][] = [
        [[{ name: 'shell.php', data: '<?php' }], /^File extension '\.php' is not allowed for security reasons\.$/],
        [[{ name: 'photo.php.jpg', data: 'x' }], /'\.php' is not allowed/],
        [[{ name: 'page.html', data: 'x' }], /'\.html' is not allowed/],
        [[{ name: 'README', data: 'x' }], /must have a file extension/],
        [[{ name: '.htaccess', data: 'x' }], /Invalid filename/],
        [[{ name: 'default.md', data: 'x' }], /page file/],
        [[{ name: 'ok.txt', data: 'fine' }, { name: 'big.png', data: new Uint8Array(1025) }], /^File exceeds maximum allowed size of 1024 bytes\.$/],
      ];
      for (const [files, detail] of refused) {
        const p = expectProblem(await api.upload('/pages/home/media', files), 422);
        expect(p.detail).toMatch(detail);
        expect(p.errors).toEqual([{ field: 'file', message: p.detail }]);
      }
      expect(existsSync(join(dir, 'ok.txt'))).toBe(false);
      expect(existsSync(join(dir, 'shell.php'))).toBe(false);
      expect(expectProblem(await api.upload('/pages/home/media', [], { note: 'no file' }), 422).detail).toBe('No files were uploaded.');
      // exactly at the limit is fine
      expect((await api.upload('/pages/home/media', [{ name: 'edge.bin', data: new Uint8Array(1024) }])).status).toBe(201);
      // a body far beyond the limit is refused while it is read
      expectProblem(await api.upload('/pages/home/media', [{ name: 'huge.bin', data: new Uint8Array(1024 * 1024 + 8192) }]), 413);
      expectProblem(await api.post('/pages/home/media', { not: 'multipart' }), BAD);
      expectProblem(await api.upload('/pages/nope/media', [{ name: 'a.txt', data: 'x' }]), 404);
    });

    test('delete: 204, the file, its @2x variant and sidecars go; events; 404; 422', async () => {
      await api.upload('/pages/contact/media', [{ name: 'pic.png', data: 'png' }, { name: 'pic@2x.png', data: 'png2' }]);
      const dir = sb.content.find('/contact')!.dir;
      writeFileSync(join(dir, 'pic.png.meta.yaml'), 'alt: A picture\ntags: [x]\n');
      expect(((await api.get('/pages/contact/media?filter=alt:A picture')).body.data as Json[]).map((m) => m.filename)).toEqual(['pic.png']);
      sb.events.clear();
      const r = await api.delete('/pages/contact/media/pic.png');
      expect(r.status).toBe(204);
      expect(r.headers.get('x-invalidates')).toBe(real ? 'media:delete:pages/contact/pic.png, media:update:pages/contact, pages:update:/contact' : null);
      for (const f of ['pic.png', 'pic@2x.png', 'pic.png.meta.yaml']) expect(existsSync(join(dir, f))).toBe(false);
      expect(sb.events.list().map((e) => [e.name, e.data])).toEqual([
        ['onApiBeforeMediaDelete', { page: { route: '/contact', lang: null, title: 'Contact', template: 'form' }, filename: 'pic.png' }],
        ['onApiMediaDeleted', { page: { route: '/contact', lang: null, title: 'Contact', template: 'form' }, filename: 'pic.png' }],
      ]);
      expectProblem(await api.delete('/pages/contact/media/pic.png'), 404);
      expectProblem(await api.delete('/pages/contact/media/form.md'), 404); // the page file is not a medium
      expectProblem(await api.delete('/pages/contact/media/..%2Fsecret'), 422);
      expectProblem(await api.delete('/pages/nope/media/pic.png'), 404);
      expect((await api.upload('/pages/contact/media', [{ name: 'x y.txt', data: 'x' }])).status).toBe(201);
      expect((await api.delete('/pages/contact/media/x%20y.txt')).status).toBe(204);
    });
  });
});
