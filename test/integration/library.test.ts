/**
 * The site media library through the Host against the CMS sandbox (both flavours): a folder's
 * listing with its subfolders and paging, the type filter, a recursive search, files uploaded into a
 * new folder with progress, a taken name kept beside the old file unless replaced, a rename and a move, a folder that is not empty refused with the site's
 * reason, a folder renamed and deleted, and the site away: the copy with its time, a write refused
 * with the reason and nothing queued.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { solidPng } from '../sandbox/cms/content/seed-content';

describe.each(flavors)('%s flavour', (flavor) => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor, ...UNHURRIED } });
  });
  afterAll(async () => {
    await fx?.close();
  });
  const onDisk = (rel: string) => existsSync(join(fx.cms.dataDir, 'media', rel));
  const siteId = () => fx.site.id;

  async function upload(path: string, filename: string, bytes: Buffer, type = 'application/octet-stream', replace = false) {
    const uploadId = `t-${filename}-${Math.random().toString(36).slice(2)}`;
    await fx.call('library.uploadChunk', { uploadId, offset: 0, data: bytes.toString('base64') });
    return { uploadId, file: await fx.call('library.upload', { siteId: siteId(), path, uploadId, filename, type, ...(replace ? { replace } : {}) }) };
  }

  test('the root: its files paged by the site, its subfolders with their counts', async () => {
    const first = await fx.call('library.list', { siteId: siteId(), path: '', perPage: 2 });
    expect(first.copiedAt).toBeNull();
    expect(first.files.map((f) => f.path)).toEqual(['favicon.png', 'readme.txt']);
    expect(first.files[0]).toMatchObject({ name: 'favicon.png', folder: '', url: '/user/media/favicon.png', type: 'image/png', dimensions: { width: 16, height: 16 } });
    expect(first.total).toBe(3);
    expect(first.next).toBe(2);
    expect(first.folders.map((f) => f.path)).toEqual(['audio', 'brand', 'docs', 'empty', 'events', 'photos', 'video']);
    expect(first.folders.find((f) => f.path === 'brand')).toEqual({ name: 'brand', path: 'brand', folders: 1, files: 3 });
    const second = await fx.call('library.list', { siteId: siteId(), path: '', perPage: 2, page: 2 });
    expect(second.files).toHaveLength(1);
    expect(second.next).toBeNull();
    expect(first.problems).toEqual([]);
  });

  test('a subfolder, the type filter and a recursive search', async () => {
    const video = await fx.call('library.list', { siteId: siteId(), path: 'video' });
    expect(video.files.length).toBe(6);
    expect(video.files.every((f) => f.folder === 'video' && f.path.startsWith('video/'))).toBe(true);
    const images = await fx.call('library.list', { siteId: siteId(), path: '', type: 'image' });
    expect(images.files.every((f) => f.type.startsWith('image/'))).toBe(true);
    const docs = await fx.call('library.list', { siteId: siteId(), path: '', type: 'document' });
    expect(docs.files.map((f) => f.name)).toContain('readme.txt');
    const found = await fx.call('library.list', { siteId: siteId(), path: 'ignored', search: 'favicon' });
    expect(found.search).toBe('favicon');
    expect(found.folders).toEqual([]);
    expect(found.files.length).toBeGreaterThan(0);
    expect(found.files.every((f) => f.name.toLowerCase().includes('favicon'))).toBe(true);
    // a search finds files in nested folders, and says where each is
    const deep = await fx.call('library.list', { siteId: siteId(), path: '', search: '.mp4', perPage: 100 });
    expect(deep.files.some((f) => f.folder === 'video')).toBe(true);
  });

  test('names that would climb out of the library are refused before any request', async () => {
    for (const path of ['..', 'a/../b', '.hidden', 'a//b', 'a\\b']) {
      const err = await fx.fails('library.list', { siteId: siteId(), path });
      expect(err.code).toBe('invalid_input');
    }
    expect((await fx.fails('library.move', { siteId: siteId(), from: 'readme.txt', to: '../readme.txt' })).code).toBe('invalid_input');
    expect((await fx.fails('library.deleteFolder', { siteId: siteId(), path: '' })).code).toBe('invalid_input');
  });

  test('three files uploaded into a new folder with progress, one renamed, one moved', async () => {
    const folder = 'uploads/new-folder';
    const a = await upload(folder, 'one.png', solidPng(4, 4, [200, 40, 40]), 'image/png');
    expect(a.file).toMatchObject({ path: `${folder}/one.png`, folder, name: 'one.png', url: `/user/media/${folder}/one.png`, type: 'image/png' });
    expect(fx.events.some((e) => e.name === 'library.progress' && (e.payload as { uploadId: string }).uploadId === a.uploadId)).toBe(true);
    await upload(folder, 'two.txt', Buffer.from('two'), 'text/plain');
    await upload(folder, 'three.txt', Buffer.from('three'), 'text/plain');
    const listed = await fx.call('library.list', { siteId: siteId(), path: folder });
    expect(listed.files.map((f) => f.name)).toEqual(['one.png', 'three.txt', 'two.txt']);
    const parent = await fx.call('library.list', { siteId: siteId(), path: 'uploads' });
    expect(parent.folders).toEqual([{ name: 'new-folder', path: folder, folders: 0, files: 3 }]);

    // a rename keeps the extension (the site's rule) and a move goes to another folder
    const renamed = await fx.call('library.move', { siteId: siteId(), from: `${folder}/two.txt`, to: `${folder}/second` });
    expect(renamed).toMatchObject({ path: `${folder}/second.txt`, name: 'second.txt', folder });
    expect(onDisk(`${folder}/second.txt`)).toBe(true);
    const moved = await fx.call('library.move', { siteId: siteId(), from: `${folder}/three.txt`, to: 'docs/three.txt' });
    expect(moved).toMatchObject({ path: 'docs/three.txt', folder: 'docs' });
    expect(onDisk(`${folder}/three.txt`)).toBe(false);
    // a name taken is the site's refusal, in its words
    const taken = await fx.fails('library.move', { siteId: siteId(), from: `${folder}/second.txt`, to: 'docs/three.txt' });
    expect(taken).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/already exists/) });
  });

  test('a taken name: kept beside the old file unless Replace was chosen', async () => {
    await upload('same', 'note.txt', Buffer.from('first'), 'text/plain');
    const second = await upload('same', 'note.txt', Buffer.from('second'), 'text/plain');
    expect(second.file.name).toMatch(/^\d{14}-note\.txt$/);
    expect(readFileSync(join(fx.cms.dataDir, 'media', 'same', 'note.txt'), 'utf8')).toBe('first');
    const replaced = await upload('same', 'note.txt', Buffer.from('third'), 'text/plain', true);
    expect(replaced.file.path).toBe('same/note.txt');
    expect(readFileSync(join(fx.cms.dataDir, 'media', 'same', 'note.txt'), 'utf8')).toBe('third');
  });

  test('folders: created, refused while not empty with the site’s reason, renamed, deleted', async () => {
    const made = await fx.call('library.createFolder', { siteId: siteId(), path: 'albums/2026' });
    expect(made).toEqual({ name: '2026', path: 'albums/2026', folders: 0, files: 0 });
    await upload('albums/2026', 'cover.txt', Buffer.from('cover'), 'text/plain');
    const refused = await fx.fails('library.deleteFolder', { siteId: siteId(), path: 'albums/2026' });
    expect(refused).toMatchObject({ code: 'invalid_input', message: expect.stringMatching(/not empty/i) });
    expect(onDisk('albums/2026/cover.txt')).toBe(true);
    const renamed = await fx.call('library.renameFolder', { siteId: siteId(), from: 'albums/2026', to: 'albums/twenty-six' });
    expect(renamed).toMatchObject({ name: 'twenty-six', path: 'albums/twenty-six' });
    expect(onDisk('albums/twenty-six/cover.txt')).toBe(true);
    await fx.call('library.delete', { siteId: siteId(), path: 'albums/twenty-six/cover.txt' });
    expect(await fx.call('library.deleteFolder', { siteId: siteId(), path: 'albums/twenty-six' })).toEqual({ path: 'albums/twenty-six' });
    expect(onDisk('albums/twenty-six')).toBe(false);
    // deleting what is not there (an earlier answer lost, another admin first) is what was asked
    expect(await fx.call('library.delete', { siteId: siteId(), path: 'albums/nothing.txt' })).toEqual({ path: 'albums/nothing.txt' });
    expect(await fx.call('library.deleteFolder', { siteId: siteId(), path: 'albums/twenty-six' })).toEqual({ path: 'albums/twenty-six' });
  });

  test('the site away: the copy with its time, writes refused with the reason and nothing queued', async () => {
    const fresh = await fx.call('library.list', { siteId: siteId(), path: 'brand' });
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const copy = await fx.call('library.list', { siteId: siteId(), path: 'brand' });
      expect(copy.copiedAt).toEqual(expect.any(String));
      expect(copy.files).toEqual(fresh.files);
      expect(copy.folders).toEqual(fresh.folders);
      // a folder never listed has no copy, and a search is not kept: the failure says so
      expect((await fx.fails('library.list', { siteId: siteId(), path: 'events' })).code).toMatch(/network|timeout/);
      expect((await fx.fails('library.list', { siteId: siteId(), path: '', search: 'favicon' })).code).toMatch(/network|timeout/);
      const err = await fx.fails('library.createFolder', { siteId: siteId(), path: 'offline-folder' });
      expect(err.code).toMatch(/network|timeout/);
      expect(err.message).toMatch(/was not done.*never sent later/);
      const chunk = Buffer.from('offline').toString('base64');
      await fx.call('library.uploadChunk', { uploadId: 'offline-up', offset: 0, data: chunk });
      const up = await fx.fails('library.upload', { siteId: siteId(), path: '', uploadId: 'offline-up', filename: 'offline.txt', type: 'text/plain' });
      expect(up.message).toMatch(/not (uploaded|done)/);
      expect(await fx.call('sync.outbox', { siteId: siteId() })).toEqual([]);
    } finally {
      fx.cms.faults.clear();
    }
    expect(onDisk('offline-folder')).toBe(false);
    expect(onDisk('offline.txt')).toBe(false);
  });
});
