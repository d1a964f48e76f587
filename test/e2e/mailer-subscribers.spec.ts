/**
 * Issue 17 end to end, the Mailer's Subscribers section (document 2's mailer, and Grav's Mailroom
 * on the real flavour): add a person by invitation and see the outcome (the same address again:
 * "already invited", the address not repeated; the site's refusal of a field shown next to that
 * field); the status counts as chips, every filter and search as you type; bulk-tag everyone
 * matching a filter (the count shown first, the walk's progress, then the result, seen in the
 * sandbox and in the table) and export the filtered table; edit a person (the list the site kept
 * them off said), unsubscribe them and put them back with a note (in their history) and export
 * their data; the person's page from the keyboard (their lists with their standing, tags and the
 * consent history as a timeline), deleted after asking, focus back on their row; an account that
 * may only read sees every write disabled with the reason; the offline copy chosen, then read with
 * its time while the site is away, nothing changeable; the site's rate limit holding the table
 * back is counted down where the person waits, and the people show by themselves after.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { flavorOf, openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-mailer-e2e-', { ...UNHURRIED });
// each test's sandbox generates its 20,000 people on the first mailer request, and each test walks a long way
test.describe.configure({ timeout: 180_000 });
const n = (x: number) => x.toLocaleString('en-US');
const people = (x: number) => `${n(x)} ${x === 1 ? 'person' : 'people'}`;

async function openSubscribers(page: Page, apiKey?: string): Promise<{ pane: Locator; grid: Locator; filters: Locator }> {
  await demo.connect(page, apiKey ? { apiKey } : {});
  const pane = await openArea(page, 'Demo', 'Mailer');
  const grid = pane.getByRole('grid', { name: 'Subscribers of Demo' });
  const filters = pane.getByRole('search', { name: 'Filter the subscribers' });
  await expect(filters.getByText(/^[\d,]+ people$/)).toBeVisible({ timeout: 30_000 });
  await expect(grid.locator('[data-index="0"]')).toContainText('@');
  return { pane, grid, filters };
}

test('add a person by invitation and see the outcome', async ({ page }) => {
  const { pane, grid } = await openSubscribers(page);
  const store = demo.cms.mailer.store;
  const address = 'new.reader@example.org';
  expect(store.byEmail(address)).toBeNull();

  await pane.getByRole('button', { name: 'Add…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a subscriber' });
  await expect(dialog.getByLabel('List')).toHaveValue(String(store.defaultList()!.id));
  await expect(dialog.getByText('This list asks people to confirm by email.')).toBeVisible();
  // as already agreed, the note saying where is asked for first
  await dialog.getByLabel('Email address').fill('not an address');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  // an address the app lets through and the site refuses (422, its field named): the site's words next to the field
  await dialog.getByLabel('Email address').fill('reader@localhost');
  await expect(dialog.getByLabel('Email address')).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(dialog.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Email address')).toHaveAccessibleDescription(/^email is not an email address\./);
  await expect(dialog.getByLabel('Email address')).toBeFocused();
  expect(store.byEmail('reader@localhost')).toBeNull();
  await dialog.getByLabel('Email address').fill(address);
  await dialog.getByLabel('Name').fill('New Reader');
  await dialog.getByLabel('Tags').fill('spring-fair');
  await dialog.getByLabel('Tags').press('Enter');
  await dialog.getByRole('button', { name: 'Invite' }).click();
  const outcome = dialog.getByRole('status');
  await expect(outcome).toContainText('Invited: a confirmation email is on its way; they join once they confirm.');
  await expect(outcome).toContainText(`${address} (New Reader) on Newsletter`);
  const made = store.byEmail(address)!;
  expect(made).toMatchObject({ name: 'New Reader', status: 'pending' });

  // the same address again: already invited, nothing sent twice, and the address not repeated
  await dialog.getByRole('button', { name: 'Add another' }).click();
  await dialog.getByLabel('Email address').fill(address.toUpperCase());
  await dialog.getByRole('button', { name: 'Invite' }).click();
  await expect(outcome).toContainText('Already invited and waiting to confirm: nothing was changed, and no second email was sent.');
  await expect(outcome).toContainText(`#${made.id}`);
  await expect(dialog.getByText(address)).toHaveCount(0);
  await expect(dialog.getByText(address.toUpperCase())).toHaveCount(0);

  // their page: waiting to confirm, invited in the history, the tag kept
  await dialog.getByRole('button', { name: 'Open their page' }).click();
  await expect(dialog).toBeHidden();
  const person = pane.getByRole('complementary', { name: 'The person’s page' });
  await expect(person.getByRole('heading', { name: 'New Reader' })).toBeVisible();
  await expect(person.getByText('Invited (a confirmation email was sent)')).toBeVisible();
  await expect(person.locator('.tag')).toHaveText([/^spring.fair$/i]);
  await expect(person.getByRole('button', { name: 'Confirm…' })).toBeVisible();
  // the table read again where it was: the newest person first
  await expect(grid.locator('[data-index="0"]')).toContainText(address);
});

test('the status chips, the filters and search as you type; bulk-tag everyone matching: the count first, then progress and the result; the filtered table exported', async ({ page }, info) => {
  const out = mkdtempSync(join(tmpdir(), 'sitedesk-mailer-export-'));
  try {
    const { pane, grid, filters } = await openSubscribers(page);
    const store = demo.cms.mailer.store;
    const press = store.tagByCode('press')!;
    const events = store.listByCode('events')!;
    const expected = store.count({ tag: press.id, list: events.id, list_status: 'subscribed' });
    expect(expected).toBeGreaterThan(2);

    // the status counts of the whole table as chips
    const counts = store.statusCounts();
    const chips = filters.getByRole('group', { name: 'Status' });
    await expect(chips.getByRole('button', { name: `All ${n(store.count({}))}` })).toHaveAttribute('aria-pressed', 'true');
    for (const [status, words] of [['pending', 'Waiting to confirm'], ['subscribed', 'Subscribed'], ['unsubscribed', 'Unsubscribed'], ['bounced', 'Bounced'], ['complained', 'Complained']] as const) {
      await expect(chips.getByRole('button', { name: `${words} ${n(counts[status])}` })).toBeVisible();
    }
    // every filter narrows the table; a list's counts under the pickers
    await filters.getByLabel('Tag', { exact: true }).selectOption(String(press.id));
    await filters.getByLabel('List', { exact: true }).selectOption(String(events.id));
    await filters.getByLabel('On that list', { exact: true }).selectOption('subscribed');
    await expect(filters.getByText(`${people(expected)} match`, { exact: true })).toBeVisible();
    const lc = store.listCounts(events.id);
    await expect(filters.getByText(`On Events: ${n(lc.subscribed)} subscribed`)).toBeVisible();
    await expect(grid).toHaveAttribute('aria-rowcount', String(expected + 1));
    // a status chip on top of them: the whole table's counts stay as they are
    await chips.getByRole('button', { name: /^Bounced/ }).click();
    await expect(chips.getByRole('button', { name: /^Bounced/ })).toHaveAttribute('aria-pressed', 'true');
    const bounced = store.count({ tag: press.id, list: events.id, list_status: 'subscribed', status: 'bounced' });
    await expect(filters.getByText(`${people(bounced)} match`, { exact: true })).toBeVisible();
    await expect(chips.getByRole('button', { name: `Subscribed ${n(counts.subscribed)}` })).toBeVisible();
    await chips.getByRole('button', { name: /^All/ }).click();
    await expect(filters.getByText(`${people(expected)} match`, { exact: true })).toBeVisible();

    // search as you type narrows it further, and clearing the words brings them back
    const one = store.query({ tag: press.id, list: events.id, list_status: 'subscribed' }, 1, 0).rows[0]!;
    const typed = one.email.slice(0, 12);
    await filters.getByLabel('Search subscribers').pressSequentially(typed, { delay: 20 });
    const narrowed = store.count({ tag: press.id, list: events.id, list_status: 'subscribed', q: typed });
    await expect(filters.getByText(`${people(narrowed)} match`, { exact: true })).toBeVisible();
    await expect(grid.getByRole('row').nth(1)).toContainText(typed);
    await filters.getByLabel('Search subscribers').fill('');
    await expect(filters.getByText(`${people(expected)} match`, { exact: true })).toBeVisible();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(filters.getByText(`${people(store.count({}))}`, { exact: true })).toBeVisible();

    // everyone waiting to confirm (more than one batch of 500): counted first, then the walk's progress
    const waiting = store.count({ status: 'pending' });
    expect(waiting).toBeGreaterThan(1000);
    await chips.getByRole('button', { name: /^Waiting to confirm/ }).click();
    await expect(filters.getByText(`${people(waiting)} match`, { exact: true })).toBeVisible();
    await pane.getByRole('button', { name: 'Act on many…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Act on many' });
    await expect(dialog.getByText(`${people(waiting)} match`)).toBeVisible();
    await expect(dialog.getByText('everybody waiting to confirm')).toBeVisible();
    await dialog.getByLabel('Action').selectOption({ label: 'Add a tag' });
    await dialog.getByRole('button', { name: `Tag ${people(waiting)}` }).click();
    await expect(dialog.getByText('Enter the tag.')).toBeVisible();
    await dialog.getByLabel('Tag', { exact: true }).fill('Spring drive');
    // each batch answers slowly, so the progress between them can be seen
    const plugin = info.project.metadata?.flavor === 'real' ? 'mailroom' : 'mailer';
    demo.cms.faults.set({ route: `POST /${plugin}/subscribers/bulk`, latencyMs: 1500 });
    await dialog.getByRole('button', { name: `Tag ${people(waiting)}` }).click();
    await expect(dialog.getByRole('progressbar', { name: 'Progress of the action' })).toBeVisible();
    await expect(dialog.getByText(new RegExp(`^Tagging: 500 of ${n(waiting)} — 500 tagged`))).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Stop' })).toBeVisible();
    const result = dialog.getByRole('status');
    await expect(result).toContainText(`Add a tag: done for ${people(waiting)}.`, { timeout: 20_000 });
    await expect(result).toContainText(`${n(waiting)} tagged`);
    demo.cms.faults.clear();
    const made = store.tagByCode('spring-drive')!;
    expect(store.tagCount(made.id)).toBe(waiting);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();

    // the new tag is a filter now, and everybody tagged is there
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await filters.getByLabel('Tag', { exact: true }).selectOption(String(made.id));
    await expect(filters.getByText(`${people(waiting)} match`, { exact: true })).toBeVisible();
    await expect(grid.getByRole('row').nth(1)).toContainText('Spring drive');

    // the filtered table exported to a file
    await pane.getByRole('button', { name: 'Export…' }).click();
    const exp = page.getByRole('dialog', { name: 'Export the subscribers' });
    await expect(exp.getByText(`${people(waiting)}: everybody tagged Spring drive.`)).toBeVisible();
    const file = join(out, 'spring.csv');
    await exp.getByLabel('Save as').fill(file);
    await exp.getByRole('button', { name: 'Export' }).click();
    await expect(exp.getByRole('status')).toContainText(`${people(waiting)} written to`);
    const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('email,name,status,lists,tags,source,consent_at,confirmed_at,unsubscribed_at,language');
    expect(lines).toHaveLength(waiting + 1);
    expect(lines.slice(1).every((l) => l.includes('spring-drive'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('edit a person, unsubscribe them and put them back with a note; export their data', async ({ page }) => {
  const out = mkdtempSync(join(tmpdir(), 'sitedesk-mailer-person-'));
  try {
    const { pane, grid, filters } = await openSubscribers(page);
    const store = demo.cms.mailer.store;
    const newsletter = store.listByCode('newsletter')!;
    const partners = store.listByCode('partners')!;
    // someone subscribed to the newsletter only
    const who = store
      .query({ status: 'subscribed', list: newsletter.id, list_status: 'subscribed' }, 200, 0)
      .rows.find((r) => store.memberships(r.id).length === 1 && !r.suppressed)!;
    expect(who).toBeTruthy();

    await filters.getByLabel('Search subscribers').fill(who.email);
    await expect(filters.getByText('1 person match', { exact: true })).toBeVisible();
    await grid.getByRole('row').nth(1).click();
    const person = pane.getByRole('complementary', { name: 'The person’s page' });
    await expect(person.getByText(who.email)).toBeVisible();

    // edit: a new name, a tag, and a list they are not on (the site keeps them off and says why)
    await person.getByRole('button', { name: 'Edit…' }).click();
    const edit = page.getByRole('dialog', { name: /^Edit / });
    await edit.getByLabel('Name').fill('Renamed Reader');
    await edit.getByLabel('Tags').fill('edited');
    await edit.getByLabel('Tags').press('Enter');
    await edit.getByRole('checkbox', { name: /^Partner offers/ }).check();
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByRole('alert')).toContainText('Saved, but the site kept them off:');
    await expect(edit.getByRole('alert')).toContainText('Partner offers: not joined — they are not on it');
    await edit.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(person.getByRole('heading', { name: 'Renamed Reader' })).toBeVisible();
    await expect(grid.getByRole('row').nth(1)).toContainText('Renamed Reader');
    expect(store.subscriber(who.id)!.name).toBe('Renamed Reader');
    expect(store.membership(who.id, partners.id)).toBeNull();

    // unsubscribe, asked first
    await person.getByRole('button', { name: 'Unsubscribe…' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Unsubscribe from every list?' });
    await ask.getByRole('button', { name: 'Unsubscribe' }).click();
    await expect(person.locator('.badges')).toContainText('Unsubscribed');
    await expect(person.getByText('Taken off by the site').first()).toBeVisible();
    await expect(grid.getByRole('row').nth(1)).toContainText('Unsubscribed');

    // put back: the note is required and lands in the history
    await person.getByRole('button', { name: 'Put back…' }).click();
    const back = page.getByRole('dialog', { name: /^Put .* back$/ });
    await back.getByRole('button', { name: 'Put back' }).click();
    await expect(back.getByLabel('How they asked')).toHaveAttribute('aria-invalid', 'true');
    await back.getByLabel('How they asked').fill('Asked by phone on Tuesday to get the newsletter again');
    await back.getByRole('button', { name: 'Put back' }).click();
    await expect(back).toBeHidden();
    await expect(person.locator('.badges')).toContainText('Subscribed');
    await expect(person.getByText('“Asked by phone on Tuesday to get the newsletter again”')).toBeVisible();
    expect(store.membership(who.id, newsletter.id)?.status).toBe('subscribed');

    // their data, exported to a file: one JSON document, named for nothing but the path chosen
    await person.getByRole('button', { name: 'Export data…' }).click();
    const exp = page.getByRole('dialog', { name: /^Export .*’s data$/ });
    const file = join(out, 'their-data.json');
    await exp.getByLabel('Save as').fill(file);
    await exp.getByRole('button', { name: 'Export' }).click();
    await expect(exp.getByRole('status')).toContainText('Their data was written to');
    await expect(exp.getByText(file)).toBeVisible();
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { profile: { email: string; name: string }; consent_log: { note: string | null }[]; tags: string[] };
    expect(doc.profile).toMatchObject({ email: who.email, name: 'Renamed Reader' });
    expect(doc.tags).toContain('edited');
    expect(doc.consent_log.some((e) => e.note === 'Asked by phone on Tuesday to get the newsletter again')).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

/** How the person's page names a change in their consent history and a list's standing (the site's words, for people). */
const ACTION_WORDS: Record<string, string> = {
  signed_up: 'Signed up',
  confirmed: 'Confirmed by email',
  confirmed_by_site: 'Confirmed by the site',
  invited: 'Invited (a confirmation email was sent)',
  added: 'Added as already agreed',
  imported: 'Imported',
  imported_pending: 'Imported, waiting to confirm',
  left: 'Left',
  taken_off: 'Taken off by the site',
  came_back: 'Came back',
  put_back: 'Put back by the site',
  automation_added: 'Added by an automation',
};
const STANDING: Record<string, string> = { pending: 'Waiting to confirm', subscribed: 'Subscribed', unsubscribed: 'Left' };

