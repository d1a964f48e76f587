/**
 * Issue 21: the app with the keyboard alone. A site is added, signed in to, a page opened from the
 * tree, edited and saved without one click (page.keyboard only), and after each step the focus is
 * where a person would look for it, named as a screen reader says it (its role and name).
 */
import { expect, test, type Page } from '@playwright/test';
import { bridge, rail, siteButton, sitePane, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-keyboard-e2e-');

/** The element that has the focus now. */
const focused = (page: Page) => page.locator('*:focus');

/** What has the focus, in words for a failure message: its role, name and tag. */
async function focusInWords(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing (the page itself)';
    const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 60) ?? '';
    return `${el.getAttribute('role') ?? el.tagName.toLowerCase()} “${name}”`;
  });
}

/** The focus is on the element of this role and accessible name. */
async function expectFocus(page: Page, role: Parameters<Page['getByRole']>[0], name: string | RegExp): Promise<void> {
  await expect(focused(page), `the focus should be on ${role} “${name}”, not on ${await focusInWords(page)}`).toHaveRole(role);
  await expect(focused(page)).toHaveAccessibleName(name);
}

/** Presses Tab (or Shift+Tab) until the focus reaches the element named, at most `max` times. */
async function tabTo(page: Page, role: Parameters<Page['getByRole']>[0], name: string | RegExp, opts: { back?: boolean; max?: number } = {}): Promise<void> {
  const target = page.getByRole(role, { name, exact: typeof name === 'string' });
  for (let i = 0; i < (opts.max ?? 40); i++) {
    if (await target.evaluateAll((els) => els.some((el) => el === document.activeElement))) return;
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`Tab never reached ${role} “${name}”; the focus is on ${await focusInWords(page)}`);
}

test('add a site, sign in, open a page from the tree, edit and save it, back to the tree: keys only', async ({ page }) => {
  test.setTimeout(240_000);
  await demo.session.open(page);
  await expect(page.getByRole('heading', { name: 'Add your first site' })).toBeVisible();

  // the command palette's Add site opens the form with the focus in its first field
  await page.keyboard.press('Control+K');
  await expectFocus(page, 'combobox', /Search sites and actions/);
  await page.keyboard.type('Add site');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Add site' });
  await expect(dialog).toBeVisible();
  await expectFocus(page, 'textbox', 'Name');
  await page.keyboard.type('Demo');
  await tabTo(page, 'textbox', 'Base URL');
  await page.keyboard.type(demo.cms.url);
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(siteButton(page, 'Demo')).toBeVisible();
  // the dialog closed: the focus is on the site just added — its row in the rail, or the first
  // field of its sign-in form when that takes it first — never on nothing
  const pane = sitePane(page, 'Demo');
  await expect
    .poll(() => focusInWords(page), { message: 'the focus after adding a site' })
    .toMatch(/^(button “Demo|input “|textbox “)/);
  const onRow = await siteButton(page, 'Demo').evaluate((el) => el === document.activeElement);
  const onUsername = await pane.getByLabel('Username').evaluate((el) => el === document.activeElement);
  expect(onRow || onUsername, `the focus is on ${await focusInWords(page)}`).toBe(true);

  // its pane is open beside the rail: the sign-in form
  await expect(pane.getByRole('heading', { name: 'Sign in', exact: true })).toBeVisible();
  await tabTo(page, 'textbox', 'Username');
  await page.keyboard.type('admin');
  await page.keyboard.press('Tab');
  await expect(pane.getByLabel('Password'), 'Tab from the username goes to the password').toBeFocused();
  await page.keyboard.type('demo-admin-pass');
  await page.keyboard.press('Enter');
  await expect(pane.getByRole('region', { name: 'Account' })).toBeVisible();
  expect(await focusInWords(page)).not.toBe('nothing (the page itself)');

  // the Pages area from the site's areas
  await tabTo(page, 'button', 'Pages');
  await page.keyboard.press('Enter');
  const tree = pane.getByRole('tree', { name: 'Pages of Demo' });
  await expect(tree.getByRole('treeitem', { name: 'Home', exact: true })).toBeVisible();
  await tabTo(page, 'treeitem', 'Home');

  // About opened with the Right arrow, History reached and opened with Enter
  const about = tree.getByRole('treeitem', { name: 'About', exact: true });
  for (let i = 0; i < 10 && !(await about.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expectFocus(page, 'treeitem', 'About');
  await page.keyboard.press('ArrowRight');
  await expect(tree.getByRole('treeitem', { name: 'History', exact: true })).toBeVisible();
  const history = tree.getByRole('treeitem', { name: 'History', exact: true });
  for (let i = 0; i < 5 && !(await history.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
  await expectFocus(page, 'treeitem', 'History');
  await page.keyboard.press('Enter');
  await expect(pane.getByRole('region', { name: 'Edit History', exact: true })).toBeVisible();
  await expectFocus(page, 'treeitem', 'History');

  // F6: into the text, at its end, a line added
  await page.keyboard.press('F6');
  await expectFocus(page, 'textbox', 'Markdown content');
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n\nTyped with the keyboard alone.');

  // back to Save with Shift+Tab; Enter saves and the focus stays on Save, the outcome said
  await tabTo(page, 'button', 'Save', { back: true });
  await page.keyboard.press('Enter');
  const editor = pane.getByRole('region', { name: 'Edit History', exact: true });
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expectFocus(page, 'button', 'Save');
  const [site] = await bridge<{ id: string }[]>(page, 'sites.list', undefined);
  const onSite = await bridge<{ content: string }>(page, 'pages.get', { siteId: site!.id, route: '/about/history' });
  expect(onSite.content).toContain('Typed with the keyboard alone.');

  // Ctrl+S from the text saves too, the focus staying in the text
  await page.keyboard.press('F6'); // to the tree
  await expectFocus(page, 'treeitem', 'History');
  await page.keyboard.press('F6'); // and back into the text
  await expectFocus(page, 'textbox', 'Markdown content');
  await page.keyboard.type(' Twice.');
  await page.keyboard.press('Control+S');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expectFocus(page, 'textbox', 'Markdown content');

  // Ctrl+Shift+F: the focus in the search field
  await page.keyboard.press('Control+Shift+F');
  await expectFocus(page, 'combobox', 'Search for');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Search pages' })).toBeHidden();
  await expectFocus(page, 'textbox', 'Markdown content');
  await expect(rail(page)).toBeVisible();
});
