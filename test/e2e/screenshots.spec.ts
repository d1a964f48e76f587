/**
 * `npm run screenshots`: the screens in light and dark, empty and full, wide and narrow, written to
 * docs/screenshots/ for the README and for looking at what we build. Not part of `npm test`.
 */
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { join } from 'node:path';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { startReceiver } from '../support/webhook-receiver';
import { addCmsSite, bridge, pageFilters, rail, saveDraft, siteButton, sitePane, treeItem, useBrowserMode } from './support/app';

const out = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
let cms: CmsSandbox;
/** Opens an area of the site's pane, from wherever the pane is (back to the overview first). */
async function openAreaIn(pane: Locator, name: string): Promise<void> {
  const back = pane.getByRole('button', { name: 'Overview', exact: true });
  if (await back.isVisible()) await back.click();
  await pane.getByRole('button', { name, exact: true }).click();
}

/** A CMS with no account yet (the first-run setup screen). */
let fresh: CmsSandbox;
let store: StoreSandbox;

test.beforeAll(async () => {
  [cms, fresh, store] = await Promise.all([startCmsSandbox(), startCmsSandbox({ seed: 'empty' }), startStoreSandbox()]);
});
test.afterAll(async () => {
  await Promise.all([cms.close(), fresh.close(), store.close()]);
});
const session = useBrowserMode('sitedesk-shots-');
test.beforeEach(async () => {
  await session.start();
});
/** Opens browser mode, started for this test, in `page`. */
const openApp = (page: Page) => page.goto(session.app!.url);

/**
 * A function that writes docs/screenshots/<name>-<scheme>.png; with `dismissToasts`, after closing
 * the toasts of earlier steps (they would cover the screen being shown).
 */
function shooter(page: Page, scheme: string, opts: { dismissToasts?: boolean } = {}) {
  return async (name: string) => {
    if (opts.dismissToasts) {
      const dismiss = page.getByRole('region', { name: 'Notifications' }).getByRole('button', { name: 'Dismiss notification' });
      while ((await dismiss.count()) > 0) await dismiss.first().click();
    }
    await page.screenshot({ path: join(out, `${name}-${scheme}.png`) });
  };
}

const JOURNAL = 'Northwind Journal';

/** Opens the app (no sites yet) and adds `site` as "Northwind Journal", signed in by API key; answers its id. */
async function addJournal(page: Page, site: CmsSandbox): Promise<string> {
  await openApp(page);
  await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
  return addCmsSite(page, { name: JOURNAL, baseUrl: site.url, apiKey: site.seeded!.adminApiKey! });
}

/**
 * Runs `body` in a page of its own in `scheme`, with a CMS sandbox of its own (the screens change
 * its pages) added as "Northwind Journal"; closes both afterwards.
 */
async function withJournal(
  browser: Browser,
  scheme: 'light' | 'dark',
  opts: { viewport?: { width: number; height: number }; dismissToasts?: boolean },
  body: (s: { page: Page; site: CmsSandbox; siteId: string; shot: (name: string) => Promise<void> }) => Promise<void>,
): Promise<void> {
  const site = await startCmsSandbox();
  const context = await browser.newContext({ colorScheme: scheme, viewport: opts.viewport ?? { width: 1440, height: 900 } });
  const page = await context.newPage();
  const shot = shooter(page, scheme, opts);
  try {
    const siteId = await addJournal(page, site);
    await body({ page, site, siteId, shot });
  } finally {
    await context.close();
    await site.close();
  }
}

const SITES = () => [
  { name: 'Northwind Journal', kind: 'cms', baseUrl: cms.url },
  { name: 'Northwind Shop', kind: 'store', baseUrl: store.url },
  { name: 'Docs (staging)', kind: 'cms', baseUrl: cms.url, environment: 'staging.example.com' },
  { name: 'Field Notes', kind: 'cms', baseUrl: cms.url },
];

