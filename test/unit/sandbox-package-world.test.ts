/**
 * The CMS sandbox's package world without HTTP: the zips it writes read back (and deflated ones,
 * as other tools write them), a package found in a zip or the installer's words for what is
 * wrong, every package with settings installed at first, the repository's cache and its refresh,
 * the core's versions.
 */
import { deflateRawSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { Clock } from '../sandbox/clock';
import { DEFAULT_SETTINGS } from '../sandbox/cms/context';
import { baseRepository, compareVersions } from '../sandbox/cms/packages/catalog';
import { packageZip } from '../sandbox/cms/packages/controls';
import { packageOf } from '../sandbox/cms/packages/direct-install';
import { PackageWorld } from '../sandbox/cms/packages/world';
import { readZip, writeZip } from '../sandbox/cms/packages/zip';
import { tempDir } from '../support/tmp';

const dirs: { remove(): void }[] = [];
const folder = () => {
  const d = tempDir('sitedesk-pkg-');
  dirs.push(d);
  return d.path;
};
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove();
});

/** A one-entry zip whose entry is deflated (method 8), as zip tools write them. */
function deflatedZip(name: string, text: string): Buffer {
  const stored = writeZip([{ name, data: text }]);
  const data = Buffer.from(text);
  const packed = deflateRawSync(data);
  const nameLen = Buffer.byteLength(name);
  const local = Buffer.from(stored.subarray(0, 30));
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(packed.length, 18);
  const central = Buffer.from(stored.subarray(30 + nameLen + data.length, 30 + nameLen + data.length + 46 + nameLen));
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(packed.length, 20);
  const end = Buffer.from(stored.subarray(stored.length - 22));
  end.writeUInt32LE(30 + nameLen + packed.length, 16);
  return Buffer.concat([local, Buffer.from(name), packed, central, end]);
}

describe('zip', () => {
  test('what writeZip writes, readZip reads; deflated entries too; anything else is null', () => {
    const zip = writeZip([{ name: 'a/b.txt', data: 'hello' }, { name: 'c.bin', data: Buffer.from([0, 1, 2, 255]) }]);
    const files = readZip(zip)!;
    expect([...files.keys()]).toEqual(['a/b.txt', 'c.bin']);
    expect(files.get('a/b.txt')!.toString()).toBe('hello');
    expect([...files.get('c.bin')!]).toEqual([0, 1, 2, 255]);
    expect(readZip(deflatedZip('x/readme.md', 'deflated text '.repeat(20)))!.get('x/readme.md')!.toString()).toBe('deflated text '.repeat(20));
    expect(readZip(Buffer.from('not a zip at all, longer than twenty-two bytes'))).toBeNull();
    expect(readZip(zip.subarray(0, zip.length - 30))).toBeNull();
  });

  test('packageOf: the blueprint in a folder names the package; README and CHANGELOG come along; the installer\'s words otherwise', () => {
    const zip = packageZip({ slug: 'hello', type: 'theme', name: 'Hello', version: '2.0.0', description: 'Hi.', author: { name: 'Me', email: 'me@example.test', url: '' } });
    const p = packageOf(zip);
    expect(p).toMatchObject({ slug: 'hello', type: 'theme', name: 'Hello', version: '2.0.0', readme: '# Hello\n\nHi.\n', source: 'direct', symlink: false });
    expect(packageOf(writeZip([{ name: 'README.md', data: '# x' }]))).toBe('Not a valid Grav package.');
    expect(packageOf(writeZip([{ name: 'blueprints.yaml', data: ': : :\n\t- nope' }]))).toBe('Not a valid Grav package.');
    expect(packageOf(writeZip([{ name: 'blueprints.yaml', data: 'version: 1.0.0\n' }]))).toBe('Package name could not be determined.');
    expect(packageOf(writeZip([{ name: 'grav-plugin-tidy-main/blueprints.yaml', data: 'name: Tidy Up\nversion: 1.2.3\n' }]))).toMatchObject({ slug: 'tidy', name: 'Tidy Up', type: 'plugin' });
    expect(packageOf(Buffer.from('plain text'))).toBe('Package extraction failed.');
  });
});

describe('PackageWorld', () => {
  test('every package with settings is installed at first, the seeded ones at their versions, plugins then themes by slug', () => {
    const w = new PackageWorld(folder(), new Clock(), { ...DEFAULT_SETTINGS }, {}, { plugin: { 'brand-new': { title: 'Brand New' }, email: { title: 'Email' } }, theme: { quark2: { title: 'Quark 2' } } });
    expect(w.get('brand-new', 'plugin')).toMatchObject({ name: 'Brand New', version: '1.0.0', symlink: false, source: 'site' });
    expect(w.get('email')).toMatchObject({ version: '5.0.3' });
    expect(w.get('devtools')).toMatchObject({ symlink: true });
    const slugs = w.list('plugin').map((p) => p.slug);
    expect(slugs).toEqual([...slugs].sort());
    expect(w.availableFor(w.get('devtools')!)).toBeNull(); // a symlink is never updatable
    expect(w.availableFor(w.get('email')!)).toBe('5.1.0');
  });

  test('the repository is read through a cache: a release shows after a refresh or a day', () => {
    const clock = new Clock();
    const w = new PackageWorld(folder(), clock, { ...DEFAULT_SETTINGS });
    expect(w.repository()!.get('form')!.version).toBe('9.1.3');
    w.publish('form', '9.3.0');
    expect(w.repository()!.get('form')!.version).toBe('9.1.3');
    expect(w.repository(true)!.get('form')!.version).toBe('9.3.0');
    w.publish('error', '2.2.0');
    clock.advance(86400_000 + 1);
    expect(w.repository()!.get('error')!.version).toBe('2.2.0');
    w.knobs.repositoryUnreachable = true;
    expect(w.repository(true)).toBeNull();
    expect(w.coreAvailable()).toBeNull();
  });

  test('the core: a newer release, none when latest, kept across a restart after an upgrade', () => {
    const dir = folder();
    const settings = { ...DEFAULT_SETTINGS };
    const w = new PackageWorld(dir, new Clock(), settings);
    expect([w.coreVersion, w.coreAvailable(), w.coreUpdatable()]).toEqual(['1.8.0', '1.8.2', true]);
    w.knobs.coreLatest = true;
    expect([w.coreAvailable(), w.coreUpdatable()]).toEqual(['1.8.0', false]);
    w.knobs.coreLatest = false;
    w.upgradeCore('1.8.2');
    expect(w.coreUpdatable()).toBe(false);
    const restarted = { ...DEFAULT_SETTINGS };
    new PackageWorld(dir, new Clock(), restarted);
    expect(restarted.cmsVersion).toBe('1.8.2');
  });

  test('the repository: 320 plugins and 40 themes, unique slugs, readme and changelog for each, some premium', () => {
    const repo = baseRepository();
    expect(repo.filter((p) => p.type === 'plugin')).toHaveLength(320);
    expect(repo.filter((p) => p.type === 'theme')).toHaveLength(40);
    expect(new Set(repo.map((p) => p.slug)).size).toBe(360);
    expect(repo.every((p) => p.readme?.startsWith(`# ${p.name}`) && p.changelog?.startsWith(`# v${p.version}`))).toBe(true);
    expect(repo.filter((p) => p.premium).length).toBeGreaterThanOrEqual(3);
    expect(compareVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareVersions('2.0.0', '2.0')).toBe(0);
  });
});
