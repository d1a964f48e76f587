/**
 * Issue 2 end to end: browser mode in Debian's Chromium, the sandbox servers over loopback.
 * Add two sites through the UI, open them side by side, restart the Host, find them again; and
 * every bad input shows its message without changing anything else.
 */
import { expect, test, type Page } from '@playwright/test';
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { closedPort } from '../support/servers';
import { bridge, flavorOf, rail, siteButton, sitePane, useBrowserMode } from './support/app';

let cms: CmsSandbox;
let store: StoreSandbox;
test.beforeAll(async ({}, info) => {
  const flavor = flavorOf(info);
  [cms, store] = await Promise.all([startCmsSandbox({ flavor }), startStoreSandbox({ flavor })]);
});
test.afterAll(async () => {
  await Promise.all([cms?.close(), store?.close()]);
});

const session = useBrowserMode('sitedesk-e2e-');

async function addSite(page: Page, s: { name: string; kind: 'CMS site' | 'Store'; url: string }) {
  await rail(page).getByRole('button', { name: 'Add site' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add site' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name').fill(s.name);
  await dialog.getByRole('radio', { name: s.kind }).click();
  await dialog.getByLabel('Base URL').fill(s.url);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByText(/^Reachable: the (CMS|store) API answered/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(siteButton(page, s.name)).toBeVisible();
}

test('add two sites, see them side by side, restart the Host, find them again', async ({ page }) => {
  await session.open(page);
  await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();

  await addSite(page, { name: 'Blog', kind: 'CMS site', url: cms.url });
  await addSite(page, { name: 'Shop', kind: 'Store', url: store.url });

  // open Blog, then Shop beside it
  await siteButton(page, 'Blog').click();
  await expect(page.getByRole('tab', { name: 'Blog' })).toHaveAttribute('aria-selected', 'true');
  const shopRow = rail(page).getByRole('listitem').filter({ hasText: 'Shop' });
  await shopRow.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Open beside' }).click();
  const blogPane = sitePane(page, 'Blog');
  const shopPane = sitePane(page, 'Shop');
  await expect(blogPane).toBeVisible();
  await expect(shopPane).toBeVisible();
  const [a, b] = [await blogPane.boundingBox(), await shopPane.boundingBox()];
  expect(a && b && a.x + a.width <= b.x + 1).toBe(true); // side by side, Blog on the left

  // a test from the pane reaches the site
  await shopPane.getByRole('button', { name: 'Test connection' }).click();
  await expect(shopPane.getByText(/^Reachable: the store API answered/)).toBeVisible();

  // the layout is saved 400 ms after its last change; then restart the Host: same data folder, new process, new token
  await page.waitForTimeout(800);
  await session.restart(page);
  await expect(siteButton(page, 'Blog')).toBeVisible();
  await expect(siteButton(page, 'Shop')).toBeVisible();
  await expect(sitePane(page, 'Blog')).toBeVisible();
  await expect(sitePane(page, 'Shop')).toBeVisible();
});

test('bad inputs: each shows its message and changes nothing else', async ({ page }) => {
  await session.open(page);
  await addSite(page, { name: 'Blog', kind: 'CMS site', url: cms.url });

  await rail(page).getByRole('button', { name: 'Add site' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add site' });
  const save = dialog.getByRole('button', { name: 'Save' });

  // a non-http(s) scheme
  await dialog.getByLabel('Name').fill('Docs');
  await dialog.getByLabel('Base URL').fill('ftp://docs.example.com/api/v1');
  await save.click();
  await expect(dialog.getByText('Only http:// and https:// addresses can be used (not ftp://).')).toBeVisible();

  // a malformed URL
  await dialog.getByLabel('Base URL').fill('docs example com');
  await save.click();
  await expect(dialog.getByText(/Include the scheme|not a valid web address/)).toBeVisible();

  // a duplicate name (any case)
  await dialog.getByLabel('Name').fill(' blog ');
  await dialog.getByLabel('Base URL').fill(cms.url);
  await save.click();
  await expect(dialog.getByText('A site named “Blog” already exists.')).toBeVisible();
  await expect(dialog.getByLabel('Name')).toHaveValue(' blog '); // what was typed stays

  // an environment Grav refuses (it answers 400 to every call with it): said at the field; the hint names Grav's header
  await dialog.getByLabel('Name').fill('Docs');
  await dialog.getByLabel('Base URL').fill(cms.url);
  const environment = dialog.getByRole('textbox', { name: /^Environment/ });
  await expect(dialog.getByText('X-Grav-Environment')).toBeVisible();
  await environment.fill('staging:8080');
  await save.click();
  await expect(environment).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('Grav takes only letters, digits, dots, underscores and hyphens here, starting with a letter or digit. Leave the port out.')).toBeVisible();
  await environment.fill('');

  // an unreachable address: the test says so, nothing is saved by testing
  await dialog.getByLabel('Name').fill('Docs');
  await dialog.getByLabel('Base URL').fill(`http://127.0.0.1:${await closedPort()}/api/v1`);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByText(/refused the connection/)).toBeVisible();

  // a wrong prefix offers the one that works
  await dialog.getByLabel('Base URL').fill(`${cms.origin}/api/v9`);
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog.getByText(/no CMS API at this prefix/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Use this address' }).click();
  await expect(dialog.getByLabel('Base URL')).toHaveValue(cms.url);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(rail(page).getByRole('listitem')).toHaveCount(1);
});

test('removing a site asks first, then it is gone (and stays gone after a restart)', async ({ page }) => {
  await session.open(page);
  await addSite(page, { name: 'Blog', kind: 'CMS site', url: cms.url });
  await addSite(page, { name: 'Shop', kind: 'Store', url: store.url });
  await siteButton(page, 'Blog').click();
  await sitePane(page, 'Blog').getByRole('button', { name: 'Remove…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Remove Blog?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(siteButton(page, 'Blog')).toBeVisible();
  await sitePane(page, 'Blog').getByRole('button', { name: 'Remove…' }).click();
  await page.getByRole('alertdialog', { name: 'Remove Blog?' }).getByRole('button', { name: 'Remove site' }).click();
  // while the dialog is open the page behind it is inert, so "no Blog button" would hold at once:
  // the dialog closes when the Host has answered, and only then is the rail's count worth reading
  await expect(confirm).toBeHidden();
  await expect(page.getByText('Removed Blog')).toBeVisible();
  await expect(siteButton(page, 'Blog')).toHaveCount(0);
  await expect(page.getByRole('tab', { name: 'Blog' })).toHaveCount(0);
  await session.restart(page);
  await expect(siteButton(page, 'Shop')).toBeVisible();
  await expect(siteButton(page, 'Blog')).toHaveCount(0);
});

test('reorder with the keyboard; the order survives a restart', async ({ page }) => {
  await session.open(page);
  await addSite(page, { name: 'Blog', kind: 'CMS site', url: cms.url });
  await addSite(page, { name: 'Shop', kind: 'Store', url: store.url });
  await siteButton(page, 'Shop').focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(rail(page).getByRole('listitem').first()).toContainText('Shop');
  // the list moves at once; the announcement comes once the Host has saved the order
  await expect(rail(page).getByText('Shop moved to position 1 of 2.')).toBeAttached();
  await session.restart(page);
  await expect(rail(page).getByRole('listitem').first()).toContainText('Shop');
});

test('reorder by dragging a row; a drop next to its own place moves nothing', async ({ page }) => {
  await session.open(page);
  for (const name of ['Blog', 'Docs', 'Shop']) {
    await bridge(page, 'sites.add', { name, kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'password' });
  }
  const rows = rail(page).getByRole('listitem');
  const names = () => rows.evaluateAll((els) => els.map((e) => e.querySelector('.name')?.textContent?.trim()));
  await expect.poll(names).toEqual(['Blog', 'Docs', 'Shop']);
  // onto the lower half of the last row: the first goes to the end, and that is announced
  const last = (await rows.last().boundingBox())!;
  await rows.first().dragTo(rows.last(), { targetPosition: { x: 20, y: last.height - 4 } });
  await expect.poll(names).toEqual(['Docs', 'Shop', 'Blog']);
  await expect(rail(page).getByText('Blog moved to position 3 of 3.')).toBeAttached();
  // onto its own upper half: the gap right before it, no move
  await rows.first().dragTo(rows.first(), { targetPosition: { x: 20, y: 4 } });
  await session.restart(page);
  await expect.poll(names).toEqual(['Docs', 'Shop', 'Blog']);
});

test('a data file that is not SQLite: a clear message, the file untouched', async ({ page }) => {
  const file = join(session.dataDir, 'sitedesk.db');
  writeFileSync(file, 'my notes, not a database');
  await session.open(page);
  await expect(page.getByText(/is not a Sitedesk database/)).toBeVisible();
  expect(readFileSync(file, 'utf8')).toBe('my notes, not a database');
});

test('no keychain: a banner says secrets are kept for this session only', async ({ page }) => {
  await session.open(page, { secrets: 'memory' });
  await expect(page.getByText(/this session only/i).first()).toBeVisible();
});

test('the bridge refuses a page without the token', async ({ page }) => {
  const app = await session.start();
  await page.goto(app.url.replace(/\?token=.*/, ''));
  await expect(page.getByText(/token/i).first()).toBeVisible();
  await expect(rail(page)).toHaveCount(0);
});
