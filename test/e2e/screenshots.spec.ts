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
let store: StoreSandbox;
let dir: ReturnType<typeof tempDir>;
let app: BrowserMode;

test.beforeAll(async () => {
  [cms, store] = await Promise.all([startCmsSandbox(), startStoreSandbox()]);
});
test.afterAll(async () => {
  await Promise.all([cms.close(), store.close()]);
});
test.beforeEach(async () => {
  dir = tempDir('sitedesk-shots-');
  app = await startBrowserMode({ dataDir: dir.path });
});
test.afterEach(async () => {
  await app.stop();
  dir.remove();
});

async function seedSites(page: Page) {
  const sites = [
    { name: 'Northwind Journal', kind: 'cms', baseUrl: cms.url },
    { name: 'Northwind Shop', kind: 'store', baseUrl: store.url },
    { name: 'Docs (staging)', kind: 'cms', baseUrl: cms.url, environment: 'staging.example.com' },
    { name: 'Field Notes', kind: 'cms', baseUrl: cms.url },
  ];
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
