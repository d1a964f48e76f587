/**
 * Issue 21: every area of a populated site through axe-core (WCAG 2.1 A and AA, best practices),
 * in light and dark, in a wide window (1280×800) and a narrow one (800×700), at rest and with a
 * row hovered, a result selected and a button focused (contrast changes with each). The rule is
 * `expectAccessible` in support/a11y.ts; an area's own spec may call it at its screens too.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startStoreSandbox } from '../sandbox/store/server';
import { A11Y_SIZES, checkScreen as check, checkState } from './support/a11y';
import { addStoreSite, bridge, DEMO, editorOf, markdown, openArea, rail, siteButton, sitePane, switchArea, treeItem, UNHURRIED, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-a11y-e2e-', { ...UNHURRIED, audit: { enabled: true }, auditSeed: 200 });


/** Opens an area of a site's pane from wherever the pane is. */
const area = (pane: Locator, name: string, site = DEMO) => switchArea(pane, site, name);

// walks through many screens, each checked four ways by axe (seconds each on a busy machine)
test.describe.configure({ timeout: 900_000 });
test.use({ viewport: A11Y_SIZES.wide });

test('first run, adding a site, signing in, the rail and the confirm dialog', async ({ page }) => {
  await demo.session.open(page);
  await check(page, 'no sites yet', page.getByRole('heading', { name: 'Add your first site' }));

  // the add-site dialog, empty and with its field errors
  await rail(page).getByRole('button', { name: 'Add site' }).click();
  const add = page.getByRole('dialog', { name: 'Add site' });
  await check(page, 'add site', add.getByLabel('Name'));
  await add.getByLabel('Name').fill('Demo');
  await add.getByLabel('Base URL').fill('ftp://demo.example.com');
  await add.getByRole('button', { name: 'Save' }).click();
  await check(page, 'add site with errors', add.getByRole('alert').first());
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();

  // a site set to sign in by password: the sign-in form, its error, then the account
  await bridge(page, 'sites.add', { name: DEMO, kind: 'cms', baseUrl: demo.cms.url, environment: null, authMode: 'password' });
  await siteButton(page, DEMO).click();
  const pane = sitePane(page, DEMO);
  await check(page, 'sign in', pane.getByRole('heading', { name: 'Sign in', exact: true }));
  await pane.getByLabel('Username').fill('admin');
  await pane.getByLabel('Password').fill('not the password');
  await pane.getByRole('button', { name: 'Sign in', exact: true }).click();
  await check(page, 'sign in refused', pane.getByRole('alert').first());
  await pane.getByLabel('Password').fill('demo-admin-pass');
  await pane.getByRole('button', { name: 'Sign in', exact: true }).click();
  await check(page, 'site overview signed in', pane.getByRole('region', { name: 'Account' }));

  // hover and focus in the rail
  await siteButton(page, DEMO).hover();
  await checkState(page, 'rail, a site hovered');
  await rail(page).getByRole('button', { name: 'Add site' }).focus();
  await checkState(page, 'rail, a button focused');

  // the site's menu and the confirm dialog of removing it
  await rail(page).getByRole('listitem').filter({ hasText: DEMO }).getByRole('button', { name: 'More actions' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await checkState(page, 'site menu');
  await page.getByRole('menuitem', { name: /^Remove/ }).click();
  await check(page, 'remove site confirm', page.getByRole('alertdialog'));
  await page.keyboard.press('Escape');
});

test('pages tree and editor, translations, search and the command palette', async ({ page }) => {
  const pane = await demo.openPages(page);
  await check(page, 'pages tree', treeItem(pane, 'Home'));
  await treeItem(pane, 'About').click({ position: { x: 10, y: 14 } });
  await treeItem(pane, 'History').hover();
  await checkState(page, 'pages tree, a row hovered');
  await treeItem(pane, 'History').click();
  const editor = editorOf(pane);
  await expect(markdown(editor)).toBeVisible();
  await check(page, 'editor, content with preview');
  await treeItem(pane, 'Our team').hover();
  await checkState(page, 'editor, selected row and another hovered');
  await editor.getByRole('button', { name: 'Save', exact: true }).focus();
  await checkState(page, 'editor, Save focused');
  await editor.getByRole('tab', { name: 'Header' }).click();
  await check(page, 'editor, header');
  await pane.getByRole('button', { name: 'List', exact: true }).click();
  await check(page, 'pages list', pane.getByRole('grid', { name: 'Pages' }));
  await pane.getByRole('grid', { name: 'Pages' }).getByRole('row').nth(2).hover();
  await checkState(page, 'pages list, a row hovered');
  await pane.getByRole('button', { name: 'Tree', exact: true }).click();
  await pane.getByRole('button', { name: 'New page…' }).click();
  await check(page, 'new page dialog', page.getByRole('dialog', { name: 'New page' }));
  await page.keyboard.press('Escape');

  // translations: the matrix and a page's panel
  await area(pane, 'Translations');
  const grid = pane.getByRole('grid', { name: 'Translations of Demo' });
  await check(page, 'translations matrix', grid);
  await pane.getByLabel('Search pages').fill('/about/history');
  await grid.getByRole('button', { name: 'History, FR: missing' }).click();
  await check(page, 'translations, a page’s panel', pane.getByRole('complementary', { name: 'History' }));
  await grid.getByRole('button', { name: /^History, DE: / }).hover();
  await checkState(page, 'translations, a cell hovered');

  // search: the pages read so far are in Sitedesk's copy; a search with a result selected
  for (const route of ['/home', '/about', '/blog']) await bridge(page, 'pages.get', { siteId: demo.siteId, route });
  await page.keyboard.press('Control+Shift+F');
  const search = page.getByRole('dialog', { name: 'Search pages' });
  await check(page, 'search, empty', search);
  await search.getByRole('combobox', { name: 'Search for' }).fill('page');
  const results = search.getByRole('listbox', { name: 'Search results' });
  await expect(results.getByRole('option').nth(1)).toBeVisible();
  await checkState(page, 'search results, the first selected');
  await page.keyboard.press('ArrowDown');
  await results.getByRole('option').nth(1).hover();
  await checkState(page, 'search results, another selected and one hovered');
  await page.keyboard.press('Escape');
  await expect(search).toBeHidden();

  // the command palette
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: /command/i });
  await check(page, 'command palette', palette);
  await page.keyboard.press('ArrowDown');
  await checkState(page, 'command palette, an entry selected');
  await page.keyboard.type('Keyboard shortcuts');
  await page.keyboard.press('Enter');
  await check(page, 'keyboard shortcuts', page.getByRole('dialog', { name: 'Keyboard shortcuts' }));
  await page.keyboard.press('Escape');
});

