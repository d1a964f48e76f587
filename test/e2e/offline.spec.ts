/**
 * Issue 5 end to end, the train journey: the site goes away for real (its sandbox is stopped), two
 * pages are edited and one is created, the app is restarted while still offline, then the site
 * comes back on the same address and the changes sync by themselves (auto-sync is on by default).
 * What the app claims is checked on the site's disk, through its own HTTP API.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { tempDir } from '../support/tmp';
import { startBrowserMode, type BrowserMode } from './browser-mode';

let dir: ReturnType<typeof tempDir>;
let siteDir: ReturnType<typeof tempDir>;
let app: BrowserMode | undefined;
let cms: CmsSandbox | undefined;

test.beforeEach(() => {
  dir = tempDir('sitedesk-offline-e2e-');
  siteDir = tempDir('sitedesk-offline-site-');
});
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
  await cms?.close();
  cms = undefined;
  dir.remove();
  siteDir.remove();
});

async function bridge<T = unknown>(page: Page, channel: string, input: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ([channel, input]) => {
      const token = new URLSearchParams(location.search).get('token');
      const ws = new WebSocket(`ws://${location.host}/bridge?token=${token}`);
      await new Promise((r) => (ws.onopen = r));
      const reply = await new Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>((resolve) => {
        ws.addEventListener('message', (e) => {
          const msg = JSON.parse(e.data);
          if (msg.id === 1) resolve(msg); // events share the socket
        });
        ws.send(JSON.stringify({ id: 1, channel, input }));
      });
      ws.close();
      return reply;
    },
    [channel, input] as const,
  );
  if (!answer.ok) throw new Error(`${channel}: ${answer.error?.message}`);
  return answer.value as T;
}

const rail = (page: Page) => page.getByRole('navigation', { name: 'Sites', exact: true });
const siteRow = (page: Page) => rail(page).getByRole('button', { name: 'Demo', exact: true });
const tree = (pane: Locator) => pane.getByRole('tree', { name: 'Pages of Demo' });
const item = (pane: Locator, title: string) => tree(pane).getByRole('treeitem', { name: title, exact: true });
const editorOf = (pane: Locator) => pane.getByRole('region', { name: /^Edit / });
const markdown = (editor: Locator) => editor.getByRole('textbox', { name: 'Markdown content' });

async function openPagesArea(page: Page): Promise<Locator> {
  await siteRow(page).click();
  const pane = page.getByRole('region', { name: 'Demo', exact: true });
  await pane.getByRole('button', { name: 'Pages', exact: true }).click();
  await expect(item(pane, 'Home')).toBeVisible();
  return pane;
}

async function openPage(pane: Locator, title: string): Promise<Locator> {
  const about = item(pane, 'About');
  if ((await about.getAttribute('aria-expanded')) !== 'true') await about.click({ position: { x: 10, y: 14 } });
  await expect(about).toHaveAttribute('aria-expanded', 'true');
  await item(pane, title).click();
  await expect(pane.getByRole('region', { name: `Edit ${title}`, exact: true })).toBeVisible();
  await expect(markdown(editorOf(pane))).toBeVisible();
  return editorOf(pane);
}

test('offline: edit two pages and create one, restart, the site comes back, everything syncs by itself', async ({ page }) => {
  test.setTimeout(180_000);
  cms = await startCmsSandbox({ seed: 'demo', content: 'demo', dataDir: siteDir.path });
  const port = Number(new URL(cms.url).port);
  const apiKey = cms.seeded!.adminApiKey!;
  const keychainService = `SitedeskE2E-${randomUUID()}`;
  app = await startBrowserMode({ dataDir: dir.path, keychainService });
  await page.goto(app.url);
  await expect(rail(page)).toBeVisible();
  const site = await bridge<{ id: string }>(page, 'sites.add', { name: 'Demo', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey });
  await bridge(page, 'auth.refreshMe', { siteId: site.id });

  // online: the two pages are read once, so Sitedesk has copies of them
  let pane = await openPagesArea(page);
  await openPage(pane, 'History');
  await openPage(pane, 'Our team');

  // the site goes away
  await cms.close();
  cms = undefined;

  let editor = await openPage(pane, 'History');
  await expect(editor.getByText(/The site is not reachable\. This is Sitedesk’s copy from/)).toBeVisible();
  await markdown(editor).fill('# History\n\nWritten on a train, between two tunnels.\n');
  await markdown(editor).press('Control+s');
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

  editor = await openPage(pane, 'Our team');
  await markdown(editor).fill('# Our team\n\nAlso written on the train.\n');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

  await pane.getByRole('button', { name: 'New page…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New page' });
  await dialog.getByLabel('Parent').fill('/about');
  await dialog.getByLabel('Title').fill('Train notes');
  await dialog.getByRole('button', { name: 'Create page' }).click();
  await expect(page.getByText('“Train notes” waits to be created')).toBeVisible();

  // the rail counts what is not on the site yet, and says the site is offline
  await expect(siteRow(page)).toHaveAccessibleDescription(/3 unsynced changes/);
  await expect(siteRow(page)).toHaveAccessibleDescription(/offline/);

  // a restart while still offline: nothing is lost
  await app.stop();
  app = await startBrowserMode({ dataDir: dir.path, keychainService });
  await page.goto(app.url);
  await expect(siteRow(page)).toHaveAccessibleDescription(/3 unsynced changes/);
  pane = await openPagesArea(page);
  editor = await openPage(pane, 'History');
  await expect(markdown(editor)).toContainText('Written on a train, between two tunnels.');
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

  // the site comes back on the same address: the changes go out without anyone asking
  cms = await startCmsSandbox({ dataDir: siteDir.path, port });
  await expect(siteRow(page)).not.toHaveAccessibleDescription(/unsynced/, { timeout: 90_000 });

  const read = async (route: string) => {
    const r = await fetch(`${cms!.url}/pages/${route.slice(1).split('/').map(encodeURIComponent).join('/')}`, { headers: { 'X-API-Key': apiKey } });
    expect(r.status, route).toBe(200);
    return ((await r.json()) as { data: { title: string; content: string } }).data;
  };
  expect((await read('/about/history')).content).toContain('Written on a train, between two tunnels.');
  expect((await read('/about/our team')).content).toContain('Also written on the train.');
  expect((await read('/about/train-notes')).title).toBe('Train notes');
  // the editor follows: its page is on the site now
  await expect(editor.getByRole('status').filter({ hasText: /^\s*Saved\s*$/ })).toBeVisible({ timeout: 30_000 });
});
