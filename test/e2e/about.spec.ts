/**
 * About Sitedesk (issue 21): the status bar's version opens the version and the open-source
 * licences of everything the build ships, read from the build's own notices by the Host; each
 * package opens to its licence text with the keyboard, a long text scrolls from the keyboard, the
 * list filters, Escape gives focus back. The command palette opens it too.
 */
import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { useBrowserMode } from './support/app';

const session = useBrowserMode('sitedesk-about-e2e-');
const root = join(import.meta.dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
const built = JSON.parse(readFileSync(join(root, 'out', 'app', 'licences.json'), 'utf8')) as { packages: { name: string; version: string }[] };

test('the version and every shipped package with its licence, by keyboard', async ({ page }) => {
  await session.open(page);
  const about = page.getByRole('button', { name: `About Sitedesk ${version}` });
  await about.click();
  const dialog = page.getByRole('dialog', { name: 'About Sitedesk' });
  await expect(dialog.getByText(`Sitedesk ${version}`, { exact: true })).toBeVisible();
  await expect(dialog.getByText(/^Running as browser mode on /)).toBeVisible();

  const list = dialog.getByRole('list', { name: 'Open-source packages' });
  await expect(list.getByRole('listitem')).toHaveCount(built.packages.length);
  await expect(dialog.getByText(`Sitedesk is made with ${built.packages.length} open-source packages.`, { exact: false })).toBeVisible();

  // a package opens to its licence text with Enter, and closes again
  const filter = dialog.getByLabel('Filter packages');
  await filter.fill('marked');
  const marked = built.packages.find((p) => p.name === 'marked')!;
  const row = list.getByRole('button', { name: new RegExp(`^marked ${marked.version.replace(/\./g, '\\.')} MIT$`) });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('aria-expanded', 'true');
  const panel = dialog.getByRole('region', { name: `Licence of marked ${marked.version}` });
  await expect(panel.getByText('Built into the window.', { exact: true })).toBeVisible();
  await expect(panel.getByRole('region', { name: /^LICENSE(\.md)? of marked$/ })).toContainText('Copyright');
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();

  // the Linux keyring add-on: libdbus under the Academic Free License 2.1, its long text scrolled from the keyboard
  if (process.platform === 'linux') {
    await filter.fill('keyring-linux');
    await list.getByRole('button', { name: /^@napi-rs\/keyring-linux-/ }).press('Enter');
    const addon = dialog.getByRole('region', { name: /^Licence of @napi-rs\/keyring-linux-/ });
    await expect(addon.getByText(/Sitedesk uses it under the Academic Free License 2\.1/)).toBeVisible();
    const text = addon.getByRole('region', { name: /^LICENSE\.third-party\.md of / });
    await expect(text).toContainText('The Academic Free License');
    await text.focus();
    await expect(text).toBeFocused();
    // a 90,000-pixel text is still being laid out when it first shows: the key is pressed until it scrolls
    await expect(async () => {
      await page.keyboard.press('PageDown');
      expect(await text.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    }).toPass({ timeout: 10_000 });
  }

  await filter.fill('no-such-package-anywhere');
  await expect(dialog.getByText('No package matches “no-such-package-anywhere”.')).toBeVisible();

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(about).toBeFocused();

  // the command palette opens it too, with the filter cleared
  await page.keyboard.press('Control+K');
  await page.getByPlaceholder('Search sites and actions…').fill('licences');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Filter packages')).toHaveValue('');
  await expect(list.getByRole('listitem')).toHaveCount(built.packages.length);
});
