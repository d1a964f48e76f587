/**
 * Issue 14 end to end, accounts: the Users area lists the site's accounts as the site pages them
 * (more as the end comes into view), its plugins' tabs narrow the list, their columns show their
 * values; a new account is created with a group and edited; a plugin's row action runs after its
 * confirm and says its result; an account is deleted after a confirm. Checked against the sandbox.
 */
import { expect, test } from '@playwright/test';
import { solidPng } from '../sandbox/cms/content/seed-content';
import { totp } from '../sandbox/cms/totp';
import { startCmsSandbox } from '../sandbox/cms/server';
import { addCmsSite, flavorOf, openArea, rail, siteButton, sitePane, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-users-e2e-', UNHURRIED);

test('list, tabs and plugin columns; create (with a group and a permission set), edit and delete an account; a row action with its confirm', async ({ page }, info) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Users');
  const table = pane.getByRole('table', { name: 'Accounts' });
  // the site's default tab opens first (the demo plugins make it Billing issues)
  await expect(pane.getByRole('tab', { name: 'Billing issues' })).toHaveAttribute('aria-selected', 'true');
  await pane.getByRole('tab', { name: /^All/ }).click();
  await expect(table.getByRole('button', { name: 'Open admin' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Plan' })).toBeVisible();
  const count = pane.getByText(/^\d+ accounts$/);
  const total = Number((await count.textContent())!.split(' ')[0]);
  expect(total).toBeGreaterThan(30);

  // the site's tabs narrow the list
  await pane.getByRole('tab', { name: /^Members/ }).click();
  await expect(pane.getByRole('tab', { name: /^Members/ })).toHaveAttribute('aria-selected', 'true');
  await expect.poll(async () => Number((await count.textContent())!.split(' ')[0])).toBeLessThan(total);
  // the keyboard moves between the tabs as in any tab strip: one stop in the Tab order, arrows within
  const tabs = pane.getByRole('tablist', { name: 'Which accounts' }).getByRole('tab');
  await pane.getByRole('tab', { name: /^Members/ }).press('End');
  await expect(tabs.last()).toBeFocused();
  await expect(tabs.last()).toHaveAttribute('aria-selected', 'true');
  await tabs.last().press('ArrowRight');
  await expect(tabs.first()).toBeFocused();
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await expect(tabs.nth(1)).toHaveAttribute('tabindex', '-1');
  await pane.getByRole('tab', { name: /^All/ }).click();

  // a new account, its form the site's users blueprint: a group and a permission set
  await pane.getByRole('button', { name: 'New account…' }).click();
  const create = page.getByRole('dialog', { name: 'New account' });
  await create.getByLabel('Username').fill('ines');
  await create.getByLabel('Full name').fill('Ines Editor');
  await create.getByLabel('Password').fill('short');
  await create.getByRole('button', { name: 'Create account' }).click();
  await expect(create.getByText('Email is required.')).toBeVisible(); // the blueprint's rule, said at the field (its message is an untranslated key)
  await create.getByLabel('Email').fill('ines@example.test');
  await create.getByRole('button', { name: 'Create account' }).click();
  await expect(create.getByText('At least 8 characters.')).toBeVisible(); // said at the field, nothing sent
  await create.getByLabel('Password').fill('Long-enough-pass1');
  await expect(create.getByLabel('Status', { exact: true })).toHaveValue('enabled'); // the blueprint's translation key, shown as words
  const real = flavorOf(info) === 'real';
  // the real service lists its groups (checkboxes with their names); the documents do not (typed)
  if (real) await create.getByRole('checkbox', { name: /Editors/ }).check();
  else await create.getByLabel('Groups').fill('editors,');
  await create.getByRole('tab', { name: 'Permissions' }).click();
  const perms = create.getByRole('tabpanel', { name: 'Permissions' });
  await perms.getByLabel('Read Users (api.users.read): this account’s setting').selectOption('allow');
  await perms.getByLabel('Update Configuration (api.config.write): this account’s setting').selectOption('deny');
  const writeRow = perms.getByRole('row', { name: /Create\/Update\/Delete Pages/ });
  // what the group gives is shown apart from what is set here (the real service lists groups)
  if (real) await expect(writeRow.getByRole('cell').last()).toHaveText(/^Allowed\s+from the group Editors$/);
  else await expect(writeRow.getByRole('cell').last()).toHaveText(/^Not allowed\s+nothing gives it$/);
  await expect(perms.getByRole('row', { name: /Read Users/ }).getByRole('cell').last()).toHaveText(/^Allowed\s+set here$/);
  await create.getByRole('button', { name: 'Create account' }).click();
  await expect(create).toBeHidden();
  await expect(page.getByText('Created ines')).toBeVisible();
  await expect(table.getByRole('button', { name: 'Open ines', exact: true })).toBeVisible(); // shown at once, before the list is read again
  expect(demo.cms.accounts.get('ines')).toMatchObject({ fullname: 'Ines Editor', groups: ['editors'], access: { api: { users: { read: true }, config: { write: false } } } });

  // edit: only what changed is sent
  await table.getByRole('button', { name: 'Open ines', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit ines' });
  await expect(edit.getByLabel('Full name')).toHaveValue('Ines Editor');
  await edit.getByLabel('Full name').fill('Ines E.');
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(edit).toBeHidden();
  await expect(table.getByText('Ines E.')).toBeVisible();
  expect(demo.cms.accounts.get('ines')?.fullname).toBe('Ines E.');

  // a plugin's row action asks first, then says its result
  await pane.getByRole('tab', { name: /^Members/ }).click();
  const firstMember = table.getByRole('row').nth(1);
  const member = (await firstMember.getByRole('button', { name: /^Open / }).textContent())!.trim();
  await firstMember.getByRole('button', { name: `Actions for ${member}` }).click();
  await page.getByRole('menuitem', { name: 'Extend membership…' }).click();
  const ask = page.getByRole('alertdialog', { name: `Extend membership: ${member}?` });
  await expect(ask).toContainText('Extend this membership by one year?');
  await ask.getByRole('button', { name: 'Extend membership' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByText(`Extend membership: ${member}`)).toBeVisible();

  // delete, after a confirm (found by the site's search)
  await pane.getByRole('tab', { name: /^All/ }).click();
  await pane.getByRole('searchbox', { name: 'Search accounts' }).fill('ines');
  await pane.getByRole('searchbox', { name: 'Search accounts' }).press('Enter');
  await expect(table.getByRole('button', { name: 'Open admin' })).toHaveCount(0);
  await table.getByRole('button', { name: 'Actions for ines', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Delete…' }).click();
  const del = page.getByRole('alertdialog', { name: 'Delete ines?' });
  await del.getByRole('button', { name: 'Delete account' }).click();
  await expect(del).toBeHidden();
  await expect(table.getByRole('button', { name: 'Open ines', exact: true })).toHaveCount(0);
  expect(demo.cms.accounts.get('ines')).toBeNull();
});

test('the list is paged by the site: scrolling to its end reads the next page', async ({ page }) => {
  // more accounts than one page of the list (50)
  for (let i = 0; i < 30; i++) await demo.cms.accounts.create({ username: `crowd-${String(i).padStart(2, '0')}`, email: `crowd-${i}@example.test`, password: 'Long-enough-pass1' });
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Users');
  const table = pane.getByRole('table', { name: 'Accounts' });
  await pane.getByRole('tab', { name: /^All/ }).click();
  await expect(table.getByRole('button', { name: 'Open admin' })).toBeVisible();

  const last = () => table.getByRole('row').last().getAttribute('aria-rowindex').then(Number);
  for (let i = 0; i < 20 && (await last()) < 52; i++) await table.evaluate((el) => el.scrollBy(0, 2000));
  await expect.poll(last, { timeout: 10_000 }).toBeGreaterThan(51);
  // still virtualised: far fewer rows in the DOM than accounts read
  expect(await table.getByRole('row').count()).toBeLessThan(45);
});

test('mint a key with its scopes (shown once, it signs in), then revoke it', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Users');
  await pane.getByRole('tab', { name: /^All/ }).click();
  const table = pane.getByRole('table', { name: 'Accounts' });
  await table.getByRole('button', { name: 'Actions for editor', exact: true }).click();
  await page.getByRole('menuitem', { name: 'API keys…' }).click();
  const keys = page.getByRole('dialog', { name: 'API keys of editor' });
  await keys.getByLabel('Name').fill('deploys');
  await keys.getByLabel('Scopes').fill('api.pages.read,');
  await keys.getByRole('button', { name: 'Create key' }).click();
  const raw = keys.getByLabel('The new key');
  await expect(raw).toBeVisible();
  const key = (await raw.textContent())!.trim();
  const as = (path: string) => fetch(`${demo.cms.url}${path}`, { headers: { 'X-API-Key': key } }).then((r) => r.status);
  expect(await as('/pages?per_page=1')).toBe(200);
  expect(await as('/config')).toBe(403); // only its scopes
  const row = keys.getByRole('list', { name: 'Keys' }).getByRole('listitem').filter({ hasText: 'deploys' });
  await expect(row).toContainText('api.access, api.pages.read');
  await row.getByRole('button', { name: 'Revoke deploys' }).click();
  await expect(row).toHaveCount(0);
  expect(await as('/pages?per_page=1')).toBe(401);
  // the raw key is gone with the dialog: reopening shows none
  await keys.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(keys).toBeHidden();
  await table.getByRole('button', { name: 'Actions for editor', exact: true }).click();
  await page.getByRole('menuitem', { name: 'API keys…' }).click();
  await expect(page.getByRole('dialog', { name: 'API keys of editor' }).getByLabel('The new key')).toHaveCount(0);
});

test('a picture, previewed and scaled down before it is sent; one’s own 2FA enrolled with a code and turned off; another account’s forced off', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Users');
  await pane.getByRole('tab', { name: /^All/ }).click();
  const table = pane.getByRole('table', { name: 'Accounts' });
  await table.getByRole('button', { name: 'Open admin', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit admin' });

  // a large picture: previewed, said in words, sent scaled down whole
  await dialog.getByLabel('Choose a picture for admin').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: solidPng(1200, 900, [40, 110, 200]) });
  await expect(dialog.getByText('512 × 384 PNG, scaled down from 1200 × 900; nothing is cut off.')).toBeVisible();
  await expect(dialog.getByRole('img', { name: 'New picture for admin (preview)' })).toBeVisible();
  expect(demo.cms.accounts.get('admin')?.avatar).toBeNull(); // nothing sent yet
  await dialog.getByRole('button', { name: 'Use this picture' }).click();
  await expect(dialog.getByRole('img', { name: 'admin’s picture' })).toBeVisible();
  const avatar = demo.cms.accounts.get('admin')!.avatar!;
  const served = Buffer.from(await (await fetch(`${new URL(demo.cms.url).origin}/user/accounts/avatars/${avatar.name}`)).arrayBuffer());
  expect([served.readUInt32BE(16), served.readUInt32BE(20)]).toEqual([512, 384]); // the PNG's own header

  // one's own 2FA: the QR code and the secret, a wrong code said at its field, the right one turns it on
  await dialog.getByRole('tab', { name: 'Two-factor sign-in' }).click();
  const twofa = dialog.getByRole('tabpanel', { name: 'Two-factor sign-in' });
  await expect(twofa.getByRole('heading', { name: 'Two-factor sign-in is off' })).toBeVisible();
  await twofa.getByRole('button', { name: 'Set up 2FA…' }).click();
  await expect(twofa.getByRole('img', { name: 'QR code of the 2FA secret for admin' })).toBeVisible();
  const secret = (await twofa.locator('code.secret').textContent())!.replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await twofa.getByLabel('Code from the app').fill(totp(secret, Date.now() - 10 * 60_000));
  await twofa.getByRole('button', { name: 'Turn on 2FA' }).click();
  await expect(twofa.getByText('That code is not the one the authenticator shows now')).toBeVisible();
  await twofa.getByLabel('Code from the app').fill(totp(secret, Date.now()));
  await twofa.getByLabel('Code from the app').press('Enter');
  await expect(twofa.getByRole('heading', { name: 'Two-factor sign-in is on' })).toBeVisible();
  expect(demo.cms.accounts.get('admin')?.twofa_enabled).toBe(true);
  await twofa.getByRole('button', { name: 'Turn off 2FA…' }).click();
  await twofa.getByLabel('Code from the app').fill(totp(secret, Date.now()));
  await twofa.getByRole('button', { name: 'Turn off 2FA' }).click();
  await expect(twofa.getByRole('heading', { name: 'Two-factor sign-in is off' })).toBeVisible();
  expect(demo.cms.accounts.get('admin')?.twofa_enabled).toBe(false);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row').filter({ has: page.getByRole('button', { name: 'Open admin', exact: true }) }).locator('img.avatar')).toBeVisible(); // the list follows the new picture

  // another account's 2FA: only its owner turns it on; a manager turns it off after a warning
  const other = demo.cms.accounts.list().find((a) => a.twofa_enabled && a.username !== 'admin')!.username;
  await pane.getByRole('searchbox', { name: 'Search accounts' }).fill(other);
  await pane.getByRole('searchbox', { name: 'Search accounts' }).press('Enter');
  await table.getByRole('button', { name: `Open ${other}`, exact: true }).click();
  const theirs = page.getByRole('dialog', { name: `Edit ${other}` });
  await theirs.getByRole('tab', { name: 'Two-factor sign-in' }).click();
  await theirs.getByRole('button', { name: `Turn off 2FA for ${other}…` }).click();
  await expect(theirs.getByRole('alert')).toContainText('will sign in with the password alone');
  await theirs.getByRole('button', { name: `Turn off 2FA for ${other}`, exact: true }).click();
  await expect(theirs.getByRole('heading', { name: 'Two-factor sign-in is off' })).toBeVisible();
  await expect(theirs.getByText(`Only ${other} can turn it on`)).toBeVisible();
  expect(demo.cms.accounts.get(other)?.twofa_enabled).toBe(false);
});

test('People across two sites: one row per person joined by email, a column per site, the filters, and an account opened on its site', async ({ page }, info) => {
  const second = await startCmsSandbox({ flavor: flavorOf(info), seed: 'demo', content: 'demo', ...UNHURRIED });
  try {
    const make = (cms: typeof second, user: Record<string, unknown>) =>
      fetch(`${cms.url}/users`, { method: 'POST', headers: { 'X-API-Key': cms.seeded!.adminApiKey!, 'Content-Type': 'application/json' }, body: JSON.stringify(user) }).then((r) => expect(r.status).toBe(201));
    await make(demo.cms, { username: 'ines', password: 'Long-enough-pass1', email: 'ines@example.test', fullname: 'Ines Editor' });
    await make(second, { username: 'ines.e', password: 'Long-enough-pass1', email: 'INES@example.test', state: 'disabled' });
    await demo.connect(page);
    await addCmsSite(page, { name: 'Second', baseUrl: second.url, apiKey: second.seeded!.adminApiKey! });
    await expect(siteButton(page, 'Second')).toBeVisible();

    await rail(page).getByRole('button', { name: 'People across sites' }).click();
    const view = page.getByRole('dialog', { name: 'People across sites' });
    const table = view.getByRole('table', { name: 'People' });
    await expect(table.getByRole('columnheader', { name: 'Demo' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'Second' })).toBeVisible();
    await expect(table.getByRole('button', { name: 'Open admin on Second' })).toBeVisible();
    const search = view.getByRole('searchbox', { name: 'Search people' });
    await search.fill('ines@');
    await expect(view.getByText(/^1 of \d+ people$/)).toBeVisible();
    const ines = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Ines Editor/ }) });
    await expect(ines.getByRole('button', { name: 'Open ines on Demo' })).toBeVisible();
    await expect(ines.getByRole('button', { name: 'Open ines.e on Second' })).toBeVisible(); // the same email in another case: one person
    await expect(ines).toContainText('Disabled');

    // the filters: disabled somewhere keeps Ines; writes somewhere drops her and keeps admin
    await view.getByRole('checkbox', { name: 'Disabled somewhere' }).check();
    await expect(ines).toBeVisible();
    await view.getByRole('checkbox', { name: 'Disabled somewhere' }).uncheck();
    await view.getByRole('checkbox', { name: 'Writes somewhere' }).check();
    await expect(view.getByText('No one matches these filters.')).toBeVisible();
    await search.fill('');
    await expect(table.getByRole('button', { name: 'Open admin on Demo' })).toBeVisible();
    // alice.martin is an editor: the real service lists what its groups give, the documents do not (said above the table)
    if (flavorOf(info) === 'real') await expect(table.getByRole('button', { name: 'Open alice.martin on Demo' })).toBeVisible();
    else {
      await expect(table.getByRole('button', { name: 'Open alice.martin on Demo' })).toHaveCount(0);
      await expect(view.getByText('Demo, Second do not list their groups')).toBeVisible();
    }
    await view.getByRole('checkbox', { name: 'Writes somewhere' }).uncheck();
    await search.fill('ines@');

    // open the account on its site: the site's Users area, the account's dialog
    await ines.getByRole('button', { name: 'Open ines.e on Second' }).click();
    await expect(view).toBeHidden();
    const dialog = page.getByRole('dialog', { name: 'Edit ines.e' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('INES@example.test');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(sitePane(page, 'Second').getByRole('heading', { name: 'Users', level: 2 })).toBeVisible();
  } finally {
    await second.close();
  }
});

test('the offline copy, only by choice: kept, read while the site is away (for reading only), and removed', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Users');
  const table = pane.getByRole('table', { name: 'Accounts' });
  await pane.getByRole('tab', { name: /^All/ }).click();
  await expect(table.getByRole('button', { name: 'Open admin' })).toBeVisible();

  const offline = pane.getByRole('button', { name: /^Offline copy/ });
  await expect(offline).toContainText('Off');
  await offline.click();
  const choice = page.getByRole('dialog', { name: 'Accounts offline' });
  await expect(choice.getByText('Nothing of these accounts is kept on this computer.')).toBeVisible();
  await choice.getByRole('checkbox', { name: 'Keep a copy of Demo’s accounts on this computer' }).check();
  await expect(choice.getByText(/The copy holds \d+ accounts, read/)).toBeVisible();
  await choice.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(offline).toContainText('On');

  demo.cms.faults.set({ route: '*', drop: true });
  try {
    await pane.getByRole('searchbox', { name: 'Search accounts' }).fill('admin');
    await page.keyboard.press('Enter');
    await expect(pane.getByText(/the accounts are from Sitedesk’s copy of .*Nothing can be changed until the site answers/)).toBeVisible({ timeout: 20_000 });
    await expect(table.getByRole('button', { name: 'Open admin' })).toBeVisible();
    await expect(pane.getByRole('button', { name: 'New account…' })).toHaveCount(0);
    await table.getByRole('button', { name: 'Actions for admin' }).click();
    await expect(page.getByRole('menuitem', { name: 'View…' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Delete…' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    await table.getByRole('button', { name: 'Open admin' }).click();
    const view = page.getByRole('dialog', { name: 'View admin' });
    await expect(view.getByText(/this account is from Sitedesk’s copy of/)).toBeVisible();
    await expect(view.getByRole('textbox', { name: /Email/ })).toBeDisabled();
    await expect(view.getByRole('tab', { name: 'Two-factor sign-in' })).toHaveCount(0);
    await expect(view.getByRole('button', { name: 'Save changes' })).toHaveCount(0);
    await view.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(view).toBeHidden();
  } finally {
    demo.cms.faults.clear();
  }
  await pane.getByRole('button', { name: 'Ask the site again' }).click();
  await expect(pane.getByText(/the accounts are from Sitedesk’s copy/)).toHaveCount(0, { timeout: 20_000 });
  await expect(pane.getByRole('button', { name: 'New account…' })).toBeVisible();

  await offline.click();
  await choice.getByRole('checkbox', { name: 'Keep a copy of Demo’s accounts on this computer' }).uncheck();
  await expect(choice.getByText('Nothing of these accounts is kept on this computer.')).toBeVisible();
  await choice.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(offline).toContainText('Off');
});