test('the site’s administration areas', async ({ page }) => {
  await demo.connect(page);
  demo.cms.ops.dashboard.addViews('/blog', 900);
  const pane = await openArea(page, DEMO, 'Users');
  await check(page, 'users, the site’s first tab', pane.getByRole('tab', { name: 'Billing issues', selected: true }));
  await pane.getByRole('tab', { name: /^All/ }).click();
  await check(page, 'users', pane.getByRole('button', { name: 'Open admin' }));
  await pane.getByRole('button', { name: 'Open admin' }).hover();
  await checkState(page, 'users, a row hovered');
  await pane.getByRole('button', { name: 'New account…' }).click();
  await check(page, 'new account dialog', page.getByRole('dialog', { name: 'New account' }));
  await page.keyboard.press('Escape');

  await area(pane, 'Media');
  await pane.getByLabel('Page', { exact: true }).fill('/home');
  await pane.getByRole('button', { name: 'Show media' }).click();
  await check(page, 'media of a page', pane.getByRole('region', { name: 'Media of /home' }).getByRole('listitem', { name: 'hero.png' }));

  await area(pane, 'Media library');
  await check(page, 'media library', pane.getByRole('tree').first());

  await area(pane, 'Settings');
  await pane.getByRole('navigation', { name: 'Settings' }).getByRole('button', { name: 'Site', exact: true }).click();
  await check(page, 'settings', pane.getByLabel('Site title', { exact: true }));

  await area(pane, 'Packages');
  await pane.getByRole('list', { name: 'Installed plugins' }).getByRole('button', { name: /^Email/ }).click();
  await check(page, 'packages', pane.getByRole('article', { name: 'Email' }));

  await area(pane, 'System');
  await check(page, 'system', pane.getByRole('region', { name: 'Reports' }).getByRole('article').first());

  await area(pane, 'Dashboard');
  await check(page, 'dashboard', pane.getByRole('region', { name: 'Page views' }));

  await area(pane, 'Scheduler');
  await check(page, 'scheduler', pane.getByRole('table', { name: 'Jobs' }));

  await area(pane, 'Webhooks');
  await check(page, 'webhooks, none', pane.getByRole('heading', { name: 'No webhooks' }));
  await bridge(page, 'webhooks.create', { siteId: demo.siteId, url: 'https://hooks.example.com/grav', events: ['page.updated', 'page.created'] });
  await area(pane, 'Webhooks');
  await pane.getByText('https://hooks.example.com/grav').first().click();
  await check(page, 'webhooks, one open', pane.getByRole('heading', { name: 'https://hooks.example.com/grav' }));

  await area(pane, 'Audit trail');
  const audit = pane.getByRole('grid', { name: 'Audit events of Demo' });
  await expect(audit.getByRole('row').nth(1)).toBeVisible();
  await audit.getByRole('row').nth(1).click();
  await check(page, 'audit trail with an event open', pane.getByRole('complementary', { name: 'The event in full' }));

  await area(pane, 'Changes');
  await check(page, 'changes');
});

