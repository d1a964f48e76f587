/**
 * Issue 14 end to end, the site media library: upload three files into a new folder and rename
 * one, more by drag and drop, a taken name asked about; the tree by keyboard; a file moved by
 * dragging it onto a folder and with Move…; preview, Copy Markdown link, a long search result
 * virtualised and read page by page, delete with confirm; a folder that is not empty refused with
 * the site's reason, an empty one deleted; the copy while the site is away; an account that may
 * only read. Checked against the sandbox's disk too. Both flavours.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openArea, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-library-e2e-');

const onDisk = (rel: string) => existsSync(join(demo.cms.dataDir, 'media', rel));

async function openLibrary(page: Page): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Media library');
  await expect(pane.getByRole('treeitem', { name: 'brand' })).toBeVisible();
  return pane;
}

const files = (pane: Locator) => pane.getByRole('list', { name: 'Files' });

test('upload three files into a new folder and rename one', async ({ page }) => {
  const pane = await openLibrary(page);
  await pane.getByRole('button', { name: 'New folder…' }).click();
  const create = page.getByRole('dialog', { name: 'New folder' });
  await create.getByLabel('Folder name').fill('trip');
  await create.getByRole('button', { name: 'Create folder' }).click();
  await expect(create).toBeHidden();
  await expect(pane.getByRole('treeitem', { name: 'trip' })).toHaveAttribute('aria-selected', 'true');
  await expect(pane.getByRole('heading', { name: 'trip', level: 3 })).toBeVisible();
  await expect(pane.getByText('This folder has no files')).toBeVisible();
  expect(onDisk('trip')).toBe(true);

  await pane.getByLabel('Files to upload').setInputFiles([
    { name: 'day-one.txt', mimeType: 'text/plain', buffer: Buffer.from('the first day') },
    { name: 'day-two.txt', mimeType: 'text/plain', buffer: Buffer.from('a'.repeat(300_000)) },
    { name: 'map.txt', mimeType: 'text/plain', buffer: Buffer.from('the map') },
  ]);
  const uploads = pane.getByRole('group', { name: 'Uploads' });
  for (const name of ['day-one.txt', 'day-two.txt', 'map.txt']) await expect(uploads.getByRole('listitem', { name })).toContainText('Uploaded');
  // the bar followed the site's progress to the end (the request's bytes: the file and its multipart frame)
  const bar = uploads.getByRole('progressbar', { name: 'Upload of day-two.txt' });
  await expect(bar).toHaveAttribute('aria-valuetext', 'Uploaded');
  const [now, max] = await bar.evaluate((el) => [Number(el.getAttribute('aria-valuenow')), Number(el.getAttribute('aria-valuemax'))]);
  expect(now).toBe(max);
  expect(now).toBeGreaterThanOrEqual(300_000);
  for (const name of ['day-one.txt', 'day-two.txt', 'map.txt']) {
    await expect(files(pane).getByRole('group', { name })).toBeVisible();
    expect(onDisk(`trip/${name}`)).toBe(true);
  }
  await expect(pane.getByText('3 files')).toBeVisible();

  await pane.getByRole('button', { name: 'Rename map.txt' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename map.txt' });
  await rename.getByLabel('New name').fill('route map');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(rename).toBeHidden();
  // the site keeps the extension and replaces the space
  await expect(files(pane).getByRole('group', { name: 'route-map.txt' })).toBeVisible();
  await expect(files(pane).getByRole('group', { name: 'map.txt', exact: true })).toHaveCount(0);
  expect(onDisk('trip/route-map.txt')).toBe(true);
  expect(onDisk('trip/map.txt')).toBe(false);

  // more files dropped on the folder
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['night'], 'night.txt', { type: 'text/plain' }));
    dt.items.add(new File(['day three'], 'day-three.txt', { type: 'text/plain' }));
    return dt;
  });
  const drop = pane.getByRole('region', { name: 'Media library' });
  await drop.dispatchEvent('dragenter', { dataTransfer });
  await expect(pane.getByText('Drop files to upload them to trip')).toBeVisible();
  await drop.dispatchEvent('dragover', { dataTransfer });
  await drop.dispatchEvent('drop', { dataTransfer });
  for (const name of ['night.txt', 'day-three.txt']) await expect(uploads.getByRole('listitem', { name })).toContainText('Uploaded');
  await expect.poll(() => onDisk('trip/night.txt') && onDisk('trip/day-three.txt')).toBe(true);
  await expect(pane.getByText('5 files')).toBeVisible();

  // a name the folder has: asked first; Keep both leaves the old file as it was
  await pane.getByLabel('Files to upload').setInputFiles([{ name: 'day-one.txt', mimeType: 'text/plain', buffer: Buffer.from('another first day') }]);
  const ask = page.getByRole('dialog', { name: '“day-one.txt” already exists' });
  await ask.getByRole('button', { name: 'Keep both' }).click();
  await expect(uploads.getByRole('listitem', { name: 'day-one.txt' }).last()).toContainText(/Uploaded as \d{14}-day-one\.txt/);
  expect(readFileSync(join(demo.cms.dataDir, 'media', 'trip', 'day-one.txt'), 'utf8')).toBe('the first day');
  await expect(pane.getByText('6 files')).toBeVisible();

  // the folder holds files: the site refuses to delete it, and says why
  await pane.getByRole('button', { name: 'Delete folder…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete the folder trip?' });
  await confirm.getByRole('button', { name: 'Delete folder' }).click();
  await expect(confirm.getByRole('alert')).toContainText(/not empty/i);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(onDisk('trip/day-one.txt')).toBe(true);
});

test('the tree and the files by keyboard, a file moved by drag and by Move…, a search of every folder, the copy while the site is away', async ({ page }) => {
  const pane = await openLibrary(page);
  const tree = pane.getByRole('tree', { name: 'Folders' });
  await tree.getByRole('treeitem', { name: 'Media library' }).focus();
  await page.keyboard.press('ArrowDown'); // audio
  await page.keyboard.press('ArrowDown'); // brand
  await expect(tree.getByRole('treeitem', { name: 'brand' })).toBeFocused();
  await page.keyboard.press('ArrowRight'); // opens brand: swatches below it
  await expect(tree.getByRole('treeitem', { name: 'brand' })).toHaveAttribute('aria-expanded', 'true');
  await expect(tree.getByRole('treeitem', { name: 'swatches' })).toBeVisible();
  await page.keyboard.press('ArrowRight'); // into swatches
  await expect(tree.getByRole('treeitem', { name: 'swatches' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(pane.getByRole('heading', { name: 'swatches', level: 3 })).toBeVisible();
  await expect(files(pane).getByRole('group', { name: 'swatch-1.gif' })).toBeVisible();
  // the files: one tab stop, arrows between them, End to the last, Enter previews
  await pane.getByRole('button', { name: 'Preview swatch-1.gif' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(pane.getByRole('button', { name: 'Preview swatch-2.gif' })).toBeFocused();
  await expect(pane.getByRole('button', { name: 'Preview swatch-1.gif' })).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('End');
  await expect(pane.getByRole('button', { name: 'Preview swatch-12.gif' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'swatch-12.gif' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(pane.getByRole('button', { name: 'Preview swatch-12.gif' })).toBeFocused();
  await tree.getByRole('treeitem', { name: 'swatches' }).focus();
  await page.keyboard.press('ArrowLeft'); // back to brand
  await expect(tree.getByRole('treeitem', { name: 'brand' })).toBeFocused();
  await page.keyboard.press('ArrowLeft'); // closes it
  await expect(tree.getByRole('treeitem', { name: 'swatches' })).toHaveCount(0);

  // drag a file onto a folder of the tree: it moves there
  await tree.getByRole('treeitem', { name: 'brand' }).click();
  await expect(files(pane).getByRole('group', { name: 'logo-dark.png' })).toBeVisible();
  await files(pane).getByRole('group', { name: 'logo-dark.png' }).dragTo(tree.getByRole('treeitem', { name: 'empty' }));
  await expect(files(pane).getByRole('group', { name: 'logo-dark.png' })).toHaveCount(0);
  await expect.poll(() => onDisk('empty/logo-dark.png')).toBe(true);
  expect(onDisk('brand/logo-dark.png')).toBe(false);

  // Move… by keyboard
  await pane.getByRole('button', { name: 'Move logo-light.png' }).focus();
  await page.keyboard.press('Enter');
  const move = page.getByRole('dialog', { name: 'Move logo-light.png' });
  await move.getByLabel('Folder').fill('empty');
  await page.keyboard.press('Enter');
  await expect(move).toBeHidden();
  await expect.poll(() => onDisk('empty/logo-light.png')).toBe(true);

  // a search looks in every folder and says where each file is
  await pane.getByLabel('Search every folder by file name').fill('logo-');
  await page.keyboard.press('Enter');
  await expect(pane.getByRole('heading', { name: 'Files matching “logo-”' })).toBeVisible();
  await expect(files(pane).getByRole('group', { name: 'logo-dark.png' })).toContainText('empty');
  await pane.getByRole('button', { name: 'Clear the search' }).click();
  await expect(pane.getByRole('heading', { name: 'brand', level: 3 })).toBeVisible();

  // the site away: the copy with its time, nothing can be changed
  demo.cms.faults.set({ route: '*', drop: true });
  try {
    await pane.getByRole('button', { name: 'Refresh' }).click();
    await expect(pane.getByText(/the media library is from Sitedesk’s copy of .*Nothing can be changed/)).toBeVisible({ timeout: 20_000 });
    await expect(files(pane).getByRole('group', { name: 'mark.svg' })).toBeVisible();
    await expect(pane.getByRole('button', { name: 'Upload files…' })).toBeDisabled();
    await expect(pane.getByRole('button', { name: 'Delete mark.svg' })).toHaveCount(0);
  } finally {
    demo.cms.faults.clear();
  }
});

test('preview, Copy Markdown link, a long search read page by page, the type filter, the list view, delete with confirm, an empty folder deleted', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const pane = await openLibrary(page);
  await pane.getByRole('treeitem', { name: 'brand' }).click();
  const logo = files(pane).getByRole('group', { name: 'logo-dark.png' });
  // the thumbnail is the site's public file
  const img = logo.locator('img');
  await expect(img).toHaveAttribute('src', `${demo.cms.origin}/user/media/brand/logo-dark.png`);
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(120);

  await pane.getByRole('button', { name: 'Preview logo-dark.png' }).click();
  const preview = page.getByRole('dialog', { name: 'logo-dark.png' });
  await expect(preview.getByRole('img', { name: 'Logo on a dark background' })).toBeVisible();
  await expect(preview.getByText('120×40')).toBeVisible();
  await preview.getByRole('button', { name: 'Copy Markdown link' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('![Logo on a dark background](/user/media/brand/logo-dark.png)');
  await preview.getByRole('button', { name: 'Done' }).click();
  await expect(preview).toBeHidden();

  // a document's link is a plain link
  await pane.getByRole('treeitem', { name: 'Media library' }).click();
  await pane.getByRole('button', { name: 'Copy Markdown link to readme.txt' }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('[readme.txt](/user/media/readme.txt)');

  // a video plays from the site
  await pane.getByRole('treeitem', { name: 'video' }).click();
  const clip = files(pane).getByRole('group').first();
  await clip.getByRole('button', { name: /^Preview / }).click();
  await expect(page.getByRole('dialog').locator('video')).toHaveAttribute('src', new RegExp(`^${demo.cms.origin}/user/media/video/`));
  await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

  // a long listing: virtualised, and the site's next page read on reaching the end
  await pane.getByLabel('Search every folder by file name').fill('.jpg');
  await page.keyboard.press('Enter');
  const all = demo.cms.site.media.search('.jpg');
  expect(all.length).toBeGreaterThan(100);
  await expect(pane.getByText(`${all.length} files`)).toBeVisible();
  expect(await files(pane).getByRole('group').count()).toBeLessThan(60);
  const last = `${all.at(-1)!.dir}/${all.at(-1)!.name}`;
  const scroller = files(pane).locator('..');
  await expect(async () => {
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(files(pane).getByTitle(last, { exact: true })).toBeVisible({ timeout: 500 });
  }).toPass();
  await pane.getByRole('button', { name: 'Clear the search' }).click();

  // the type filter and the list view
  await pane.getByRole('treeitem', { name: 'brand' }).click();
  await pane.getByLabel('Type').selectOption('image');
  await expect(files(pane).getByRole('group', { name: 'mark.svg' })).toBeVisible();
  await pane.getByLabel('Type').selectOption('document');
  await expect(pane.getByText('No documents in this folder')).toBeVisible();
  await pane.getByLabel('Type').selectOption('');
  await pane.getByRole('button', { name: 'List', exact: true }).click();
  await expect(files(pane).getByRole('listitem', { name: 'logo-light.png' })).toBeVisible();

  // delete asks first
  await pane.getByRole('button', { name: 'Delete logo-light.png' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete logo-light.png?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(onDisk('brand/logo-light.png')).toBe(true);
  await pane.getByRole('button', { name: 'Delete logo-light.png' }).click();
  await confirm.getByRole('button', { name: 'Delete file' }).click();
  await expect(confirm).toBeHidden();
  await expect(files(pane).getByRole('listitem', { name: 'logo-light.png' })).toHaveCount(0);
  await expect.poll(() => onDisk('brand/logo-light.png')).toBe(false);

  // an empty folder goes
  await pane.getByRole('treeitem', { name: 'empty' }).click();
  await pane.getByRole('button', { name: 'Delete folder…' }).click();
  await page.getByRole('alertdialog', { name: 'Delete the folder empty?' }).getByRole('button', { name: 'Delete folder' }).click();
  await expect(pane.getByRole('treeitem', { name: 'empty' })).toHaveCount(0);
  await expect(pane.getByRole('treeitem', { name: 'Media library' })).toHaveAttribute('aria-selected', 'true');
  expect(onDisk('empty')).toBe(false);
});

test('an account without api.media.write looks but changes nothing', async ({ page }) => {
  await demo.cms.accounts.create({ username: 'mediaviewer', password: 'viewer password', email: 'mediaviewer@example.test', access: { api: { access: true, media: { read: true } } } });
  const key = demo.cms.apiKeys.create({ username: 'mediaviewer', name: 'Viewer key' }).api_key;
  await demo.connect(page, { apiKey: key, name: 'Press' });
  const pane = await openArea(page, 'Press', 'Media library');
  await pane.getByRole('treeitem', { name: 'brand' }).click();
  await expect(pane.getByText('This account may look at the media library but not change it (it lacks api.media.write).')).toBeVisible();
  await expect(files(pane).getByRole('group', { name: 'logo-dark.png' })).toBeVisible();
  for (const name of ['New folder…', 'Upload files…', 'Delete folder…', 'Rename logo-dark.png', 'Delete logo-dark.png', 'Move logo-dark.png']) {
    await expect(pane.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(files(pane).getByRole('group', { name: 'logo-dark.png' })).not.toHaveAttribute('draggable', 'true');
  // copying a link changes nothing, so it stays
  await expect(pane.getByRole('button', { name: 'Copy Markdown link to logo-dark.png' })).toBeVisible();
});
