/**
 * About Sitedesk's licences on the Host (electron/about/, issue 21): `about.licences` answers the
 * build's licences.json as the contract types it, drops what it does not know, and says in words
 * when the file is missing, not JSON or not in its form; a file put in place after a failure is read
 * on the next ask. The real build's file is checked in test/unit/notices.test.ts and shown end to
 * end in test/e2e/about.spec.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withPlainHost, type PlainHost } from '../support/demo-host';
import { tempDir } from '../support/tmp';
import type { Licences } from '../../electron/contract';

const fixtures: PlainHost[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  for (const fx of fixtures.splice(0)) await fx.close();
  dirs.splice(0).forEach((d) => d.remove());
});

const licences: Licences = {
  app: { name: 'Sitedesk', version: '9.9.9' },
  packages: [
    {
      name: '@napi-rs/keyring-linux-x64-gnu',
      version: '2.1.2',
      licence: 'MIT; libdbus: AFL-2.1 (chosen of AFL-2.1 OR GPL-2.0-or-later)',
      where: ['runtime'],
      native: true,
      homepage: 'https://github.com/Brooooooklyn/keyring-node',
      notes: ['Sitedesk uses it under the Academic Free License 2.1.'],
      texts: [{ file: 'LICENSE.third-party.md', text: 'The Academic Free License\nv. 2.1' }],
    },
    { name: 'lazy-val', version: '1.0.5', licence: 'MIT', where: ['runtime'], native: false, homepage: null, notes: ['This package ships no licence file.'], texts: [] },
  ],
};

async function hostWith(file: string | undefined) {
  const fx = await withPlainHost({ host: file ? { noticesFile: file } : {} });
  fixtures.push(fx);
  return fx;
}

function folder() {
  const d = tempDir('sitedesk-about-');
  dirs.push(d);
  return d.path;
}

describe('about.licences', () => {
  it("answers the build's notices, dropping keys it does not know", async () => {
    const file = join(folder(), 'licences.json');
    writeFileSync(file, JSON.stringify({ format: 1, generatedBy: 'x', app: licences.app, packages: licences.packages.map((p) => ({ ...p, extra: true })) }));
    const fx = await hostWith(file);
    expect(await fx.call('about.licences', {})).toEqual(licences);
  });

  it('says in words that a copy built without notices has none, and reads the file once it is there', async () => {
    const file = join(folder(), 'licences.json');
    const fx = await hostWith(file);
    const missing = await fx.fails('about.licences', {});
    expect(missing).toMatchObject({ code: 'not_found', message: 'This copy of Sitedesk has no licence notices: it was not built with them (npm run build makes them).' });
    writeFileSync(file, JSON.stringify({ format: 1, ...licences }));
    expect((await fx.call('about.licences', {})).packages).toHaveLength(2);
    expect((await withoutFile()).code).toBe('not_found');
  });

  it('says a damaged file is damaged, and names where a file of another form goes wrong', async () => {
    const dir = folder();
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"format": 1, "app": ');
    expect(await (await hostWith(broken)).fails('about.licences', {})).toMatchObject({ code: 'internal', message: 'The licence notices of this copy of Sitedesk are damaged: they are not JSON.' });

    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ format: 1, app: licences.app, packages: [{ ...licences.packages[1], version: 105 }] }));
    expect(await (await hostWith(other)).fails('about.licences', {})).toMatchObject({
      code: 'internal',
      message: 'The licence notices of this copy of Sitedesk are not in the form it reads (at packages.0.version).',
    });

    const newer = join(dir, 'newer.json');
    writeFileSync(newer, JSON.stringify({ format: 2, ...licences }));
    expect((await (await hostWith(newer)).fails('about.licences', {})).message).toMatch(/not in the form it reads \(at format\)/);
  });

  async function withoutFile() {
    return (await hostWith(undefined)).fails('about.licences', {});
  }
});
