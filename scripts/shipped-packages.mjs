#!/usr/bin/env node
// Every package the installed app runs, as what it is: the packages bundled into the renderer, the
// Host and the shell (read from the bundlers' own records of their inputs, written by
// scripts/build.mjs to out/meta/), and the runtime dependencies electron-builder copies beside the
// bundles (package.json `dependencies`, with their own dependencies and the platform add-ons
// installed for them). Whatever field of package.json lists a package, if its code ships it is here.
//
//   node scripts/shipped-packages.mjs          a table: name, version, licence, where it ships
//   node scripts/shipped-packages.mjs --json   the same as JSON
//
// Pure functions below are tested in test/unit/shipped-packages.test.ts; the notices file
// (scripts/notices.mjs) and the package-content check use them.
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Where the bundles' input records are written (not shipped). */
export const META_DIR = 'out/meta';

/**
 * The package a file belongs to, from its path: the part after the last `node_modules/` (so a
 * nested copy is that copy), a scoped name kept whole. Null for a file of the project itself.
 * A Vite/Rolldown virtual module (`\0vite/…`) is Vite's own code written into the bundle.
 */
export function packageOfPath(path) {
  let p = path.replace(/\\/g, '/').split('?')[0];
  if (p.startsWith('\0')) {
    const owner = /^\0(vite|rolldown)\//.exec(p)?.[1];
    return owner ? { name: owner, dir: null } : null;
  }
  const at = p.lastIndexOf('/node_modules/');
  const start = at >= 0 ? at + '/node_modules/'.length : p.startsWith('node_modules/') ? 'node_modules/'.length : -1;
  if (start < 0) return null;
  const parts = p.slice(start).split('/');
  const name = parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : parts[0];
  if (!name || name.endsWith('/') || name === '.bin') return null;
  return { name, dir: p.slice(0, start) + name };
}

/** A package.json's licence as one SPDX-like expression (the old `licenses` array and `{type}` forms too). */
export function licenceOf(pkg) {
  const one = (l) => (typeof l === 'string' ? l : l && typeof l === 'object' && typeof l.type === 'string' ? l.type : null);
  if (pkg.license !== undefined) return one(pkg.license) ?? 'UNKNOWN';
  if (Array.isArray(pkg.licenses)) {
    const all = pkg.licenses.map(one).filter(Boolean);
    if (all.length) return all.length === 1 ? all[0] : `(${all.join(' OR ')})`;
  }
  return 'UNKNOWN';
}

/**
 * The licence a package without a `license` field carries, read from its licence file's title
 * ("MIT License", "ISC License", …), said as such: "MIT (its LICENSE file; package.json names none)".
 */
export function licenceFromFile(text) {
  const title = text.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  const known = [
    [/^(the )?mit license/i, 'MIT'],
    [/^isc license/i, 'ISC'],
    [/^apache license/i, 'Apache-2.0'],
    [/^bsd 3-clause/i, 'BSD-3-Clause'],
    [/^bsd 2-clause/i, 'BSD-2-Clause'],
    [/^mozilla public license,? version 2\.0/i, 'MPL-2.0'],
  ];
  return known.find(([re]) => re.test(title))?.[1] ?? null;
}

/** The licence and notice files a package ships at its top (LICENSE, LICENCE, COPYING, NOTICE, any extension). */
export function licenceFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^(licen[cs]e|copying|notice)([-._].*)?$/i.test(n))
    .filter((n) => statSync(join(dir, n)).isFile())
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}
const rank = (n) => (/^licen[cs]e(\.(md|txt))?$/i.test(n) ? 0 : /^licen[cs]e/i.test(n) ? 1 : /^copying/i.test(n) ? 2 : 3);

/** True when a package carries a compiled Node add-on (a `.node` file anywhere in it). */
export function hasNativeAddon(dir) {
  const walk = (d, depth) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return false;
    }
    for (const e of entries) {
      if (e.isFile() && e.name.endsWith('.node')) return true;
      if (e.isDirectory() && e.name !== 'node_modules' && depth < 4 && walk(join(d, e.name), depth + 1)) return true;
    }
    return false;
  };
  return walk(dir, 0);
}