test('the store: pets, orders, inventory, users and a confirm', async ({ page }) => {
  const shop = await startStoreSandbox();
  try {
    await demo.session.open(page);
    await expect(rail(page)).toBeVisible();
    const SHOP = 'Shop';
    await addStoreSite(page, { name: SHOP, baseUrl: shop.url, authMode: 'apikey', apiKey: shop.seeded!.keys.free });
    await siteButton(page, SHOP).click();
    const pane = sitePane(page, SHOP);
    await check(page, 'store overview', pane.getByRole('heading', { name: 'Store access' }));

    await area(pane, 'Pets', SHOP);
    const pets = pane.getByRole('list', { name: `Pets of ${SHOP}` });
    await check(page, 'pets', pets.getByRole('listitem', { name: 'Rex' }));
    await pets.getByRole('listitem', { name: 'Rex' }).hover();
    await checkState(page, 'pets, a row hovered');
    await pane.getByRole('button', { name: 'New pet…' }).click();
    const dialog = page.getByRole('dialog', { name: 'New pet' });
    await dialog.getByRole('button', { name: 'Create pet' }).click();
    await check(page, 'new pet with errors', dialog.getByText('Give the pet a name.'));
    await page.keyboard.press('Escape');

    await area(pane, 'Orders', SHOP);
    await pane.getByLabel('Pet', { exact: true }).fill('1');
    await pane.getByRole('button', { name: 'Place order' }).click();
    await check(page, 'orders', pane.getByRole('listitem', { name: 'Order 11' }));
    await pane.getByRole('listitem', { name: 'Order 11' }).getByRole('button', { name: /^Delete order 11/ }).click();
    await check(page, 'delete order confirm', page.getByRole('alertdialog'));
    await page.keyboard.press('Escape');

    await area(pane, 'Inventory', SHOP);
    await check(page, 'inventory', pane.getByRole('img', { name: /^Pets per status/ }));

    await area(pane, 'Users', SHOP);
    await pane.getByLabel('Username', { exact: true }).fill('admin');
    await pane.getByRole('button', { name: 'Look up' }).click();
    await check(page, 'store users', pane.getByRole('region', { name: 'admin' }));
  } finally {
    await shop.close();
  }
});