test('the person’s page from the keyboard: lists with their standing, tags, the consent history as a timeline; delete asked first', async ({ page }) => {
  const { pane, grid, filters } = await openSubscribers(page);
  const store = demo.cms.mailer.store;
  const person = pane.getByRole('complementary', { name: 'The person’s page' });

  // the table from the keyboard: a row holds focus, the arrows move it, Enter opens the person
  const [, second] = store.query({}, 2, 0).rows;
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('ArrowDown');
  await expect(grid.locator('[data-index="1"]')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(person.getByRole('heading', { name: second!.name || second!.email, exact: true })).toBeVisible();
  // Tab goes on into their page; Escape closes it, focus back on their row
  await page.keyboard.press('Tab');
  await expect(person.getByRole('button', { name: 'Close the person’s page' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(person).toBeHidden();
  await expect(grid.locator('[data-index="1"]')).toBeFocused();

  // someone on one list, who left another by their own hand, with tags and a history of several changes
  const who = store.query({}, 2000, 0).rows.find((r) => {
    const ms = store.memberships(r.id);
    return (
      r.name &&
      ms.some((m) => m.status === 'unsubscribed' && m.left_by === 'self') &&
      ms.some((m) => m.status !== 'unsubscribed') &&
      (store.tagsOf([r.id]).get(r.id)?.length ?? 0) > 0 &&
      store.consentLog(r.id).length >= 3
    );
  })!;
  expect(who).toBeTruthy();
  await filters.getByLabel('Search subscribers').fill(who.email);
  await expect(filters.getByText('1 person match', { exact: true })).toBeVisible();
  await grid.getByRole('row').nth(1).focus();
  await page.keyboard.press('Enter');
  await expect(person.getByRole('heading', { name: who.name, exact: true })).toBeVisible();
  await expect(person.getByText(who.email)).toBeVisible();

  // their lists, each with where they stand on it (and who took them off)
  const lists = person.getByRole('list', { name: 'Their lists' }).getByRole('listitem');
  const memberships = store.memberships(who.id);
  await expect(lists).toHaveCount(memberships.length);
  for (const m of memberships) {
    const item = lists.filter({ hasText: store.list(m.list_id)!.name });
    await expect(item).toContainText(STANDING[m.status]!);
    if (m.left_by === 'self') await expect(item).toContainText('left by their own hand');
  }
  // their tags
  const tagLabels = store.tagsOf([who.id]).get(who.id)!.map((t) => t.label);
  const tags = person.getByRole('list', { name: 'Their tags' }).getByRole('listitem');
  await expect(tags).toHaveCount(tagLabels.length);
  expect((await tags.allTextContents()).sort()).toEqual([...tagLabels].sort());
  // the consent history as a timeline: every change, newest first, each with its time
  const log = store.consentLog(who.id);
  const entries = person.getByRole('list', { name: 'Consent history, newest first' }).getByRole('listitem');
  await expect(entries).toHaveCount(log.length);
  for (const [i, e] of log.entries()) {
    await expect(entries.nth(i)).toContainText(ACTION_WORDS[e.action]!);
    const at = await entries.nth(i).locator('time').first().getAttribute('datetime');
    expect(Date.parse(at!) / 1000).toBe(e.at);
    if (e.list_name) await expect(entries.nth(i)).toContainText(`List: ${e.list_name}`);
  }

  // delete: asked first (Cancel changes nothing), then gone from the site, struck through in the table
  await person.getByRole('button', { name: 'Delete…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Delete this person?' });
  await expect(ask.getByText(/A suppression of their address stays/)).toBeVisible();
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toBeHidden();
  await expect(person.getByRole('button', { name: 'Delete…' })).toBeFocused();
  expect(store.subscriber(who.id)).not.toBeNull();
  await person.getByRole('button', { name: 'Delete…' }).click();
  await ask.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(person).toBeHidden();
  await expect(grid.getByRole('row').nth(1)).toContainText('Deleted');
  await expect(grid.getByRole('row').nth(1)).toBeFocused();
  expect(store.subscriber(who.id)).toBeNull();
  expect(store.memberships(who.id)).toHaveLength(0);
});

test('an account that may only read: every write disabled with the reason, or (the real service’s /me does not say) refused by the site in its words', async ({ page }, info) => {
  const real = info.project.metadata?.flavor === 'real';
  const perm = real ? 'mailroom' : 'mailer';
  await demo.cms.accounts.create({ username: 'reader', password: 'a-long-password-1', email: 'reader@example.test', access: { api: { access: true }, [perm]: { view: true } } });
  const key = demo.cms.apiKeys.create({ username: 'reader', name: 'reader key' }).api_key;
  const { pane, grid } = await openSubscribers(page, key);
  if (real) {
    // Grav's /me lists only the API plugin's own api.* permissions: whether Mailroom's manage is held
    // is the site's to say, when asked
    await pane.getByRole('button', { name: 'Add…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a subscriber' });
    await dialog.getByLabel('Email address').fill('refused.reader@example.org');
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await expect(dialog.getByRole('alert')).toContainText('mailroom.manage');
    expect(demo.cms.mailer.store.byEmail('refused.reader@example.org')).toBeNull();
    return;
  }
  const reason = `This account lacks the ${perm}.manage permission.`;
  await expect(pane.getByText(reason)).toBeVisible();
  await expect(pane.getByRole('button', { name: 'Add…' })).toBeDisabled();
  await expect(pane.getByRole('button', { name: 'Act on many…' })).toBeDisabled();
  await expect(pane.getByRole('button', { name: 'Export…' })).toBeDisabled();
  await grid.getByRole('row').nth(1).click();
  const person = pane.getByRole('complementary', { name: 'The person’s page' });
  await expect(person.getByRole('heading', { name: 'Lists' })).toBeVisible();
  await expect(person.getByRole('button', { name: 'Edit…' })).toBeDisabled();
  await expect(person.getByRole('button', { name: 'Delete…' })).toBeDisabled();
  await expect(person.getByText(reason)).toBeVisible();
});

test('the offline copy, chosen: read with its time while the site is away, nothing changeable', async ({ page }) => {
  const { pane, grid, filters } = await openSubscribers(page);
  await pane.getByRole('button', { name: /^Offline copy/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Subscribers offline' });
  await expect(dialog.getByText(/Subscribers are personal data/)).toBeVisible();
  await expect(dialog.getByText('Nothing of these subscribers is kept on this computer.')).toBeVisible();
  await dialog.getByRole('checkbox', { name: /^Keep a copy of Demo’s subscribers/ }).check();
  await expect(dialog.getByText(/The copy holds 20,000 people, read/)).toBeVisible({ timeout: 60_000 });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await expect(pane.getByRole('button', { name: /^Offline copy/ })).toContainText('On');

  demo.cms.faults.set({ route: '*', drop: true });
  await pane.getByRole('button', { name: 'Read the subscribers again' }).click();
  await expect(pane.getByText(/The site is not answering: the subscribers are from Sitedesk’s offline copy of/)).toBeVisible({ timeout: 20_000 });
  await expect(filters.getByText('20,000 people', { exact: true })).toBeVisible();
  await expect(pane.getByRole('button', { name: 'Add…' })).toBeDisabled();
  // the copy filters too
  await filters.getByRole('button', { name: /^Bounced/ }).click();
  await expect(filters.getByText(`${people(demo.cms.mailer.store.statusCounts().bounced)} match`, { exact: true })).toBeVisible();
  await grid.getByRole('row').nth(1).click();
  const person = pane.getByRole('complementary', { name: 'The person’s page' });
  await expect(person.getByText(/this is Sitedesk’s copy of/)).toBeVisible();
  await expect(person.getByRole('button', { name: 'Edit…' })).toBeDisabled();
});

test('the site’s rate limit holds the table back: a countdown where the person waits, then the people show by themselves', async ({ page }, info) => {
  await demo.connect(page);
  // another client of the same account spends the site's budget
  // (real: a bucket of 1 refilled over 7 s; spec: 1 in a window of 8 s)
  demo.cms.limits.set('api', flavorOf(info) === 'real' ? { limit: 1, windowSec: 7 } : { limit: 1, windowSec: 8 });
  for (let i = 0; i < 2; i++) await fetch(`${demo.cms.url}/pages?per_page=1`, { headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey! } });

  const pane = await openArea(page, 'Demo', 'Mailer');
  const wait = pane.getByRole('status').filter({ hasText: /Waiting for the site’s rate limit: trying again in \d+ s/ });
  await expect(wait).toBeVisible();
  await expect(pane.getByRole('alert')).toHaveCount(0);
  // the site has room again: the table fills once the countdown ends, without anyone asking
  demo.cms.limits.set('api', { limit: 100_000, windowSec: 60 });
  const grid = pane.getByRole('grid', { name: 'Subscribers of Demo' });
  await expect(grid.locator('[data-index="0"]')).toContainText('@', { timeout: 30_000 });
  await expect(wait).toHaveCount(0);
  await expect(pane.getByRole('alert')).toHaveCount(0);
});
