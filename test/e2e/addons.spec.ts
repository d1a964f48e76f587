/**
 * Issue 15 end to end, what a site's plugins add (the sandbox's demo plugins team-notes and
 * site-health, both flavours): a menubar action runs from the overview's "Actions from plugins" and
 * says its result, and a refused one says why after its confirm; the team-notes page opened from its
 * entry in the site's areas, its form refused at a field by the site and then saved; the
 * site-health settings panel in Settings, a rule said at its field, then saved. Checked against the
 * sandbox's stored plugin data too.
 */
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sitePane, siteButton, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-addons-e2e-', UNHURRIED);
const shots = (name: string) => join(test.info().outputDir, `${name}.png`);

test('a menubar action from a plugin runs and says its result; a refused one says why', async ({ page }) => {
  await demo.connect(page);
  await siteButton(page, 'Demo').click();
  const pane = sitePane(page, 'Demo');
  const card = pane.getByRole('region', { name: 'From plugins' });
  await expect(card).toBeVisible();
  // the widgets and panels are described, not run
  await expect(card.getByRole('list', { name: 'Widgets and panels from plugins' }).getByRole('listitem')).toHaveCount(4);
  await expect(card.getByText('Team chat')).toBeVisible();

  await card.getByRole('button', { name: 'Actions from plugins' }).click();
  await page.screenshot({ path: shots('addons-menu') });
  // a label that is a translation key, in the app's words through the site's translations
  await page.getByRole('menuitem', { name: 'Run health checks' }).click();
  await expect(card.getByRole('status')).toContainText(/Run health checks: 6 checks run: \d passed/);

  await card.getByRole('button', { name: 'Actions from plugins' }).click();
  await page.getByRole('menuitem', { name: 'Purge CDN…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Purge CDN' }).or(page.getByRole('dialog', { name: 'Purge CDN' }));
  await expect(ask).toContainText('Purge the CDN cache of the whole site?');
  await ask.getByRole('button', { name: 'Run Purge CDN' }).click();
  await expect(card.getByRole('status')).toContainText('refused — The CDN refused the purge: no CDN zone is configured for this site.');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shots('addons-overview') });
  expect(demo.cms.events.list('onApiMenubarAction').map((e) => (e.data as { action: string }).action)).toEqual(['run-checks', 'purge-cdn']);
});

test('the team-notes page: its form refused at a field by the site, then saved', async ({ page }) => {
  await demo.connect(page);
  await siteButton(page, 'Demo').click();
  const pane = sitePane(page, 'Demo');
  const nav = pane.getByRole('navigation', { name: 'Demo Areas' });
  await nav.getByRole('button', { name: 'Team notes', exact: true }).click();
  await expect(pane.getByRole('heading', { name: 'Team notes', level: 2 })).toBeVisible();
  const form = pane.getByRole('form', { name: 'Team Notes' });
  await expect(form).toBeVisible();
  // a component page's entry is in the list too (its script is off)
  const notes = form.getByRole('textbox', { name: 'Notes' });
  await expect(notes).toBeVisible();
  await notes.fill('- title: Printer\n  body: Call the shop\n  pinned_until: "2026-12-01"\n- title: Keys\n  body: ""\n  pinned_until: "2026-02-30"\n');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText(/Item 2, pinned until: Invalid input/)).toBeVisible();
  await page.screenshot({ path: shots('addons-page-error') });
  expect(demo.cms.site.config.delta('plugins/team-notes').notes ?? []).toEqual([]);

  await notes.fill('- title: Printer\n  body: Call the shop\n  pinned_until: "2026-12-01"\n- title: Keys\n  body: ""\n  pinned_until: "2026-02-28"\n');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved Team Notes')).toBeVisible();
  await expect(form.getByText(/Item 2, pinned until/)).toHaveCount(0);
  await expect
    .poll(() => demo.cms.site.config.delta('plugins/team-notes').notes)
    .toEqual([
      { title: 'Printer', body: 'Call the shop', pinned_until: '2026-12-01' },
      { title: 'Keys', body: '', pinned_until: '2026-02-28' },
    ]);
  await page.screenshot({ path: shots('addons-page-saved') });

  // a page drawn by its plugin's script: off until the person allows the site's scripts (plugin-scripts.spec runs it)
  await pane.getByRole('button', { name: 'Overview', exact: true }).click();
  await nav.getByRole('button', { name: /^Site health/ }).click();
  await expect(pane.getByText(/is drawn by the site-health plugin’s own script, which Sitedesk does not run unless you allow it for Demo/)).toBeVisible();
  await expect(pane.getByRole('button', { name: 'Allow plugin scripts for Demo…' })).toBeVisible();
  // its own action runs without its script, and says what the site answered
  await pane.getByRole('group', { name: 'The page’s actions' }).getByRole('button', { name: 'Check now' }).click();
  await expect(pane.getByRole('status').filter({ hasText: 'Check now:' })).toContainText(/6 checks run/);
  await page.screenshot({ path: shots('addons-component-page') });
});

test('a plugin’s settings panel in Settings: a rule at its field, then saved', async ({ page }) => {
  await demo.connect(page);
  await siteButton(page, 'Demo').click();
  const pane = sitePane(page, 'Demo');
  await pane.getByRole('navigation', { name: 'Demo Areas' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const nav = pane.getByRole('navigation', { name: 'Settings' });
  await expect(nav.getByRole('heading', { name: 'From plugins' })).toBeVisible();
  await nav.getByRole('button', { name: 'Health checks', exact: true }).click();
  await expect(nav.getByRole('button', { name: 'Health checks', exact: true })).toHaveAttribute('aria-current', 'page');
  const form = pane.getByRole('form', { name: 'Health checks' });
  const every = form.getByLabel('Check every');
  await expect(every).toBeVisible();
  await every.fill('2');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('alert').filter({ hasText: /Check every/ })).toBeVisible();
  await page.screenshot({ path: shots('addons-settings-error') });
  await every.fill('20');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Saved Health checks')).toBeVisible();
  await expect.poll(() => (demo.cms.site.config.delta('plugins/site-health').checks as { interval?: unknown } | undefined)?.interval).toBe(20);
  await page.screenshot({ path: shots('addons-settings-saved') });
});
