/**
 * Only the app in the package (scripts/package-contents.mjs, issue 21). What the installer would
 * hold is computed from electron-builder.yml's own `files` and `extraResources` patterns against a
 * build output: a planted one holding everything a developer's out/ can hold (sandbox servers,
 * benchmarks, test bundles, source maps, the bundles' records), and the real build. The check fails
 * on test, sandbox or benchmark code, on source maps and on the sandbox's demo secrets, and it
 * would have failed on the patterns the app had before (`out/**\/*`). The same check over the real
 * build is in notices.test.ts, which makes the build first on a fresh checkout.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  globToRegExp,
  packageContents,
  packageProblems,
  patternFilter,
  readBuilderConfig,
  sandboxSecrets,
  type BuilderConfig,
} from '../../scripts/package-contents.mjs';
import { root } from '../../scripts/shipped-packages.mjs';
import { DEMO_ACCOUNTS, DEMO_TOTP_SECRET } from '../sandbox/cms/seed';
import { DEMO_MEMBER_PASSWORD } from '../sandbox/cms/users/seed-users';
import { DEMO_USERS } from '../sandbox/store/seed';
import { tempDir } from '../support/tmp';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

const appPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string; dependencies: Record<string, string> };

/** A project folder holding what a developer's out/ can: the app, and everything that must not ship. */
function plantedBuild(extra: Record<string, string> = {}): string {
  const dir = tempDir('sitedesk-package-');
  dirs.push(dir);
  const files: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'sitedesk', version: '1.0.0', main: appPkg.main }),
    'electron-builder.yml': readFileSync(join(root, 'electron-builder.yml'), 'utf8'),
    'out/app/main/main.cjs': 'main',
    'out/app/main/main.cjs.map': '{}',
    'out/app/main/preload.cjs': 'preload',
    'out/app/host/host.cjs': 'host',
    'out/app/host/web.mjs': 'web',
    'out/app/renderer/index.html': '<!doctype html>',
    'out/app/renderer/assets/index-abc.js': 'app',
    'out/app/renderer/assets/index-abc.js.map': '{}',
    'out/app/THIRD_PARTY_NOTICES.txt': 'notices',
    'out/app/licences.json': '{}',
    'out/.build-stamp': '1',
    'out/meta/renderer.json': '{}',
    'out/sandbox/cli.mjs': `const p = '${DEMO_ACCOUNTS.admin.password}';`,
    'out/bench/mirror.mjs': 'bench',
    'out/bench/cms-child.mjs': 'bench',
    'out/test/host-child.mjs': 'test',
    'out/test/web-123/bin/web.mjs': 'test',
    'out/main/main.cjs': 'an older build, before out/app',
    'test/sandbox/cms/seed.ts': readFileSync(join(root, 'test/sandbox/cms/seed.ts'), 'utf8'),
    'test/sandbox/cms/users/seed-users.ts': readFileSync(join(root, 'test/sandbox/cms/users/seed-users.ts'), 'utf8'),
    'test/sandbox/store/seed.ts': readFileSync(join(root, 'test/sandbox/store/seed.ts'), 'utf8'),
    'renderer/App.svelte': 'source',
    'electron/main.ts': 'source',
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir.path, path, '..'), { recursive: true });
    writeFileSync(join(dir.path, path), text);
  }
  // the runtime dependencies resolve through the real node_modules
  writeFileSync(join(dir.path, 'package.json'), JSON.stringify({ name: 'sitedesk', version: '1.0.0', main: appPkg.main, dependencies: {} }));
  return dir.path;
}

const check = (dir: string, config: BuilderConfig) => {
  const contents = packageContents(dir, config, { main: appPkg.main, dependencies: {} });
  return { contents, problems: packageProblems(contents, { secrets: sandboxSecrets(dir), read: (p) => readFileSync(join(dir, p), 'utf8'), main: appPkg.main }) };
};

