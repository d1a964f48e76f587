/**
 * Keeps the layer rules of docs/architecture.md true:
 * - only the six shell files import Electron, so the Host, browser mode and tests run the same code;
 * - the renderer uses no Node module and nothing from electron/ but the contract and the shared layer;
 * - the contract imports nothing but valibot and itself, so both sides can use it;
 * - the shared layer (electron/common) imports only the contract, valibot and node-diff3;
 * - the Host imports only downward through its layers (contract ← common ← base ← db/api/secrets
 *   ← sites ← area services ← core ← entries), with no exceptions;
 * - the sandbox (test/sandbox) and the app (electron/, renderer/) never import each other.
 * Imports are read with TypeScript's own scanner: static, type-only, re-exports, dynamic import()
 * and require(), without being fooled by comments or strings.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const SHELL_FILES = new Set(['main.ts', 'preload.ts', 'window.ts', 'menu.ts', 'updater.ts', 'utility.ts'].map((f) => `electron/${f}`));
const SCANNED_DIRS = ['electron', 'renderer', 'test'];
const EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.tsx', '.js', '.mjs', '.cjs', '.svelte']);
const NODE_BUILTINS = new Set(builtinModules);

/** Project-relative path with forward slashes, as the messages show it. */
const rel = (file: string) => relative(root, file).split(sep).join('/');

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (EXTENSIONS.has(extname(entry.name))) out.push(path);
  }
  return out;
}

/** Every module specifier a file refers to. */
function importsOf(fileName: string, source: string): string[] {
  const code = fileName.endsWith('.svelte')
    ? [...source.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '').join('\n')
    : source;
  const info = ts.preProcessFile(code, true, true);
  return [...info.importedFiles, ...info.typeReferenceDirectives].map((f) => f.fileName);
}

const isElectron = (spec: string) => spec === 'electron' || spec.startsWith('electron/');
const isNodeBuiltin = (spec: string) => spec.startsWith('node:') || NODE_BUILTINS.has(spec) || NODE_BUILTINS.has(spec.split('/')[0] ?? '');
const isRelative = (spec: string) => spec.startsWith('./') || spec.startsWith('../');
const isInside = (path: string, dir: string) => path === dir || path.startsWith(dir + sep);

const files = SCANNED_DIRS.flatMap((d) => walk(join(root, d))).map((path) => ({
  path,
  name: rel(path),
  imports: importsOf(path, readFileSync(path, 'utf8')),
}));

test('the scanner sees every kind of import and ignores comments and strings', () => {
  const source = [
    "import type { App } from 'electron';",
    'import * as fs from "node:fs";',
    "export { x } from './contract/x';",
    "const a = await import('electron/main');",
    "const b = require('electron');",
    "// import { no } from 'not-a-comment-import';",
    "const s = \"require('not-a-string-import')\";",
  ].join('\n');
  expect(importsOf('x.ts', source)).toEqual(['electron', 'node:fs', './contract/x', 'electron/main', 'electron']);
  expect(importsOf('x.svelte', "<script lang=\"ts\">\nimport { ipcRenderer } from 'electron';\n</script>\n<p>from 'nowhere'</p>")).toEqual([
    'electron',
  ]);
  // and it really walks the project
  expect(files.map((f) => f.name)).toContain('electron/main.ts');
});

test("only the six shell files import 'electron'", () => {
  const offenders = files
    .filter((f) => !SHELL_FILES.has(f.name) && f.imports.some(isElectron))
    .map((f) => `${f.name} imports ${f.imports.filter(isElectron).join(', ')}`);
  expect(offenders, 'Only electron/{main,preload,window,menu,updater,utility}.ts may import Electron').toEqual([]);
});

