/**
 * Issue 20 end to end, what a new user meets offline: the tree and the editor with the site stopped
 * for real (connection refused) after "Make available offline". Copied folders open at once, by the
 * chevron and by Right, their pages in the order the site gives them online; a folder never copied
 * says so in place; a page opens from the copy at once; search finds words typed offline before
 * they are synced, and shows text rather than Markdown. Runs on both sandbox flavours.
 */
import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { tempDir } from '../support/tmp';
import { addCmsSite, bridge, editorOf, flavorOf, markdown, openInEditor, openPagesArea, pageTree, rail, treeItem, useBrowserMode } from './support/app';

const session = useBrowserMode('sitedesk-offline-walk-e2e-');

/** The demo site on a sandbox that can be stopped and started again on its address, with its data. */
let cms: CmsSandbox | undefined;
let siteDir: ReturnType<typeof tempDir>;
let port = 0;
let apiKey = '';

test.beforeEach(() => {
  siteDir = tempDir('sitedesk-offline-walk-site-');
  port = 0;
});
test.afterEach(async () => {
  await cms?.close();
  cms = undefined;
  siteDir.remove();
});

/** Starts the site (again, on the same port). The real flavour's bucket is raised: a copy of the demo is 500-odd reads, minutes at 120 a minute. */
async function startSite(info: TestInfo): Promise<CmsSandbox> {
  cms = await startCmsSandbox({ flavor: flavorOf(info), seed: 'demo', content: 'demo', dataDir: siteDir.path, limits: { api: { limit: 100_000, windowSec: 60 } }, ...(port ? { port } : {}) });
  if (!port) {
    port = Number(new URL(cms.url).port);
    apiKey = cms.seeded!.adminApiKey!;
  }
  return cms;
}

async function stopSite(): Promise<void> {
  await cms?.close();
  cms = undefined;
}

/** The titles of a folder's first children as the site lists them to the tree online (its own order). */
async function onlineChildren(route: string, n: number): Promise<string[]> {
  const r = await fetch(`${cms!.url}/pages?children_of=${encodeURIComponent(route)}&sort=default&per_page=${n}`, { headers: { 'X-API-Key': apiKey } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { title: string }[] }).data.map((p) => p.title);
}

/** "Make available offline" through the bridge the card uses (the card has its own test), waited for. */
async function copyOffline(page: Page, siteId: string, scope?: { kind: 'prefix'; route: string }): Promise<void> {
  if (scope) await bridge(page, 'mirror.setSettings', { siteId, scope });
  const { runId } = await bridge<{ runId: number }>(page, 'mirror.start', { siteId });
  await expect
    .poll(async () => (await bridge<{ runId: number; state: string }[]>(page, 'mirror.status', { siteId })).find((r) => r.runId === runId)?.state, { timeout: 90_000 })
    .toBe('done');
}

async function connect(page: Page, info: TestInfo) {
  await startSite(info);
  await session.open(page);
  await expect(rail(page)).toBeVisible();
  const siteId = await addCmsSite(page, { name: 'Demo', baseUrl: cms!.url, apiKey });
  const pane = await openPagesArea(page);
  return { siteId, pane };
}

test('offline, copied folders open at once by the chevron and by Right, in the site’s order; a page opens from the copy at once', async ({ page }, info) => {
  test.setTimeout(180_000);
  const { siteId, pane } = await connect(page, info);
  await copyOffline(page, siteId);
  const blogOnline = await onlineChildren('/blog', 3);
  expect(blogOnline).toEqual(['Quiet garden (140)', 'Wild orchard (139)', 'Early forest (138)']);
  await stopSite();

  // the chevron: the blog opens from the copy at once (the site is not waited for, nor retried)
  const blog = treeItem(pane, 'Blog');
  await blog.click({ position: { x: 10, y: 14 } });
  await expect(treeItem(pane, blogOnline[0]!)).toBeVisible({ timeout: 1000 });
  await expect(blog).toHaveAttribute('aria-expanded', 'true');
  // in the order the site lists them online, not by folder name
  for (const [i, title] of blogOnline.entries()) await expect(treeItem(pane, title)).toHaveAttribute('aria-posinset', String(i + 1));
  await expect(pane.getByRole('status').filter({ hasText: /The site is not answering: the tree is from Sitedesk’s copy of/ })).toBeVisible();
  await blog.click({ position: { x: 10, y: 14 } });
  await expect(blog).toHaveAttribute('aria-expanded', 'false');

  // Right opens a folder, then moves into it, then opens the folder there
  const docs = treeItem(pane, 'Documentation');
  await docs.focus();
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(pane, 'Getting started')).toBeVisible({ timeout: 1000 });
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(pane, 'Getting started')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(pane, 'Getting started: Overview')).toBeVisible({ timeout: 1000 });

  // a page never opened comes from the copy at once
  await treeItem(pane, 'Getting started: Overview').click();
  const editor = editorOf(pane);
  await expect(markdown(editor)).toContainText('Getting started: Overview', { timeout: 1000 });
  await expect(editor.getByText(/The site is not reachable\. This is Sitedesk’s copy from/)).toBeVisible();
  expect(await pageTree(pane).getByRole('treeitem', { name: /Could not load/ }).count()).toBe(0);
});

