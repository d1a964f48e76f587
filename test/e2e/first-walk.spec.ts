/**
 * Issue 20, small things a new user notices on a first walk: split view shows the two sites in the
 * order of their tabs, and the status bar speaks of the app's own background service only when it
 * is lost (not "Connected" beside a site's "Offline"). Runs on both sandbox flavours.
 */
import { expect, test } from '@playwright/test';
import { addCmsSite, bridge, rail, siteButton, sitePane, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-first-walk-e2e-');
const statusBar = (page: import('@playwright/test').Page) => page.getByRole('contentinfo', { name: 'Status bar' });

test('split view shows the two sites in the order of their tabs, whichever was open first', async ({ page }) => {
  await demo.connect(page, { name: 'Alpha' });
  await addCmsSite(page, { name: 'Beta', baseUrl: demo.cms.url, apiKey: demo.cms.seeded!.adminApiKey! });
  await siteButton(page, 'Alpha').click();
  await siteButton(page, 'Beta').click(); // Beta's tab comes second and is the one shown
  const tabs = page.getByRole('tablist', { name: 'Open sites' }).getByRole('tab');
  await expect(tabs).toHaveText(['Alpha', 'Beta']);

  await page.getByRole('button', { name: 'Split view' }).click();
  const alpha = sitePane(page, 'Alpha');
  const beta = sitePane(page, 'Beta');
  await expect(alpha).toBeVisible();
  await expect(beta).toBeVisible();
  const [a, b] = [(await alpha.boundingBox())!, (await beta.boundingBox())!];
  expect(a.x).toBeLessThan(b.x); // Alpha on the left, as its tab

});

test('the status bar says the site is offline without "Connected" beside it; the app’s service only when it is lost', async ({ page }) => {
  await demo.connect(page);
  await siteButton(page, 'Demo').click();
  const bar = statusBar(page);
  await expect(bar).toContainText('Demo');
  await expect(bar).not.toContainText('Connected');

  // the site goes away (a read gets no answer): the bar says "Offline", and nothing claims "Connected"
  demo.cms.faults.set({ route: '*', drop: true });
  await expect(bridge(page, 'pages.level', { siteId: demo.siteId, route: '/' })).rejects.toMatchObject({ code: 'network' });
  await expect(bar).toContainText('Offline');
  await expect(bar).not.toContainText('Connected');

  // Sitedesk's own background service is lost: now the bar says it
  await demo.session.app!.stop();
  await expect(bar).toContainText('Reconnecting to Sitedesk…');
  await expect(rail(page)).toBeVisible();
});