/** Adds the sites through the bridge the UI uses (adding through the form is covered by sites.spec.ts). */
async function seedSites(page: Page, sites: Record<string, unknown>[] = SITES()) {
  for (const s of sites) await bridge(page, 'sites.add', { environment: null, authMode: 'password', ...s });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`screens in ${scheme}`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await openApp(page);
    await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
    await page.screenshot({ path: join(out, `empty-${scheme}.png`) });

    await seedSites(page);
    await siteButton(page, 'Northwind Journal').click();
    await page.getByRole('region', { name: 'Northwind Journal' }).getByRole('button', { name: 'Test connection' }).click();
    const shop = rail(page).getByRole('listitem').filter({ hasText: 'Northwind Shop' });
    await shop.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Open beside' }).click();
    await page.getByRole('region', { name: 'Northwind Shop' }).getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByRole('region', { name: 'Northwind Shop' }).getByText(/^Reachable: the store API/)).toBeVisible();
    await page.screenshot({ path: join(out, `sites-split-${scheme}.png`) });

    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(out, `sites-narrow-${scheme}.png`) });
    await page.setViewportSize({ width: 1440, height: 900 });

    await rail(page).getByRole('button', { name: 'Add site' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add site' });
    await dialog.getByLabel('Name').fill('northwind journal');
    await dialog.getByLabel('Base URL').fill('ftp://journal.example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByRole('alert').first()).toBeVisible();
    await page.screenshot({ path: join(out, `add-site-errors-${scheme}.png`) });
    await context.close();
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`sign-in screens in ${scheme}`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await openApp(page);
    await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
    await seedSites(page, [...SITES(), { name: 'New Site', kind: 'cms', baseUrl: fresh.url }]);
    const journal = page.getByRole('region', { name: 'Northwind Journal' });
    const notes = page.getByRole('region', { name: 'Field Notes' });
    const shot = shooter(page, scheme);

    // the sign-in form, then the code step of an account with two-factor
    await siteButton(page, 'Northwind Journal').click();
    await expect(journal.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
    await journal.getByLabel('Username').fill('editor');
    await journal.getByLabel('Password').fill('demo-editor-pass');
    await shot('signin-form');
    await journal.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(journal.getByLabel('Authentication code')).toBeFocused();
    await shot('signin-2fa');

    // signed in: the account card
    await journal.getByRole('button', { name: 'Use a different account' }).click();
    await journal.getByLabel('Username').fill('admin');
    await journal.getByLabel('Password').fill('demo-admin-pass');
    await journal.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(journal.getByRole('region', { name: 'Account' })).toBeVisible();
    await journal.getByRole('button', { name: 'Test connection' }).click();
    await expect(journal.getByText(/^Reachable: the CMS API/)).toBeVisible();
    await shot('signin-account');

    // two accounts side by side; the viewer's Pages focused shows why it is closed
    await rail(page).getByRole('listitem').filter({ hasText: 'Field Notes' }).getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Open beside' }).click();
    await notes.getByLabel('Username').fill('viewer');
    await notes.getByLabel('Password').fill('demo-viewer-pass');
    await notes.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(notes.getByRole('region', { name: 'Account' })).toBeVisible();
    await notes.getByRole('navigation', { name: 'Field Notes Areas' }).getByRole('button', { name: 'Pages' }).focus();
    await expect(page.getByText('This account lacks the api.pages.read permission.').filter({ visible: true })).toBeVisible();
    await shot('signin-two-accounts');
    await notes.getByRole('button', { name: 'Close pane' }).click();

    // first-run setup on a site without accounts
    await siteButton(page, 'New Site').click();
    const newSite = page.getByRole('region', { name: 'New Site' });
    await expect(newSite.getByRole('heading', { name: 'Create the first account' })).toBeVisible();
    await newSite.getByLabel('Username').fill('owner');
    await shot('signin-setup');

    // 429 on sign-in: the countdown
    cms.faults.set({ route: 'POST /auth/token', rateLimit: { retryAfter: 42 }, times: 1 });
    await siteButton(page, 'Docs (staging)').click();
    const docs = page.getByRole('region', { name: 'Docs (staging)' });
    await docs.getByLabel('Username').fill('admin');
    await docs.getByLabel('Password').fill('demo-admin-pass');
    await docs.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(docs.getByRole('alert').filter({ hasText: 'Too many attempts.' })).toBeVisible();
    await shot('signin-rate-limited');
    await context.close();
  });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`pages screens in ${scheme}`, async ({ browser }) => {
    // a sandbox of its own: the batch below changes pages
    await withJournal(browser, scheme, {}, async ({ page, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await pane.getByRole('button', { name: 'Pages', exact: true }).click();
      const item = (title: string) => treeItem(pane, title, JOURNAL);

      // the tree with Blog and About open, a post in the editor
      for (const title of ['About', 'Blog']) {
        await item(title).click({ position: { x: 10, y: 14 } });
        await expect(item(title)).toHaveAttribute('aria-expanded', 'true');
      }
      await item('Quiet garden (140)').click();
      await expect(pane.getByRole('region', { name: 'Edit Quiet garden (140)' })).toBeVisible();
      await page.waitForTimeout(400);
      await shot('pages-tree');

      // a drop into its own subtree, held over the target: the red indicator and the reason
      await item('Blog').click({ position: { x: 10, y: 14 } });
      await expect(item('Blog')).toHaveAttribute('aria-expanded', 'false');
      const from = (await item('About').boundingBox())!;
      const to = (await item('Our team').boundingBox())!;
      await page.mouse.move(from.x + 60, from.y + 14);
      await page.mouse.down();
      await page.mouse.move(from.x + 70, from.y + 30, { steps: 4 });
      await page.mouse.move(to.x + 90, to.y + 14, { steps: 8 });
      await expect(pane.getByText('“About” cannot be moved into its own subpage “Our team”.')).toBeVisible();
      await shot('pages-drop-refused');
      await page.mouse.up();

      // the list, filtered to unpublished blog posts, two selected
      await pane.getByRole('button', { name: 'List', exact: true }).click();
      await pageFilters(pane).getByLabel('Published').selectOption('no');
      await pageFilters(pane).getByLabel('Parent').fill('/blog');
      const grid = pane.getByRole('grid', { name: 'Pages' });
      await expect(pane.getByText('1–6 of 6')).toBeVisible();
      await grid.getByRole('row', { name: /Old river \(23\)/ }).click();
      await grid.getByRole('row', { name: /Golden mountain \(46\)/ }).click({ modifiers: ['Control'] });
      await expect(pane.getByRole('toolbar', { name: 'Selected pages' })).toContainText('2 selected');
      await shot('pages-list');

      // the batch result
      await pane.getByRole('toolbar', { name: 'Selected pages' }).getByRole('button', { name: 'Publish', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Batch results' })).toContainText('Published 2 of 2 pages.');
      await page.waitForTimeout(300);
      await shot('pages-batch-results');
      await page.getByRole('dialog', { name: 'Batch results' }).getByRole('button', { name: 'Close', exact: true }).click();

      // a new page with the site's field error
      await pane.getByRole('button', { name: 'Tree', exact: true }).click();
      await item('About').click();
      await pane.getByRole('button', { name: 'New page…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New page' });
      await dialog.getByLabel('Title').fill('Our team');
      await dialog.getByLabel('Slug').fill('our team');
      await dialog.getByRole('button', { name: 'Create page' }).click();
      await expect(dialog.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
      await shot('pages-new-page');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // narrow: the list and the editor stack
      await page.setViewportSize({ width: 800, height: 700 });
      await item('Our team').click();
      await expect(pane.getByRole('region', { name: 'Edit Our team' })).toBeVisible();
      await page.waitForTimeout(400);
      await shot('pages-narrow');
    });
  });
}

/** People, settings and the media library of a CMS site (issue 14). */
for (const scheme of ['light', 'dark'] as const) {
  test(`users, settings and media library in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, site, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      const areas = (name: string) => openAreaIn(pane, name);
      await areas('Users');
      await pane.getByRole('tab', { name: /^All/ }).click();
      await expect(pane.getByRole('button', { name: 'Open admin' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('users');
      await pane.getByRole('button', { name: 'New account…' }).click();
      await page.waitForTimeout(300);
      await shot('users-new');
      await page.getByRole('dialog', { name: 'New account' }).getByRole('tab', { name: 'Permissions' }).click();
      await page.waitForTimeout(200);
      await shot('users-permissions');
      await page.keyboard.press('Escape');
      await pane.getByRole('button', { name: 'Open admin', exact: true }).click();
      const own = page.getByRole('dialog', { name: 'Edit admin' });
      await own.getByRole('tab', { name: 'Two-factor sign-in' }).click();
      await own.getByRole('button', { name: 'Set up 2FA…' }).click();
      await expect(own.getByRole('img', { name: /QR code/ })).toBeVisible();
      await page.waitForTimeout(200);
      await shot('users-2fa');
      await page.keyboard.press('Escape');

      // the accounts kept for offline reading (by choice), then read from that copy while the site is away
      await pane.getByRole('button', { name: /^Offline copy/ }).click();
      const choice = page.getByRole('dialog', { name: 'Accounts offline' });
      await choice.getByRole('checkbox').check();
      await expect(choice.getByText(/The copy holds/)).toBeVisible();
      await shot('users-offline-choice');
      await choice.getByRole('button', { name: 'Close', exact: true }).click();
      site.faults.set({ route: '*', drop: true });
      try {
        await pane.getByRole('searchbox', { name: 'Search accounts' }).fill('a');
        await page.keyboard.press('Enter');
        await expect(pane.getByText(/the accounts are from Sitedesk’s copy/)).toBeVisible({ timeout: 20_000 });
        await page.waitForTimeout(200);
        await shot('users-offline');
      } finally {
        site.faults.clear();
      }
      await pane.getByRole('button', { name: 'Ask the site again' }).click();
      await expect(pane.getByText(/the accounts are from Sitedesk’s copy/)).toHaveCount(0, { timeout: 20_000 });

      await areas('Settings');
      const nav = pane.getByRole('navigation', { name: 'Settings' });
      await nav.getByRole('button', { name: 'Site', exact: true }).click();
      await pane.getByLabel('Site title', { exact: true }).fill('Northwind Journal');
      await pane.getByLabel('Default author', { exact: true }).fill('Ines Editor');
      await page.waitForTimeout(200);
      await shot('settings');
      await pane.getByRole('button', { name: /^Review and save/ }).click();
      await page.waitForTimeout(300);
      await shot('settings-review');
      await page.keyboard.press('Escape');
      await pane.getByRole('button', { name: 'Reload' }).click();

      await areas('Media library');
      await expect(pane.getByRole('tree').first()).toBeVisible();
      await page.waitForTimeout(800);
      await shot('library');
    });
  });
}

/** Packages, the updates across sites and the System area (issue 15). */
for (const scheme of ['light', 'dark'] as const) {
  test(`packages and system in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, site, shot }) => {
      site.packages.knobs.workMs = 4000;
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      const areas = (name: string) => openAreaIn(pane, name);
      await areas('Packages');
      await pane.getByRole('list', { name: 'Installed plugins' }).getByRole('button', { name: /^Email/ }).click();
      await expect(pane.getByRole('article', { name: 'Email' }).getByRole('tabpanel')).toContainText('Email');
      await page.waitForTimeout(300);
      await shot('packages');
      const nav = pane.getByRole('navigation', { name: 'Packages' });
      await nav.getByRole('button', { name: /^Updates/ }).click();
      await pane.getByRole('region', { name: 'Updates' }).getByRole('button', { name: 'Update Email' }).click();
      await expect(pane.getByRole('listitem', { name: /Update email on .*: Working/ })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('packages-updates');
      await nav.getByRole('button', { name: /^Get more/ }).click();
      await expect(pane.getByRole('region', { name: 'Get more packages' }).getByRole('button', { name: /^Install / }).first()).toBeVisible();
      await page.waitForTimeout(300);
      await shot('packages-repository');

      await page.getByRole('button', { name: /^Updates across sites/ }).click();
      const across = page.getByRole('dialog', { name: 'Updates across sites' });
      await expect(across.getByRole('checkbox', { name: 'Choose every update' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('updates-across');
      await page.keyboard.press('Escape');

      await areas('System');
      await expect(pane.getByRole('region', { name: 'Reports' }).getByRole('article').first()).toBeVisible();
      await page.waitForTimeout(300);
      await shot('system');

      site.ops.dashboard.addViews('/blog', 900);
      await areas('Dashboard');
      await expect(pane.getByRole('region', { name: 'Page views' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('dashboard');
    });
  });
}

/** Operations (issue 16): the scheduler after a forced run, webhooks with deliveries, demo mode, every site at a glance. */
for (const scheme of ['light', 'dark'] as const) {
  test(`operations in ${scheme}`, async ({ browser }) => {
    const rx = await startReceiver();
    try {
      await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, site, siteId, shot }) => {
        site.webhooks.allowPrivate = true;
        await siteButton(page, JOURNAL).click();
        const pane = sitePane(page, JOURNAL);
        const areas = (name: string) => openAreaIn(pane, name);

        await areas('Scheduler');
        await pane.getByRole('button', { name: 'Force all…' }).click();
        await page.getByRole('alertdialog', { name: 'Run every job now?' }).getByRole('button', { name: 'Run every job' }).click();
        await expect(pane.getByRole('heading', { name: 'Every job was run' })).toBeVisible({ timeout: 15_000 });
        await page.waitForTimeout(300);
        await shot('scheduler');

        await areas('Webhooks');
        await expect(pane.getByRole('heading', { name: 'No webhooks' })).toBeVisible();
        await shot('webhooks-empty');
        const made = await bridge<{ hook: { id: string } }>(page, 'webhooks.create', { siteId, url: rx.url, events: ['*'] });
        await bridge(page, 'webhooks.create', { siteId, url: 'https://hooks.example.com/grav', events: ['page.updated', 'page.created'] });
        for (const status of [200, 200, 500, 200]) {
          rx.status = status;
          await bridge(page, 'webhooks.test', { siteId, id: made.hook.id }).catch(() => undefined);
        }
        await areas('Webhooks');
        await pane.getByText(rx.url).first().click();
        await expect(pane.getByRole('table', { name: `Deliveries to ${rx.url}` }).getByRole('row').nth(1)).toBeVisible();
        await page.waitForTimeout(300);
        await shot('webhooks');

        await areas('System');
        const demo = pane.getByRole('region', { name: 'Demo mode' });
        await demo.getByRole('button', { name: /^Capture baseline/ }).click();
        await expect(demo.getByText(/Next reset/i).first()).toBeVisible();
        await demo.scrollIntoViewIfNeeded();
        await page.waitForTimeout(300);
        await shot('demo');

        await page.getByRole('button', { name: 'Sites at a glance' }).click();
        const glance = page.getByRole('dialog', { name: 'Sites at a glance' });
        await expect(glance.getByText(/needs? a look|looks? well/)).toBeVisible({ timeout: 15_000 });
        await page.waitForTimeout(300);
        await shot('glance');
        await page.keyboard.press('Escape');

        await page.setViewportSize({ width: 800, height: 700 });
        await areas('Scheduler');
        await expect(pane.getByRole('table', { name: 'Jobs' })).toBeVisible();
        await page.waitForTimeout(300);
        await shot('scheduler-narrow');
      });
    } finally {
      await rx.close();
    }
  });
}

/** The Mailer's subscribers (issue 17): the table with a person's page open, and narrow, where their page takes the table's place. */
for (const scheme of ['light', 'dark'] as const) {
  test(`mailer subscribers in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await openAreaIn(pane, 'Mailer');
      const grid = pane.getByRole('grid', { name: `Subscribers of ${JOURNAL}` });
      await expect(grid.locator('[data-index="2"]')).toContainText('@', { timeout: 60_000 });
      await grid.locator('[data-index="2"]').click();
      const person = pane.getByRole('complementary', { name: 'The person’s page' });
      await expect(person.getByRole('heading', { name: 'Lists' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('mailer-subscribers');
      await page.setViewportSize({ width: 900, height: 700 });
      await page.waitForTimeout(300);
      await shot('mailer-subscribers-narrow');
    });
  });
}

/** The Mailer's campaigns (issue 18): a sent campaign's report, and a draft written with the site's render beside it. */
for (const scheme of ['light', 'dark'] as const) {
  test(`mailer campaigns in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await openAreaIn(pane, 'Mailer');
      await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name: 'Campaigns' }).click();
      const table = pane.getByRole('table', { name: new RegExp(`Campaigns of ${JOURNAL}`) });
      await table.getByRole('button', { name: 'Autumn news', exact: true }).click();
      await expect(pane.getByRole('grid', { name: /Sends of Autumn news/ }).getByRole('row').nth(1)).toContainText('@', { timeout: 30_000 });
      await page.waitForTimeout(300);
      await shot('mailer-campaign-report');
      await pane.getByRole('button', { name: 'All campaigns' }).click();
      await table.getByRole('button', { name: 'Winter preview', exact: true }).click();
      await pane.getByLabel('Subject', { exact: true }).fill('Winter at the fair');
      await pane.getByRole('textbox', { name: /The campaign’s text/ }).click();
      await page.keyboard.type('# Winter preview\n\nThe stalls open on **Saturday**: see [the map](https://fair.example/map).');
      await expect(pane.getByRole('region', { name: 'As the site renders it' }).getByRole('heading', { name: 'Winter preview', exact: true })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('mailer-campaign-write');
    });
  });
}

