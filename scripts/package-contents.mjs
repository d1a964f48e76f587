#!/usr/bin/env node
// What `npm run dist` would put into the installer, computed from electron-builder.yml's own
// `files` and `extraResources` patterns against the build output, and the check that nothing but
// the app is in it: no test, sandbox or benchmark code, no source maps, none of the sandbox's demo
// passwords or its fixed TOTP secret, and the notices present, naming every shipped package.
//
//   node scripts/package-contents.mjs          lists the package's files by folder and checks them
//
// Run by `npm run dist` before electron-builder and by `npm test` after the build; the pure parts are
// tested in test/unit/package-contents.test.ts against planted build outputs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { root, runtimeDependencies, shippedPackages } from './shipped-packages.mjs';

/** A glob of electron-builder's patterns (`**`, `*`, `?`, `{a,b}`) as a regular expression over a `/` path; dot files match too. */
export function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        re += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '{') {
      const end = glob.indexOf('}', i);
      if (end < 0) throw new Error(`unclosed { in the pattern ${glob}`);
      re += `(?:${glob.slice(i + 1, end).split(',').map((alt) => globToRegExp(alt).source.slice(1, -1)).join('|')})`;
      i = end;
    } else re += /[.+^$()|[\]\\]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

/**
 * A list of patterns as electron-builder reads them: a path is in when a plain pattern matches it
 * (or a folder above it: `out/app` takes the folder whole) and no `!` pattern does.
 */
export function patternFilter(patterns) {
  const plus = [];
  const minus = [];
  for (const p of patterns) {
    if (typeof p !== 'string') throw new Error(`a file pattern that is not a string: ${JSON.stringify(p)}`);
    const neg = p.startsWith('!');
    const body = (neg ? p.slice(1) : p).replace(/^\.\//, '').replace(/\/$/, '');
    (neg ? minus : plus).push(globToRegExp(body));
  }
  const matches = (res, path) => {
    const parts = path.split('/');
    for (let i = parts.length; i > 0; i--) if (res.some((r) => r.test(parts.slice(0, i).join('/')))) return true;
    return false;
  };
  return (path) => matches(plus, path) && !matches(minus, path);
}

/** Every file under `dir` as a `/` path relative to `base` (node_modules and .git are never walked). */
export function walk(dir, base = dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === '.git') continue;
    const full = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(full, base));
    else if (e.isFile()) out.push(relative(base, full).split('\\').join('/'));
  }
  return out.sort();
}

export function readBuilderConfig(projectDir = root, file = 'electron-builder.yml') {
  return parse(readFileSync(join(projectDir, file), 'utf8'));
}

/**
 * What the package would hold: `app` (files inside the app archive, relative to the project, from
 * `files`; package.json always), `resources` ({from, to} copied beside it, from `extraResources`)
 * and `dependencies` (the runtime packages electron-builder copies from node_modules).
 */
export function packageContents(projectDir, config, appPkg = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8'))) {
  const files = config.files ?? ['**/*'];
  const inApp = patternFilter(Array.isArray(files) ? files : [files]);
  const app = walk(projectDir).filter(inApp);
  if (!app.includes('package.json')) app.unshift('package.json');
  const resources = [];
  for (const entry of config.extraResources ?? []) {
    const spec = typeof entry === 'string' ? { from: entry, to: entry } : entry;
    const from = resolve(projectDir, spec.from);
    if (!existsSync(from)) {
      resources.push({ from: spec.from, to: spec.to ?? spec.from, missing: true });
      continue;
    }
    if (statSync(from).isFile()) resources.push({ from: spec.from, to: spec.to ?? spec.from });
    else {
      const keep = spec.filter ? patternFilter(Array.isArray(spec.filter) ? spec.filter : [spec.filter]) : () => true;
      for (const f of walk(from).filter(keep)) resources.push({ from: `${spec.from.replace(/\/$/, '')}/${f}`, to: `${(spec.to ?? spec.from).replace(/\/$/, '')}/${f}` });
    }
  }
  const dependencies = runtimeDependencies(projectDir, appPkg).map((d) => d.name).sort();
  return { app, resources, dependencies };
}

/** Folders and names that are never the app. */
const NOT_THE_APP = /(^|\/)(test|tests|e2e|sandbox|sandboxes|bench|benchmarks?|fixtures|test-results|playwright-report|coverage)(\/|$)|\.(test|spec|bench)\.[cm]?[jt]sx?$/;
const TEXT = /\.(c?js|mjs|html?|css|json|txt|md|svg|ya?ml)$/i;

/**
 * The sandbox's sign-in secrets, read from its seed files: every `password: '…'`, the fixed TOTP
 * secret and the members' password. The check looks for each of them in every text file shipped.
 */
