/**
 * The media library's pure parts: the client read against a real Grav's recorded replies (a listing
 * with `meta.folders` and paging under `meta.pagination`, a folder created) and against the
 * document's shape (items without `path`), rows that could climb out of the library set aside with
 * their reason, the Markdown link a page uses, and the folder tree with its keyboard moves.
 */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { cmsLibrary } from '../../electron/api/cms/library';
import { LibraryList, LibraryMove, LibraryUpload, type LibraryFolder } from '../../electron/contract';
import { knownFolders, linkTarget, markdownLink, nameProblem, previewKind, treeKey, treeRows } from '../../renderer/views/library/library-items';
import { recorded, reply, transport } from './support/recorded-replies';

const siteId = '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';

describe('the library client', () => {
  test('the real service’s listing: no files, one folder, paging under meta.pagination', async () => {
    const { t, seen } = transport((req) => (req.path.startsWith('/media') ? recorded('40-media-library') : undefined));
    const page = await cmsLibrary.list(t, { path: '', page: 1, perPage: 5 });
    expect(seen[0]!.path).toBe('/media?page=1&per_page=5');
    expect(page).toEqual({ files: [], folders: [{ name: 'blog', path: 'blog', folders: 0, files: 0 }], page: 1, perPage: 5, total: 0, next: null, problems: [] });
  });

  test('a folder created, as the real service answers it', async () => {
    const { t, seen } = transport((req) => (req.method === 'POST' && req.path === '/media/folders' ? recorded('75-media-folder-create') : undefined));
    expect(await cmsLibrary.createFolder(t, 'recorded')).toEqual({ name: 'recorded', path: 'recorded', folders: 0, files: 0 });
    expect(seen[0]!.body).toEqual({ path: 'recorded' });
  });

  test('the document’s shape: items without path (the folder from the URL or the listing), flat paging', async () => {
    const { t, seen } = transport(() =>
      reply({
        data: [
          { filename: 'a.png', url: '/user/media/photos/a.png', type: 'image/png', size: 10 },
          { filename: 'b.txt', url: 'https://cms.example.com/elsewhere/b.txt', type: 'text/plain', size: 2 },
        ],
        meta: { total: 30, page: 1, per_page: 2, folders: [{ name: 'x' }] },
      }),
    );
    const page = await cmsLibrary.list(t, { path: 'photos', page: 1, perPage: 2, type: 'image' });
    expect(seen[0]!.path).toBe('/media?page=1&per_page=2&path=photos&type=image');
    expect(page.files.map((f) => [f.path, f.folder, f.url])).toEqual([
      ['photos/a.png', 'photos', '/user/media/photos/a.png'],
      ['photos/b.txt', 'photos', 'https://cms.example.com/elsewhere/b.txt'],
    ]);
    expect(page.folders).toEqual([{ name: 'x', path: 'photos/x', folders: null, files: null }]);
    expect(page.next).toBe(2);
  });

  test('a search sends no path; rows that would climb or are not files are set aside with the reason', async () => {
    const { t, seen } = transport(() =>
      reply({
        data: [
          { filename: 'ok.jpg', path: 'deep/er', url: '/user/media/deep/er/ok.jpg', type: 'image/jpeg', size: 1 },
          { filename: '../../etc/passwd', path: '', url: '/x', type: 'text/plain', size: 1 },
          { filename: 'evil.txt', path: '../up', url: '/x', type: 'text/plain', size: 1 },
          { nope: true },
        ],
        meta: { pagination: { page: 1, per_page: 20, total: 4 }, folders: [{ name: '..' }] },
      }),
    );
    const page = await cmsLibrary.list(t, { path: 'ignored', page: 1, perPage: 20, search: 'ok' });
    expect(seen[0]!.path).toBe('/media?page=1&per_page=20&search=ok');
    expect(page.files.map((f) => f.path)).toEqual(['deep/er/ok.jpg']);
    expect(page.problems).toHaveLength(4);
    expect(page.problems[0]).toMatch(/^Row 2 \(\.\.\/\.\.\/etc\/passwd\): filename/);
    expect(page.folders).toEqual([]);
  });

  test('an answer that is not a listing names the call', async () => {
    const { t } = transport(() => reply({ data: { files: [] } }));
    await expect(cmsLibrary.list(t, { path: '', page: 1, perPage: 20 })).rejects.toMatchObject({ code: 'bad_response', message: expect.stringMatching(/GET \/media/) });
  });

  test('deletes and moves: each path segment encoded, nothing climbs', async () => {
    const { t, seen } = transport((req) => (req.method === 'DELETE' ? { status: 204 } : reply({ data: { filename: 'b c.txt', path: 'x y', url: '/user/media/x%20y/b%20c.txt', type: 'text/plain', size: 1 } })));
    await cmsLibrary.remove(t, 'a b/c#d.txt');
    await cmsLibrary.removeFolder(t, 'a b/c');
    expect(seen.map((s) => s.path)).toEqual(['/media/a%20b/c%23d.txt', '/media/folders/a%20b/c']);
    const moved = await cmsLibrary.move(t, 'a.txt', 'x y/b c.txt');
    expect(moved).toMatchObject({ path: 'x y/b c.txt', folder: 'x y' });
    await expect(cmsLibrary.remove(t, 'a/../b')).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('the contract', () => {
  const refused = (schema: v.GenericSchema, input: unknown) => !v.safeParse(schema, input).success;
  test('paths are relative and never climb; a page is at most 100 files', () => {
    expect(refused(LibraryList, { siteId, path: 'photos/2024' })).toBe(false);
    expect(refused(LibraryList, { siteId, path: '' })).toBe(false);
    for (const path of ['/abs', '..', 'a/..', 'a//b', '.git', 'a/.b', 'a\\b', 'a\nb', 'x'.repeat(1025)]) expect(refused(LibraryList, { siteId, path }), path).toBe(true);
    expect(refused(LibraryList, { siteId, path: '', perPage: 101 })).toBe(true);
    expect(refused(LibraryList, { siteId, path: '', type: 'archive' })).toBe(true);
    expect(refused(LibraryMove, { siteId, from: 'a.txt', to: '' })).toBe(true);
    expect(refused(LibraryUpload, { siteId, path: '', uploadId: 'u', filename: 'a/b.txt', type: 'text/plain' })).toBe(true);
    expect(refused(LibraryUpload, { siteId, path: '', uploadId: 'u', filename: 'b.txt', type: 'text/plain\r\nX: y' })).toBe(true);
    expect(refused(LibraryUpload, { siteId, path: '', uploadId: 'u', filename: `${'x'.repeat(251)}.txt`, type: 'text/plain' })).toBe(false);
    expect(refused(LibraryUpload, { siteId, path: '', uploadId: 'u', filename: `${'x'.repeat(252)}.txt`, type: 'text/plain' })).toBe(true);
  });
});

describe('the screen’s pure parts', () => {
  test('the Markdown link: an image with its alt text, anything else by its name; the address safe in a link', () => {
    expect(markdownLink({ url: '/user/media/photos/beach.jpg', name: 'beach.jpg', type: 'image/jpeg', alt: null })).toBe('![beach](/user/media/photos/beach.jpg)');
    expect(markdownLink({ url: '/user/media/photos/beach.jpg', name: 'beach.jpg', type: 'image/jpeg', alt: 'The [best] beach' })).toBe('![The \\[best\\] beach](/user/media/photos/beach.jpg)');
    expect(markdownLink({ url: '/user/media/docs/a (1).pdf', name: 'a (1).pdf', type: 'application/pdf', alt: null })).toBe('[a (1).pdf](/user/media/docs/a%20%281%29.pdf)');
    expect(linkTarget({ url: 'https://cms.example.com/user/media/x.png' })).toBe('/user/media/x.png');
    expect(previewKind({ type: 'video/mp4' })).toBe('video');
    expect(previewKind({ type: 'audio/mpeg' })).toBe('audio');
    expect(previewKind({ type: 'application/pdf' })).toBe('document');
  });

  test('a typed name: no separators, no dot names, not empty', () => {
    expect(nameProblem('Holiday 2026')).toBeNull();
    expect(nameProblem(' ')).toMatch(/Enter/);
    expect(nameProblem('a/b')).toMatch(/\//);
    expect(nameProblem('..')).not.toBeNull();
    expect(nameProblem('.hidden')).toMatch(/dot/);
  });

  const folder = (path: string, folders: number | null): LibraryFolder => ({ name: path.split('/').pop()!, path, folders, files: 0 });
  const children = new Map<string, LibraryFolder[]>([
    ['', [folder('docs', 2), folder('empty', 0), folder('photos', null)]],
    ['docs', [folder('docs/a', 0), folder('docs/b', 0)]],
  ]);

  test('the tree: the root, then what is expanded, with depths and whether a folder has children', () => {
    expect(treeRows(children, new Set()).map((r) => `${r.depth}:${r.path}:${r.hasChildren ? '+' : '-'}`)).toEqual(['0::+', '1:docs:+', '1:empty:-', '1:photos:+']);
    const open = treeRows(children, new Set(['docs']));
    expect(open.map((r) => r.path)).toEqual(['', 'docs', 'docs/a', 'docs/b', 'empty', 'photos']);
    expect(open[1]!.expanded).toBe(true);
    expect(knownFolders(children)).toEqual(['', 'docs', 'docs/a', 'docs/b', 'empty', 'photos']);
  });

  test('the tree’s keys: up and down, right opens then enters, left closes then goes to the parent', () => {
    const closed = treeRows(children, new Set());
    expect(treeKey(closed, 0, 'ArrowDown')).toEqual({ focus: 1 });
    expect(treeKey(closed, 0, 'ArrowUp')).toBeNull();
    expect(treeKey(closed, 1, 'ArrowRight')).toEqual({ expand: 'docs' });
    expect(treeKey(closed, 2, 'ArrowRight')).toBeNull(); // empty has no subfolders
    expect(treeKey(closed, 3, 'End')).toEqual({ focus: 3 });
    const open = treeRows(children, new Set(['docs']));
    expect(treeKey(open, 1, 'ArrowRight')).toEqual({ focus: 2 });
    expect(treeKey(open, 1, 'ArrowLeft')).toEqual({ collapse: 'docs' });
    expect(treeKey(open, 3, 'ArrowLeft')).toEqual({ focus: 1 });
    expect(treeKey(open, 1, 'Home')).toEqual({ focus: 0 });
  });
});
