/**
 * A full disk, end to end in browser mode: the data folder sits on a small tmpfs (mounted for the
 * test; it needs root, and says so and does not run where mounting is refused). Text typed while
 * the disk is full stays in the editor, which says why; a banner names the disk in words; when
 * space returns the editor keeps the text by itself and the banner goes (review L7).
 */
import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { startBrowserMode, type BrowserMode } from './browser-mode';
import { fillDisk } from '../support/storage-faults';
import { addCmsSite, bridge, flavorOf, markdown, openInEditor, openPagesArea } from './support/app';

let mountPoint = '';
let mounted = false;
let cms: CmsSandbox | undefined;
let app: BrowserMode | undefined;

test.beforeEach(() => {
  mountPoint = mkdtempSync(join(tmpdir(), 'sitedesk-full-disk-e2e-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
});
test.afterEach(async () => {
  try {
    await app?.stop();
    app = undefined;
    await cms?.close();
    cms = undefined;
  } finally {
    if (mounted) execFileSync('umount', [mountPoint]); // even when a stop failed: no mount is left behind
    rmSync(mountPoint, { recursive: true, force: true });
  }
});

test('typing on a full disk: the text stays, the editor and a banner say why, it is kept once there is room', async ({ page }, info) => {
  test.skip(!mounted, 'a tmpfs could not be mounted (needs root)');
  cms = await startCmsSandbox({ flavor: flavorOf(info), seed: 'demo', content: 'demo' });
  app = await startBrowserMode({ dataDir: join(mountPoint, 'data'), secrets: 'memory' });
  await page.goto(app.url);
  const siteId = await addCmsSite(page, { name: 'Demo', baseUrl: cms.url, apiKey: cms.seeded!.adminApiKey! });
  const pane = await openPagesArea(page, 'Demo');
  const editor = await openInEditor(pane, 'About', 'History');

  const filler = join(mountPoint, 'filler');
  fillDisk(filler);
  // a text longer than the room the file has left (a few typed words may still fit in the WAL's own pages)
  const long = 'Written while the disk was full. '.repeat(12_000);
  await markdown(editor).fill(long);
  const alert = editor.getByRole('alert').filter({ hasText: 'The disk holding Sitedesk’s data folder is full' });
  await expect(alert).toContainText('Your text stays in this window and is kept on this computer by itself once there is space.');
  const banner = page.getByRole('status').filter({ hasText: 'The disk holding Sitedesk’s data folder is full.' });
  await expect(banner).toBeVisible();
  await expect(banner).not.toContainText(mountPoint);
  expect(await bridge<unknown[]>(page, 'drafts.list', { siteId })).toHaveLength(0);

  rmSync(filler);
  await expect(banner).toHaveCount(0, { timeout: 10_000 });
  await expect(editor.getByText('Saved on this computer', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(alert).toHaveCount(0);
  const [draft] = await bridge<{ id: number }[]>(page, 'drafts.list', { siteId });
  const kept = await bridge<{ mine: { content: string } }>(page, 'drafts.get', { draftId: draft!.id });
  expect(kept.mine.content).toBe(long);
});