export function sandboxSecrets(projectDir = root) {
  const files = ['test/sandbox/cms/seed.ts', 'test/sandbox/store/seed.ts', 'test/sandbox/cms/users/seed-users.ts'];
  const found = new Set();
  for (const f of files) {
    const path = join(projectDir, f);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    for (const m of text.matchAll(/password:\s*'([^']{6,})'/g)) found.add(m[1]);
    for (const m of text.matchAll(/(?:TOTP_SECRET|_PASSWORD)\s*=\s*'([^']{6,})'/g)) found.add(m[1]);
  }
  return [...found].sort();
}

/**
 * What is wrong with a package's contents, one sentence each (none: it holds the app and nothing
 * else). `read(path)` gives a shipped file's text (project-relative path).
 */
export function packageProblems(contents, { secrets, read, main }) {
  const problems = [];
  const shipped = [...contents.app.map((p) => ({ path: p, label: p })), ...contents.resources.map((r) => ({ path: r.from, label: `${r.from} (as resources/${r.to})`, missing: r.missing }))];
  for (const { path, label, missing } of shipped) {
    if (missing) {
      problems.push(`${label}: named in extraResources but not built`);
      continue;
    }
    if (NOT_THE_APP.test(path)) problems.push(`${label}: test, sandbox or benchmark code would ship`);
    if (/\.map$/i.test(path)) problems.push(`${label}: a source map would ship`);
    if (TEXT.test(path)) {
      const text = read(path);
      for (const s of secrets) if (text.includes(s)) problems.push(`${label}: holds the sandbox's demo secret "${s.slice(0, 4)}…"`);
    }
  }
  if (main && !contents.app.includes(main)) problems.push(`${main}: the app's entry (package.json "main") is not in the package`);
  for (const f of ['out/app/THIRD_PARTY_NOTICES.txt', 'out/app/licences.json'])
    if (!contents.app.includes(f)) problems.push(`${f}: the licence notices are not in the package`);
  if (!contents.app.some((p) => /^out\/app\/renderer\/index\.html$/.test(p))) problems.push('out/app/renderer/index.html: the renderer is not in the package');
  return problems;
}

/**
 * Shipped packages (from the last build's records and node_modules now) that the build's
 * licences.json does not name at their version, one sentence each.
 */
export function noticesGaps(projectDir = root, file = join(projectDir, 'out', 'app', 'licences.json')) {
  if (!existsSync(file)) return [`${relative(projectDir, file).split('\\').join('/')}: not built (run npm run build)`];
  const named = new Set(JSON.parse(readFileSync(file, 'utf8')).packages.map((p) => `${p.name}@${p.version}`));
  return shippedPackages(projectDir)
    .filter((p) => !named.has(`${p.name}@${p.version}`))
    .map((p) => `${p.name}@${p.version} (${p.where.join(', ')}): ships but is not in the licence notices (run npm run build)`);
}

/** The whole check on a project folder: answers the contents and the problems. */
export function checkPackage(projectDir = root, config = readBuilderConfig(projectDir)) {
  const appPkg = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8'));
  const contents = packageContents(projectDir, config, appPkg);
  const problems = packageProblems(contents, {
    secrets: sandboxSecrets(projectDir),
    read: (p) => readFileSync(join(projectDir, p), 'utf8'),
    main: appPkg.main,
  });
  return { contents, problems: [...problems, ...noticesGaps(projectDir)] };
}

/** Files per top folder, for a reader: "out/app/renderer/assets  31 files". */
export function summary(contents) {
  const byFolder = new Map();
  for (const p of contents.app) {
    const folder = p.includes('/') ? p.split('/').slice(0, Math.min(3, p.split('/').length - 1)).join('/') : '.';
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + 1);
  }
  return [
    'in the app archive:',
    ...[...byFolder].map(([f, n]) => `  ${f.padEnd(32)} ${n} file${n === 1 ? '' : 's'}`),
    'beside it (resources/):',
    ...(contents.resources.length ? contents.resources.map((r) => `  ${r.to}  (from ${r.from})`) : ['  nothing']),
    `runtime dependencies copied from node_modules: ${contents.dependencies.length} (${contents.dependencies.join(', ')})`,
  ].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { contents, problems } = checkPackage(root);
    console.log(summary(contents));
    if (problems.length) {
      console.error(`\nThe package would hold what is not the app (${problems.length}):\n${problems.map((p) => `  ✖ ${p}`).join('\n')}`);
      process.exit(1);
    }
    console.log('\n✔ only the app, its notices and its runtime dependencies');
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
