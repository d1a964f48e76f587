/**
 * Issue 16 end to end, the scheduler: the jobs in words with their next runs, a forced run (asked
 * first) showing each job's resulting state and the history, and a crontab that is not installed
 * showing the line to add with Copy.
 */
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-scheduler-e2e-', UNHURRIED);

test('the jobs in words; Force all asks, runs every job and shows each one’s state and the history', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Scheduler');
  const jobs = pane.getByRole('table', { name: 'Jobs' });
  const sitemap = jobs.getByRole('row', { name: /sitemap-refresh/ });
  await expect(sitemap.getByText('Every 15 minutes (UTC)')).toBeVisible();
  await expect(sitemap.getByRole('listitem')).toHaveCount(3);
  await expect(jobs.getByRole('row', { name: /default-site-backup/ }).getByText('Off: it does not run')).toBeVisible();

  await pane.getByRole('button', { name: 'Force all…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Run every job now?' });
  await ask.getByRole('button', { name: 'Run every job' }).click();
  const states = pane.getByRole('list', { name: 'Resulting states' });
  await expect(pane.getByRole('heading', { name: 'Every job was run' })).toBeVisible({ timeout: 15_000 });
  await expect(states.getByRole('listitem').filter({ hasText: 'sitemap-refresh' })).toContainText('Succeeded');
  await expect(states.getByRole('listitem').filter({ hasText: 'feed-import' })).toContainText('Failed');
  await expect(states.getByRole('listitem').filter({ hasText: 'feed-import' })).toContainText('503');
  await expect(jobs.getByRole('row', { name: /feed-import/ })).toContainText('Failed');
  const history = pane.getByRole('list', { name: 'Job history' });
  await expect(history.getByRole('listitem').filter({ hasText: 'feed-import' }).first()).toContainText('Failed');
});

test('a crontab that is not installed: the line to add for the site’s account, with Copy', async ({ page }) => {
  demo.cms.ops.scheduler.knobs.crontab = 'not_installed';
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Scheduler');
  const cron = pane.getByRole('region', { name: 'Crontab' });
  await expect(cron.getByText('Not installed')).toBeVisible();
  await expect(cron.locator('code').filter({ hasText: 'bin/grav scheduler' })).toBeVisible();
  await cron.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByText('The crontab line is on the clipboard.')).toBeVisible();
});