test('the renderer imports no Node module and nothing from electron/ except electron/contract and electron/common', () => {
  const electronDir = join(root, 'electron');
  const contractDir = join(electronDir, 'contract');
  const commonDir = join(electronDir, 'common');
  const offenders = files
    .filter((f) => isInside(f.path, join(root, 'renderer')))
    .flatMap((f) =>
      f.imports
        .filter((spec) => {
          if (isNodeBuiltin(spec)) return true;
          if (!isRelative(spec)) return false;
          const target = resolve(dirname(f.path), spec);
          return isInside(target, electronDir) && !isInside(target, contractDir) && !isInside(target, commonDir);
        })
        .map((spec) => `${f.name} imports ${spec}`),
    );
  expect(offenders).toEqual([]);
});

test('the contract imports nothing but valibot and itself', () => {
  const contractDir = join(root, 'electron', 'contract');
  const offenders = files
    .filter((f) => isInside(f.path, contractDir))
    .flatMap((f) =>
      f.imports
        .filter((spec) => spec !== 'valibot' && !(isRelative(spec) && isInside(resolve(dirname(f.path), spec), contractDir)))
        .map((spec) => `${f.name} imports ${spec}`),
    );
  expect(offenders).toEqual([]);
});

test('the shared layer (electron/common) imports nothing but the contract, valibot, node-diff3 and itself', () => {
  const commonDir = join(root, 'electron', 'common');
  const contractDir = join(root, 'electron', 'contract');
  const offenders = files
    .filter((f) => isInside(f.path, commonDir))
    .flatMap((f) =>
      f.imports
        .filter((spec) => {
          if (spec === 'valibot' || spec === 'node-diff3') return false;
          if (!isRelative(spec)) return true;
          const target = resolve(dirname(f.path), spec);
          return !isInside(target, commonDir) && !isInside(target, contractDir);
        })
        .map((spec) => `${f.name} imports ${spec}`),
    );
  expect(offenders).toEqual([]);
});

/**
 * The Host's layers, bottom up. A file imports its own folder or a folder of a lower (or the same)
 * layer, never one above it. Folders not named here are area services (pages, sync, store, …), so a
 * new area needs no entry; the files at electron/'s top and web/ are the entries.
 */
const HOST_LAYERS: Record<string, number> = {
  contract: 0,
  common: 1,
  base: 2,
  db: 3,
  api: 3,
  secrets: 3,
  sites: 4,
  cms: 4,
  sessions: 4,
  // area services: 5
  core: 6,
  web: 7,
};
const SERVICE_LAYER = 5;
const ENTRY_LAYER = 7;
const LAYER_NAMES = ['contract', 'common', 'base', 'db / api / secrets', 'sites / sessions', 'area services', 'core', 'entries'];

/** The folder under electron/ a file belongs to ('' for the entries at electron/'s top) and its layer. */
function hostLayer(path: string): { folder: string; layer: number } | null {
  const electronDir = join(root, 'electron');
  if (!isInside(path, electronDir)) return null;
  const parts = relative(electronDir, path).split(sep);
  // `../contract` names the folder itself (its index)
  if (parts.length === 1 && !(existsSync(path) && statSync(path).isDirectory())) return { folder: '', layer: ENTRY_LAYER };
  const folder = parts[0]!;
  return { folder, layer: HOST_LAYERS[folder] ?? SERVICE_LAYER };
}

