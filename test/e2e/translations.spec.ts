/**
 * Issue 4 end to end, the Translations area: the site-wide matrix (virtualised), translating a
 * page into a missing language from a prefilled dialog, the word-level compare, sync with a preview
 * of what is overwritten, adopting a base-only page. Checked against the site too.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { bridge, openArea, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-translations-e2e-');

/** The app with the demo site connected by API key and its Translations area open; answers the pane. */
async function openTranslations(page: Page): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Translations');
  await expect(pane.getByRole('grid', { name: 'Translations of Demo' })).toBeVisible();
  return pane;
}

test('the matrix; translate a missing language from a prefilled dialog; compare word by word', async ({ page }) => {
  const pane = await openTranslations(page);
  const grid = pane.getByRole('grid', { name: 'Translations of Demo' });
  await expect(pane.getByText('301 pages')).toBeVisible();
  // counts per language in the column headers; only the rows in view are in the DOM
  await expect(grid.getByRole('columnheader', { name: /^EN/ })).toContainText('/301');
  expect(await grid.getByRole('row').count()).toBeLessThan(80);

  // the filter: only pages missing FR (History is one), then a search narrows to it
  await pane.getByLabel('Show').selectOption('fr');
  await expect(pane.getByText(/^\d+ of 301 pages$/)).toBeVisible();
  await pane.getByLabel('Search pages').fill('/about/history');
  await expect(grid.getByRole('row')).toHaveCount(2); // the header row and History
  await grid.getByRole('button', { name: 'History, FR: missing' }).click();

  const panel = pane.getByRole('complementary', { name: 'History' });
  await expect(panel.getByRole('list', { name: 'Languages of History' })).toBeVisible();
  await panel.getByRole('button', { name: 'Translate into FR…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Translate into FR' });
  await expect(dialog.getByLabel('Title (FR)')).toHaveValue('History');
  await expect(dialog.getByRole('textbox', { name: 'Content (FR)' })).toContainText('This page was written for the demo site.');
  await dialog.getByLabel('Title (FR)').fill('Histoire');
  await dialog.getByRole('textbox', { name: 'Content (FR)' }).fill('# Histoire\n\nCette page a été écrite pour le site de démonstration.\n');
  await dialog.getByRole('button', { name: 'Create FR translation' }).click();
  await expect(dialog).toBeHidden();

  // the site has it; the cell says so (it stays in view: the filter list is not re-run under the pointer)
  const fr = await bridge<{ title: string; content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history', lang: 'fr' });
  expect(fr.title).toBe('Histoire');
  await pane.getByLabel('Show').selectOption('');
  await expect(grid.getByRole('button', { name: 'History, FR: translated' })).toBeVisible();

  // the compare: EN against FR, word by word, marked by more than colour
  await expect(panel.getByLabel('Compare from')).toHaveValue('en');
  await expect(panel.getByLabel('Compare with')).toHaveValue('fr');
  const titleDiff = panel.getByRole('region', { name: 'Title' });
  await expect(titleDiff.getByRole('group', { name: 'Title: EN' }).locator('del')).toHaveText('removed: History');
  await expect(titleDiff.getByRole('group', { name: 'Title: FR' }).locator('ins')).toHaveText('added: Histoire');
  const contentDiff = panel.getByRole('region', { name: 'Content' });
  await expect(contentDiff.getByRole('group', { name: 'Content: FR' }).locator('ins').filter({ hasText: 'démonstration' })).toBeVisible();
  await expect(contentDiff.locator('del').first()).toHaveCSS('text-decoration-line', 'line-through');
});

test('sync shows what is overwritten before it writes; adopt turns the base file into a language', async ({ page }) => {
  const pane = await openTranslations(page);
  const grid = pane.getByRole('grid', { name: 'Translations of Demo' });

  // Our team has EN and DE: sync DE from EN after looking at the difference
  await pane.getByLabel('Search pages').fill('/about/our team');
  await grid.getByRole('button', { name: 'Our team, DE: translated' }).click();
  const panel = pane.getByRole('complementary', { name: 'Our team' });
  await panel.getByRole('button', { name: 'Sync DE from…' }).click();
  const sync = page.getByRole('dialog', { name: 'Sync DE from another language' });
  await expect(sync.getByLabel('Copy from')).toHaveValue('en');
  // "Unser Team" → "Our team": both words change
  await expect(sync.getByRole('region', { name: 'Title' }).locator('del')).toHaveText(['removed: Unser', 'removed: Team']);
  await expect(sync.getByRole('region', { name: 'Title' }).locator('ins')).toHaveText(['added: Our', 'added: team']);
  await sync.getByRole('button', { name: 'Overwrite DE with EN' }).click();
  await expect(sync).toBeHidden();
  const de = await bridge<{ title: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/our team', lang: 'de' });
  expect(de.title).toBe('Our team');
  await expect(panel.getByRole('region', { name: 'Title' }).getByText('Identical')).toBeVisible();

  // a blog post with only the untyped base file: EN is "base only"; adopting makes it EN's own file
  await pane.getByLabel('Search pages').fill('(17)');
  const cell = grid.getByRole('button', { name: 'Northern season (17), EN: base only' });
  await cell.click();
  const post = pane.getByRole('complementary', { name: 'Northern season (17)' });
  await expect(post.getByText('Adopting it renames that file')).toBeVisible();
  await post.getByRole('button', { name: 'Adopt as EN…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Adopt the base file as EN?' });
  await confirm.getByRole('button', { name: 'Adopt as EN' }).click();
  await expect(confirm).toBeHidden();
  await expect(grid.getByRole('button', { name: 'Northern season (17), EN: translated' })).toBeVisible();
  const node = demo.cms.content.find('/blog/northern-season-17')!;
  expect(node.files.map((f) => f.name)).toContain('item.en.md');
});

test('a matrix that cannot be read says so with Try again (the area shell’s failed state); once the site answers, the matrix', async ({ page }) => {
  await demo.connect(page);
  // the site's pages answer 500: there is nothing to show and no copy to show instead
  demo.cms.faults.set({ route: 'GET /pages*', status: 500 });
  const pane = await openArea(page, 'Demo', 'Translations');
  const failed = pane.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'The translations could not be read' }) });
  await expect(failed).toBeVisible();
  await expect(pane.getByRole('grid')).toHaveCount(0);
  demo.cms.faults.clear();
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(failed).toBeHidden();
  await expect(pane.getByRole('grid', { name: 'Translations of Demo' })).toBeVisible();
  await expect(pane.getByText('301 pages')).toBeVisible();
});
