/**
 * Issue 16 end to end, the dashboard: a site's statistics, 14 days of page views with the most read
 * pages (one opened in the editor), notifications by location with one hidden for the account.
 */
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-dashboard-e2e-', UNHURRIED);

test('statistics, page views with the most read page opened in the editor, a notification hidden', async ({ page }) => {
  await demo.connect(page);
  demo.cms.ops.dashboard.addViews('/blog', 50_000);
  const pane = await openArea(page, 'Demo', 'Dashboard');
  await expect(pane.getByRole('region', { name: 'The site' }).getByText('Pages')).toBeVisible();
  const views = pane.getByRole('region', { name: 'Page views' });
  await expect(views.getByRole('table', { name: /Page views of the last 14 days/ }).getByRole('row')).toHaveCount(14);
  const notes = pane.getByRole('region', { name: 'Notifications' });
  await notes.getByRole('button', { name: 'Hide “Grav 2.1 beta”' }).click();
  await expect(notes.getByText('Grav 2.1 beta')).toHaveCount(0);
  await expect(page.getByText(/It comes back after 1 day/)).toBeVisible();
  await views.getByRole('button', { name: 'Open /blog in the editor' }).click();
  await expect(pane.getByRole('region', { name: /^Edit / })).toBeVisible({ timeout: 15_000 });
});
