/**
 * The licence notices (scripts/notices.mjs, issue 21): every package the app ships, bundled or
 * copied, is in out/app/THIRD_PARTY_NOTICES.txt and out/app/licences.json with its licence text, or
 * with its declared licence and a note where it ships no licence file; the native add-ons say what
 * they link in (SQLite; libdbus, used under the Academic Free License 2.1, with that licence's text).
 * The real build is checked against the list computed now from its bundles' records and node_modules:
 * a package added to a bundle or to `dependencies` without a new build fails here; and the package
 * check (scripts/package-contents.mjs) passes over it. A fresh checkout gets its build here first.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { shippedPackages, root } from '../../scripts/shipped-packages.mjs';
import { collectNotices, NOTICES_FORMAT, noticesText, type NoticeEntry } from '../../scripts/notices.mjs';
import { checkPackage, noticesGaps } from '../../scripts/package-contents.mjs';
import { plantProject, type PlantedPackage } from '../support/planted-project';
import { tempDir } from '../support/tmp';

const dirs: { remove(): void }[] = [];
const appPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

function project(app: Record<string, unknown>, packages: Record<string, PlantedPackage>): string {
  const dir = tempDir('sitedesk-notices-');
  dirs.push(dir);
  const electron = { pkg: { name: 'electron', version: '45.0.0', license: 'MIT' }, files: { LICENSE: 'Copyright (c) Electron contributors' } };
  return plantProject(dir.path, { productName: 'App', ...app }, { electron, ...packages });
}

describe('the notices over a planted project', () => {
  it('carries every package with its licence files, and says so where a package ships none', () => {
    const dir = project(
      { dependencies: { runtime: '^1' } },
      {
        runtime: { pkg: { name: 'runtime', version: '1.0.0', license: 'MIT' }, files: { 'LICENSE.md': 'MIT License\r\n\r\nCopyright (c) Runtime Authors\r\n' } },
        bare: { pkg: { name: 'bare', version: '2.0.0', license: 'BSD-2-Clause', homepage: 'https://example.test/bare' }, files: { 'x.js': '' } },
        '@ui/kit': { pkg: { name: '@ui/kit', version: '3.1.0', license: 'ISC' }, files: { LICENSE: 'ISC License\nCopyright Kit', NOTICE: 'Kit includes Foo.' } },
      },
    );
    const entries = collectNotices(dir, { records: [{ bundle: 'renderer', inputs: ['node_modules/bare/x.js', 'node_modules/@ui/kit/x.js'] }] });
    expect(entries.map((e) => `${e.name}@${e.version}`)).toEqual(['@ui/kit@3.1.0', 'bare@2.0.0', 'runtime@1.0.0', 'electron@45.0.0']);
    const by = (name: string) => entries.find((e) => e.name === name)!;
    expect(by('@ui/kit').texts).toEqual([
      { file: 'LICENSE', text: 'ISC License\nCopyright Kit' },
      { file: 'NOTICE', text: 'Kit includes Foo.' },
    ]);
    expect(by('runtime').texts).toEqual([{ file: 'LICENSE.md', text: 'MIT License\n\nCopyright (c) Runtime Authors' }]);
    expect(by('bare').texts).toEqual([]);
    expect(by('bare').notes[0]).toMatch(/ships no licence file.*declares the licence BSD-2-Clause.*https:\/\/example\.test\/bare/);
    expect(by('electron').notes.join(' ')).toMatch(/LICENSES\.chromium\.html/);

    const text = noticesText({ name: 'app', productName: 'App', version: '1.0.0' }, entries);
    expect(text).toMatch(/^App 1\.0\.0: third-party software notices/);
    for (const e of entries) expect(text).toContain(`\n${e.name} ${e.version}\nLicence: ${e.licence}\n`);
    expect(text).toContain('--- NOTICE ---\n\nKit includes Foo.');
  });

  it("refuses a Linux keyring add-on whose files no longer carry libdbus's AFL 2.1 text", () => {
    const dir = project(
      { dependencies: { '@napi-rs/keyring': '^2' } },
      {
        '@napi-rs/keyring': { pkg: { name: '@napi-rs/keyring', version: '2.0.0', license: 'MIT', optionalDependencies: { '@napi-rs/keyring-linux-x64-gnu': '2.0.0' } }, files: { LICENSE: 'MIT' } },
        '@napi-rs/keyring-linux-x64-gnu': { pkg: { name: '@napi-rs/keyring-linux-x64-gnu', version: '2.0.0', license: 'MIT' }, files: { 'LICENSE.third-party.md': 'crates only', 'k.node': 'ELF' } },
      },
    );
    expect(() => collectNotices(dir, { records: [] })).toThrow(/keyring-linux-x64-gnu: .*Academic Free License 2\.1/);
  });
});

interface NoticesFile {
  format: number;
  app: { name: string; version: string };
  packages: NoticeEntry[];
}

describe('the notices of the real build', () => {
  let file: NoticesFile;
  let text: string;

  beforeAll(() => {
    // a fresh checkout has no build yet: make one (npm test builds again later; a developer's build is reused)
    if (!existsSync(join(root, 'out', 'app', 'licences.json')) || !existsSync(join(root, 'out', 'meta'))) {
      const r = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`the build failed:\n${r.stdout}\n${r.stderr}`);
    }
    file = JSON.parse(readFileSync(join(root, 'out', 'app', 'licences.json'), 'utf8')) as NoticesFile;
    text = readFileSync(join(root, 'out', 'app', 'THIRD_PARTY_NOTICES.txt'), 'utf8');
  }, 300_000);

  it('lists every package the bundles hold and every runtime dependency, at the versions installed', () => {
    const shipped = shippedPackages(root);
    const inFile = new Set(file.packages.map((p) => `${p.name}@${p.version}`));
    const missing = shipped.filter((p) => !inFile.has(`${p.name}@${p.version}`)).map((p) => `${p.name}@${p.version} (${p.where.join(', ')})`);
    expect(missing, 'shipped but not in out/app/licences.json: run npm run build').toEqual([]);
    const missingText = shipped.filter((p) => !text.includes(`\n${p.name} ${p.version}\nLicence: `)).map((p) => `${p.name}@${p.version}`);
    expect(missingText, 'shipped but not in out/app/THIRD_PARTY_NOTICES.txt: run npm run build').toEqual([]);
    expect(file.format).toBe(NOTICES_FORMAT);
    expect(file.app.version).toBe((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version);
  });

  it('names the Host’s own packages and the renderer’s, marked on its maintained line', () => {
    const where = (name: string) => file.packages.find((p) => p.name === name)?.where ?? [];
    expect(where('valibot')).toEqual(expect.arrayContaining(['host', 'renderer', 'shell']));
    expect(where('node-diff3')).toEqual(expect.arrayContaining(['host', 'runtime']));
    for (const name of ['svelte', 'dompurify', 'marked', '@codemirror/view', 'bits-ui']) expect(where(name), name).toContain('renderer');
    expect(file.packages.find((p) => p.name === 'marked')?.version).toMatch(/^18\./);
    expect(file.packages.filter((p) => p.where.includes('renderer')).length).toBeGreaterThanOrEqual(40);
  });

  it('gives every package a licence text, or its declared licence with a note saying the package ships none', () => {
    const bare = file.packages.filter((p) => p.texts.length === 0);
    for (const p of bare) expect(p.notes[0], p.name).toMatch(new RegExp(`ships no licence file\\. Its package\\.json declares the licence ${p.licence.replace(/[()]/g, '\\$&')}`));
    for (const p of file.packages) for (const t of p.texts) expect(t.text.length, `${p.name} ${t.file}`).toBeGreaterThan(0);
    expect(file.packages.every((p) => p.licence && p.licence !== 'UNKNOWN')).toBe(true);
  });

  it('says what the native add-ons link in: SQLite’s dedication, and libdbus under the Academic Free License 2.1 with its text', () => {
    const sqlite = file.packages.find((p) => p.name === 'better-sqlite3')!;
    expect(sqlite.native).toBe(true);
    expect(sqlite.notes.join('\n')).toMatch(/includes SQLite \d+\.\d+\.\d+, which is in the public domain[\s\S]*May you do good and not evil\./);
    const linux = file.packages.filter((p) => p.name.startsWith('@napi-rs/keyring-linux-'));
    if (process.platform === 'linux') expect(linux.length).toBeGreaterThan(0);
    for (const p of linux) {
      expect(p.licence).toContain('libdbus: AFL-2.1 (chosen of AFL-2.1 OR GPL-2.0-or-later)');
      expect(p.notes.join(' ')).toMatch(/Sitedesk uses it under the Academic Free License 2\.1/);
      const third = p.texts.find((t) => /third-party/i.test(t.file))!;
      expect(third.text).toContain('The Academic Free License\nv. 2.1');
      expect(third.text).toContain('libdbus');
    }
    expect(file.packages.find((p) => p.name === 'electron')?.texts[0]?.text).toMatch(/Copyright/);
  });

  it('holds nothing but the app in the real build, with the runtime dependencies of package.json', () => {
    const { contents, problems } = checkPackage(root);
    expect(problems).toEqual([]);
    expect(contents.app).toContain(appPkg.main);
    expect(contents.app).toContain('out/app/host/host.cjs');
    expect(contents.app.every((p) => p === 'package.json' || p.startsWith('out/app/'))).toBe(true);
    expect(contents.dependencies).toEqual(expect.arrayContaining(Object.keys(appPkg.dependencies)));
  });

  it('names a shipped package the licence notices leave out, as the check after every build does', () => {
    expect(noticesGaps(root)).toEqual([]);
    const dir = tempDir('sitedesk-gaps-');
    dirs.push(dir);
    const fewer = join(dir.path, 'licences.json');
    const dropped = ['valibot', 'better-sqlite3'];
    writeFileSync(fewer, JSON.stringify({ ...file, packages: file.packages.filter((p) => !dropped.includes(p.name)) }));
    const gaps = noticesGaps(root, fewer);
    expect(gaps).toHaveLength(2);
    expect(gaps[0]).toMatch(/^better-sqlite3@[\d.]+ \(runtime\): ships but is not in the licence notices \(run npm run build\)$/);
    expect(gaps[1]).toMatch(/^valibot@[\d.]+ \(.*host.*renderer.*\): ships but is not in the licence notices/);
    expect(noticesGaps(root, join(dir.path, 'none.json'))[0]).toMatch(/none\.json: not built \(run npm run build\)$/);
  });
});
