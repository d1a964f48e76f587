/**
 * `npm run screenshots`: the screens in light and dark, empty and full, wide and narrow, written to
 * docs/screenshots/ for the README and for looking at what we build. Not part of `npm test`.
 */
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { startStoreSandbox, type StoreSandbox } from '../sandbox/store/server';
import { tempDir } from '../support/tmp';
import { startBrowserMode, type BrowserMode } from './browser-mode';

const out = join(import.meta.dirname, '..', '..', 'docs', 'screenshots');
let cms: CmsSandbox;
/** A CMS with no account yet (the first-run setup screen). */
let fresh: CmsSandbox;
let store: StoreSandbox;
let dir: ReturnType<typeof tempDir>;
let app: BrowserMode;

test.beforeAll(async () => {
  [cms, fresh, store] = await Promise.all([startCmsSandbox(), startCmsSandbox({ seed: 'empty' }), startStoreSandbox()]);
});
test.afterAll(async () => {
  await Promise.all([cms.close(), fresh.close(), store.close()]);
});
test.beforeEach(async () => {
  dir = tempDir('sitedesk-shots-');
  app = await startBrowserMode({ dataDir: dir.path });
});
test.afterEach(async () => {
  await app.stop();
  dir.remove();
});

const SITES = () => [
  { name: 'Northwind Journal', kind: 'cms', baseUrl: cms.url },
  { name: 'Northwind Shop', kind: 'store', baseUrl: store.url },
  { name: 'Docs (staging)', kind: 'cms', baseUrl: cms.url, environment: 'staging.example.com' },
  { name: 'Field Notes', kind: 'cms', baseUrl: cms.url },
];

async function seedSites(page: Page, sites: Record<string, unknown>[] = SITES()) {
  await page.evaluate(async (list) => {
    // the same bridge the UI uses; adding through the form is covered by sites.spec.ts
    const token = new URLSearchParams(location.search).get('token');
    const ws = new WebSocket(`ws://${location.host}/bridge?token=${token}`);
    await new Promise((r) => (ws.onopen = r));
    let id = 1000;
    for (const s of list) {
      await new Promise<void>((resolve) => {
        const my = id++;
        ws.addEventListener('message', function h(e) {
          if (JSON.parse(e.data).id === my) {
            ws.removeEventListener('message', h);
            resolve();
          }
        });
        ws.send(JSON.stringify({ id: my, channel: 'sites.add', input: { environment: null, authMode: 'password', ...s } }));
      });
    }
    ws.close();
  }, sites);
}

for (const scheme of ['light', 'dark'] as const) {
  test(`screens in ${scheme}`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
    await page.screenshot({ path: join(out, `empty-${scheme}.png`) });

    await seedSites(page);
    const rail = page.getByRole('navigation', { name: 'Sites', exact: true });
    await rail.getByRole('button', { name: 'Northwind Journal', exact: true }).click();
    await page.getByRole('region', { name: 'Northwind Journal' }).getByRole('button', { name: 'Test connection' }).click();
    const shop = rail.getByRole('listitem').filter({ hasText: 'Northwind Shop' });
    await shop.getByRole('button', { name: 'More actions' }).click();
    await page.getByRole('menuitem', { name: 'Open beside' }).click();
    await page.getByRole('region', { name: 'Northwind Shop' }).getByRole('button', { name: 'Test connection' }).click();
    await expect(page.getByRole('region', { name: 'Northwind Shop' }).getByText(/^Reachable: the store API/)).toBeVisible();
    await page.screenshot({ path: join(out, `sites-split-${scheme}.png`) });

    await page.setViewportSize({ width: 800, height: 600 });
    await page.screenshot({ path: join(out, `sites-narrow-${scheme}.png`) });
    await page.setViewportSize({ width: 1440, height: 900 });

    await rail.getByRole('button', { name: 'Add site' }).click();
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
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();
    await seedSites(page, [...SITES(), { name: 'New Site', kind: 'cms', baseUrl: fresh.url }]);
    const rail = page.getByRole('navigation', { name: 'Sites', exact: true });
    const journal = page.getByRole('region', { name: 'Northwind Journal' });
    const notes = page.getByRole('region', { name: 'Field Notes' });
    const shot = (name: string) => page.screenshot({ path: join(out, `${name}-${scheme}.png`) });

    // the sign-in form, then the code step of an account with two-factor
    await rail.getByRole('button', { name: 'Northwind Journal', exact: true }).click();
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
    await rail.getByRole('listitem').filter({ hasText: 'Field Notes' }).getByRole('button', { name: 'More actions' }).click();
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
    await rail.getByRole('button', { name: 'New Site', exact: true }).click();
    const newSite = page.getByRole('region', { name: 'New Site' });
    await expect(newSite.getByRole('heading', { name: 'Create the first account' })).toBeVisible();
    await newSite.getByLabel('Username').fill('owner');
    await shot('signin-setup');

    // 429 on sign-in: the countdown
    cms.faults.set({ route: 'POST /auth/token', rateLimit: { retryAfter: 42 }, times: 1 });
    await rail.getByRole('button', { name: 'Docs (staging)', exact: true }).click();
    const docs = page.getByRole('region', { name: 'Docs (staging)' });
    await docs.getByLabel('Username').fill('admin');
    await docs.getByLabel('Password').fill('demo-admin-pass');
    await docs.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(docs.getByRole('alert').filter({ hasText: 'Too many attempts.' })).toBeVisible();
    await shot('signin-rate-limited');
    await context.close();
  });
}
