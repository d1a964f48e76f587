/**
 * Offline search finds the person's own unsynced words (issue 20): a word typed into a page and
 * saved as a draft is found before it reaches the site, marked as a draft, in place of the page's
 * copy; after the push the copy has it. Snippets read as text, not Markdown. A database made before
 * drafts were indexed gets its drafts indexed when it is opened.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { createHost, DB_FILE, type Host } from '../../electron/core/host';
import { closeDatabase, openDatabase } from '../../electron/db';
import { syncRepo } from '../../electron/db/repos/sync';
import { migrations } from '../../electron/db/migrations';
import { searchRepo } from '../../electron/db/repos/search';
import { ftsQuery } from '../../electron/db/fts-query';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { cmsPages } from '../../electron/api/cms/pages';
import type { SearchHit, Site } from '../../electron/contract';
import type { CmsSandbox } from '../sandbox/cms/server';
import { withHost, type DemoHost } from '../support/demo-host';
import { adminApi, hostCalls } from '../support/host-calls';
import { tempDir } from '../support/tmp';

let cms: CmsSandbox;
let host: Host;
let dir: ReturnType<typeof tempDir>;
let site: Site;
const { call } = hostCalls(() => host);
const search = (text: string) => call('search.query', { text });
const text = (h: SearchHit) => h.snippet.map((p) => p.text).join('');
const marked = (h: SearchHit) => h.snippet.filter((p) => p.match).map((p) => p.text);

let fx: DemoHost;

beforeAll(async () => {
  fx = await withHost();
  ({ cms, host, dir, site } = fx);
});
afterAll(() => fx.close());

describe('search over drafts', () => {
  test('a word saved in a draft is found before it is synced, as the draft, in place of the copy', async () => {
    const page = await call('pages.get', { siteId: site.id, route: '/about/history' });
    expect(await search('Zephyrwort')).toEqual([]);
    // the copy is found by its own words
    const before = (await search('History')).find((h) => h.route === '/about/history');
    expect(before).toBeDefined();
    expect(before!.draft).toBeUndefined();

    cms.faults.set({ route: '*', drop: true }); // offline: the draft stays a draft
    try {
      await call('drafts.save', { siteId: site.id, route: '/about/history', title: page.title, header: { ...page.header, menu: 'Our past' }, content: '# History\n\nWritten on a train: **Zephyrwort** grows by the tracks.\n' });
      const hits = await search('Zephyrwort');
      expect(hits).toHaveLength(1);
      expect(hits[0]).toMatchObject({ siteId: site.id, route: '/about/history', lang: '', title: 'History', draft: true, cachedAt: expect.any(String) });
      expect(marked(hits[0]!)).toEqual(['Zephyrwort']);
      // text, not Markdown
      expect(text(hits[0]!)).not.toMatch(/[#*]/);
      expect(text(hits[0]!)).toContain('Written on a train: Zephyrwort grows by the tracks.');
      // header values of the draft are searched too
      expect((await search('"Our past"')).map((h) => [h.route, h.draft])).toEqual([['/about/history', true]]);
      // a word in both the copy and the draft: one hit, the draft's
      const both = (await search('History')).filter((h) => h.route === '/about/history');
      expect(both.map((h) => h.draft)).toEqual([true]);

      // saved again without the word: the draft no longer matches it
      await call('drafts.save', { siteId: site.id, route: '/about/history', title: page.title, header: page.header, content: '# History\n\nRewritten: Quillbrook.\n' });
      expect(await search('Zephyrwort')).toEqual([]);
      expect((await search('Quillbrook')).map((h) => h.draft)).toEqual([true]);
    } finally {
      cms.faults.clear();
    }

    // pushed: the draft is gone, the copy has the words
    await call('sync.push', { siteId: site.id });
    expect(await call('drafts.list', { siteId: site.id })).toEqual([]);
    const after = await search('Quillbrook');
    expect(after.map((h) => [h.route, h.draft])).toEqual([['/about/history', undefined]]);
    expect((await cmsPages.get(adminApi(cms), '/about/history')) as { content: string }).toMatchObject({ content: expect.stringContaining('Quillbrook') });
  });

  test('drafts saved before the index existed are indexed when the database is opened', () => {
    const d = tempDir();
    try {
      const file = join(d.path, DB_FILE);
      const old = openDatabase(file, migrations.filter((m) => m.version < 9));
      // the row as that schema had it (today's repo writes columns added since)
      old
        .prepare(`INSERT INTO sites (id, name, kind, base_url, environment, auth_mode, has_api_key, position, created_at, updated_at)
                  VALUES ('s1', 'Old', 'cms', 'https://x.test/api/v1', NULL, 'apikey', 1, 0, '2025-01-01T00:00:00Z', '2025-01-01T00:00:00Z')`)
        .run();
      syncRepo(old).saveEdit('s1', '/notes', '', { etag: null, text: { title: 'Notes', header: {}, content: '' } }, { title: 'Notes', header: { tags: ['Marram'] }, content: 'Kept since last spring.' });
      closeDatabase(old);
      const db = openDatabase(file);
      try {
        const found = searchRepo(db).searchDrafts(ftsQuery('marram spring').match!, 10);
        expect(found.map((r) => [r.site_id, r.route, r.title])).toEqual([['s1', '/notes', 'Notes']]);
      } finally {
        closeDatabase(db);
      }
    } finally {
      d.remove();
    }
  });
});
