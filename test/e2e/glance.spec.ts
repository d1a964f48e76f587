/**
 * Issue 16 end to end, every site at a glance: the rail's "Sites at a glance" reads each CMS site on
 * its own — it answers, signed in, its version, pending updates, the scheduler, unsynced changes —
 * and a cell that needs a look opens the area that deals with it. A site that stops answering says
 * so on the next read while the others stay as they are.
 */
import { expect, test } from '@playwright/test';
import { rail, sitePane, useDemoSite, addCmsSite, DEMO, UNHURRIED, flavorOf } from './support/app';

const demo = useDemoSite('sitedesk-glance-e2e-', UNHURRIED);

test('the health of every site in one table; a cell that needs a look opens its area', async ({ page }, info) => {
  await demo.connect(page);
  await addCmsSite(page, { name: 'Second', baseUrl: demo.cms.url, apiKey: demo.cms.seeded!.adminApiKey! });
  await rail(page).getByRole('button', { name: 'Sites at a glance' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sites at a glance' });
  const table = dialog.getByRole('table', { name: 'Health of each content site' });
  const row = table.getByRole('row', { name: new RegExp(`^Open ${DEMO}`) });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(row.getByRole('cell').nth(0)).toHaveText('Yes');
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^\d+\.\d+/);
  // the sandbox's demo site has updates waiting: the cell opens Packages
  const updates = row.getByRole('button', { name: /^Updates on Demo: \d+ updates?/ });
  await expect(updates).toBeVisible();
  // the scheduler: the real flavour's crontab cannot be read but its health can; the document's is installed
  await expect(row.getByRole('cell').nth(4)).toHaveText(flavorOf(info) === 'real' ? /Healthy|failed|Warning/ : /Healthy|Installed|failed/);
  await expect(dialog.getByText(/needs? a look|looks? well/)).toBeVisible();
  // the mailer side by side: document 2's subscribers and its problem (the seed's scheduled campaign is not ready); Mailroom offers no overview
  if (flavorOf(info) === 'real') await expect(row.getByRole('cell').nth(6)).toHaveText(/^— . The site does not offer this.$/);
  else await expect(row.getByRole('button', { name: /^Mailer on Demo: [\d,]+ subscribers, [+−][\d,]+ in 30 days; 1 problem/ })).toBeVisible();

  await updates.click();
  await expect(dialog).toBeHidden();
  await expect(sitePane(page, DEMO).getByRole('heading', { name: 'Packages' }).first()).toBeVisible();

  // the site stops answering: the next read says so, from the copy where Sitedesk has one
  demo.cms.faults.set({ route: '*', drop: true });
  await rail(page).getByRole('button', { name: 'Sites at a glance' }).click();
  await expect(row.getByRole('cell').nth(0)).toHaveText(/^No\b/, { timeout: 20_000 });
  demo.cms.faults.clear();
});
