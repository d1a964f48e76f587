/**
 * A damaged database, end to end in browser mode: the app starts on a file whose pages are damaged
 * (as a bad sector or a half-copied backup leaves it), shows the damaged-database screen with the
 * file's place, saves the unsynced drafts as files in a folder typed into a checked field, and
 * starts fresh with the damaged file kept aside. Damage the start does not read is found by the
 * check after start, and the screen comes by itself.
 */
import { expect, test } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { tempDir } from '../support/tmp';
import { damageDatabase } from '../support/storage-faults';
import { rail, saveDraft, siteButton, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-database-e2e-');
let out: ReturnType<typeof tempDir> | undefined;
test.afterEach(() => {
  out?.remove();
  out = undefined;
});

test('a damaged database: the screen, the unsynced drafts saved as files, a fresh start', async ({ page }) => {
  const siteId = await demo.connect(page);
  await saveDraft(page, siteId, '/home', (p) => ({ content: `${p.content}\n\nWords only this computer has.` }));
  await demo.session.app!.stop();
  damageDatabase(join(demo.session.dataDir, 'sitedesk.db'));
  const before = readFileSync(join(demo.session.dataDir, 'sitedesk.db'));

  await demo.session.open(page);
  await expect(page.getByRole('heading', { name: 'Sitedesk’s database is damaged' })).toBeVisible();
  await expect(page.getByText(join(demo.session.dataDir, 'sitedesk.db'))).toBeVisible();
  await expect(rail(page)).toHaveCount(0);

  // the folder is checked before anything is written
  const field = page.getByLabel('Folder to save the files in');
  await field.fill(join(demo.session.dataDir, 'no-such-folder'));
  await page.getByRole('button', { name: 'Save files' }).click();
  await expect(page.getByText('There is no folder at that path.')).toBeVisible();
  await expect(field).toBeFocused();

  out = tempDir('sitedesk-saved-work-');
  await field.fill(out.path);
  await page.getByRole('button', { name: 'Save files' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved 1 draft and 1 waiting change' })).toBeVisible();
  const [saved] = readdirSync(out.path);
  expect(saved).toMatch(/^Sitedesk unsynced work /);
  expect(readFileSync(join(out.path, saved!, 'drafts', 'Demo', 'home.md'), 'utf8')).toContain('Words only this computer has.');

  await page.getByRole('button', { name: 'Keep the file aside and start fresh' }).click();
  await expect(rail(page)).toBeVisible();
  await expect(siteButton(page, 'Demo')).toHaveCount(0);
  await expect(page.getByText(/kept beside it as sitedesk\.damaged-/)).toBeVisible();
  const aside = readdirSync(demo.session.dataDir).filter((n) => /^sitedesk\.damaged-.*\.db$/.test(n));
  expect(aside).toHaveLength(1);
  expect(readFileSync(join(demo.session.dataDir, aside[0]!)).equals(before)).toBe(true);
  expect(existsSync(join(demo.session.dataDir, 'sitedesk.db'))).toBe(true);
});

test('damage where the start reads nothing: the app opens, then the check after start finds it and the screen comes by itself', async ({ page }) => {
  await demo.connect(page);
  await demo.session.app!.stop();
  const file = join(demo.session.dataDir, 'sitedesk.db');
  const raw = new Database(file);
  const ins = raw.prepare(`INSERT INTO pages (site_id, route, lang, title, slug, template, published, visible, routable, parent, content, fetched_at) VALUES (?, ?, '', 'T', 's', 'default', 1, 1, 1, '/', ?, 't')`);
  const siteId = (raw.prepare('SELECT id FROM sites').pluck().get() as string);
  raw.transaction(() => {
    for (let i = 0; i < 3000; i++) ins.run(siteId, `/filler-${i}`, 'x'.repeat(1500)); // a cache the start does not read
  })();
  raw.close();
  damageDatabase(join(demo.session.dataDir, 'sitedesk.db'), Math.floor(statSync(file).size / 2 / 4096) * 4096);

  await demo.session.open(page);
  await expect(page.getByRole('heading', { name: 'Sitedesk’s database is damaged' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText(file)).toBeVisible();
});