test('offline, a folder never copied says so in place; once the site is back, asking it opens the folder', async ({ page }, info) => {
  test.setTimeout(120_000);
  const { siteId, pane } = await connect(page, info);
  // only /about is copied
  await copyOffline(page, siteId, { kind: 'prefix', route: '/about' });
  await stopSite();

  await treeItem(pane, 'Documentation').click({ position: { x: 10, y: 14 } });
  const note = pageTree(pane).getByRole('treeitem', { name: /^Not in the offline copy/ });
  await expect(note).toBeVisible();
  await expect(note).toContainText('the site is not answering, and the pages in /docs were never copied');
  await expect(note).toHaveAttribute('aria-level', '2');
  // the copied folder next to it opens at once
  await treeItem(pane, 'About').click({ position: { x: 10, y: 14 } });
  await expect(treeItem(pane, 'History')).toBeVisible({ timeout: 1000 });

  await startSite(info);
  await note.getByRole('button', { name: 'Ask the site' }).click();
  await expect(treeItem(pane, 'Getting started')).toBeVisible();
  await expect(note).toBeHidden();
});

test('offline, search finds my own unsynced words, says so, and opens the draft; snippets read as text', async ({ page }, info) => {
  test.setTimeout(120_000);
  const { pane } = await connect(page, info);
  await openInEditor(pane, 'About', 'History');
  await openInEditor(pane, 'About', 'Our team');
  await stopSite();

  let editor = await openInEditor(pane, 'About', 'History');
  await markdown(editor).fill('# History\n\nWritten on a train: **Zephyrwort** grows by the tracks.\n');
  await markdown(editor).press('Control+s');
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();
  await openInEditor(pane, 'About', 'Our team');

  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('dialog', { name: 'Search pages' });
  await search.getByRole('combobox', { name: 'Search for' }).fill('zephyrwort');
  const hit = search.getByRole('listbox', { name: 'Search results' }).getByRole('option');
  await expect(hit).toHaveCount(1);
  await expect(hit).toContainText('History');
  await expect(hit).toContainText('Your unsynced change');
  await expect(hit.locator('mark')).toHaveText('Zephyrwort');
  await expect(hit.locator('.snippet')).toHaveText('History Written on a train: Zephyrwort grows by the tracks.');
  await search.getByRole('combobox', { name: 'Search for' }).press('Enter');
  await expect(search).toBeHidden();
  editor = editorOf(pane);
  await expect(editor.getByLabel('Title', { exact: true })).toHaveValue('History');
  await expect(markdown(editor)).toContainText('Written on a train: **Zephyrwort** grows by the tracks.');

  // a copied page's snippet is its words, not its Markdown (“# Our team”, “**…**”, “- …”)
  await page.keyboard.press('Control+Shift+F');
  await search.getByRole('combobox', { name: 'Search for' }).fill('written');
  const hits = search.getByRole('listbox', { name: 'Search results' }).getByRole('option');
  await expect(hits.first()).toBeVisible();
  const snippets = await search.locator('.snippet').allTextContents();
  expect(snippets.length).toBeGreaterThan(1);
  for (const s of snippets) expect(s).not.toMatch(/(^|\s)#{1,6}\s|\*\*|(^|\s)[-*]\s/);
});