/** Node's lookup of `name` from a package folder: its own node_modules, then each parent's. */
export function resolvePackageDir(name, fromDir, stopAt) {
  let d = fromDir;
  for (;;) {
    const candidate = join(d, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    const up = dirname(d);
    if (d === stopAt || up === d) return null;
    d = up;
  }
}

/**
 * The runtime dependencies electron-builder copies into the package: `dependencies` of the app,
 * then theirs, transitively, plus every optional dependency that is installed (a native module's
 * build for this platform). Peer dependencies are not installed for them and are left out.
 */
export function runtimeDependencies(projectDir, appPkg) {
  const found = new Map(); // dir → {name, dir, via}
  const queue = Object.keys(appPkg.dependencies ?? {}).map((name) => ({ name, from: projectDir, via: 'dependencies', required: true }));
  for (const name of Object.keys(appPkg.optionalDependencies ?? {})) queue.push({ name, from: projectDir, via: 'optionalDependencies', required: false });
  const missing = [];
  while (queue.length) {
    const { name, from, via, required } = queue.shift();
    const dir = resolvePackageDir(name, from, projectDir);
    if (!dir) {
      if (required) missing.push(name);
      continue;
    }
    if (found.has(dir)) continue;
    found.set(dir, { name, dir, via });
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {})) queue.push({ name: dep, from: dir, via: name, required: true });
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) queue.push({ name: dep, from: dir, via: name, required: false });
  }
  if (missing.length) throw new Error(`runtime dependencies not installed: ${missing.join(', ')} (run npm install)`);
  return [...found.values()];
}

/**
 * The bundles' inputs as recorded by the build: `out/meta/<bundle>.json`, each
 * `{bundle, inputs: [path relative to the project or absolute]}` (only inputs with bytes in the output).
 */
export function readBundleRecords(projectDir, metaDir = META_DIR) {
  const dir = join(projectDir, metaDir);
  if (!existsSync(dir)) throw new Error(`no bundle records in ${metaDir}/: run npm run build first`);
  const records = readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')));
  if (records.length === 0) throw new Error(`no bundle records in ${metaDir}/: run npm run build first`);
  return records;
}

/** The inputs of an esbuild metafile that put bytes into its outputs. */
export function esbuildInputs(metafile) {
  const inputs = new Set();
  for (const output of Object.values(metafile.outputs ?? {})) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs ?? {})) if (bytesInOutput > 0) inputs.add(input);
  }
  return [...inputs].sort();
}

function describe(dir, name) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const files = licenceFiles(dir);
  let licence = licenceOf(pkg);
  if (licence === 'UNKNOWN' && files[0]) {
    const found = licenceFromFile(readFileSync(join(dir, files[0]), 'utf8'));
    if (found) licence = `${found} (its ${files[0]} file; package.json names none)`;
  }
  return {
    name: pkg.name ?? name,
    version: pkg.version ?? '0.0.0',
    licence,
    dir,
    licenceFiles: files,
    native: hasNativeAddon(dir),
    homepage: typeof pkg.homepage === 'string' ? pkg.homepage : repoUrl(pkg.repository),
  };
}
function repoUrl(repo) {
  const url = typeof repo === 'string' ? repo : repo && typeof repo.url === 'string' ? repo.url : null;
  if (!url) return null;
  return url.replace(/^git\+/, '').replace(/\.git$/, '').replace(/^github:/, 'https://github.com/');
}

/**
 * Every shipped package, one entry per name and version, sorted by name: `where` says which bundles
 * hold its code (renderer, host, shell, browser-mode) and/or `runtime` (copied as a dependency).
 */
export function shippedPackages(projectDir = root, { records, appPkg } = {}) {
  records ??= readBundleRecords(projectDir);
  appPkg ??= JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8'));
  const byDir = new Map();
  const add = (dir, name, where) => {
    const real = realpathSync(resolve(projectDir, dir));
    let entry = byDir.get(real);
    if (!entry) byDir.set(real, (entry = { ...describe(real, name), where: new Set() }));
    entry.where.add(where);
  };
  for (const record of records) {
    for (const input of record.inputs) {
      const owner = packageOfPath(input);
      if (!owner) continue;
      const dir = owner.dir ?? resolvePackageDir(owner.name, projectDir, projectDir);
      if (!dir) throw new Error(`${record.bundle}: ${input} belongs to ${owner.name}, which is not installed`);
      add(dir, owner.name, record.bundle);
    }
  }
  for (const dep of runtimeDependencies(projectDir, appPkg)) add(dep.dir, dep.name, 'runtime');
  const merged = new Map();
  for (const e of byDir.values()) {
    const key = `${e.name}@${e.version}`;
    const prev = merged.get(key);
    if (prev) for (const w of e.where) prev.where.add(w);
    else merged.set(key, e);
  }
  return [...merged.values()]
    .map((e) => ({ ...e, where: [...e.where].sort() }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/** The table the CLI prints. */
export function formatTable(packages) {
  const rows = packages.map((p) => [p.name, p.version, p.licence, p.where.join(', ') + (p.native ? ' (native add-on)' : '')]);
  const head = ['package', 'version', 'licence', 'ships in'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', `${packages.length} packages`].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const packages = shippedPackages(root);
    const modules = realpathSync(join(root, 'node_modules'));
    if (process.argv.includes('--json')) console.log(JSON.stringify(packages.map((p) => ({ ...p, dir: join('node_modules', relative(modules, p.dir)) })), null, 2));
    else console.log(formatTable(packages));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
