/**
 * Issue 15 end to end, plugin scripts: off until allowed for the site (a plain warning), then a
 * plugin's report drawn by its own script inside the jail (a sandboxed frame with an opaque
 * origin), handed the report's data; turned off again, nothing runs.
 */
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-scripts-e2e-', UNHURRIED);

test('a plugin’s report drawn by its script in the jail, only once allowed', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'System');
  const report = pane.getByRole('article', { name: 'Site health' });
  await expect(report.getByText(/drawn by the site-health plugin’s own script/)).toBeVisible();
  await expect(report.locator('iframe')).toHaveCount(0);
  await report.getByRole('button', { name: 'Allow plugin scripts for Demo…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Allow Demo’s plugin scripts?' }).or(page.getByRole('dialog', { name: 'Allow Demo’s plugin scripts?' }));
  await expect(confirm.getByText(/cannot see the app, your other sites, your sign-in/)).toBeVisible();
  await confirm.getByRole('button', { name: 'Allow plugin scripts' }).click();

  const frame = report.locator('iframe[title="Site health"]');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(report.frameLocator('iframe[title="Site health"]').getByText(/checks passed/)).toBeVisible({ timeout: 10_000 });
  // an opaque origin: the jail's own document says so
  const origin = await report.frameLocator('iframe[title="Site health"]').locator('body').evaluate(() => window.origin);
  expect(origin).toBe('null');

  await report.getByRole('button', { name: 'Turn plugin scripts off for Demo' }).click();
  await expect(report.locator('iframe')).toHaveCount(0);
  await expect(report.getByRole('button', { name: 'Allow plugin scripts for Demo…' })).toBeVisible();
  expect(errors).toEqual([]);
});
