/**
 * The CMS sandbox's site media library over real HTTP: the seeded library (304 files in nested
 * folders), listing with paths, paging, type filter, recursive search and metadata filter/sort;
 * uploads into new folders; deletes with sidecars; folder create/delete/rename; file renames and
 * moves; thumbnails (404 until an image is listed); the files served under /user/media. Both
 * flavours answer as the real service does (the document leaves methods and codes "not shown");
 * the real one adds X-Invalidates and `meta.ordered`, and its thumbnails need no credential.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { solidJpeg } from '../sandbox/cms/site/seed-media';
import { expectProblem, pagination, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';

const names = (r: Reply) => {
  expect(r.status, r.text).toBe(200);
  return (r.body.data as Json[]).map((m) => m.filename as string);
};

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwAFgwJ/l4VZRgAAAABJRU5ErkJggg==', 'base64');

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let viewer: SandboxClient;
  let reader: SandboxClient;
  const onDisk = (rel: string) => existsSync(join(sb.dataDir, 'media', rel));

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, uploadMax: 4096 });
    api = new SandboxClient(sb);
    viewer = await api.keyFor('viewer');
    reader = await api.keyFor('mediareader', { access: { api: { access: true, media: { read: true } } } });
  });
  afterAll(() => sb?.close());

  test('GET /media: the root folder, its subfolders in meta.folders, paged files', async () => {
    const r = await reader.get('/media?per_page=2');
    expect(names(r)).toEqual(['favicon.png', 'readme.txt']);
    expect(sb.site.mediaSeeded).toMatchObject({ files: 304 });
    expect(pagination(r)).toMatchObject({ page: 1, per_page: 2, total: 3, total_pages: 2 });
    const meta = r.body.meta as Json;
    expect(meta.path).toBe('');
    expect(meta.folders).toEqual([
      { name: 'audio', path: 'audio', children_count: 1, file_count: 0 },
      { name: 'brand', path: 'brand', children_count: 1, file_count: 3 },
      { name: 'docs', path: 'docs', children_count: 3, file_count: 0 },
      { name: 'empty', path: 'empty', children_count: 0, file_count: 0 },
      { name: 'events', path: 'events', children_count: 2, file_count: 0 },
      { name: 'photos', path: 'photos', children_count: 6, file_count: 0 },
      { name: 'video', path: 'video', children_count: 0, file_count: 6 },
    ]);
    if (real) {
      expect(Object.keys(meta)).toEqual(['pagination', 'path', 'folders', 'ordered']);
      expect(meta.ordered).toBe(false);
    } else expect(meta).toMatchObject({ total: 3, page: 1, per_page: 2 });
    expect(r.body.links).toMatchObject({ self: '/api/v1/media?page=1&per_page=2', next: '/api/v1/media?page=2&per_page=2' });
    const png = (r.body.data as Json[])[0]!;
    expect(png).toEqual({
      filename: 'favicon.png',
      path: '',
      url: '/user/media/favicon.png',
      type: 'image/png',
      size: expect.any(Number),
      dimensions: { width: 16, height: 16 },
      thumbnail_url: expect.stringMatching(/^\/api\/v1\/thumbnails\/[0-9a-f]{32}\.png$/),
      modified: '2025-03-01T10:01:00+00:00',
    });
    expect((r.body.data as Json[])[1]).toEqual({ filename: 'readme.txt', path: '', url: '/user/media/readme.txt', type: 'text/plain', size: 52, modified: '2025-03-01T10:02:00+00:00' });
    expect(names(await reader.get('/media?per_page=2&page=2'))).toEqual(['site-logo.png']);
    const logo = (await reader.get('/media?page=2&per_page=2')).body.data[0] as Json;
    expect(logo).toMatchObject({ alt: 'The site logo', title: 'Logo', dimensions: { width: 96, height: 32 } });
  });

  test('GET /media: a subfolder by path, per_page capped (100; real: 1000), a missing folder lists nothing, sorted naturally', async () => {
    const r = await reader.get('/media?path=events/2025/open-day');
    expect(names(r)).toEqual([...Array.from({ length: 12 }, (_, i) => `open-day-${i + 1}.jpg`), 'programme.pdf']);
    expect((r.body.meta as Json).path).toBe('events/2025/open-day');
    const photo = (r.body.data as Json[])[0]!;
    expect(photo).toMatchObject({ path: 'events/2025/open-day', url: '/user/media/events/2025/open-day/open-day-1.jpg', type: 'image/jpeg', dimensions: { width: 49, height: 32 }, alt: 'open day 2025, photo 1' });
    expect((r.body.data as Json[])[12]).toMatchObject({ type: 'application/pdf', title: 'Programme of the open day' });
    // the documents cap per_page at 100; the real service at its plugins.api.pagination.max_per_page (1000)
    expect(pagination(await reader.get('/media?path=photos/harbour&per_page=500'))).toMatchObject({ per_page: real ? 500 : 100, total: 21 });
    expect(pagination(await reader.get('/media?path=photos/harbour&per_page=5000'))).toMatchObject({ per_page: real ? 1000 : 100 });
    const none = await reader.get('/media?path=no/such/folder&per_page=5');
    expect(names(none)).toEqual([]);
    expect(pagination(none)).toMatchObject({ page: 1, per_page: 20, total: 0 });
    expect(none.body.meta).toMatchObject({ path: 'no/such/folder', folders: [] });
    expect(expectProblem(await reader.get('/media?path=../etc'), 422).detail).toBe("Invalid path: '../etc'.");
    expectProblem(await reader.get('/media?path=photos/.hidden'), 422);
  });

  test('GET /media: type filter; recursive search by name (with type, paged); metadata filter and sort; not search with filter', async () => {
    expect(names(await reader.get('/media?type=image'))).toEqual(['favicon.png', 'site-logo.png']);
    expect(names(await reader.get('/media?type=document'))).toEqual(['readme.txt']);
    expect(names(await reader.get('/media?path=video&type=video'))).toHaveLength(6);
    expect(names(await reader.get('/media?path=audio/podcast&type=audio'))).toHaveLength(8);
    expect(names(await reader.get('/media?path=audio/podcast&type=image'))).toEqual([]);

    const s = await reader.get('/media?search=REPORT-2024&per_page=3');
    expect(names(s)).toEqual(['report-2024-q1.pdf', 'report-2024-q2.pdf', 'report-2024-q3.pdf']);
    expect(pagination(s)).toMatchObject({ total: 4, total_pages: 2 });
    expect(s.body.meta).toMatchObject({ path: '', folders: [], search: 'REPORT-2024' });
    expect((s.body.data as Json[])[0]).toMatchObject({ path: 'docs/2024', url: '/user/media/docs/2024/report-2024-q1.pdf' });
    expect(pagination(await reader.get('/media?search=programme&type=document'))).toMatchObject({ total: 8 });
    expect(pagination(await reader.get('/media?search=.jpg&type=image&per_page=100'))).toMatchObject({ total: 216 });

    expect(names(await reader.get('/media?path=brand&filter=alt:contains:dark'))).toEqual(['logo-dark.png']);
    expect(names(await reader.get('/media?path=brand&sort=filename&order=desc'))).toEqual(['mark.svg', 'logo-light.png', 'logo-dark.png']);
    const bySize = (await reader.get('/media?path=brand&sort=size')).body.data as Json[];
    expect(bySize.map((m) => m.size)).toEqual(bySize.map((m) => m.size as number).sort((a, b) => a - b));
    expect(expectProblem(await reader.get('/media?search=x&sort=size'), 422).detail).toBe('search cannot be combined with filter or sort.');
    expect(expectProblem(await reader.get('/media?path=brand&filter=alt'), real ? 422 : 400).detail).toContain('Malformed filter clause');
  });

  test('the listing is quick: a hundred of a few hundred files, searched, filtered and serialised in a few milliseconds', async () => {
    // measured in the process (the HTTP round trip and the credential check are the same for every route)
    const lib = sb.site.media.ready();
    const run = () => lib.search('.jpg').filter((m) => lib.ofType(m.dir, m.name, 'image')).slice(0, 100).map((m) => lib.item(m.dir, m.name, '/api/v1'));
    expect(run()).toHaveLength(100);
    // the best of five: the machine is shared, so one slow run says little about the code
    const times = Array.from({ length: 5 }, () => {
      const t0 = performance.now();
      run();
      return performance.now() - t0;
    });
    expect(Math.min(...times)).toBeLessThan(20);
  });

  test('GET /media: 403 without api.media.read; 401 without a credential', async () => {
    expect(expectProblem(await viewer.get('/media'), 403).detail).toBe('Missing required permission: api.media.read');
    expectProblem(await api.as({ none: true }).get('/media'), 401);
  });

  test('POST /media: several files into a folder created on the way; 201 with their items; served under /user/media', async () => {
    const r = await api.upload('/media?path=uploads/2026/trip', [
      { name: 'one.png', data: PNG, type: 'image/png' },
      { name: 'two.jpg', data: solidJpeg(24, 16, 90), type: 'image/jpeg', field: 'files[]' },
      { name: 'notes.txt', data: 'hello', type: 'text/plain', field: 'files[]' },
    ]);
    expect(r.status, r.text).toBe(201);
    expect(r.headers.get('location')).toBe('/api/v1/media');
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:update:uploads/2026/trip, media:list');
    expect((r.body.data as Json[]).map((m) => [m.filename, m.path, m.type])).toEqual([
      ['one.png', 'uploads/2026/trip', 'image/png'],
      ['two.jpg', 'uploads/2026/trip', 'image/jpeg'],
      ['notes.txt', 'uploads/2026/trip', 'text/plain'],
    ]);
    expect((r.body.data as Json[])[1]).toMatchObject({ dimensions: { width: 24, height: 16 } });
    const served = await fetch(`${sb.origin}/user/media/uploads/2026/trip/one.png`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
    expect(names(await api.get('/media?path=uploads/2026/trip'))).toEqual(['notes.txt', 'one.png', 'two.jpg']);
    // the same name again replaces the file, unless asked to keep both
    expect((await api.upload('/media?path=uploads/2026/trip', [{ name: 'notes.txt', data: 'again' }])).status).toBe(201);
    expect(names(await api.get('/media?path=uploads/2026/trip'))).toHaveLength(3);
    const kept = await api.upload('/media?path=uploads/2026/trip', [{ name: 'notes.txt', data: 'third' }], { avoid_overwriting: 'true' });
    expect((kept.body.data as Json[])[0]!.filename).toMatch(/^\d{14}-notes\.txt$/);
    // a file field's settings: a random name (extension kept), accepted types, a smaller size limit
    const random = ((await api.upload('/media?path=uploads/fields', [{ name: 'Photo.PNG', data: PNG }], { random_name: '1' })).body.data as Json[])[0]!;
    expect(random.filename).toMatch(/^[a-z0-9]{15}\.png$/);
    expect((await api.upload('/media?path=uploads/fields', [{ name: 'doc.pdf', data: '%PDF-1.4' }], { accept: 'image/*, .pdf' })).status).toBe(201);
    // the root when no path is given
    expect(((await api.upload('/media', [{ name: 'root-file.txt', data: 'x' }])).body.data as Json[])[0]).toMatchObject({ path: '', url: '/user/media/root-file.txt' });
  });

  test('POST /media: 422 no file, bad or dangerous names, a file over the limit; 413 a body far over it; 403; 401', async () => {
    const refused = async (files: Parameters<SandboxClient['upload']>[1], detail: string, query = '') => {
      expect(expectProblem(await api.upload(`/media${query}`, files), 422).detail).toBe(detail);
    };
    await refused([], 'No files were uploaded.');
    await refused([{ name: '.htaccess', data: 'x' }], "Invalid filename: '.htaccess'.");
    await refused([{ name: 'noextension', data: 'x' }], 'Uploaded file must have a file extension.');
    await refused([{ name: 'shell.php.jpg', data: 'x' }], "File extension '.php' is not allowed for security reasons.");
    await refused([{ name: 'ok.txt', data: 'x' }, { name: 'page.html', data: 'x' }], "File extension '.html' is not allowed for security reasons.");
    await refused([{ name: 'big.txt', data: 'x'.repeat(4097) }], 'File exceeds maximum allowed size of 4096 bytes.');
    await refused([{ name: 'ok.txt', data: 'x' }], "Invalid path: '../up'.", '?path=../up');
    await refused([{ name: 'ok.txt', data: 'x' }], 'Unable to create upload directory.', '?path=favicon.png/inside');
    const withFields = async (fields: Record<string, string>, detail: string) => {
      expect(expectProblem(await api.upload('/media', [{ name: 'ok.txt', data: 'x'.repeat(2000) }], fields), 422).detail).toBe(detail);
    };
    await withFields({ accept: 'image/*,.pdf' }, "File 'ok.txt' does not match the accepted types for this field.");
    await withFields({ filesize: '0.001' }, 'File exceeds the maximum allowed size of 0 MB for this field.');
    expect(onDisk('ok.txt')).toBe(false); // nothing of a refused upload is written
    // the site's own list of dangerous extensions applies
    expect((await api.patch('/config/security', { uploads_dangerous_extensions: ['exe', 'txt'] })).status).toBe(200);
    await refused([{ name: 'notes.txt', data: 'x' }], "File extension '.txt' is not allowed for security reasons.");
    expect((await api.patch('/config/security', { uploads_dangerous_extensions: ['php', 'phar', 'phtml', 'html', 'htm', 'js', 'exe'] })).status).toBe(200);
    expect(expectProblem(await api.post('/media', { file: 'not a form' }), real ? 422 : 400).detail).toBe('Expected a multipart/form-data body.');
    expectProblem(await api.request('PATCH', '/media', {}), 405);
    expectProblem(await api.upload('/media', [{ name: 'huge.txt', data: 'x'.repeat(4096 * 4 + 1024 * 1024 + 1) }]), 413);
    expect(expectProblem(await viewer.upload('/media', [{ name: 'a.txt', data: 'x' }]), 403).detail).toBe('Missing required permission: api.media.write');
    expectProblem(await reader.upload('/media', [{ name: 'a.txt', data: 'x' }]), 403);
    expectProblem(await api.as({ none: true }).upload('/media', [{ name: 'a.txt', data: 'x' }]), 401);
  });

  test('DELETE /media/{path}: the file and its sidecar (204); 404; 422 bad path; 403; 401', async () => {
    expect(onDisk('brand/logo-dark.png.meta.yaml')).toBe(true);
    const r = await api.delete('/media/brand/logo-dark.png');
    expect(r.status, r.text).toBe(204);
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:delete:brand/logo-dark.png, media:update:brand, media:list');
    expect(onDisk('brand/logo-dark.png')).toBe(false);
    expect(onDisk('brand/logo-dark.png.meta.yaml')).toBe(false);
    expect(names(await api.get('/media?path=brand'))).toEqual(['logo-light.png', 'mark.svg']);
    expect((await api.delete('/media/readme.txt')).headers.get('x-invalidates')).toBe(real ? 'media:delete:readme.txt, media:update:/, media:list' : null);
    expect(expectProblem(await api.delete('/media/brand/logo-dark.png'), 404).detail).toBe('Media file not found.');
    expectProblem(await api.delete('/media/brand'), 404); // a folder is not a file
    expect(expectProblem(await api.delete('/media/brand/.hidden'), 422).detail).toBe('Invalid filename.');
    expectProblem(await viewer.delete('/media/brand/mark.svg'), 403);
    expectProblem(await api.as({ none: true }).delete('/media/brand/mark.svg'), 401);
  });

  test('POST /media/folders: 201 with parents created; 422 missing, bad, existing, a file in the way; 403; 401', async () => {
    const r = await api.post('/media/folders', { path: 'projects/new site' });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data).toEqual({ name: 'new site', path: 'projects/new site', children_count: 0, file_count: 0 });
    expect(r.headers.get('location')).toBe('/api/v1/media?path=projects%2Fnew+site');
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:create:projects/new site, media:list');
    expect((await api.get('/media?path=projects')).body.meta.folders).toEqual([{ name: 'new site', path: 'projects/new site', children_count: 0, file_count: 0 }]);
    expect(expectProblem(await api.post('/media/folders', {}), 422).detail).toBe('Folder path is required.');
    expect(expectProblem(await api.post('/media/folders', '{"path":'), real ? 422 : 400).detail).toBe('The request body is not valid JSON.');
    expect(expectProblem(await api.post('/media/folders', { path: 'projects/new site' }), 422).detail).toBe('Folder already exists.');
    expect(expectProblem(await api.post('/media/folders', { path: 'a/../b' }), 422).detail).toBe("Invalid path: 'a/../b'.");
    expect(expectProblem(await api.post('/media/folders', { path: 'favicon.png/inside' }), 422).detail).toBe('Unable to create folder.');
    expectProblem(await reader.post('/media/folders', { path: 'x' }), 403);
    expectProblem(await api.as({ none: true }).post('/media/folders', { path: 'x' }), 401);
  });

  test('DELETE /media/folders/{path}: an empty folder (204); 422 while it holds anything; 404; 403; 401', async () => {
    const r = await api.delete('/media/folders/empty');
    expect(r.status, r.text).toBe(204);
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:delete:empty, media:list');
    expect(onDisk('empty')).toBe(false);
    expect(expectProblem(await api.delete('/media/folders/docs'), 422).detail).toBe('Folder is not empty. Delete all files first.');
    expect(onDisk('docs/2023')).toBe(true);
    expect(expectProblem(await api.delete('/media/folders/empty'), 404).detail).toBe('Folder not found.');
    expectProblem(await api.delete('/media/folders/favicon.png'), 404);
    expectProblem(await api.delete('/media/folders/.git'), 422);
    expectProblem(await reader.delete('/media/folders/docs'), 403);
    expectProblem(await api.as({ none: true }).delete('/media/folders/docs'), 401);
  });

  test('POST /media/rename: renames and moves a file with its sidecar, keeps its extension, cleans the name; 404; 422', async () => {
    const r = await api.post('/media/rename', { from: 'photos/coast/coast-01.jpg', to: 'archive/best of/Coast at dawn!.png' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toMatchObject({ filename: 'Coast-at-dawn.jpg', path: 'archive/best of', url: '/user/media/archive/best of/Coast-at-dawn.jpg', type: 'image/jpeg', alt: 'A view of the coast' });
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:delete:photos/coast/coast-01.jpg, media:create:archive/best of/Coast-at-dawn.jpg, media:list');
    expect(onDisk('archive/best of/Coast-at-dawn.jpg.meta.yaml')).toBe(true);
    expect(onDisk('photos/coast/coast-01.jpg')).toBe(false);
    expect(onDisk('photos/coast/coast-01.jpg.meta.yaml')).toBe(false);
    // in place, and a name that cleans back to itself is a no-op
    expect((await api.post('/media/rename', { from: 'video/clip-1.mp4', to: 'video/first clip' })).body.data).toMatchObject({ filename: 'first-clip.mp4', path: 'video' });
    const same = await api.post('/media/rename', { from: 'video/clip-2.mp4', to: 'video/clip-2' });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ filename: 'clip-2.mp4' });
    expect(expectProblem(await api.post('/media/rename', { from: 'video/nope.mp4', to: 'x.mp4' }), 404).detail).toBe('Source file not found.');
    expectProblem(await api.post('/media/rename', { from: 'video', to: 'x' }), 404);
    expect(expectProblem(await api.post('/media/rename', { from: 'video/clip-3.mp4' }), 422).detail).toBe("Both 'from' and 'to' paths are required.");
    expect(expectProblem(await api.post('/media/rename', { from: 'video/clip-3.mp4', to: 'video/clip-4' }), 422).detail).toBe('A file already exists at the destination.');
    expect(expectProblem(await api.post('/media/rename', { from: 'video/clip-3.mp4', to: 'video/!!!' }), 422).detail).toBe('The new name must contain at least one letter or number.');
    expectProblem(await api.post('/media/rename', { from: '../x.mp4', to: 'y' }), 422);
    expectProblem(await reader.post('/media/rename', { from: 'video/clip-3.mp4', to: 'z' }), 403);
    expectProblem(await api.as({ none: true }).post('/media/rename', { from: 'video/clip-3.mp4', to: 'z' }), 401);
  });

  test('POST /media/folders/rename: a folder moved with its contents; 404; 422 taken, no parent, into itself', async () => {
    const r = await api.post('/media/folders/rename', { from: 'docs/2023', to: 'docs/archive-2023' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual({ name: 'archive-2023', path: 'docs/archive-2023', children_count: 0, file_count: 0 });
    if (real) expect(r.headers.get('x-invalidates')).toBe('media:delete:docs/2023, media:create:docs/archive-2023, media:list');
    expect(names(await api.get('/media?path=docs/archive-2023&per_page=100'))).toHaveLength(14);
    expect(onDisk('docs/archive-2023/report-2023-q1.pdf.meta.yaml')).toBe(true);
    expect(expectProblem(await api.post('/media/folders/rename', { from: 'docs/2023', to: 'docs/x' }), 404).detail).toBe('Source folder not found.');
    expect(expectProblem(await api.post('/media/folders/rename', { from: 'docs/2024', to: 'docs/2025' }), 422).detail).toBe('A folder already exists at the destination.');
    expect(expectProblem(await api.post('/media/folders/rename', { from: 'docs/2024', to: 'nowhere/2024' }), 422).detail).toBe('Unable to rename folder.');
    expect(expectProblem(await api.post('/media/folders/rename', { from: 'docs', to: 'docs/inner' }), 422).detail).toBe('Unable to rename folder.');
    expect(expectProblem(await api.post('/media/folders/rename', { to: 'x' }), 422).detail).toBe("Both 'from' and 'to' paths are required.");
    expectProblem(await reader.post('/media/folders/rename', { from: 'docs/2024', to: 'docs/y' }), 403);
    expectProblem(await api.as({ none: true }).post('/media/folders/rename', { from: 'docs/2024', to: 'docs/y' }), 401);
  });

  test('GET /thumbnails/{file}: 404 while cold; the image once listed; a credential only in the documents', async () => {
    const upload = await api.upload('/media?path=thumbs', [{ name: 'pic.png', data: PNG }]);
    const url = (upload.body.data as Json[])[0]!.thumbnail_url as string;
    const file = url.slice('/api/v1'.length);
    expect(expectProblem(await api.get('/thumbnails/0123456789abcdef0123456789abcdef.png'), 404).detail).toBe('Thumbnail not found.');
    const r = await fetch(sb.url + file, { headers: { 'X-API-Key': sb.seeded!.adminApiKey! } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('image/png');
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await r.arrayBuffer()).equals(PNG)).toBe(true);
    const anonymous = await api.as({ none: true }).get(file);
    expect(anonymous.status).toBe(real ? 200 : 401);
    // a file that is not an image has no thumbnail
    const txt = await api.upload('/media?path=thumbs', [{ name: 'a.txt', data: 'x' }]);
    expect((txt.body.data as Json[])[0]).not.toHaveProperty('thumbnail_url');
  });

  test('/user/media serves the library, never sidecars or hidden files', async () => {
    expect((await fetch(`${sb.origin}/user/media/brand/mark.svg`)).headers.get('content-type')).toBe('image/svg+xml');
    expect((await fetch(`${sb.origin}/user/media/brand/logo-light.png.meta.yaml`)).status).toBe(404);
    expect((await fetch(`${sb.origin}/user/media/nope.png`)).status).toBe(404);
  });
});
