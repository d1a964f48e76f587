// The licence notices of everything the installed app ships (issue 21): for every package of
// scripts/shipped-packages.mjs its licence files as the package ships them (LICENSE, LICENCE,
// COPYING, NOTICE, third-party files), or, where it ships none, the licence its package.json names
// with a note saying so; Electron's own; and what a native add-on links in (SQLite in
// better-sqlite3, libdbus in the Linux keyring add-on, used under the Academic Free License 2.1).
// Written by scripts/build.mjs into out/app/ twice over: THIRD_PARTY_NOTICES.txt for people and
// licences.json for the About view (the Host reads it: electron/about/).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { root, shippedPackages, licenceFiles, licenceOf } from './shipped-packages.mjs';

export const NOTICES_TEXT = 'THIRD_PARTY_NOTICES.txt';
export const NOTICES_JSON = 'licences.json';
/** Bumped when the JSON's shape changes; the Host refuses a file of another version. */
export const NOTICES_FORMAT = 1;

const LIBDBUS_CHOICE =
  'This add-on links the libdbus C library statically. libdbus is offered under the Academic Free License 2.1 ' +
  'or the GNU General Public License 2.0 or later (AFL-2.1 OR GPL-2.0-or-later); Sitedesk uses it under the ' +
  'Academic Free License 2.1. The licence text and the copyright notices of the compiled libdbus sources are ' +
  'in LICENSE.third-party.md below, with the licences of the Rust crates the add-on is built from.';

/** What a package's own files do not say: the parts a native add-on links in, and the choices made. */
export function extraNotes(pkg) {
  const notes = [];
  if (/^@napi-rs\/keyring-linux-/.test(pkg.name)) notes.push(LIBDBUS_CHOICE);
  else if (/^@napi-rs\/keyring-/.test(pkg.name) && pkg.licenceFiles.some((f) => /third-party/i.test(f)))
    notes.push('The licences of the Rust crates this add-on is built from are in its third-party licence file below.');
  if (pkg.name === 'better-sqlite3') {
    const blessing = sqliteBlessing(pkg.dir);
    notes.push(
      `This add-on includes SQLite${blessing.version ? ` ${blessing.version}` : ''}, which is in the public domain. ` +
        `Its authors' words in place of a licence:\n\n${blessing.text}`,
    );
  }
  return notes;
}

/** SQLite's own dedication, read from the amalgamation better-sqlite3 compiles (never typed in here). */
function sqliteBlessing(dir) {
  const file = join(dir, 'deps', 'sqlite3', 'sqlite3.c');
  if (!existsSync(file)) throw new Error(`better-sqlite3: ${file} is missing, so SQLite's dedication cannot be copied into the notices`);
  const head = readFileSync(file, 'utf8').slice(0, 20_000).split('\n');
  const version = /SQLite\s+\*?\*?\s*version (\d+\.\d+\.\d+)/.exec(head.join(' '))?.[1] ?? null;
  const at = head.findIndex((l) => l.includes('The author disclaims copyright'));
  if (at < 0) throw new Error(`better-sqlite3: SQLite's dedication was not found in ${file}`);
  const lines = [];
  for (let i = at; i < head.length && !/^\*{5,}/.test(head[i]); i++) lines.push(head[i].replace(/^\*\*\s?/, ''));
  return { version, text: lines.join('\n').trim() };
}

/** Electron itself: its licence, and where Chromium's are (electron-builder puts them beside the app). */
function electronEntry(projectDir) {
  const dir = join(projectDir, 'node_modules', 'electron');
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return {
    name: 'electron',
    version: pkg.version,
    licence: licenceOf(pkg),
    dir,
    licenceFiles: licenceFiles(dir),
    native: true,
    homepage: 'https://www.electronjs.org',
    where: ['runtime'],
    notes: [
      'The runtime the app runs in. Chromium and the other components inside Electron come with their licences in ' +
        'LICENSES.chromium.html, installed beside the Sitedesk executable.',
    ],
  };
}

/** Every shipped package with its licence texts, ready to write (pure apart from reading the packages' files). */
export function collectNotices(projectDir, options = {}) {
  const packages = shippedPackages(projectDir, options);
  const all = [...packages.map((p) => ({ ...p, notes: extraNotes(p) })), electronEntry(projectDir)];
  return all.map((p) => {
    const texts = p.licenceFiles.map((file) => ({ file, text: readFileSync(join(p.dir, file), 'utf8').replace(/\r\n?/g, '\n').trim() }));
    const notes = [...p.notes];
    if (texts.length === 0)
      notes.unshift(
        `This package ships no licence file. Its package.json declares the licence ${p.licence}; ` +
          `the licence's standard text applies, with the package's copyright holders named at ${p.homepage ?? 'its source'}.`,
      );
    if (/^@napi-rs\/keyring-linux-/.test(p.name) && !texts.some((t) => t.text.includes('Academic Free License') && t.text.includes('v. 2.1')))
      throw new Error(`${p.name}: its licence files no longer carry libdbus's Academic Free License 2.1 text; add it under resources/licenses/ and to the notices`);
    const licence = /^@napi-rs\/keyring-linux-/.test(p.name) ? `${p.licence}; libdbus: AFL-2.1 (chosen of AFL-2.1 OR GPL-2.0-or-later)` : p.licence;
    return { name: p.name, version: p.version, licence, where: p.where, native: p.native, homepage: p.homepage ?? null, notes, texts };
  });
}

const RULE = '='.repeat(78);

/** The people-readable file. */
export function noticesText(app, entries) {
  const out = [
    `${app.productName ?? app.name} ${app.version}: third-party software notices`,
    '',
    'Sitedesk includes the open-source software listed below. Each entry names the package, its version, its',
    'licence and where it is used, then the licence and notice files as the package ships them.',
    '',
    `${entries.length} packages:`,
    ...entries.map((e) => `  ${e.name} ${e.version} (${e.licence})`),
  ];
  for (const e of entries) {
    out.push('', RULE, `${e.name} ${e.version}`, `Licence: ${e.licence}`, `Used in: ${e.where.join(', ')}${e.native ? ' (native add-on)' : ''}`);
    if (e.homepage) out.push(`Source: ${e.homepage}`);
    for (const n of e.notes) out.push('', n);
    for (const t of e.texts) out.push('', `--- ${t.file} ---`, '', t.text);
  }
  return out.join('\n') + '\n';
}

/** Writes THIRD_PARTY_NOTICES.txt and licences.json into `appDir`; answers how many packages they cover. */
export function writeNotices(projectDir, appDir, options = {}) {
  const app = JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8'));
  const entries = collectNotices(projectDir, options);
  writeFileSync(join(appDir, NOTICES_TEXT), noticesText(app, entries));
  writeFileSync(join(appDir, NOTICES_JSON), JSON.stringify({ format: NOTICES_FORMAT, app: { name: app.productName ?? app.name, version: app.version }, packages: entries }));
  return { count: entries.length };
}

// `node scripts/notices.mjs`: writes the notices into out/app/ again from the last build's records.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const { count } = writeNotices(root, join(root, 'out', 'app'));
    console.log(`out/app/${NOTICES_TEXT} and ${NOTICES_JSON}: ${count} packages`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
