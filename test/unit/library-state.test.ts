/**
 * The media library area's state without a browser: a folder read from its first page and the next
 * pages after it, ancestors expanded when a folder opens, the tree learning subfolders, a search
 * and its way back, an answer for a folder no longer shown dropped, the writes (a folder created,
 * renamed while open, a refusal kept for the dialog, a file moved out, deleted) and the upload
 * queue (pieces, then the file; a refused file keeps its reason while the next goes on; a taken
 * name asked about first). The Host
 * is a small stand-in behind the renderer's transport; the real one is in library.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LibraryFile, LibraryFolder, LibraryListing } from '../../electron/contract/index';
import { LibraryState } from '../../renderer/views/library/library.svelte';
import { FakeHost, settle, stubFileReader, type Handler } from './support/fake-host';

const file = (path: string): LibraryFile => {
  const i = path.lastIndexOf('/');
  return { path, name: path.slice(i + 1), folder: i < 0 ? '' : path.slice(0, i), url: `/user/media/${path}`, type: 'text/plain', size: 1, modified: null, dimensions: null, alt: null, title: null };
};
const folder = (path: string, folders = 0): LibraryFolder => ({ name: path.slice(path.lastIndexOf('/') + 1), path, folders, files: 0 });

class LibraryHost extends FakeHost {
  files: string[] = ['a.txt', 'b.txt', 'c.txt', 'docs/2024/r.txt', 'docs/notes.txt'];
  folders: string[] = ['docs', 'docs/2024', 'empty'];
  handlers: Record<string, Handler> = {
    'library.list': (i) => {
      const path = String(i.path);
      const page = Number(i.page);
      const perPage = Number(i.perPage);
      const search = i.search ? String(i.search) : null;
      const all = search ? this.files.filter((f) => f.includes(search)) : this.files.filter((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '') === path);
      const subs = search ? [] : this.folders.filter((f) => (f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '') === path).map((f) => folder(f, this.folders.filter((x) => x.startsWith(`${f}/`)).length));
      const rows = all.slice((page - 1) * perPage, page * perPage).map(file);
      return { path: search ? '' : path, search, type: null, files: rows, folders: subs, page, perPage, total: all.length, next: page * perPage < all.length ? page + 1 : null, problems: [], copiedAt: null } satisfies LibraryListing;
    },
    'library.createFolder': (i) => {
      this.folders.push(String(i.path));
      return folder(String(i.path));
    },
    'library.renameFolder': (i) => {
      this.folders = this.folders.map((f) => (f === i.from ? String(i.to) : f));
      this.files = this.files.map((f) => (f.startsWith(`${i.from}/`) ? String(i.to) + f.slice(String(i.from).length) : f));
      return folder(String(i.to));
    },
    'library.deleteFolder': (i) => {
      if (this.files.some((f) => f.startsWith(`${i.path}/`))) throw { code: 'invalid_input', message: 'Folder is not empty. Delete all files first.', status: 422 };
      this.folders = this.folders.filter((f) => f !== i.path);
      return { path: i.path };
    },
    'library.move': (i) => {
      this.files = this.files.map((f) => (f === i.from ? String(i.to) : f));
      return file(String(i.to));
    },
    'library.delete': (i) => {
      this.files = this.files.filter((f) => f !== i.path);
      return { path: i.path };
    },
    'library.uploadChunk': (i) => ({ received: String(i.data).length }),
    'library.upload': (i) => {
      if (String(i.filename).endsWith('.php')) throw { code: 'invalid_input', message: "File extension '.php' is not allowed for security reasons.", status: 422 };
      const path = i.path ? `${i.path}/${i.filename}` : String(i.filename);
      this.files.push(path);
      return file(path);
    },
  };

}

const names = (s: LibraryState) => s.files.map((f) => f.path);

describe('LibraryState', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the root, its subfolders for the tree, and the next page after the first', async () => {
    const host = new LibraryHost();
    host.files = Array.from({ length: 150 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`);
    const s = new LibraryState(() => 's1');
    await s.load();
    expect(s.files).toHaveLength(100);
    expect(s.total).toBe(150);
    expect(s.next).toBe(2);
    expect(s.children.get('')?.map((f) => f.path)).toEqual(['docs', 'empty']);
    await s.loadMore();
    expect(s.files).toHaveLength(150);
    expect(s.next).toBeNull();
    await s.loadMore(); // nothing more to read
    expect(host.calls.filter((c) => c.channel === 'library.list')).toHaveLength(2);
  });

  it('opening a folder expands the tree to it; expanding learns subfolders once', async () => {
    const host = new LibraryHost();
    const s = new LibraryState(() => 's1');
    await s.openFolder('docs/2024');
    expect(names(s)).toEqual(['docs/2024/r.txt']);
    expect([...s.expanded]).toEqual(['docs']);
    await s.expand('docs');
    await s.expand('docs');
    expect(host.calls.filter((c) => c.channel === 'library.list' && c.input.path === 'docs')).toHaveLength(1);
    expect(s.children.get('docs')?.map((f) => f.path)).toEqual(['docs/2024']);
  });

  it('a search looks everywhere and opening a folder leaves it; an answer for what is no longer shown is dropped', async () => {
    const host = new LibraryHost();
    const s = new LibraryState(() => 's1');
    await s.applySearch('  notes ');
    expect(s.search).toBe('notes');
    expect(names(s)).toEqual(['docs/notes.txt']);
    expect(host.calls.at(-1)?.input).toMatchObject({ search: 'notes', path: '' });
    host.hold = true;
    const slow = s.openFolder('docs');
    await settle();
    const fast = s.openFolder('');
    await settle();
    host.held.splice(1, 1)[0]!(); // the root's answer first
    await settle();
    host.held.shift()!(); // then the late one for docs
    await Promise.all([slow, fast]);
    expect(s.folder).toBe('');
    expect(names(s)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('folders: created, renamed while open (the open path follows), a refusal thrown for the dialog, an empty one deleted', async () => {
    new LibraryHost();
    const s = new LibraryState(() => 's1');
    await s.openFolder('docs');
    await s.createFolder(' new ');
    expect(s.children.get('docs')?.map((f) => f.path)).toContain('docs/new');
    await s.openFolder('docs/2024');
    await s.renameFolder('docs/2024', 'y2024');
    expect(s.folder).toBe('docs/y2024');
    expect(names(s)).toEqual(['docs/y2024/r.txt']);
    await expect(s.deleteFolder('docs/y2024')).rejects.toMatchObject({ message: /not empty/ });
    expect(s.folder).toBe('docs/y2024');
    await s.openFolder('empty');
    await s.deleteFolder('empty');
    expect(s.folder).toBe('');
    expect(s.children.get('')?.map((f) => f.path)).toEqual(['docs']);
  });

  it('files: renamed in place, moved out of the folder, deleted', async () => {
    new LibraryHost();
    const s = new LibraryState(() => 's1');
    await s.load();
    await s.renameFile(s.files[0]!, 'first.txt');
    expect(names(s)).toEqual(['first.txt', 'b.txt', 'c.txt']);
    await s.moveFile(s.files[1]!, 'docs');
    expect(names(s)).toEqual(['first.txt', 'c.txt']);
    expect(s.total).toBe(2); // read again after the move
    await s.deleteFile(s.files[1]!);
    expect(names(s)).toEqual(['first.txt']);
  });

  it('uploads: pieces then the file into the folder open when it was added; a refused file keeps the reason, the next goes on', async () => {
    stubFileReader();
    const host = new LibraryHost();
    const s = new LibraryState(() => 's1');
    // the batch's end reads the folder again (its counts in the tree)
    const after = vi.spyOn(s, 'afterUploads');
    await s.openFolder('docs');
    s.uploads.add([new File(['<?php'], 'evil.php'), new File(['hello'], 'hello.txt', { type: 'text/plain' })]);
    await settle();
    expect(s.uploads.items.map((u) => [u.name, u.state, u.error])).toEqual([
      ['evil.php', 'error', "File extension '.php' is not allowed for security reasons."],
      ['hello.txt', 'done', null],
    ]);
    expect(host.calls.filter((c) => c.channel === 'library.uploadChunk').map((c) => c.input.data)).toEqual([Buffer.from('<?php').toString('base64'), Buffer.from('hello').toString('base64')]);
    expect(host.calls.find((c) => c.channel === 'library.upload' && c.input.filename === 'hello.txt')?.input).toMatchObject({ path: 'docs', type: 'text/plain' });
    expect(names(s)).toContain('docs/hello.txt');
    expect(after).toHaveBeenCalledTimes(1);
    s.uploads.clearFinished();
    expect(s.uploads.items).toEqual([]);

    // a name the folder shows: asked first; Skip sends nothing, Replace says so, Keep both lets the site rename
    const sent = () => host.calls.filter((c) => c.channel === 'library.upload').length;
    const before = sent();
    s.uploads.add([new File(['x'], 'notes.txt')]);
    await settle();
    expect(s.uploads.asking?.name).toBe('notes.txt');
    s.uploads.answer('skip');
    await settle();
    expect(s.uploads.items[0]!.state).toBe('skipped');
    expect(sent()).toBe(before);
    s.uploads.add([new File(['y'], 'notes.txt'), new File(['z'], 'hello.txt')]);
    await settle();
    s.uploads.answer('replace', true); // for the batch's other clash too
    await settle();
    const uploads = host.calls.filter((c) => c.channel === 'library.upload').slice(-2).map((c) => [c.input.filename, c.input.replace]);
    expect(uploads).toEqual([
      ['notes.txt', true],
      ['hello.txt', true],
    ]);
    expect(s.uploads.asking).toBeNull();
  });
});
