/**
 * Issue 5 end to end, the train journey: the site goes away for real (its sandbox is stopped), two
 * pages are edited and one is created, the app is restarted while still offline, then the site
 * comes back on the same address and the changes sync by themselves (auto-sync is on by default).
 * What the app claims is checked on the site's disk, through its own HTTP API.
 */
import { expect, test } from '@playwright/test';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { tempDir } from '../support/tmp';
import { addCmsSite, flavorOf, markdown, openInEditor, openPagesArea, rail, siteButton, useBrowserMode } from './support/app';

const session = useBrowserMode('sitedesk-offline-e2e-');
let siteDir: ReturnType<typeof tempDir>;
let cms: CmsSandbox | undefined;

test.beforeEach(() => {
  siteDir = tempDir('sitedesk-offline-site-');
});
test.afterEach(async () => {
  await cms?.close();
  cms = undefined;
  siteDir.remove();
});

test('offline: edit two pages and create one, restart, the site comes back, everything syncs by itself', async ({ page }, info) => {
  test.setTimeout(180_000);
  const flavor = flavorOf(info);
  cms = await startCmsSandbox({ flavor, seed: 'demo', content: 'demo', dataDir: siteDir.path });
  const port = Number(new URL(cms.url).port);
  const apiKey = cms.seeded!.adminApiKey!;
  await session.open(page);
  await expect(rail(page)).toBeVisible();
  await addCmsSite(page, { name: 'Demo', baseUrl: cms.url, apiKey });

  // online: the two pages are read once, so Sitedesk has copies of them
  let pane = await openPagesArea(page);
  await openInEditor(pane, 'About', 'History');
  await openInEditor(pane, 'About', 'Our team');

  // the site goes away
  await cms.close();
  cms = undefined;

  let editor = await openInEditor(pane, 'About', 'History');
  await expect(editor.getByText(/The site is not reachable\. This is Sitedesk’s copy from/)).toBeVisible();
  await markdown(editor).fill('# History\n\nWritten on a train, between two tunnels.\n');
  await markdown(editor).press('Control+s');
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

  editor = await openInEditor(pane, 'About', 'Our team');
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
  await expect(siteButton(page, 'Demo')).toHaveAccessibleDescription(/3 unsynced changes/);
  await expect(siteButton(page, 'Demo')).toHaveAccessibleDescription(/offline/);

  // a restart while still offline: nothing is lost
  await session.restart(page);
  await expect(siteButton(page, 'Demo')).toHaveAccessibleDescription(/3 unsynced changes/);
  pane = await openPagesArea(page);
  editor = await openInEditor(pane, 'About', 'History');
  await expect(markdown(editor)).toContainText('Written on a train, between two tunnels.');
  await expect(editor.getByRole('status').filter({ hasText: 'Saved on this computer' })).toBeVisible();

  // the site comes back on the same address: the changes go out without anyone asking
  cms = await startCmsSandbox({ flavor, dataDir: siteDir.path, port });
  await expect(siteButton(page, 'Demo')).not.toHaveAccessibleDescription(/unsynced/, { timeout: 90_000 });

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
