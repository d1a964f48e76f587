/**
 * Issue 4 end to end, the page editor: browser mode in Debian's Chromium against an in-process CMS
 * sandbox with the demo site. The page is opened the way a person does (the Pages area's tree);
 * edits are saved with If-Match; a page changed behind the app's back (`sandbox.editPage`) asks
 * what to do and keeps the text. What the UI claims is checked against the site too.
 */
import { expect, test } from '@playwright/test';
import { bridge, flavorOf, markdown, openInEditor, siteButton, treeItem, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-editor-e2e-');

test('edit and save: state, Ctrl+S, the preview of the saved page, field errors at their field', async ({ page }, info) => {
  const pane = await demo.openPages(page);
  const editor = await openInEditor(pane, 'About', 'History');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await expect(editor.getByRole('heading', { name: 'Preview of the saved page' })).toBeVisible();
  await expect(editor.getByRole('complementary').getByRole('heading', { name: 'History' })).toBeVisible();

  // typing, then undo (Ctrl+Z) and redo (Ctrl+Y)
  await markdown(editor).press('Control+End');
  await markdown(editor).pressSequentially(' Typed here.');
  await expect(markdown(editor)).toContainText('Typed here.');
  await markdown(editor).press('Control+z');
  await expect(markdown(editor)).not.toContainText('Typed here.');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await markdown(editor).press('Control+y');
  await expect(markdown(editor)).toContainText('Typed here.');

  await markdown(editor).fill('# History\n\nFounded in a **garage**, grown in a [workshop](https://example.com/workshop).\n\n![Logo](/user/pages/01.home/logo.png)\n');
  await expect(editor.getByText('Unsaved changes')).toBeVisible();
  await expect(editor.getByText('Older than your text: save to see your changes here, or switch to Live.')).toBeVisible();
  // Live renders the unsaved text here as it is typed (sanitised like the site's HTML)
  const preview = editor.getByRole('complementary');
  await preview.getByRole('button', { name: 'Live' }).click();
  await expect(preview.getByRole('heading', { name: 'Live preview of your text' })).toBeVisible();
  await expect(preview.locator('strong', { hasText: 'garage' })).toBeVisible();
  await markdown(editor).press('Control+End');
  await markdown(editor).pressSequentially('\nAnd *typed* live.');
  await expect(preview.locator('em', { hasText: 'typed' })).toBeVisible();
  await expect(preview.getByRole('img', { name: 'Logo' })).toHaveAttribute('src', `${demo.cms.origin}/user/pages/01.home/logo.png`);
  await preview.getByRole('button', { name: 'Site' }).click();
  await expect(editor.getByRole('heading', { name: 'Preview of the saved page' })).toBeVisible();
  await markdown(editor).press('Control+s');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  // the site has it, and the preview shows the site's rendering of it (sanitised HTML)
  const saved = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' });
  expect(saved.content).toContain('Founded in a **garage**');
  expect(saved.content).toContain('And *typed* live.');
  await expect(editor.getByRole('complementary').locator('strong', { hasText: 'garage' })).toBeVisible();
  await expect(editor.getByText('Older than your text')).toHaveCount(0);
  // sanitised: links open outside the app, relative images point at the site
  const link = editor.getByRole('complementary').getByRole('link', { name: 'workshop' });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(editor.getByRole('complementary').getByRole('img', { name: 'Logo' })).toHaveAttribute('src', `${demo.cms.origin}/user/pages/01.home/logo.png`);

  // the title is required: the error shows at the Title field, nothing is saved
  await editor.getByLabel('Title', { exact: true }).fill('   ');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor.getByLabel('Title', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(editor.getByText('A page needs a title.')).toBeVisible();
  await editor.getByLabel('Title', { exact: true }).fill('Our history');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  expect((await bridge<{ title: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' })).title).toBe('Our history');

  // the Header tab: the blueprint's fields; the raw YAML shows the same header
  await editor.getByRole('tab', { name: 'Header' }).click();
  await expect(editor.getByLabel('Template', { exact: true })).toHaveValue('default');
  // the blueprint's own groups: the documents' Options; Grav's Options tab has its Publishing section
  await expect(editor.getByRole('group', { name: flavorOf(info) === 'real' ? 'Publishing' : 'Options' })).toBeVisible();
  await editor.getByRole('checkbox', { name: 'Raw YAML' }).check();
  await expect(editor.getByLabel('Header (YAML)')).toHaveValue(/title: Our history/);
  await editor.getByLabel('Header (YAML)').fill('title: Our history\nmenu: [unclosed');
  await expect(editor.getByRole('alert').filter({ hasText: /flow|collection|end/i })).toBeVisible();
  await editor.getByLabel('Header (YAML)').fill('title: Our history\nmenu: Story\n');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  expect((await bridge<{ header: Record<string, unknown> }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' })).header.menu).toBe('Story');
});

test('a page changed on the site: the save asks, and "Keep mine as a copy" keeps my text next to theirs', async ({ page }) => {
  const pane = await demo.openPages(page);
  const editor = await openInEditor(pane, 'About', 'History');
  // someone edits the page on the site while it is open here
  demo.cms.editPage({ route: '/about/history', content: 'Theirs: edited on the site.\n' });

  await markdown(editor).fill('Mine: written in Sitedesk.\n');
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Page changed on the site' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Reload (discard my changes)' })).toBeVisible();

  // "Keep editing" first: nothing is lost, the text is still mine
  await dialog.getByRole('button', { name: 'Keep editing' }).click();
  await expect(dialog).toBeHidden();
  await expect(markdown(editor)).toContainText('Mine: written in Sitedesk.');
  await expect(editor.getByText('Conflicts with the site')).toBeVisible();

  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep mine as a copy' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Your version was saved as a copy')).toBeVisible();

  // the copy has my text, the original theirs (on the site and in the editor)
  const copy = await bridge<{ title: string; content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history-copy' });
  expect(copy.content).toBe('Mine: written in Sitedesk.\n');
  expect(copy.title).toBe('History');
  const original = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' });
  expect(original.content).toBe('Theirs: edited on the site.\n');
  await expect(markdown(editor)).toContainText('Theirs: edited on the site.');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();

  // a second conflict: the copy name is taken, so the next one is -copy-2; Reload discards instead
  demo.cms.editPage({ route: '/about/history', content: 'Theirs again.\n' });
  await markdown(editor).fill('Mine again.\n');
  await markdown(editor).press('Control+s');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Reload (discard my changes)' }).click();
  await expect(dialog).toBeHidden();
  await expect(markdown(editor)).toContainText('Theirs again.');
});

test('closing or leaving with unsaved changes asks; the language switcher; text left behind comes back', async ({ page }) => {
  const pane = await demo.openPages(page);
  const editor = await openInEditor(pane, 'About', 'Our team');
  await expect(editor.getByLabel('Language')).toHaveValue('en');

  await markdown(editor).fill('A draft about the team.\n');
  await editor.getByRole('button', { name: 'Close editor' }).click();
  const ask = page.getByRole('dialog', { name: 'Unsaved changes' });
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(markdown(editor)).toContainText('A draft about the team.');

  // choosing another page in the tree asks the same question; Keep editing stays here
  await treeItem(pane, 'Press').click();
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('Save them before switching?');
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(pane.getByRole('region', { name: 'Edit Our team', exact: true })).toBeVisible();
  await expect(markdown(editor)).toContainText('A draft about the team.');

  // switching language asks too; discarding shows the German page
  await editor.getByLabel('Language').selectOption('de');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(editor.getByLabel('Title', { exact: true })).toHaveValue('Unser Team');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();

  // a German edit, then another page: Save saves it (in German) and goes on
  await markdown(editor).fill('Unser Team, neu geschrieben.\n');
  await treeItem(pane, 'Press').click();
  await ask.getByRole('button', { name: 'Save' }).click();
  await expect(pane.getByRole('region', { name: 'Edit Press', exact: true })).toBeVisible();
  const de = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/our team', lang: 'de' });
  expect(de.content).toBe('Unser Team, neu geschrieben.\n');
  const en = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/our team', lang: 'en' });
  expect(en.content).not.toContain('neu geschrieben');

  // the site's tab closed with unsaved text (nobody asked): the text waits in memory and comes back
  await markdown(editor).fill('Press text that was never saved.\n');
  await page.getByRole('button', { name: 'Close Demo' }).click();
  await expect(pane).toHaveCount(0);
  await siteButton(page, 'Demo').click();
  await expect(pane.getByRole('region', { name: 'Edit Press', exact: true })).toBeVisible();
  await expect(editor.getByText(/Your unsaved changes from .* are back/)).toBeVisible();
  await expect(markdown(editor)).toContainText('Press text that was never saved.');
  await editor.getByRole('button', { name: 'discard them' }).click();
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  await expect(markdown(editor)).not.toContainText('Press text that was never saved.');
});

test('a new slug moves the page; deleting a translation and the page ask first', async ({ page }) => {
  const pane = await demo.openPages(page);
  const editor = await openInEditor(pane, 'About', 'Press');
  await editor.getByRole('tab', { name: 'Header' }).click();
  await editor.getByLabel('Slug').fill('press-room');
  await expect(editor.getByText('Unsaved changes')).toBeVisible();
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Page moved')).toBeVisible();
  await expect(editor.getByText('/about/press-room', { exact: true })).toBeVisible();
  expect((await bridge<{ title: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/press-room' })).title).toBe('Press');

  // Press has EN and FR: delete the FR translation, then the page
  await editor.getByLabel('Language').selectOption('fr');
  await expect(editor.getByLabel('Language')).toHaveValue('fr');
  await editor.getByRole('button', { name: 'More page actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete the FR translation…' }).click();
  const confirmLang = page.getByRole('alertdialog', { name: 'Delete the FR translation?' });
  await confirmLang.getByRole('button', { name: 'Delete translation' }).click();
  await expect(confirmLang).toBeHidden();
  await expect(editor.getByLabel('Language')).toHaveValue('en');
  const langs = await bridge<{ translated: Record<string, string> }>(page, 'translations.languages', { siteId: demo.siteId, route: '/about/press-room' });
  expect(Object.keys(langs.translated)).toEqual(['en']);

  await editor.getByRole('button', { name: 'More page actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete page…' }).click();
  const confirmPage = page.getByRole('alertdialog', { name: /^Delete “Press”\?$/ });
  await confirmPage.getByRole('button', { name: 'Delete page' }).click();
  await expect(confirmPage).toBeHidden(); // the page behind an open dialog is inert: count after it closes
  await expect(pane.getByRole('region', { name: /^Edit / })).toHaveCount(0);
  await expect(bridge(page, 'pages.get', { siteId: demo.siteId, route: '/about/press-room' })).rejects.toMatchObject({ code: 'not_found' });
});

test('a conflict that does not merge by itself: Merge… in the editor, choose per part, the site gets the result', async ({ page }) => {
  const pane = await demo.openPages(page);
  const editor = await openInEditor(pane, 'About', 'History');
  const original = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' });
  const firstLine = original.content.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'))!;
  // the same line changed on the site and here
  demo.cms.editPage({ route: '/about/history', content: original.content.replace(firstLine, 'Theirs: the first paragraph, rewritten on the site.') });
  await markdown(editor).fill(original.content.replace(firstLine, 'Mine: the first paragraph, rewritten in Sitedesk.'));
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Page changed on the site' });
  await dialog.getByRole('button', { name: 'Merge…' }).click();
  await expect(dialog).toBeHidden();

  const merge = pane.getByRole('region', { name: 'Resolve conflict: History' });
  await expect(merge).toBeVisible();
  const hunk = merge.getByRole('radiogroup', { name: 'Conflict 1 of 1' });
  await expect(merge.getByRole('group', { name: 'Conflict 1: Theirs' })).toContainText('Theirs: the first paragraph');
  await hunk.getByRole('radio', { name: 'Both (mine then theirs)', exact: true }).check();
  await merge.getByRole('button', { name: 'Resolve and push' }).click();
  await expect(merge).toBeHidden();

  // the editor shows the page as the site now has it, with both paragraphs, and nothing waits
  await expect(markdown(editor)).toContainText('Mine: the first paragraph');
  await expect(markdown(editor)).toContainText('Theirs: the first paragraph');
  await expect(editor.getByText('Saved', { exact: true })).toBeVisible();
  const onSite = await bridge<{ content: string }>(page, 'pages.get', { siteId: demo.siteId, route: '/about/history' });
  // "Both" keeps them two paragraphs (it used to glue the two lines into one)
  expect(onSite.content).toContain('Mine: the first paragraph, rewritten in Sitedesk.\n\nTheirs: the first paragraph, rewritten on the site.');
});

test('Home opens by its own route; a select of the blueprint writes the value of the option chosen', async ({ page }, info) => {
  const pane = await demo.openPages(page);
  // the home page: its tree row carries the route that addresses it (the real service's raw_route)
  const homeRow = treeItem(pane, 'Home');
  const homeRoute = (await homeRow.getAttribute('data-route'))!;
  expect(homeRoute).toBe('/home');
  await homeRow.click();
  const home = pane.getByRole('region', { name: 'Edit Home', exact: true });
  await expect(markdown(home)).toBeVisible();
  await expect(home.getByText(homeRoute, { exact: true })).toBeVisible();

  // Blog's blueprint has selects (Order By): choosing "Title" writes "title", not its label or its index
  await treeItem(pane, 'Blog').click({ position: { x: 80, y: 14 } });
  const blog = pane.getByRole('region', { name: 'Edit Blog', exact: true });
  await expect(markdown(blog)).toBeVisible();
  await blog.getByRole('tab', { name: 'Header' }).click();
  // the blueprint's tabs are a tab strip: the arrow keys walk it, as in every desktop tab strip
  const options = blog.getByRole('tab', { name: 'Options', exact: true });
  await expect(options).toHaveAttribute('aria-selected', 'true');
  await options.focus();
  await page.keyboard.press('End');
  const blogConfig = blog.getByRole('tab', { name: 'Blog Config' });
  await expect(blogConfig).toBeFocused();
  await expect(blogConfig).toHaveAttribute('aria-selected', 'true');
  const orderBy = blog.getByLabel('Order By', { exact: true });
  await expect(orderBy.locator('option')).toContainText(['Folder', 'Title', 'Date']);
  await orderBy.selectOption({ label: 'Title' });
  await blog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(blog.getByText('Saved', { exact: true })).toBeVisible();
  const saved = await bridge<{ header: { content: { order: { by: unknown } } } & Record<string, unknown> }>(page, 'pages.get', { siteId: demo.siteId, route: '/blog' });
  expect(saved.header.content.order.by).toBe('title');
  await expect(orderBy).toHaveValue('title');
  // nothing else of the form was written: fields the page does not set stay unset
  expect(saved.header.routable).toBeUndefined();
  expect(saved.header.process).toBeUndefined();
  await blog.getByRole('tab', { name: 'Advanced', exact: true }).click();
  const routable = blog.getByRole('checkbox', { name: 'Routable' });
  if (flavorOf(info) === 'real') {
    // Grav's toggles name no default: one the page does not set is neither on nor off, and says so
    await expect(routable).toHaveJSProperty('indeterminate', true);
    await expect(routable).toHaveAccessibleDescription('Not set on this page: the site’s default applies.');
    // Grav's Process checkboxes (a map of option → on), shown from the blueprint's default; hidden fields stay out
    await expect(blog.getByRole('group', { name: 'Process' }).getByRole('checkbox', { name: 'Markdown' })).toBeChecked();
    await expect(blog.getByLabel('order_manual')).toHaveCount(0);
  } else {
    // the documents' toggle defaults to on
    await expect(routable).toBeChecked();
    await expect(routable).toHaveJSProperty('indeterminate', false);
  }
});

test('a page the site’s rate limit holds back: a countdown where the person waits, then it opens by itself', async ({ page }, info) => {
  const pane = await demo.openPages(page);
  // another client of the same account (a browser tab on the site's admin) spends the site's budget
  // (real: a bucket of 1 refilled over 7 s; spec: 1 in a window of 8 s)
  demo.cms.limits.set('api', flavorOf(info) === 'real' ? { limit: 1, windowSec: 7 } : { limit: 1, windowSec: 8 });
  for (let i = 0; i < 2; i++) await fetch(`${demo.cms.url}/pages?per_page=1`, { headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey! } });

  await treeItem(pane, 'Contact').click();
  // the wait is said where the person is, counting down, and nothing is called a failure
  const wait = pane.getByRole('status').filter({ hasText: /Waiting for the site’s rate limit: trying again in \d+ s/ });
  await expect(wait).toBeVisible();
  await expect(pane.getByRole('alert')).toHaveCount(0);
  // the site has room again: the page opens once the countdown ends, without anyone asking
  demo.cms.limits.set('api', { limit: 100_000, windowSec: 60 });
  const editor = pane.getByRole('region', { name: 'Edit Contact', exact: true });
  await expect(markdown(editor)).toBeVisible({ timeout: 15_000 });
  await expect(wait).toHaveCount(0);
  await expect(pane.getByRole('alert')).toHaveCount(0);
});