test('the Host imports only downward: contract ← common ← base ← db/api/secrets ← sites ← area services ← core ← entries', () => {
  // the table places the folders that exist (a renamed folder must be placed again, not fall into the services)
  const folders = readdirSync(join(root, 'electron'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  for (const f of ['contract', 'common', 'base', 'db', 'api', 'secrets', 'sites', 'core', 'web']) expect(folders).toContain(f);

  const offenders = files.flatMap((f) => {
    const from = hostLayer(f.path);
    if (!from) return [];
    return f.imports
      .filter(isRelative)
      .map((spec) => ({ spec, to: hostLayer(resolve(dirname(f.path), spec)) }))
      .filter(({ to }) => to !== null && to.folder !== from.folder && to.layer > from.layer)
      .map(({ spec, to }) => `${f.name} (${LAYER_NAMES[from.layer]}) imports ${spec} (${LAYER_NAMES[to!.layer]})`);
  });
  expect(offenders, 'A Host file may import only its own folder or a lower layer').toEqual([]);
});

test('the layer check sees an upward import', () => {
  const file = join(root, 'electron', 'api', 'x.ts');
  const from = hostLayer(file)!;
  const to = hostLayer(resolve(dirname(file), '../core/host'))!;
  expect(to.layer).toBeGreaterThan(from.layer);
  expect(hostLayer(join(root, 'electron', 'webhooks', 'service.ts'))?.layer).toBe(SERVICE_LAYER);
  expect(hostLayer(join(root, 'electron', 'main.ts'))?.layer).toBe(ENTRY_LAYER);
  expect(hostLayer(join(root, 'electron', 'contract'))?.layer).toBe(0);
});

test('the sandbox and the app never import each other', () => {
  const sandboxDir = join(root, 'test', 'sandbox');
  const appDirs = [join(root, 'electron'), join(root, 'renderer')];
  const offenders = files.flatMap((f) => {
    const inSandbox = isInside(f.path, sandboxDir);
    const inApp = appDirs.some((d) => isInside(f.path, d));
    if (!inSandbox && !inApp) return [];
    return f.imports
      .filter(isRelative)
      .filter((spec) => {
        const target = resolve(dirname(f.path), spec);
        return inSandbox ? appDirs.some((d) => isInside(target, d)) : isInside(target, join(root, 'test'));
      })
      .map((spec) => `${f.name} imports ${spec}`);
  });
  expect(offenders, 'The sandbox plays the real services: it shares no code with the app, and the app none with the tests').toEqual([]);
});

test('renderer layers: lib/, components/ and state/ never import views/; a view area imports only the shared layers, its own files and the child areas it mounts', () => {
  const renderer = join(root, 'renderer');
  const views = join(renderer, 'views');
  const shared = ['lib', 'components', 'state'].map((d) => join(renderer, d));
  // not renderer/areas.ts: the registry imports every view, so a view reads it from state/area-registry.ts
  const allowedOutside = [...shared, join(root, 'electron', 'contract'), join(root, 'electron', 'common')];
  /** parent area → the areas whose views it mounts inside its own (a one-way arrow each). */
  const MOUNTS: Record<string, readonly string[]> = {
    workspace: ['sites', 'sync'], // the site panes and the status bar's sync line
    sites: ['auth', 'offline', 'store', 'addons'], // the overview's sign-in, account, offline copy and store cards; what plugins add
    settings: ['addons'], // the settings panels plugins add
    pages: ['editor'], // the page editor beside the tree
    editor: ['media', 'sync'], // the page's media and the merge view
    mailer: ['sync'], // a campaign's merge view, when the site changed it too
  };
  const areaOf = (path: string): string | null => (isInside(path, views) ? (relative(views, path).split(sep)[0] ?? null) : null);
  const offenders: string[] = [];
  for (const f of files) {
    if (!isInside(f.path, renderer)) continue;
    const area = areaOf(f.path);
    for (const spec of f.imports.filter(isRelative)) {
      const target = resolve(dirname(f.path), spec);
      const targetArea = areaOf(target);
      if (area === null) {
        // App.svelte, main.ts and areas.ts compose the views; the shared layers never reach into them
        if (targetArea !== null && shared.some((d) => isInside(f.path, d))) offenders.push(`${f.name} imports ${spec}`);
        continue;
      }
      if (targetArea === area) continue;
      if (targetArea !== null) {
        if (!(MOUNTS[area] ?? []).includes(targetArea)) offenders.push(`${f.name} imports ${spec} (views/${area} does not mount views/${targetArea})`);
        continue;
      }
      if (!allowedOutside.some((d) => isInside(target, d))) offenders.push(`${f.name} imports ${spec}`);
    }
  }
  expect(offenders).toEqual([]);
  // the mounts form no loop: a child area never mounts its parent, directly or further down
  const reaches = (from: string, to: string, seen = new Set<string>()): boolean =>
    (MOUNTS[from] ?? []).some((c) => c === to || (!seen.has(c) && (seen.add(c), reaches(c, to, seen))));
  expect(Object.keys(MOUNTS).filter((a) => reaches(a, a))).toEqual([]);
});
