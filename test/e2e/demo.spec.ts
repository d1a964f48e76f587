/**
 * Issue 16 end to end, demo mode: a super admin captures the baseline in the System area and
 * watches the countdown to the next reset tick, captures again (asked first: it replaces the
 * baseline) and resets the content now (asked first); a demo account finds the writes the site
 * would refuse disabled with the reason (Settings' save, the cache) and its page edits open.
 */
import { expect, test } from '@playwright/test';
import { bridge, openArea, openInEditor, markdown, switchArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-demo-e2e-', UNHURRIED);

test('capture a demo baseline and watch the countdown tick; capture again and reset now, each asked first', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'System');
  const card = pane.getByRole('region', { name: 'Demo mode' });
  await expect(card.getByText('Not captured: nothing is reset until one is')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Reset now…' })).toBeDisabled();

  await card.getByRole('button', { name: 'Capture baseline' }).click();
  await expect(card.getByText('Captured', { exact: true })).toBeVisible();
  const countdown = card.getByTestId('demo-countdown');
  await expect(countdown).toHaveText(/^in (30:00|29:5\d)$/);
  const first = await countdown.textContent();
  await expect(countdown).not.toHaveText(first!, { timeout: 3_000 });
  expect(demo.cms.ops.demo.baselineExists()).toBe(true);

  // a second capture replaces the first: asked first
  await card.getByRole('button', { name: 'Capture baseline…' }).click();
  const replace = page.getByRole('alertdialog', { name: 'Replace the demo baseline?' });
  await replace.getByRole('button', { name: 'Replace the baseline' }).click();
  await expect(replace).toHaveCount(0);
  await expect(page.getByText('Demo baseline captured').first()).toBeVisible();

  await card.getByRole('button', { name: 'Reset now…' }).click();
  const reset = page.getByRole('alertdialog', { name: 'Reset the demo content now?' });
  await expect(reset).toContainText('Every edit made since it was captured or last reset is lost.');
  await reset.getByRole('button', { name: 'Reset now' }).click();
  await expect(page.getByText('Demo content reset').first()).toBeVisible();
  expect(demo.cms.ops.demo.resets).toBe(1);
});

test('a demo account: the writes the site refuses are disabled with the reason; its page edits are open', async ({ page }) => {
  const username = 'visitor';
  const password = 'a-long-password-1';
  await demo.session.open(page);
  await demo.cms.accounts.create({
    username,
    password,
    email: 'visitor@example.test',
    access: { api: { access: true, demo: true, pages: { read: true, write: true }, media: { read: true, write: true }, config: { read: true }, system: { read: true } } },
  });
  const { id } = await bridge<{ id: string }>(page, 'sites.add', { name: 'Demo', kind: 'cms', baseUrl: demo.cms.url, environment: null, authMode: 'password' });
  await bridge(page, 'auth.signIn', { siteId: id, username, password });
  await page.reload();

  const pane = await openArea(page, 'Demo', 'Settings');
  const nav = pane.getByRole('navigation', { name: 'Settings' });
  await nav.getByRole('button', { name: 'Site', exact: true }).click();
  const title = pane.getByLabel('Site title', { exact: true });
  await expect(title).not.toHaveValue('');
  // the form itself is read-only for this account: nothing can be typed that could not be saved
  await expect(title).toBeDisabled();
  const save = pane.getByRole('button', { name: /^Review and save/ });
  await expect(save).toBeDisabled();
  await expect(save).toHaveAccessibleDescription('Demo accounts cannot change settings on this site (demo mode).');

  await switchArea(pane, 'Demo', 'System');
  await expect(pane.getByRole('button', { name: 'Clear the cache' })).toBeDisabled();
  await expect(pane.getByText('Demo accounts cannot make system changes (the cache, notifications) on this site (demo mode).')).toBeVisible();
  const card = pane.getByRole('region', { name: 'Demo mode' });
  await expect(card.getByText(/This is a demo account: it may change pages, media only/)).toBeVisible();
  await expect(card.getByRole('button', { name: /Capture baseline/ })).toHaveCount(0);

  await switchArea(pane, 'Demo', 'Pages');
  const editor = await openInEditor(pane, 'About', 'History');
  await expect(markdown(editor)).toBeEditable();
  await expect(editor.getByText(/may read pages but not change them|Demo accounts cannot/)).toHaveCount(0);
});