describe("electron-builder's patterns", () => {
  it('match as the builder reads them', () => {
    expect(globToRegExp('out/app/**/*').test('out/app/renderer/assets/x.js')).toBe(true);
    expect(globToRegExp('out/app/**/*').test('out/app/THIRD_PARTY_NOTICES.txt')).toBe(true);
    expect(globToRegExp('out/app/**/*').test('out/sandbox/cli.mjs')).toBe(false);
    expect(globToRegExp('**/*.map').test('out/app/main/main.cjs.map')).toBe(true);
    expect(globToRegExp('**/*.{js,cjs}').test('a/b.cjs')).toBe(true);
    expect(globToRegExp('out/?ain/*').test('out/main/x')).toBe(true);
    const keep = patternFilter(['out/app', 'package.json', '!**/*.map']);
    expect(['out/app/x.js', 'out/app/x.js.map', 'package.json', 'out/test/x.mjs'].filter(keep)).toEqual(['out/app/x.js', 'package.json']);
  });
});

describe('what the package would hold', () => {
  it('is the app, its notices and package.json, from the real electron-builder.yml, whatever else out/ holds', () => {
    const dir = plantedBuild();
    const { contents, problems } = check(dir, readBuilderConfig(dir));
    expect(contents.app).toEqual([
      'out/app/THIRD_PARTY_NOTICES.txt',
      'out/app/host/host.cjs',
      'out/app/host/web.mjs',
      'out/app/licences.json',
      'out/app/main/main.cjs',
      'out/app/main/preload.cjs',
      'out/app/renderer/assets/index-abc.js',
      'out/app/renderer/index.html',
      'package.json',
    ]);
    expect(contents.resources).toEqual([{ from: 'out/app/THIRD_PARTY_NOTICES.txt', to: 'THIRD_PARTY_NOTICES.txt' }]);
    expect(problems).toEqual([]);
  });

  it('fails on the patterns of before (all of out/): sandbox, benchmarks, test bundles and maps, each named', () => {
    const dir = plantedBuild();
    const { problems } = check(dir, { files: ['out/**/*', 'package.json'] });
    const said = problems.join('\n');
    for (const path of ['out/sandbox/cli.mjs', 'out/bench/mirror.mjs', 'out/bench/cms-child.mjs', 'out/test/host-child.mjs', 'out/test/web-123/bin/web.mjs'])
      expect(said).toContain(`${path}: test, sandbox or benchmark code would ship`);
    expect(said).toContain('out/app/main/main.cjs.map: a source map would ship');
    expect(said).toContain('out/app/renderer/assets/index-abc.js.map: a source map would ship');
    expect(said).toMatch(/out\/sandbox\/cli\.mjs: holds the sandbox's demo secret "demo…"/);
  });

  it("fails on a demo password or the TOTP secret inside the app's own files, and on a missing entry or notices", () => {
    const dir = plantedBuild({ 'out/app/host/host.cjs': `const s = "${DEMO_TOTP_SECRET}";`, 'out/app/renderer/assets/index-abc.js': `x="${DEMO_MEMBER_PASSWORD}"` });
    const { problems } = check(dir, readBuilderConfig(dir));
    expect(problems).toEqual([
      `out/app/host/host.cjs: holds the sandbox's demo secret "${DEMO_TOTP_SECRET.slice(0, 4)}…"`,
      `out/app/renderer/assets/index-abc.js: holds the sandbox's demo secret "${DEMO_MEMBER_PASSWORD.slice(0, 4)}…"`,
    ]);
    const bare = check(dir, { files: ['out/app/main/**/*', 'package.json', '!**/*.map'], extraResources: [{ from: 'out/app/NOTICES-gone.txt', to: 'x.txt' }] }).problems;
    expect(bare).toEqual([
      'out/app/NOTICES-gone.txt (as resources/x.txt): named in extraResources but not built',
      'out/app/THIRD_PARTY_NOTICES.txt: the licence notices are not in the package',
      'out/app/licences.json: the licence notices are not in the package',
      'out/app/renderer/index.html: the renderer is not in the package',
    ]);
  });

  it("knows every one of the sandbox's demo secrets from its seed files", () => {
    const all = [
      ...Object.values(DEMO_ACCOUNTS).map((a) => a.password),
      ...Object.values(DEMO_USERS).map((u) => u.password),
      DEMO_TOTP_SECRET,
      DEMO_MEMBER_PASSWORD,
    ];
    expect(sandboxSecrets(root)).toEqual([...new Set(all)].sort());
  });

});
