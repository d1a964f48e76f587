/**
 * Issue 13 end to end, the site form's part of "a secret never follows a site" and "plain HTTP is a
 * choice": browser mode in Debian's Chromium, the CMS sandbox over loopback.
 */
import { expect, test } from '@playwright/test';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { addCmsSite, flavorOf, rail, siteButton, sitePane, useBrowserMode } from './support/app';

let cms: CmsSandbox;
test.beforeAll(async ({}, info) => {
  cms = await startCmsSandbox({ flavor: flavorOf(info), seed: 'demo' });
});
test.afterAll(async () => {
  await cms?.close();
});

const session = useBrowserMode('sitedesk-e2e-security-');

test('plain http:// to another computer: a warning, an explicit choice, and the site shows it', async ({ page }) => {
  await session.open(page);
  await rail(page).getByRole('button', { name: 'Add site' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add site' });
  await dialog.getByLabel('Name').fill('Intranet');
  const address = dialog.getByLabel('Base URL');
  const choice = dialog.getByRole('checkbox', { name: 'Allow plain HTTP for this site' });

  // loopback http needs no choice; https neither
  await address.fill(cms.url);
  await expect(choice).toBeHidden();
  await address.fill('http://cms.example.invalid/api/v1');
  await expect(dialog.getByText('readable by anyone on the network')).toBeVisible();
  await expect(choice).not.toBeChecked();

  // saving without the choice: the reason, and the focus on the choice
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert').filter({ hasText: 'Allow plain HTTP for this site' })).toBeVisible();
  await expect(choice).toBeFocused();
  await page.keyboard.press('Space');
  await expect(choice).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await expect(siteButton(page, 'Intranet')).toHaveAccessibleDescription(/plain HTTP \(not encrypted\)/);
  const pane = sitePane(page, 'Intranet');
  await expect(pane.getByText('None: plain HTTP, allowed for this site.')).toBeVisible();

  // moved to https: the choice is gone, and so is the mark
  await pane.getByRole('button', { name: 'Edit…' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit site' });
  await expect(edit.getByRole('checkbox', { name: 'Allow plain HTTP for this site' })).toBeChecked();
  await edit.getByLabel('Base URL').fill('https://cms.example.invalid/api/v1');
  await expect(edit.getByRole('checkbox', { name: 'Allow plain HTTP for this site' })).toBeHidden();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(pane.getByText('None: plain HTTP, allowed for this site.')).toBeHidden();
  await expect(siteButton(page, 'Intranet')).not.toHaveAccessibleDescription(/plain HTTP/);
});

test('another address or kind: the form says the key and sign-in stay behind, and the site asks for a key again', async ({ page }) => {
  await session.open(page);
  await addCmsSite(page, { name: 'Blog', baseUrl: cms.url, apiKey: cms.seeded!.adminApiKey! });
  await siteButton(page, 'Blog').click();
  const pane = sitePane(page, 'Blog');
  await pane.getByRole('button', { name: 'Edit…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit site' });
  const notice = dialog.getByRole('status').filter({ hasText: 'the stored API key and sign-in are not sent to it' });
  await expect(dialog.getByText('A key is stored — leave empty to keep it')).toBeVisible();
  await expect(notice).toBeHidden();

  // another path on the same origin keeps them
  await dialog.getByLabel('Base URL').fill(`${cms.origin}/api/v1/`);
  await expect(notice).toBeHidden();
  // another port does not
  const port = Number(new URL(cms.origin).port);
  await dialog.getByLabel('Base URL').fill(`http://127.0.0.1:${port + 1}/api/v1`);
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('This is another address');
  await expect(dialog.getByText('A key is stored — leave empty to keep it')).toBeHidden();
  // back to the address: nothing is dropped
  await dialog.getByLabel('Base URL').fill(cms.url);
  await expect(notice).toBeHidden();
  // another kind is another credential too
  await dialog.getByRole('radio', { name: 'Store' }).click();
  await expect(notice).toContainText('another kind of site');
  await dialog.getByRole('radio', { name: 'CMS site' }).click();
  await expect(notice).toBeHidden();

  await dialog.getByLabel('Base URL').fill(`http://127.0.0.1:${port + 1}/api/v1`);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(pane.getByText(`No API key is stored for Blog yet.`)).toBeVisible();
});
