/**
 * The list of shipped packages (scripts/shipped-packages.mjs, issue 21): which package a bundled file
 * belongs to, what electron-builder copies as runtime dependencies, and the whole list over planted
 * node_modules trees (scoped names, nested copies, optional platform add-ons, licences given in
 * every form package.json allows). The real build's list is checked in notices.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  esbuildInputs,
  formatTable,
  licenceFromFile,
  licenceOf,
  packageOfPath,
  runtimeDependencies,
  shippedPackages,
} from '../../scripts/shipped-packages.mjs';
import { plantProject, type PlantedPackage } from '../support/planted-project';
import { tempDir } from '../support/tmp';

const dirs: { remove(): void }[] = [];
afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

/** A project folder with node_modules laid out from `packages` (path under node_modules → package.json and files). */
function project(app: Record<string, unknown>, packages: Record<string, PlantedPackage>): string {
  const dir = tempDir('sitedesk-shipped-');
  dirs.push(dir);
  return plantProject(dir.path, app, packages);
}

describe('the package a bundled file belongs to', () => {
  it('is the name after the last node_modules/, scoped names whole', () => {
    expect(packageOfPath('node_modules/valibot/dist/index.js')).toEqual({ name: 'valibot', dir: 'node_modules/valibot' });
    expect(packageOfPath('../main/node_modules/@codemirror/view/dist/index.js')).toEqual({ name: '@codemirror/view', dir: '../main/node_modules/@codemirror/view' });
    expect(packageOfPath('/abs/node_modules/paneforge/node_modules/runed/dist/x.js')).toEqual({ name: 'runed', dir: '/abs/node_modules/paneforge/node_modules/runed' });
    expect(packageOfPath('node_modules/a/node_modules/@s/b/x.js')?.name).toBe('@s/b');
  });

  it('reads Windows separators and drops a module query', () => {
    expect(packageOfPath('C:\\p\\node_modules\\svelte\\src\\index.js')?.name).toBe('svelte');
    expect(packageOfPath('node_modules/bits-ui/dist/x.svelte?svelte&type=style&lang.css')?.name).toBe('bits-ui');
  });

  it("counts the bundlers' own runtime modules as theirs, and the project's files as no package", () => {
    expect(packageOfPath('\0vite/preload-helper.js')).toEqual({ name: 'vite', dir: null });
    expect(packageOfPath('\0rolldown/runtime.js')).toEqual({ name: 'rolldown', dir: null });
    expect(packageOfPath('\0some-plugin-virtual')).toBeNull();
    expect(packageOfPath('electron/core/host.ts')).toBeNull();
    expect(packageOfPath('renderer/App.svelte')).toBeNull();
  });

  it('takes the inputs of an esbuild metafile that put bytes into the output', () => {
    const meta = {
      outputs: {
        'out/app/host/host.cjs': { inputs: { 'node_modules/valibot/dist/index.js': { bytesInOutput: 120 }, 'node_modules/gone/index.js': { bytesInOutput: 0 } } },
        'out/app/main/main.cjs': { inputs: { 'electron/main.ts': { bytesInOutput: 9 }, 'node_modules/valibot/dist/index.js': { bytesInOutput: 4 } } },
      },
    };
    expect(esbuildInputs(meta)).toEqual(['electron/main.ts', 'node_modules/valibot/dist/index.js']);
  });
});

