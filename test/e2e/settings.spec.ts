/**
 * Issue 14 end to end, settings: the Settings area lists the site's configuration scopes, shows
 * one as its blueprint form, lists what a save will change before it is sent, saves, and undoes the
 * save; a rule of the blueprint is said at its field before anything is sent; leaving a scope with
 * unsaved changes asks first. Checked against the sandbox's stored configuration too.
 */
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-settings-e2e-', UNHURRIED);

test('change a setting with the diff shown before saving, then undo it', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Settings');
  const nav = pane.getByRole('navigation', { name: 'Settings' });
  // the first scope opens by itself; a field whose options the site resolves becomes a select of them
  await expect(nav.getByRole('button', { name: 'System', exact: true })).toHaveAttribute('aria-current', 'page');
  await expect(pane.getByLabel('Timezone', { exact: true }).locator('option[value="Europe/Berlin"]')).toHaveCount(1);
  await nav.getByRole('button', { name: 'Site', exact: true }).click();
  await expect(nav.getByRole('button', { name: 'Site', exact: true })).toHaveAttribute('aria-current', 'page');
  const title = pane.getByLabel('Site title', { exact: true });
  await expect(title).not.toHaveValue('');
  const before = await title.inputValue();

  // nothing changed: nothing to save
  const saveButton = pane.getByRole('button', { name: /^Review and save/ });
  await expect(saveButton).toBeDisabled();

  // the blueprint's own rule, said at the field before anything is sent
  await title.fill('');
  await saveButton.click();
  await expect(pane.getByText('Site title is required.')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await title.fill('Spring notes');
  await expect(saveButton).toHaveText('Review and save (1)');
  await saveButton.click();
  const review = page.getByRole('dialog', { name: 'Save Site settings?' });
  const change = review.getByRole('list', { name: 'Changes' }).getByRole('listitem');
  await expect(change).toHaveCount(1);
  await expect(change).toContainText('Site title');
  await expect(change).toContainText(`“${before}” → “Spring notes”`);
  await review.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(review).toBeHidden();
  await expect(page.getByText('Saved Site settings')).toBeVisible();
  expect(demo.cms.site.config.delta('site').title).toBe('Spring notes');
  await expect(saveButton).toBeDisabled();

  // undo writes the previous value back
  await pane.getByRole('button', { name: 'Undo last save' }).click();
  await expect(page.getByText('Put the previous Site settings back')).toBeVisible();
  await expect(title).toHaveValue(before);
  await expect.poll(() => demo.cms.site.config.delta('site').title ?? before).toBe(before);
  await expect(pane.getByRole('button', { name: 'Undo last save' })).toHaveCount(0);
});

test('leaving a scope with unsaved changes asks first, and Cancel keeps them', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Settings');
  const nav = pane.getByRole('navigation', { name: 'Settings' });
  await nav.getByRole('button', { name: 'Site', exact: true }).click();
  await pane.getByLabel('Site title', { exact: true }).fill('Unsaved');
  await nav.getByRole('button', { name: 'Media', exact: true }).click();
  const leave = page.getByRole('alertdialog', { name: 'Leave Site settings?' });
  await expect(leave).toContainText('1 change is not saved and will be lost.');
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(pane.getByLabel('Site title', { exact: true })).toHaveValue('Unsaved');
  await nav.getByRole('button', { name: 'Media', exact: true }).click();
  await page.getByRole('alertdialog', { name: 'Leave Site settings?' }).getByRole('button', { name: 'Leave without saving' }).click();
  await expect(nav.getByRole('button', { name: 'Media', exact: true })).toHaveAttribute('aria-current', 'page');
});

test("a plugin's settings: its secret shows as set on the site and is sent only when retyped", async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Settings');
  const nav = pane.getByRole('navigation', { name: 'Settings' });
  await expect(nav.getByRole('heading', { name: 'Plugins', exact: true })).toBeVisible();
  await nav.getByRole('button', { name: 'Email', exact: true }).click();
  const secret = pane.getByLabel('SMTP password', { exact: true });
  await expect(secret).toHaveValue('');
  await expect(secret).toHaveAttribute('placeholder', 'Set on the site (hidden); type a new one to replace it');
  // typed and cleared again: nothing to save, the site's secret stays
  await secret.fill('typo');
  await secret.fill('');
  await expect(pane.getByRole('button', { name: /^Review and save/ })).toBeDisabled();
  await secret.fill('new-smtp-secret');
  await pane.getByRole('button', { name: /^Review and save/ }).click();
  const review = page.getByRole('dialog', { name: 'Save Email settings?' });
  await expect(review.getByRole('listitem')).toContainText('A new secret replaces the one set on the site.');
  await expect(review).not.toContainText('new-smtp-secret');
  await review.getByRole('button', { name: 'Save 1 change' }).click();
  await expect(review).toBeHidden();
  expect((demo.cms.site.config.delta('plugins/email') as { mailer: { smtp: { password: string } } }).mailer.smtp.password).toBe('new-smtp-secret');
  await expect(secret).toHaveValue(''); // masked again, as the site answers it
});
