/**
 * The CMS sandbox's content layer below HTTP: the YAML front matter subset (parse, serialise,
 * errors), the seeds (demo, single, empty, generated), the on-disk layout and its route mapping,
 * atomic writes, and a data folder kept across restarts. The layer below HTTP is the same in both
 * flavours; the restart test runs against both.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Clock } from '../sandbox/clock';
import { FrontMatterError, parsePageFile, parseYaml, serializePageFile, stringifyYaml, YamlError } from '../sandbox/cms/content/frontmatter';
import { DEMO_PAGE_COUNT, seedContent } from '../sandbox/cms/content/seed-content';
import { PageFiles, siteConfigFor } from '../sandbox/cms/content/page-files';
import { startCmsSandbox } from '../sandbox/cms/server';
import { pagination, SandboxClient } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { tempDir } from '../support/tmp';

describe('front matter YAML subset', () => {
  test('scalars, quotes, lists, nested maps, flow collections, block scalars, comments', () => {
    const src = [
      'title: "Hello: world"   # a comment',
      "single: 'it''s'",
      'plain: just text, with a comma',
      'published: false',
      'count: 12',
      'ratio: -1.5e2',
      'nothing: ~',
      'empty:',
      'date: 2024-01-10 12:00',
      'color: "#fff"',
      'zip: 01234',
      'tags: [a, "b c", \'d\']',
      'map: {by: date, dir: desc}',
      'taxonomy:',
      '  category:',
      '    - blog',
      '  tag:',
      '  - intro',
      'items:',
      '  - name: one',
      '    value: 1',
      '  - - nested',
      '    - list',
      'body: |',
      '  line one',
      '    indented',
      '',
      '  after blank',
      'folded: >-',
      '  a',
      '  b',
      'long: starts here',
      '  and continues',
      'url: http://example.com/a#b',
      'unicode: "caf\\u00e9 \\n"',
    ].join('\n');
    expect(parseYaml(src)).toEqual({
      title: 'Hello: world',
      single: "it's",
      plain: 'just text, with a comma',
      published: false,
      count: 12,
      ratio: -150,
      nothing: null,
      empty: null,
      date: '2024-01-10 12:00',
      color: '#fff',
      zip: '01234',
      tags: ['a', 'b c', 'd'],
      map: { by: 'date', dir: 'desc' },
      taxonomy: { category: ['blog'], tag: ['intro'] },
      items: [{ name: 'one', value: 1 }, ['nested', 'list']],
      body: 'line one\n  indented\n\nafter blank\n',
      folded: 'a b',
      long: 'starts here and continues',
      url: 'http://example.com/a#b',
      unicode: 'café \n',
    });
  });

  test('serialising and parsing back gives the same value', () => {
    const value = {
      title: 'A: tricky # title',
      text: 'multi\nline\n',
      n: 3,
      f: 0.5,
      t: true,
      z: null,
      quoteLike: "'quoted'",
      numberLike: '42',
      boolLike: 'true',
      empty: '',
      list: ['x', { a: 1, b: [1, 2] }, [], {}],
      nested: { deep: { deeper: ['ü', 'ß'] } },
      'key with space': 1,
    };
    const yaml = stringifyYaml(value);
    expect(parseYaml(yaml)).toEqual(value);
    expect(stringifyYaml({})).toBe('');
    expect(stringifyYaml({ title: 'Plain', tags: ['a'] })).toBe('title: Plain\ntags:\n  - a\n');
  });

  test('invalid YAML is an error with a line number, never a guess', () => {
    const bad: [string, RegExp][] = [
      ['a: b: c', /Mapping values are not allowed in this context \(line 1\)/],
      ['title: [unclosed', /Unterminated flow sequence/],
      ['x: {a: 1', /Unterminated flow mapping/],
      ['a: "open', /Unterminated double-quoted string/],
      ["a: 'open", /Unterminated single-quoted string/],
      ['a: 1\na: 2', /Duplicate key "a" \(line 2\)/],
      ['\tkey: 1', /Tabs are not allowed/],
      ['a:\n  b: 1\n c: 2', /Bad indentation of a mapping entry \(line 3\)/],
      ['a: *alias', /Anchors, aliases and tags are not supported/],
      ["a: 'x' trailing", /Unexpected text after a value/],
      ['a: "\\q"', /Unknown escape/],
      ['just a line\nkey: value', /Bad indentation|Unexpected content|Expected/],
      ['- a\nb: 1', /Unexpected content/],
      ['key: - item', /block sequence is not allowed here/],
    ];
    for (const [src, message] of bad) {
      expect(() => parseYaml(src), src).toThrow(YamlError);
      expect(() => parseYaml(src), src).toThrow(message);
    }
  });

  test('page files: front matter and markdown; no front matter; unclosed or non-map headers', () => {
    expect(parsePageFile('---\ntitle: X\n---\n\nHello\n')).toEqual({ header: { title: 'X' }, content: 'Hello\n' });
    expect(parsePageFile('---\r\ntitle: X\r\n---\r\nBody')).toEqual({ header: { title: 'X' }, content: 'Body' });
    expect(parsePageFile('No header here')).toEqual({ header: {}, content: 'No header here' });
    expect(parsePageFile('---\n---\n\nEmpty header')).toEqual({ header: {}, content: 'Empty header' });
    expect(() => parsePageFile('---\ntitle: X\n')).toThrow(FrontMatterError);
    expect(() => parsePageFile('---\n- a list\n---\n')).toThrow(/must be a mapping/);
    try {
      parsePageFile('---\ntitle: ok\nbad: [\n---\n');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(FrontMatterError);
      expect((err as FrontMatterError).line).toBe(3);
    }
    for (const content of ['', 'x', '\nstarts with a blank line', 'ends\n\n']) {
      expect(parsePageFile(serializePageFile({ title: 'T' }, content))).toEqual({ header: { title: 'T' }, content });
    }
  });
});

describe('seeds and the on-disk layout', () => {
  test('demo: 301 pages in en, de, fr, built well under a second', () => {
    const dir = tempDir('sitedesk-seed-');
    try {
      const store = new PageFiles(dir.path, new Clock());
      const started = performance.now();
      const info = seedContent(store, 'demo');
      const ms = performance.now() - started;
      expect(info).toEqual({ seed: 'demo', pages: DEMO_PAGE_COUNT, languages: ['en', 'de', 'fr'] });
      expect(ms).toBeLessThan(2500); // typically ~100 ms; generous for a busy CI machine
      const tree = store.tree();
      expect(tree.pages).toHaveLength(301);
      expect(readdirSync(store.root).sort()).toEqual(['01.home', '02.blog', '03.docs', '04.about', '05.contact', 'archive', 'legal']);
      expect(readdirSync(join(store.root, '01.home')).sort()).toEqual([
        '01.highlights', 'banner.png', 'banner.png.meta.yaml', 'brochure.pdf', 'brochure.pdf.meta.yaml', 'default.de.md', 'default.en.md', 'default.fr.md',
        'hero.png', 'hero.png.meta.yaml', 'logo.png', 'notes.txt', 'notes.txt.meta.yaml',
      ]);
      // route ↔ folder: order prefixes are not part of routes
      // the home page has a child, tagged with a number
      expect(store.find('/home/highlights')).toMatchObject({ folder: '01.highlights', order: 1 });
      const highlights = store.find('/home/highlights')!;
      expect(store.read(highlights, highlights.files.find((f) => f.lang === 'en')!)).toMatchObject({ ok: true, header: { taxonomy: { tag: [2024] } } });
      const chapter = store.find('/docs/getting-started/overview')!;
      expect(store.relPath(chapter.dir)).toBe('03.docs/01.getting-started/01.overview');
      expect(chapter).toMatchObject({ slug: 'overview', order: 1, route: '/docs/getting-started/overview' });
      expect(store.find('/03.docs')).toBeNull();
      expect(store.find('/')).toBeNull();
      // every page parses
      for (const node of tree.pages) for (const f of node.files) expect(store.read(node, f).ok, `${node.route}/${f.name}`).toBe(true);
    } finally {
      dir.remove();
    }
  });

  test('single, empty and generated sites', () => {
    const dir = tempDir('sitedesk-seed-');
    try {
      const single = new PageFiles(join(dir.path, 'a'), new Clock());
      expect(seedContent(single, 'single')).toEqual({ seed: 'single', pages: 7, languages: [] });
      expect(single.multilang).toBe(false);
      expect(readdirSync(single.find('/blog/post-1')!.dir)).toEqual(['item.md']);

      const empty = new PageFiles(join(dir.path, 'b'), new Clock());
      expect(seedContent(empty, 'empty', ['en', 'fr'])).toEqual({ seed: 'empty', pages: 0, languages: ['en', 'fr'] });
      expect(empty.tree().pages).toEqual([]);

      const many = new PageFiles(join(dir.path, 'c'), new Clock());
      expect(seedContent(many, { pages: 250 })).toMatchObject({ pages: 250 });
      const tree = many.tree();
      expect(tree.pages).toHaveLength(250);
      expect(tree.root.children.map((c) => c.folder)).toEqual(['001.section-1', '002.section-2', '003.section-3']);
      expect(many.find('/section-2/page-2-7')!.folder).toBe('007.page-2-7');
    } finally {
      dir.remove();
    }
  });

  test('two folders with one slug: the first in native order owns the route; dot folders are ignored', () => {
    const dir = tempDir('sitedesk-layout-');
    try {
      const store = new PageFiles(dir.path, new Clock(), siteConfigFor(['en']));
      for (const folder of ['02.same', 'same', '.hidden', '01.other']) {
        mkdirSync(join(store.root, folder), { recursive: true });
        writeFileSync(join(store.root, folder, 'default.en.md'), `---\ntitle: ${folder}\n---\n`);
      }
      mkdirSync(join(store.root, 'no-file/child'), { recursive: true });
      writeFileSync(join(store.root, 'no-file/child/default.md'), 'Child of a folder that is not a page');
      const tree = store.tree();
      expect(tree.root.children.map((c) => c.folder)).toEqual(['01.other', '02.same', 'no-file', 'same']);
      expect(store.find('/same')!.folder).toBe('02.same');
      expect(store.find('/no-file')).toBeNull(); // no markdown: not a page
      expect(store.find('/no-file/child')!.files).toEqual([{ name: 'default.md', template: 'default', lang: null }]);
      expect(tree.pages.map((p) => p.route)).toEqual(['/other', '/same', '/no-file/child', '/same']);
    } finally {
      dir.remove();
    }
  });

  test('writes are atomic (no temporary file left behind) and stamped with the sandbox clock', () => {
    const dir = tempDir('sitedesk-layout-');
    try {
      const clock = new Clock();
      clock.set(-86_400_000 * 365);
      const store = new PageFiles(dir.path, clock, siteConfigFor([]));
      mkdirSync(join(store.root, 'page'), { recursive: true });
      store.writePage(join(store.root, 'page'), 'default.md', { title: 'T' }, 'Body');
      expect(readdirSync(join(store.root, 'page'))).toEqual(['default.md']);
      const node = store.find('/page')!;
      const parsed = store.read(node, node.files[0]!);
      expect(parsed.ok).toBe(true);
      expect(Math.abs(parsed.mtimeMs - clock.now())).toBeLessThan(2000);
    } finally {
      dir.remove();
    }
  });
});

describe.each(flavors)('a data folder kept across restarts (%s flavour)', (flavor) => {
  test('pages and languages stay; content is seeded only into a folder without pages', async () => {
    const dir = tempDir('sitedesk-cms-');
    try {
      const first = await startCmsSandbox({ flavor, dataDir: dir.path, content: 'single', languages: ['en', 'de'] });
      expect(first.contentSeeded).toEqual({ seed: 'single', pages: 7, languages: ['en', 'de'] });
      await new SandboxClient(first).post('/pages', { route: '/kept', title: 'Kept', lang: 'de' });
      await first.close();
      const second = await startCmsSandbox({ flavor, dataDir: dir.path, content: 'demo' });
      try {
        expect(second.contentSeeded).toBeNull();
        expect(second.content.site.languages).toEqual(['en', 'de']);
        // the accounts were kept too, so no new API key was printed: sign in instead
        const login = await new SandboxClient(second, { none: true }).post('/auth/token', { username: 'admin', password: 'demo-admin-pass' });
        const api = new SandboxClient(second, { token: login.body.data.access_token as string });
        expect(pagination(await api.get('/pages?lang=de')).total).toBe(8);
        expect((await api.get('/pages/kept?lang=de')).body.data.title).toBe('Kept');
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });
});