/** The Mailer's automations (issue 18): the list, the step editor of the seeded one with its people on their steps, narrow, and its people. */
for (const scheme of ['light', 'dark'] as const) {
  test(`mailer automations in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await openAreaIn(pane, 'Mailer');
      await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name: 'Automations' }).click();
      const table = pane.getByRole('table', { name: `Automations of ${JOURNAL}` });
      await expect(table.getByRole('row', { name: /Welcome series/ })).toBeVisible({ timeout: 30_000 });
      await shot('mailer-automations');
      await table.getByRole('button', { name: 'Welcome series', exact: true }).click();
      const steps = pane.getByRole('list', { name: 'Steps of Welcome series' });
      await expect(steps.getByRole('listitem')).toHaveCount(4);
      await pane.getByLabel('Add a step').selectOption({ label: 'Check a condition' });
      await pane.getByRole('button', { name: 'Add', exact: true }).click();
      await page.waitForTimeout(300);
      await shot('mailer-automation-steps');
      await page.setViewportSize({ width: 800, height: 900 });
      await page.waitForTimeout(300);
      await shot('mailer-automation-steps-narrow');
      await page.setViewportSize({ width: 1440, height: 900 });
      await pane.getByRole('button', { name: 'Undo changes' }).click();
      await pane.getByRole('tab', { name: 'People' }).click();
      await expect(pane.getByRole('table', { name: 'People in Welcome series' }).getByRole('row').nth(1)).toContainText('@');
      await page.waitForTimeout(300);
      await shot('mailer-automation-people');
    });
  });
}

/** The editor, the conflict dialog, the translations and media (issue 4, editor side). */
for (const scheme of ['light', 'dark'] as const) {
  test(`editor, translations and media in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, site, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      const areas = (name: string) => openAreaIn(pane, name);
      await areas('Pages');
      const item = (title: string) => treeItem(pane, title, JOURNAL);

      // the editor: content with the site's preview of the saved page, one unsaved change
      await item('About').click({ position: { x: 10, y: 14 } });
      await item('History').click();
      const editor = pane.getByRole('region', { name: /^Edit / });
      const markdown = editor.getByRole('textbox', { name: 'Markdown content' });
      await expect(editor.getByRole('complementary').getByRole('heading', { name: 'History' })).toBeVisible();
      await markdown.press('Control+End');
      await markdown.pressSequentially('\n\nFounded in a **garage** in 1998.');
      await expect(editor.getByText('Older than your text: save to see your changes here, or switch to Live.')).toBeVisible();
      await page.waitForTimeout(300);
      await shot('editor-content');

      // the conflict: the page changed on the site meanwhile
      site.editPage({ route: '/about/history', content: 'Edited on the site by someone else.\n' });
      await editor.getByRole('button', { name: 'Save', exact: true }).click();
      const conflict = page.getByRole('dialog', { name: 'Page changed on the site' });
      await expect(conflict).toBeVisible();
      await page.waitForTimeout(300);
      await shot('editor-conflict');
      await conflict.getByRole('button', { name: 'Reload (discard my changes)' }).click();
      await expect(conflict).toBeHidden();

      // the header form of a blog post (item template: subtitle, hero image, options, taxonomy)
      await item('Blog').click({ position: { x: 10, y: 14 } });
      await item('Quiet garden (140)').click();
      await expect(pane.getByRole('region', { name: 'Edit Quiet garden (140)' })).toBeVisible();
      await editor.getByRole('tab', { name: 'Header' }).click();
      // the blueprint's own tabs: the one that holds the subtitle
      const headerTabs = editor.getByRole('tablist').last().getByRole('tab');
      for (let i = 0; i < (await headerTabs.count()) && !(await editor.getByLabel('Subtitle').isVisible()); i++) await headerTabs.nth(i).click();
      await editor.getByLabel('Subtitle').fill('Notes from the spring');
      await page.waitForTimeout(300);
      await shot('editor-header');

      // the translation matrix, then a page's panel comparing EN with DE
      await editor.getByRole('button', { name: 'Close editor' }).click();
      await page.getByRole('dialog', { name: 'Unsaved changes' }).getByRole('button', { name: 'Discard changes' }).click();
      await areas('Translations');
      const grid = pane.getByRole('grid', { name: 'Translations of Northwind Journal' });
      await expect(grid.getByRole('button', { name: 'About, EN: translated' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('translations-matrix');
      await pane.getByLabel('Search pages').fill('/docs/getting-started');
      await grid.getByRole('button', { name: 'Getting started: Requirements, DE: translated' }).click();
      const panel = pane.getByRole('complementary', { name: 'Getting started: Requirements' });
      await expect(panel.getByRole('region', { name: 'Content' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('translations-compare');

      // media with an upload on its way (the site answers slowly, so the bar is caught mid-way)
      await areas('Media');
      await pane.getByLabel('Page', { exact: true }).fill('/home');
      await pane.getByRole('button', { name: 'Show media' }).click();
      const media = pane.getByRole('region', { name: 'Media of /home' });
      await expect(media.getByRole('listitem', { name: 'hero.png' })).toBeVisible();
      site.faults.set({ route: 'POST /pages/home/media', latencyMs: 8000, times: 1 });
      await media.getByLabel('Files to upload').setInputFiles([
        { name: 'field-recording.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(24 * 1024 * 1024, 1) },
        { name: 'shell.php', mimeType: 'text/plain', buffer: Buffer.from('<?php') },
      ]);
      await expect(media.getByRole('group', { name: 'Uploads' }).getByText(/Uploading \d+%/)).toBeVisible({ timeout: 20_000 });
      await page.waitForTimeout(500);
      await shot('media-upload');
      site.faults.clear();
    });
  });
}

/** The Changes area and the merge view (issue 5, sync): a conflict, a refusal and an offline push. */
for (const scheme of ['light', 'dark'] as const) {
  test(`changes and merge view in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true }, async ({ page, site, siteId, shot }) => {
      const draft = (route: string, edit: Parameters<typeof saveDraft>[3]) => saveDraft(page, siteId, route, edit);
      const base = ['# History', '', 'Northwind started in 1998 as a two-person newsletter.', 'The first issue went to forty readers.', '', 'We moved to the web in 2004.', 'Today the journal has 12 writers.', '', 'Thanks for reading.'].join('\n');
      site.editPage({ route: '/about/history', content: base, header: { menu: 'History' } });
      await draft('/about/history', (p) => ({
        content: p.content.replace('as a two-person newsletter.', 'as a two-person newsletter in a garage.').replace('has 12 writers.', 'has fourteen writers and two editors.'),
        header: { ...p.header, menu: 'Our story' },
      }));
      await draft('/about/press', () => ({ template: 'bad.name' }));
      // the other side: the same lines and the same header field, changed on the site
      site.editPage({
        route: '/about/history',
        content: base.replace('as a two-person newsletter.', 'as a newsletter for neighbours.').replace('has 12 writers.', 'has 13 writers.'),
        header: { menu: 'Story' },
      });
      await bridge(page, 'sync.push', { siteId });
      // one more edit, then the site stops answering
      await draft('/about', (p) => ({ content: `${p.content}\n\nWe are hiring a photo editor.\n` }));
      site.faults.set({ route: '*', drop: true });

      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await pane.getByRole('button', { name: 'Changes', exact: true }).click();
      await pane.getByRole('button', { name: 'Push now' }).click();
      await expect(pane.getByRole('alert', { name: 'Push result' })).toContainText('could not be reached');
      await pane.getByRole('button', { name: 'Review About' }).click();
      await expect(pane.getByRole('region', { name: 'Text' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('sync-changes');

      site.faults.clear();
      await pane.getByRole('button', { name: 'Resolve… History' }).click();
      const merge = pane.getByRole('region', { name: 'Resolve conflict: History' });
      await merge.getByRole('radiogroup', { name: 'Conflict 2 of 2' }).getByRole('radio', { name: 'Both (mine then theirs)', exact: true }).check();
      await merge.getByRole('radiogroup', { name: 'Header field menu' }).getByRole('radio', { name: /^Theirs/ }).check();
      // the choices scrolled the conflicts; the picture starts at their top
      await merge.getByRole('heading', { name: 'Header fields changed on both sides' }).evaluate((h) => h.scrollIntoView({ block: 'end' }));
      await page.waitForTimeout(300);
      await shot('sync-merge');

      await page.setViewportSize({ width: 800, height: 700 });
      await page.waitForTimeout(300);
      await shot('sync-merge-narrow');
    });
  });
}

/** "Make available offline" and offline search (issue 5). */
for (const scheme of ['light', 'dark'] as const) {
  test(`offline copy and search in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { viewport: { width: 1280, height: 860 } }, async ({ page, site, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      const card = pane.getByRole('group', { name: 'Offline copy' });
      site.faults.set({ route: '*', latencyMs: 60 });
      await card.getByRole('button', { name: 'Make available offline' }).click();
      await expect.poll(async () => Number(await card.getByRole('progressbar').getAttribute('aria-valuenow')), { timeout: 30_000 }).toBeGreaterThan(120);
      await card.scrollIntoViewIfNeeded();
      await shot('offline-copying');
      site.faults.clear();
      await expect(card).toContainText(/pages available offline, copied/, { timeout: 60_000 });
      await card.getByText('Offline settings').click();
      await card.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await shot('offline-done');

      await page.keyboard.press('Control+Shift+F');
      const search = page.getByRole('dialog', { name: 'Search pages' });
      await search.getByRole('combobox', { name: 'Search for' }).fill('garden');
      await expect(search.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toBeVisible();
      await page.waitForTimeout(300);
      await shot('search');
      await page.setViewportSize({ width: 720, height: 760 });
      await page.waitForTimeout(300);
      await shot('search-narrow');
    });
  });
}

/**
 * Offline and in a conflict (issue 20): the tree from the copy with the site away (a copied folder
 * open in the site's order, a folder never copied saying so), a search hit on an unsynced draft,
 * and the merge view with a change the site made alone.
 */
for (const scheme of ['light', 'dark'] as const) {
  test(`offline walk in ${scheme}`, async ({ browser }) => {
    await withJournal(browser, scheme, { dismissToasts: true, viewport: { width: 1280, height: 860 } }, async ({ page, site, siteId, shot }) => {
      await siteButton(page, JOURNAL).click();
      const pane = sitePane(page, JOURNAL);
      await pane.getByRole('button', { name: 'Pages', exact: true }).click();
      await expect(treeItem(pane, 'Home', JOURNAL)).toBeVisible();
      // only About is copied for offline use
      await bridge(page, 'mirror.setSettings', { siteId, scope: { kind: 'prefix', route: '/about' } });
      const { runId } = await bridge<{ runId: number }>(page, 'mirror.start', { siteId });
      await expect.poll(async () => (await bridge<{ runId: number; state: string }[]>(page, 'mirror.status', { siteId })).find((r) => r.runId === runId)?.state, { timeout: 60_000 }).toBe('done');

      // a conflict: my edit of History, and the site's own change of its first line and of my line
      const base = ['# History', '', 'Northwind started in 1998 as a two-person newsletter.', 'The first issue went to forty readers.', '', 'We moved to the web in 2004.', 'Today the journal has 12 writers.', '', 'Thanks for reading.'].join('\n');
      site.editPage({ route: '/about/history', content: base });
      await saveDraft(page, siteId, '/about/history', (p) => ({ content: p.content.replace('has 12 writers.', 'has fourteen writers, and a garden shed for the archive.') }));
      site.editPage({ route: '/about/history', content: base.replace('# History', '# Our history').replace('has 12 writers.', 'has 13 writers.') });
      await bridge(page, 'sync.push', { siteId });

      // the site goes away: Documentation was never copied and says so; About opens from the copy
      site.faults.set({ route: '*', drop: true });
      const row = (title: string) => treeItem(pane, title, JOURNAL);
      await row('Documentation').click({ position: { x: 10, y: 14 } });
      await expect(pane.getByRole('treeitem', { name: /^Not in the offline copy/ })).toBeVisible();
      await row('About').click({ position: { x: 10, y: 14 } });
      await expect(row('Our team')).toBeVisible();
      await row('Our team').click();
      await expect(pane.getByText(/The site is not reachable\. This is Sitedesk’s copy from/)).toBeVisible();
      await row('Our team').focus();
      await page.waitForTimeout(300);
      await shot('offline-tree');

      // search finds my own unsynced words, and says so; snippets read as text
      await page.keyboard.press('Control+Shift+F');
      const search = page.getByRole('dialog', { name: 'Search pages' });
      await search.getByRole('combobox', { name: 'Search for' }).fill('garden');
      await expect(search.getByRole('listbox', { name: 'Search results' }).getByRole('option').first()).toContainText('Your unsynced change');
      await page.waitForTimeout(300);
      await shot('search-draft');
      await page.keyboard.press('Escape');
      await expect(search).toBeHidden();

      // back online: the merge view shows the site's first line as a change from the site
      site.faults.clear();
      await pane.getByRole('button', { name: 'Overview', exact: true }).click();
      await pane.getByRole('button', { name: 'Changes', exact: true }).click();
      await pane.getByRole('button', { name: 'Resolve… History' }).click();
      const merge = pane.getByRole('region', { name: 'Resolve conflict: History' });
      await expect(merge.getByRole('listitem', { name: /^From the site/ })).toBeVisible();
      await merge.getByRole('radiogroup', { name: 'Conflict 1 of 1' }).getByRole('radio', { name: 'Both (mine then theirs)', exact: true }).check();
      await merge.getByRole('heading', { name: /^Text:/ }).evaluate((h) => h.scrollIntoView({ block: 'start' }));
      await page.waitForTimeout(300);
      await shot('sync-merge-site-change');
    });
  });
}

/** The store (issue 6): access and budget, pets with the new-pet dialog, inventory, orders, users from CSV, a 429. */
for (const scheme of ['light', 'dark'] as const) {
  test(`store screens in ${scheme}`, async ({ browser }) => {
    const shop = await startStoreSandbox();
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const shot = shooter(page, scheme, { dismissToasts: true });
    const SHOP = 'Northwind Shop';
    try {
      await openApp(page);
      await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
      await bridge(page, 'sites.add', { name: SHOP, kind: 'store', baseUrl: shop.url, environment: null, authMode: 'apikey', apiKey: shop.seeded!.keys.free });
      await siteButton(page, SHOP).click();
      const pane = sitePane(page, SHOP);
      const area = async (name: string) => {
        const back = pane.getByRole('button', { name: 'Overview', exact: true });
        if (await back.isVisible()) await back.click();
        await pane.getByRole('navigation', { name: `${SHOP} Areas` }).getByRole('button', { name, exact: true }).click();
      };

      // the overview: signed in by key, the Free plan's budget after a few calls
      const access = pane.getByRole('region', { name: 'Store access' });
      for (let i = 0; i < 4; i++) await access.getByRole('button', { name: 'Check now' }).click();
      await expect(access.getByRole('meter', { name: 'This minute' })).toHaveAttribute('aria-valuetext', '56 of 60 calls left');
      await pane.getByRole('button', { name: 'Test connection' }).click();
      await expect(pane.getByText(/^Reachable: the store API/)).toBeVisible();
      await shot('store-overview');

      // pets, then a new pet with the field errors, then its image going up
      await area('Pets');
      const pets = pane.getByRole('list', { name: `Pets of ${SHOP}` });
      await expect(pets.getByRole('listitem', { name: 'Rex' }).locator('img')).toHaveJSProperty('complete', true);
      await shot('store-pets');
      await pane.getByRole('button', { name: 'New pet…' }).click();
      const dialog = page.getByRole('dialog', { name: 'New pet' });
      await dialog.getByLabel('Category').fill('Dogs');
      await dialog.getByLabel('Photo URL 1', { exact: true }).fill('rex.jpg');
      await dialog.getByLabel('Tags').fill('rescue');
      await dialog.getByLabel('Tags').press('Enter');
      await dialog.getByRole('button', { name: 'Create pet' }).click();
      await expect(dialog.getByText('Give the pet a name.')).toBeVisible();
      await page.waitForTimeout(300);
      await shot('store-pet-errors');
      await dialog.getByLabel('Name', { exact: true }).fill('Pepper');
      await dialog.getByLabel('Photo URL 1', { exact: true }).fill('https://example.com/pepper.jpg');
      const image = Buffer.alloc(2_000_000, 0);
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(image);
      await dialog.getByLabel('Image to upload').setInputFiles({ name: 'pepper.png', mimeType: 'image/png', buffer: image });
      shop.faults.set({ route: 'POST /pet/21/uploadImage', latencyMs: 4000, times: 1 });
      await dialog.getByRole('button', { name: 'Create and upload' }).click();
      await expect(dialog.getByRole('progressbar', { name: 'Uploading pepper.png' })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('store-pet-upload');
      await expect(dialog).toBeHidden({ timeout: 15_000 });

      // an order placed for Rex, then a look-up refused by the id rules
      await area('Orders');
      await pane.getByLabel('Pet', { exact: true }).fill('1');
      await pane.getByRole('button', { name: 'Place order' }).click();
      await expect(pane.getByRole('listitem', { name: 'Order 11' })).toBeVisible();
      await pane.getByLabel('Order id', { exact: true }).fill('11');
      await pane.getByRole('button', { name: 'Look up' }).click();
      await expect(pane.getByLabel('Order id', { exact: true })).toHaveAttribute('aria-invalid', 'true');
      await shot('store-orders');

      // the inventory, which the order and the new pet have changed
      await area('Inventory');
      await expect(pane.getByRole('img', { name: /^Pets per status: available 12, pending 5/ })).toBeVisible();
      await page.waitForTimeout(400);
      await shot('store-inventory');

      // users: a CSV with a row to fix, in the import preview
      await area('Users');
      await pane.getByLabel('Username', { exact: true }).fill('admin');
      await pane.getByRole('button', { name: 'Look up' }).click();
      await expect(pane.getByRole('region', { name: 'admin' })).toBeVisible();
      await shot('store-users');
      await pane.getByRole('button', { name: 'Import list…' }).click();
      const list = page.getByRole('dialog', { name: 'Import users' });
      await list.getByLabel('Users as CSV').fill(
        [
          'username,email,password,firstName,lastName,phone',
          'ann.lee,ann@example.com,s3cret-ann,Ann,Lee,+1 555 0101',
          'bob,bob-at-example.com,s3cret-bob,Bob,Builder,',
          'cara,cara@example.com,s3cret-cara,Cara,Diaz,+1 555 0103',
        ].join('\n'),
      );
      await expect(list.getByRole('table', { name: /^Preview/ })).toBeVisible();
      await page.waitForTimeout(300);
      await shot('store-users-import');
      await list.getByRole('button', { name: 'Cancel' }).click();

      // narrow: the pets become cards
      await area('Pets');
      await page.setViewportSize({ width: 800, height: 760 });
      await expect(pets.getByRole('listitem', { name: 'Rex' })).toBeVisible();
      await page.waitForTimeout(400);
      await shot('store-pets-narrow');

      // last (the Host then holds back every call for 42 s): a 429 and the countdown before the one retry
      await page.setViewportSize({ width: 1440, height: 900 });
      await area('Inventory');
      await expect(pane.getByRole('img', { name: /^Pets per status/ })).toBeVisible();
      shop.faults.set({ route: 'GET /store/inventory', rateLimit: { retryAfter: 42 }, times: 1 });
      await pane.getByRole('button', { name: 'Refresh' }).click();
      await expect(pane.getByText('Trying again in')).toBeVisible();
      await shot('store-rate-limited');

      // a store set to user login: logged in, with the session's end (a site of its own, not held back)
      await bridge(page, 'sites.add', { name: 'Shop (staff login)', kind: 'store', baseUrl: shop.url, environment: null, authMode: 'password' });
      await siteButton(page, 'Shop (staff login)').click();
      const staff = sitePane(page, 'Shop (staff login)');
      const login = staff.getByRole('group', { name: 'User login' });
      await login.getByLabel('Username').fill('user1');
      await login.getByLabel('Password').fill('demo-user-pass');
      await login.getByRole('button', { name: 'Log in' }).click();
      await expect(login).toContainText('Logged in as user1');
      await staff.getByRole('region', { name: 'Store access' }).getByRole('button', { name: 'Check now' }).click();
      await expect(staff.getByRole('meter', { name: 'Today' })).toBeVisible();
      await shot('store-login');
    } finally {
      await context.close();
      await shop.close();
    }
  });
}