describe('a licence as package.json gives it', () => {
  it('reads the string, the object and the old array forms', () => {
    expect(licenceOf({ license: 'MIT' })).toBe('MIT');
    expect(licenceOf({ license: '(MPL-2.0 OR Apache-2.0)' })).toBe('(MPL-2.0 OR Apache-2.0)');
    expect(licenceOf({ license: { type: 'ISC', url: 'x' } })).toBe('ISC');
    expect(licenceOf({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toBe('(MIT OR Apache-2.0)');
    expect(licenceOf({})).toBe('UNKNOWN');
  });

  it("names a licence from its file's title when package.json names none", () => {
    expect(licenceFromFile('MIT License\n\nCopyright (c) 2024 Someone')).toBe('MIT');
    expect(licenceFromFile('\n  The MIT License (MIT)\n')).toBe('MIT');
    expect(licenceFromFile('ISC License\n')).toBe('ISC');
    expect(licenceFromFile('Copyright 2020 someone, all rights reserved')).toBeNull();
  });
});

describe('the runtime dependencies electron-builder copies', () => {
  it('follows dependencies transitively with Node’s lookup, nested copies and installed optional add-ons included', () => {
    const dir = project(
      { dependencies: { native: '^1', updater: '^2' }, devDependencies: { bundled: '^1' } },
      {
        native: { pkg: { name: 'native', version: '1.0.0', license: 'MIT', optionalDependencies: { 'native-linux-x64': '1.0.0', 'native-win32-x64': '1.0.0' } } },
        'native-linux-x64': { pkg: { name: 'native-linux-x64', version: '1.0.0', license: 'MIT' }, files: { 'addon.node': 'ELF' } },
        updater: { pkg: { name: 'updater', version: '2.0.0', license: 'MIT', dependencies: { semver: '^7', yaml: '^1' } } },
        semver: { pkg: { name: 'semver', version: '6.0.0', license: 'ISC' } },
        'updater/node_modules/semver': { pkg: { name: 'semver', version: '7.1.0', license: 'ISC' } },
        yaml: { pkg: { name: 'yaml', version: '1.0.0', license: 'ISC' } },
        bundled: { pkg: { name: 'bundled', version: '1.0.0', license: 'MIT' } },
      },
    );
    const deps = runtimeDependencies(dir, { dependencies: { native: '^1', updater: '^2' } });
    const names = deps.map((d) => `${d.name}@${(JSON.parse(readFileSync(join(d.dir, 'package.json'), 'utf8')) as { version: string }).version}`).sort();
    // the nested semver 7 is the updater's; the hoisted 6 nobody asked for is not copied; the win32 add-on is not installed
    expect(names).toEqual(['native-linux-x64@1.0.0', 'native@1.0.0', 'semver@7.1.0', 'updater@2.0.0', 'yaml@1.0.0']);
  });

  it('says which runtime dependency is not installed', () => {
    const dir = project({ dependencies: { gone: '^1' } }, {});
    expect(() => runtimeDependencies(dir, { dependencies: { gone: '^1' } })).toThrow(/not installed: gone/);
  });
});

describe('the list of shipped packages', () => {
  it('joins the bundles and the runtime dependencies, one entry per name and version, with licence files and add-ons', () => {
    const dir = project(
      { dependencies: { native: '^1', shared: '^1' } },
      {
        native: { pkg: { name: 'native', version: '1.0.0', license: 'MIT' }, files: { LICENSE: 'MIT License', 'prebuilds/linux-x64.node': 'ELF' } },
        shared: { pkg: { name: 'shared', version: '1.2.0', license: { type: 'BSD-3-Clause' } }, files: { 'LICENCE.md': 'BSD', 'index.js': '' } },
        '@scope/ui': { pkg: { name: '@scope/ui', version: '3.0.0', license: 'ISC' }, files: { 'COPYING.txt': 'ISC', 'NOTICE': 'notice', 'dist/x.js': '' } },
        '@scope/ui/node_modules/helper': { pkg: { name: 'helper', version: '0.1.0' }, files: { LICENSE: 'MIT License\n\nCopyright', 'x.js': '' } },
        helper: { pkg: { name: 'helper', version: '0.2.0', license: 'MIT' }, files: { 'x.js': '' } },
        vite: { pkg: { name: 'vite', version: '8.0.0', license: 'MIT' }, files: { LICENSE: 'MIT' } },
      },
    );
    const records = [
      { bundle: 'renderer', inputs: ['node_modules/@scope/ui/dist/x.js', 'node_modules/@scope/ui/node_modules/helper/x.js', 'node_modules/helper/x.js', '\0vite/preload-helper.js', 'renderer/App.svelte'] },
      { bundle: 'host', inputs: ['node_modules/shared/index.js', 'electron/core/host.ts'] },
    ];
    const list = shippedPackages(dir, { records });
    expect(list.map((p) => [p.name, p.version, p.licence, p.where.join('+'), p.native, p.licenceFiles.join(' ')])).toEqual([
      ['@scope/ui', '3.0.0', 'ISC', 'renderer', false, 'COPYING.txt NOTICE'],
      ['helper', '0.1.0', 'MIT (its LICENSE file; package.json names none)', 'renderer', false, 'LICENSE'],
      ['helper', '0.2.0', 'MIT', 'renderer', false, ''],
      ['native', '1.0.0', 'MIT', 'runtime', true, 'LICENSE'],
      ['shared', '1.2.0', 'BSD-3-Clause', 'host+runtime', false, 'LICENCE.md'],
      ['vite', '8.0.0', 'MIT', 'renderer', false, 'LICENSE'],
    ]);
    expect(formatTable(list)).toMatch(/native\s+1\.0\.0\s+MIT\s+runtime \(native add-on\)/);
    expect(formatTable(list)).toMatch(/6 packages$/);
  });

  it('refuses a bundled file whose package is not installed, saying which', () => {
    const dir = project({}, {});
    expect(() => shippedPackages(dir, { records: [{ bundle: 'renderer', inputs: ['\0vite/preload-helper.js'] }] })).toThrow(/renderer: .*vite, which is not installed/);
  });
});
