/**
 * Issue 4 end to end, the Pages area: browser mode in Debian's Chromium against an in-process CMS
 * sandbox with the demo site (301 pages in en/de/fr). Each test gets a fresh sandbox and app; the
 * site is added through the bridge with the admin's API key (sign-in has its own tests), so the
 * tests start at the Pages area. What the UI claims is checked against the sandbox's disk too.
 */
import { expect, test } from '@playwright/test';
import { bridge, expand, flavorOf, pageFilters, pageTree, treeItem, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-pages-e2e-');

test('the tree: lazy levels, keyboard, opening a page in the editor', async ({ page }) => {
  const pane = await demo.openPages(page);
  const blog = treeItem(pane, 'Blog');
  await expect(blog).toHaveAttribute('aria-expanded', 'false');
  await expect(blog).toHaveAttribute('aria-level', '1');

  // Blog opens lazily: its 140 posts arrive, newest first (the blog sorts by date)
  await expand(pane, 'Blog');
  const newest = treeItem(pane, 'Quiet garden (140)');
  await expect(newest).toBeVisible();
  await expect(newest).toHaveAttribute('aria-level', '2');
  await expect(newest).toHaveAttribute('aria-setsize', '140');
  // only the rows in view are in the DOM
  expect(await pageTree(pane).getByRole('treeitem').count()).toBeLessThan(80);

  // the keyboard: Down into the posts, Left back to Blog, Left closes it, type-ahead finds About
  await newest.click();
  await expect(pane.getByRole('region', { name: 'Edit Quiet garden (140)' })).toBeVisible();
  await expect(newest).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(treeItem(pane, 'Wild orchard (139)')).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(blog).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(blog).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.type('ab');
  await expect(treeItem(pane, 'About')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(pane, 'About')).toHaveAttribute('aria-expanded', 'true');
  await expect(treeItem(pane, 'About us')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(treeItem(pane, 'About us')).toBeFocused();
  await page.keyboard.press('End');
  await expect(pageTree(pane).getByRole('treeitem').last()).toBeFocused();
  await page.keyboard.press('Home');
  await expect(treeItem(pane, 'Home')).toBeFocused();

  // flags are described: Press is hidden and not routable
  await expect(treeItem(pane, 'Press')).toHaveAccessibleDescription(/Hidden from menus, Not routable/);

  // Enter opens the focused page in the editor
  await treeItem(pane, 'Our team').focus();
  await page.keyboard.press('Enter');
  await expect(pane.getByRole('region', { name: 'Edit Our team' })).toBeVisible();
});

test('drag a page onto another moves it there; a drop into its own subtree is refused visibly', async ({ page }) => {
  const pane = await demo.openPages(page);
  await expand(pane, 'About');
  await expand(pane, 'Legal');

  await treeItem(pane, 'History').dragTo(treeItem(pane, 'Legal'));
  await expect(pane.getByText('Moved “History” to Legal.')).toBeVisible();
  const history = treeItem(pane, 'History');
  await expect(history).toHaveAttribute('aria-level', '2');
  // it sits under Legal now: the row above it in Legal's block
  await expect(pageTree(pane).locator('[data-route="/legal/history"]')).toHaveCount(1);
  expect(demo.cms.content.find('/legal/history')).not.toBeNull();
  expect(demo.cms.content.find('/about/history')).toBeNull();
  const legal = await bridge<{ items: { route: string }[] }>(page, 'pages.level', { siteId: demo.siteId, route: '/legal' }).then((l) => l.items);
  expect(legal.map((p) => p.route)).toContain('/legal/history');

  // About into its own child "Our team": refused, red, said; nothing moves
  await treeItem(pane, 'About').dragTo(treeItem(pane, 'Our team'));
  await expect(pane.getByText('“About” cannot be moved into its own subpage “Our team”.')).toBeVisible();
  expect(demo.cms.content.find('/about/our team')).not.toBeNull();

  // between two siblings: Press goes before About us (a reorder of /about)
  const target = treeItem(pane, 'About us');
  const box = (await target.boundingBox())!;
  await treeItem(pane, 'Press').dragTo(target, { targetPosition: { x: box.width / 2, y: 2 } });
  await expect(pane.getByText('Moved “Press”.')).toBeVisible();
  expect(childSlugs('/about')).toEqual(['press', 'über-uns', 'our team']);
  await expect(pageTree(pane).locator('[data-route^="/about/"]').first()).toHaveAttribute('data-route', '/about/press');
});

test('moving with the keyboard: Alt+Down reorders, the Move dialog picks a new parent', async ({ page }) => {
  const pane = await demo.openPages(page);
  await expand(pane, 'About');
  await treeItem(pane, 'About us').click();
  await page.keyboard.press('Alt+ArrowDown');
  await expect(pane.getByText('“About us” is now 2 of 4.')).toBeVisible();
  expect(childSlugs('/about')).toEqual(['our team', 'über-uns', 'history', 'press']);
  await expect(treeItem(pane, 'About us')).toBeFocused();

  await treeItem(pane, 'Press').click();
  await pane.getByRole('button', { name: 'Move…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Move page' });
  // its own subtree is refused before anything is sent
  await dialog.getByLabel('New parent').fill('/about/press');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog.getByLabel('New parent')).toHaveAccessibleDescription(/cannot be moved into itself/);
  await dialog.getByLabel('New parent').fill('/legal');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  await expect(dialog).toBeHidden();
  expect(demo.cms.content.find('/legal/press')).not.toBeNull();
  await expect(treeItem(pane, 'Legal')).toHaveAttribute('aria-expanded', 'true');
  await expect(pageTree(pane).locator('[data-route="/legal/press"]')).toHaveAttribute('aria-selected', 'true');
});

test('the list: filter by Published = no, sort by title, batch publish two with the result table', async ({ page }) => {
  const pane = await demo.openPages(page);
  await pane.getByRole('button', { name: 'List', exact: true }).click();
  const grid = pane.getByRole('grid', { name: 'Pages' });
  await expect(grid.getByRole('row')).not.toHaveCount(1);
  const range = pane.getByRole('navigation', { name: 'Pages of the list' }).getByText(/1–\d+ of \d+/);
  const unfiltered = (await range.textContent())!.trim();

  // the filtered answer, not the whole list still on screen while it is asked for
  await pageFilters(pane).getByLabel('Published').selectOption('no');
  await expect(range).not.toHaveText(unfiltered);
  await expect(grid).toHaveAttribute('aria-busy', 'false');
  // the title itself, without the row's flags (the real service says an unpublished page is not routable)
  const titles = grid.locator('[role=row][data-index] [aria-colindex="2"] .truncate');
  await expect(titles.first()).toBeVisible();
  const unpublished = await titles.allInnerTexts();
  expect(unpublished).toContain('Old river (23)');
  expect(unpublished.sort((a, b) => a.localeCompare(b))).toEqual(await titles.allInnerTexts());
  await expect(grid.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
  await grid.getByRole('button', { name: 'Title' }).click();
  await expect(grid.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'descending');
  await expect(async () => {
    const desc = await titles.allInnerTexts();
    expect(desc).toEqual([...desc].sort((a, b) => b.localeCompare(a)));
    expect(desc[0]).not.toBe(unpublished.sort((a, b) => a.localeCompare(b))[0]);
  }).toPass();
  await expect(pane.getByText('Page 1 of 1', { exact: true })).toBeVisible();

  // two unpublished posts, Ctrl-click to add the second; the batch bar publishes them
  await grid.getByRole('row', { name: /Old river \(23\)/ }).click();
  await grid.getByRole('row', { name: /Golden mountain \(46\)/ }).click({ modifiers: ['Control'] });
  const bar = pane.getByRole('toolbar', { name: 'Selected pages' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Publish', exact: true }).click();
  const results = page.getByRole('dialog', { name: 'Batch results' });
  await expect(results).toBeVisible();
  await expect(results).toContainText('Published 2 of 2 pages.');
  const table = results.getByRole('table', { name: 'Result per page' });
  await expect(table.getByRole('row')).toHaveCount(3);
  await expect(table.getByRole('row', { name: /\/blog\/old-river-23 Done/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /\/blog\/golden-mountain-46 Done/ })).toBeVisible();
  await expect(results.getByRole('button', { name: 'Copy failed routes' })).toHaveCount(0);
  await results.getByRole('button', { name: 'Close', exact: true }).first().click();
  await expect(results).toBeHidden();
  // the filtered list no longer has them; the site has them published
  await expect(grid.getByRole('row', { name: /Old river \(23\)/ })).toHaveCount(0);
  const read = await bridge<{ published: boolean }>(page, 'pages.get', { siteId: demo.siteId, route: '/blog/old-river-23' });
  expect(read.published).toBe(true);
});

test('batches: more than 50 go in several requests, said after from the Host\'s run; a batch refused as a whole says why', async ({ page }, info) => {
  // the real service's parent filter is a prefix of the route, so the parent itself is listed too
  const withParent = flavorOf(info) === 'real' ? 1 : 0;
  const pane = await demo.openPages(page);
  await pane.getByRole('button', { name: 'List', exact: true }).click();
  const grid = pane.getByRole('grid', { name: 'Pages' });
  await pageFilters(pane).getByLabel('Parent').fill('/blog');
  await pane.getByLabel('Per page').selectOption('100');
  await expect(pane.getByText(`1–100 of ${140 + withParent}`)).toBeVisible();
  await grid.getByRole('checkbox', { name: 'Select all on this page' }).check();
  const bar = pane.getByRole('toolbar', { name: 'Selected pages' });
  await expect(bar).toContainText('100 selected');
  // nothing promised before: only the Host knows how it split them (the site may take fewer)
  await expect(bar).not.toContainText('requests');
  await bar.getByRole('button', { name: 'Unpublish' }).click();
  const results = page.getByRole('dialog', { name: 'Batch results' });
  await expect(results).toContainText('Unpublished 100 of 100 pages.');
  await expect(results).toContainText('Sent in 2 requests of at most 50 pages each');
  await expect(results.getByRole('row')).toHaveCount(101);
  await results.getByRole('button', { name: 'Close', exact: true }).first().click();

  // a route that vanished behind the app's back: the site refuses the whole batch (400)
  await bar.getByRole('button', { name: 'Clear selection' }).click();
  await pageFilters(pane).getByLabel('Parent').fill('/about');
  await expect(pane.getByText(`1–${4 + withParent} of ${4 + withParent}`)).toBeVisible();
  await grid.getByRole('checkbox', { name: 'Select all on this page' }).check();
  demo.cms.content.removeFolder(demo.cms.content.find('/about/history')!.dir);
  await bar.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(results).toContainText('The site refused the whole batch, nothing was changed');
  await expect(results).toContainText('/about/history');
});

test('create a page from a template, copy it, delete one language of another', async ({ page }) => {
  const pane = await demo.openPages(page);
  await treeItem(pane, 'About').click();
  await pane.getByRole('button', { name: 'New page…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New page' });
  await expect(dialog.getByLabel('Parent')).toHaveValue('/about');
  // the site's field errors land next to the field
  await dialog.getByLabel('Title').fill('Our team');
  await dialog.getByLabel('Slug').fill('our team');
  await dialog.getByRole('button', { name: 'Create page' }).click();
  await expect(dialog.getByLabel('Slug')).toHaveAccessibleDescription(/already exists/);
  await dialog.getByLabel('Title').fill('Careers');
  await dialog.getByLabel('Slug').fill('');
  await dialog.getByLabel('Title').fill('Careers at Northwind');
  await expect(dialog.getByLabel('Slug')).toHaveValue('careers-at-northwind');
  await dialog.getByLabel('Slug').fill('careers');
  await dialog.getByLabel('Template').selectOption({ label: 'Form' });
  await dialog.getByLabel('Language').selectOption('en');
  await dialog.getByRole('button', { name: 'Create page' }).click();
  await expect(dialog).toBeHidden();
  const careers = treeItem(pane, 'Careers at Northwind');
  await expect(careers).toHaveAttribute('aria-selected', 'true');
  await expect(careers).toHaveAttribute('aria-level', '2');
  await expect(pane.getByRole('region', { name: 'Edit Careers at Northwind' })).toBeVisible();
  const node = demo.cms.content.find('/about/careers')!;
  expect(node.files.map((f) => `${f.template}.${f.lang}`)).toEqual(['form.en']);

  // copy it next to itself
  await pane.getByRole('button', { name: 'Copy…' }).click();
  const copy = page.getByRole('dialog', { name: 'Copy page' });
  await expect(copy.getByLabel('Destination route')).toHaveValue('/about/careers-copy');
  await copy.getByRole('button', { name: 'Copy page' }).click();
  await expect(copy).toBeHidden();
  expect(demo.cms.content.find('/about/careers-copy')).not.toBeNull();
  await expect(pageTree(pane).locator('[data-route="/about/careers-copy"]')).toHaveAttribute('aria-selected', 'true');

  // one language of "About us" (en, de, fr): the German file goes, the page stays
  await treeItem(pane, 'About us').click();
  await pane.getByRole('button', { name: 'Delete…' }).click();
  const del = page.getByRole('dialog', { name: 'Delete page' });
  await del.getByRole('radio', { name: /One language only/ }).check();
  await del.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await del.getByRole('button', { name: 'Delete German (de)' }).click();
  await expect(del).toBeHidden();
  const about = demo.cms.content.find('/about/über-uns')!;
  expect(Object.keys(demo.cms.content.translated(about)).sort()).toEqual(['en', 'fr']);
  await expect(treeItem(pane, 'About us')).toBeVisible();

  // the whole page, with its subpages said plainly
  const original = pageTree(pane).locator('[data-route="/about/careers"]');
  await original.click();
  await pane.getByRole('button', { name: 'Delete…' }).click();
  await expect(del).toContainText('Every language and its media.');
  await del.getByRole('button', { name: 'Delete page' }).click();
  await expect(del).toBeHidden();
  await expect(original).toHaveCount(0);
  await expect(treeItem(pane, 'Careers at Northwind')).toHaveCount(1); // the copy stays
  expect(demo.cms.content.find('/about/careers')).toBeNull();
});

test('full-text search the site refuses: said, and the other filters keep working', async ({ page }) => {
  const pane = await demo.openPages(page);
  await pane.getByRole('button', { name: 'List', exact: true }).click();
  await expect(pane.getByText(/1–50 of \d+/)).toBeVisible();
  demo.cms.faults.set({ route: 'GET /pages', status: 400, times: 1 });
  await pageFilters(pane).getByLabel('Search').fill('meadow');
  await expect(pane.getByText('Full-text search is not available on this site')).toBeVisible();
  await expect(pageFilters(pane).getByLabel('Search')).toBeDisabled();
  await pageFilters(pane).getByLabel('Template').selectOption('form');
  await expect(pane.getByRole('grid', { name: 'Pages' }).getByRole('row', { name: /Contact/ })).toBeVisible();
  await expect(pane.getByText('1–1 of 1')).toBeVisible();
});

test('an account without api.pages.write reads but sees no write actions', async ({ page }) => {
  await demo.cms.accounts.create({ username: 'reader', password: 'reader password', email: 'reader@example.test', fullname: 'Rita Reader', title: 'Reader', access: { api: { access: true, pages: { read: true } } } });
  const key = demo.cms.apiKeys.create({ username: 'reader', name: 'Reader key' }).api_key;
  const pane = await demo.openPages(page, { apiKey: key, name: 'Docs' });
  await expect(pane.getByText('Read-only: this account lacks api.pages.write')).toBeVisible();
  await expect(pane.getByRole('button', { name: 'New page…' })).toHaveCount(0);
  const home = treeItem(pane, 'Home', 'Docs');
  await expect(home).not.toHaveAttribute('draggable', 'true');
  await home.click();
  await expect(pane.getByRole('button', { name: 'Delete…' })).toHaveCount(0);
});

// ---- helpers that read the sandbox

/** Slugs of a page's children in the site's own order (folder prefixes). */
function childSlugs(route: string): string[] {
  return demo.cms.content.pageChildren(demo.cms.content.find(route, 2)!).map((c) => c.slug);
}
