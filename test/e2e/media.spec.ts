/**
 * Issue 4 end to end, media: the Media area picks a page, lists its media with thumbnails from the
 * site, filters and sorts; uploads by drag and drop and through "Upload files…" with a progress bar
 * per file; a refused file shows the site's message while the others go on; a taken name asks
 * Replace or Keep both; delete asks first. Checked against the sandbox's disk too.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openArea, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-media-e2e-');

/** The app with the demo site connected by API key and the Media area showing /home's media. */
async function openHomeMedia(page: Page): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Media');
  await pane.getByLabel('Page', { exact: true }).fill('/home');
  await pane.getByRole('button', { name: 'Show media' }).click();
  const media = pane.getByRole('region', { name: 'Media of /home' });
  await expect(media.getByRole('listitem', { name: 'hero.png' })).toBeVisible();
  return media;
}

const homeDir = () => join(demo.cms.content.root, '01.home');
const files = (media: Locator) => media.getByRole('list', { name: 'Media files' }).getByRole('listitem');

test('list with thumbnails from the site, filter and sort, preview, delete with confirm', async ({ page }) => {
  const media = await openHomeMedia(page);
  await expect(files(media)).toHaveCount(5);
  // the thumbnail is the site's file, loaded (not the fallback icon)
  const hero = media.getByRole('listitem', { name: 'hero.png' }).locator('img');
  await expect(hero).toHaveAttribute('src', `${demo.cms.origin}/user/pages/01.home/hero.png`);
  await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
  await expect(media.getByRole('listitem', { name: 'notes.txt' }).locator('img')).toHaveCount(0);

  // filter: tags contains team → only the banner; a second condition with no match → none
  await media.getByRole('button', { name: 'Filter' }).click();
  await media.getByLabel('Field of condition 1').selectOption('tags');
  await expect(media.getByLabel('Operator of condition 1')).toHaveValue('contains');
  await media.getByLabel('Value of condition 1').fill('team');
  await media.getByRole('button', { name: 'Apply filter' }).click();
  await expect(files(media)).toHaveCount(1);
  await expect(media.getByRole('listitem', { name: 'banner.png' })).toBeVisible();
  // at most 10 conditions: the eleventh cannot be added
  for (let i = 2; i <= 10; i++) await media.getByRole('button', { name: 'Add condition' }).click();
  await expect(media.getByRole('button', { name: 'Add condition' })).toBeDisabled();
  await expect(media.getByText('At most 10 conditions (the site’s limit).')).toBeVisible();
  await media.getByRole('button', { name: 'Clear' }).click();
  await expect(files(media)).toHaveCount(5);

  // sort by size (the 27-byte notes first, then last) and by name
  await media.getByLabel('Sort').selectOption('size:asc');
  await expect(files(media).first()).toHaveAccessibleName('notes.txt');
  await media.getByLabel('Sort').selectOption('size:desc');
  await expect(files(media).last()).toHaveAccessibleName('notes.txt');
  await media.getByLabel('Sort').selectOption('filename:asc');
  await expect
    .poll(() => files(media).evaluateAll((els) => els.map((e) => e.getAttribute('aria-label'))))
    .toEqual(['banner.png', 'brochure.pdf', 'hero.png', 'logo.png', 'notes.txt']);

  // preview of an image
  await media.getByRole('button', { name: 'Preview banner.png' }).click();
  const preview = page.getByRole('dialog', { name: 'banner.png' });
  await expect(preview.getByRole('img', { name: 'Team at the workshop' })).toBeVisible();
  await expect(preview.getByText('120×40')).toBeVisible();
  await preview.getByRole('button', { name: 'Done' }).click();

  // delete asks first
  await media.getByRole('button', { name: 'Delete notes.txt' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete notes.txt?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  expect(existsSync(join(homeDir(), 'notes.txt'))).toBe(true);
  await media.getByRole('button', { name: 'Delete notes.txt' }).click();
  await confirm.getByRole('button', { name: 'Delete file' }).click();
  await expect(confirm).toBeHidden(); // the page behind an open dialog is inert: count after it closes
  await expect(media.getByRole('listitem', { name: 'notes.txt' })).toHaveCount(0);
  // the list may redraw before the Host's answer is in: the file goes from the site's disk just after
  await expect.poll(() => existsSync(join(homeDir(), 'notes.txt'))).toBe(false);
});

test('upload by drag and drop and with the button; a refused file shows the site’s message, the rest go on', async ({ page }) => {
  const media = await openHomeMedia(page);

  // drag and drop two files onto the list
  const dataTransfer = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['a'.repeat(200_000)], 'dropped-notes.txt', { type: 'text/plain' }));
    dt.items.add(new File(['second'], 'second.txt', { type: 'text/plain' }));
    return dt;
  });
  await media.dispatchEvent('dragenter', { dataTransfer });
  await expect(media.getByText('Drop files to upload them to /home')).toBeVisible();
  await media.dispatchEvent('dragover', { dataTransfer });
  await media.dispatchEvent('drop', { dataTransfer });
  const uploads = media.getByRole('group', { name: 'Uploads' });
  await expect(uploads.getByRole('listitem', { name: 'dropped-notes.txt' })).toContainText('Uploaded');
  await expect(uploads.getByRole('listitem', { name: 'second.txt' })).toContainText('Uploaded');
  // the bar followed the site's progress to the end
  const bar = uploads.getByRole('progressbar', { name: 'Upload of dropped-notes.txt' });
  await expect(bar).toHaveAttribute('aria-valuetext', 'Uploaded'); // the state in words, as the library's list said it (one list now)
  expect(await bar.getAttribute('aria-valuenow')).toBe(await bar.getAttribute('aria-valuemax'));
  await expect(media.getByRole('listitem', { name: 'dropped-notes.txt' }).first()).toBeVisible();
  expect(readdirSync(homeDir())).toContain('dropped-notes.txt');

  // the button's file input: a .php is refused with the site's message, the text file goes on
  await media.getByLabel('Files to upload').setInputFiles([
    { name: 'evil.php', mimeType: 'text/plain', buffer: Buffer.from('<?php echo 1;') },
    { name: 'fine.txt', mimeType: 'text/plain', buffer: Buffer.from('fine') },
  ]);
  const evil = uploads.getByRole('listitem', { name: 'evil.php' });
  await expect(evil.getByRole('alert')).toHaveText("File extension '.php' is not allowed for security reasons.");
  await expect(uploads.getByRole('listitem', { name: 'fine.txt' })).toContainText('Uploaded');
  expect(readdirSync(homeDir())).toContain('fine.txt');
  expect(readdirSync(homeDir())).not.toContain('evil.php');

  // a file larger than one bridge message goes in 4 MB pieces and arrives whole
  const big = Buffer.alloc(9 * 1024 * 1024 + 123, 0x61);
  big.write('the last bytes', big.length - 14);
  await media.getByLabel('Files to upload').setInputFiles([{ name: 'long-notes.txt', mimeType: 'text/plain', buffer: big }]);
  await expect(uploads.getByRole('listitem', { name: 'long-notes.txt' })).toContainText('Uploaded', { timeout: 30_000 });
  expect(Buffer.compare(readFileSync(join(homeDir(), 'long-notes.txt')), big)).toBe(0);

  // a taken name asks: Keep both stores the new file under a dated name
  await media.getByLabel('Files to upload').setInputFiles([{ name: 'fine.txt', mimeType: 'text/plain', buffer: Buffer.from('fine, again') }]);
  const ask = page.getByRole('dialog', { name: '“fine.txt” already exists' });
  await ask.getByRole('button', { name: 'Keep both' }).click();
  await expect(uploads.getByRole('listitem', { name: 'fine.txt' }).last()).toContainText(/Uploaded as \d{14}-fine\.txt/);
  expect(readdirSync(homeDir()).filter((f) => f.endsWith('fine.txt'))).toHaveLength(2);

  // …and Replace overwrites it
  await media.getByLabel('Files to upload').setInputFiles([{ name: 'second.txt', mimeType: 'text/plain', buffer: Buffer.from('replaced') }]);
  await page.getByRole('dialog', { name: '“second.txt” already exists' }).getByRole('button', { name: 'Replace' }).click();
  await expect(uploads.getByRole('listitem', { name: 'second.txt' }).last()).toContainText('Uploaded');
  expect(readdirSync(homeDir()).filter((f) => f.endsWith('second.txt'))).toEqual(['second.txt']);
});

test('a route with no page: its media list says so (the page is not read first)', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Media');
  await pane.getByLabel('Page', { exact: true }).fill('/nowhere');
  await pane.getByRole('button', { name: 'Show media' }).click();
  await expect(pane.getByRole('alert').filter({ hasText: 'There is no page at /nowhere.' })).toBeVisible();
});
