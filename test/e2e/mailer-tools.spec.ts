/**
 * Issue 17 end to end, the Mailer's tools on the demo site's mailing plugin (document 2's mailer,
 * or Grav's Mailroom under /mailroom/ on the real flavour): a CSV imported with a mapping and a
 * dry run, then run with its progress and found in the history; a segment built with its live
 * count following a condition, and a segment a campaign uses refused deletion in words; a list and
 * a tag made in place; an address suppressed and the suppression removed (by the address, hashed in
 * the app); an address erased with the counts of what was forgotten.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { suppressionHash } from '../../electron/common/email-hash';
import { bridge, openArea, useDemoSite, UNHURRIED } from './support/app';

// a small audience (seeding 20,000 people is not what these tests are about) and an import slow
// enough to be seen going: 40 rows at 8 a second of the sandbox's clock
const demo = useDemoSite('sitedesk-mailer-tools-e2e-', { ...UNHURRIED, mailer: { subscribers: 1500, importRate: 8 } });

/** Opens the Mailer area and one of its sections; answers the pane. */
async function openSection(page: Page, section: string): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Mailer');
  const nav = pane.getByRole('navigation', { name: /sections$/ });
  await nav.getByRole('button', { name: section }).click();
  await expect(pane.getByRole('heading', { name: section, level: 4 })).toBeVisible();
  return pane;
}

/** An EmailOctopus export (the one preset both the document's plugin and Mailroom detect): 38 people, one bad address, one twice. */
function octopusCsv(dir: string): string {
  const rows = ['Email address,First name,Last name,Tags,Status,Created at'];
  for (let i = 1; i <= 38; i++) rows.push(`reader${i}@import.example,Reader,Number ${i},"spring",SUBSCRIBED,2024-03-0${(i % 9) + 1} 10:00:00`);
  rows.push('not-an-address,Broken,Row,,SUBSCRIBED,2024-03-01 10:00:00');
  rows.push('reader7@import.example,Reader,Again,,SUBSCRIBED,2024-03-01 10:00:00');
  const file = join(dir, 'octopus-contacts.csv');
  writeFileSync(file, rows.join('\n') + '\n');
  return file;
}

test('a CSV imported: columns mapped with the preset prefilled, the dry run, the run with its progress, the history', async ({ page }) => {
  // five steps, each previewed by the site, then a run at the site's pace followed second by second
  test.setTimeout(120_000);
  const pane = await openSection(page, 'Imports');
  // the seeded history
  await expect(pane.getByRole('table', { name: /Past imports of Demo/ }).getByText('webinar-leads.csv')).toBeVisible();
  await pane.getByRole('button', { name: 'New import…' }).first().click();

  const file = octopusCsv(demo.session.dataDir);
  await pane.getByLabel('CSV file').fill(file);
  await pane.getByRole('button', { name: 'Read the file' }).click();
  await expect(pane.getByRole('heading', { name: 'Columns: octopus-contacts.csv' })).toBeVisible();
  await expect(pane.getByText(/Detected: EmailOctopus/)).toBeVisible();
  // the preset's mapping, prefilled
  await expect(pane.getByRole('combobox', { name: 'Read “Email address” as' })).toHaveValue('email');
  await expect(pane.getByRole('combobox', { name: 'Read “First name” as' })).toHaveValue('first_name');
  const dry = pane.getByRole('region', { name: 'Dry run of the whole file' });
  await expect(dry.getByText('38 of 40 rows would be written (38 new people); 2 would not.')).toBeVisible();
  // the tags column left out: the first rows follow the mapping
  const rows = pane.getByRole('table', { name: 'The first rows as read' });
  await expect(rows.getByRole('row').nth(1)).toContainText('spring');
  await pane.getByRole('combobox', { name: 'Read “Tags” as' }).selectOption('');
  await expect(rows.getByRole('row').nth(1)).not.toContainText('spring');
  await expect(dry.getByText('38 of 40 rows would be written (38 new people); 2 would not.')).toBeVisible();
  // no address column: said next to the mapping
  await pane.getByRole('combobox', { name: 'Read “Email address” as' }).selectOption('');
  await pane.getByRole('button', { name: 'Next' }).click();
  await expect(pane.getByRole('alert').filter({ hasText: /address/i }).first()).toBeVisible();
  await pane.getByRole('combobox', { name: 'Read “Email address” as' }).selectOption('email');
  await pane.getByRole('button', { name: 'Next' }).click();

  // list, tag, consent
  await expect(pane.getByRole('heading', { name: /^List and consent/ })).toBeVisible();
  await pane.getByLabel('List', { exact: true }).selectOption({ label: 'Product updates' });
  await pane.getByLabel('Tag').fill('Spring fair');
  await pane.getByRole('button', { name: 'Next' }).click();
  await expect(pane.getByText('Say whether these people confirmed at the other tool.')).toBeVisible();
  await pane.getByRole('radio', { name: /Yes, they confirmed/ }).check();
  await pane.getByLabel('Where they agreed').fill('Signup form at the spring fair, 2024');
  await pane.getByRole('button', { name: 'Next' }).click();

  // the dry run, then the run
  await expect(pane.getByRole('heading', { name: /^Dry run/ })).toBeVisible();
  await expect(pane.getByText('Product updates', { exact: true })).toBeVisible();
  const counts = pane.getByRole('definition').filter({ hasText: 'People not here yet' });
  await expect(counts).toContainText('38');
  await pane.getByRole('button', { name: 'Run the import' }).click();
  const bar = pane.getByRole('progressbar', { name: 'Import progress' });
  await expect(bar).toBeVisible();
  // its progress, seen going before the end
  await expect(pane.getByText(/^Importing: \d+ of 40 rows$/)).toBeVisible({ timeout: 15_000 });
  await expect(pane.getByText(/Imported octopus-contacts\.csv: 40 rows read\./)).toBeVisible({ timeout: 30_000 });
  await expect(pane.getByRole('definition').filter({ hasText: /^38/ }).first()).toBeVisible();
  await pane.getByRole('button', { name: 'Done' }).click();

  // the history, newest first, with the counts
  const history = pane.getByRole('table', { name: /Past imports of Demo/ });
  const first = history.getByRole('row').nth(1);
  await expect(first).toContainText('octopus-contacts.csv');
  await expect(first).toContainText('Finished');
  await expect(first).toContainText('Product updates');
  await expect(first).toContainText('38 new, 1 duplicates, 1 invalid');
  await expect(first).toContainText('tag spring-fair');
});

test('a segment built: the live count follows a condition; a segment a campaign uses is not deleted', async ({ page }) => {
  const pane = await openSection(page, 'Segments');
  const segments = pane.getByRole('navigation', { name: 'Segments of Demo' });
  await expect(segments.getByRole('button', { name: /Quiet readers/ })).toBeVisible();

  await pane.getByRole('button', { name: 'New segment' }).click();
  await pane.getByLabel('Name').fill('VIP readers');
  const preview = pane.getByRole('complementary', { name: 'Who this picks now' });
  const count = preview.getByRole('status').first();
  /** The live count the preview says ("1,234 people match and can be mailed"). */
  const counted = async () => Number(/([\d,]+)\s+(?:people|person)\b/.exec((await count.textContent()) ?? '')?.[1]?.replaceAll(',', '') ?? NaN);
  await expect(count).toContainText('match and can be mailed');
  const everybody = await counted();
  expect(everybody).toBeGreaterThan(0);

  // a new segment starts with one condition to fill in
  const all = pane.getByRole('region', { name: 'Matches all of these' });
  const row = all.getByRole('group', { name: /^Condition 1 of/ });
  await expect(all.getByRole('group', { name: /^Condition \d of/ })).toHaveCount(1);
  await row.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Tagged' });
  await expect(preview.getByText(/not filled in yet/)).toBeVisible();
  await row.getByRole('combobox', { name: 'Value' }).selectOption({ label: 'VIP' });
  await expect(preview.getByText(/not filled in yet/)).toHaveCount(0);
  await expect.poll(counted).toBeLessThan(everybody);
  await expect(count).not.toHaveAttribute('aria-busy', 'true');
  const vip = await counted();
  expect(vip).toBeGreaterThan(0);
  // the condition changes: the count follows (a tag 15 of 100 carry, against 3 of 100)
  await row.getByRole('combobox', { name: 'Value' }).selectOption({ label: 'Customer' });
  await expect.poll(counted).toBeGreaterThan(vip);
  await expect(preview.getByRole('list', { name: 'Newest who count' }).getByRole('listitem').first()).toBeVisible();

  await pane.getByRole('button', { name: 'Save segment' }).click();
  await expect(segments.getByRole('button', { name: /VIP readers/ })).toBeVisible();
  await expect(pane.getByText(/^Saved count:/)).toBeVisible();

  // a segment a draft campaign points at: the site refuses, and says which
  await segments.getByRole('button', { name: /Quiet readers/ }).click();
  await expect(pane.getByLabel('Name')).toHaveValue('Quiet readers');
  await pane.getByRole('button', { name: 'Delete…' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete segment' }).click();
  await expect(pane.getByRole('alert').filter({ hasText: /Not deleted: .*Winter preview/ })).toBeVisible();
  await expect(segments.getByRole('button', { name: /Quiet readers/ })).toBeVisible();
});

test('a list and a tag made in place; a tag made again is answered, not refused', async ({ page }) => {
  const pane = await openSection(page, 'Lists and tags');
  const lists = pane.getByRole('table', { name: 'Lists of Demo' });
  await expect(lists.getByText('Newsletter', { exact: true })).toBeVisible();

  await pane.getByRole('button', { name: 'New list…' }).click();
  const dialog = page.getByRole('dialog', { name: 'New list' });
  await dialog.getByLabel('Code').fill('Bad Code');
  await dialog.getByLabel('Name', { exact: true }).fill('Spring fair');
  await dialog.getByRole('button', { name: 'Make list' }).click();
  // the site's word, next to the field
  await expect(dialog.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Code').fill('spring-fair');
  await dialog.getByRole('button', { name: 'Make list' }).click();
  await expect(dialog).toBeHidden();
  const row = lists.getByRole('row').filter({ hasText: 'Spring fair' });
  await expect(row).toContainText('spring-fair');

  // edited: the code is said, not offered
  await row.getByRole('button', { name: 'Edit list Spring fair' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit list “Spring fair”' });
  await expect(edit.getByText(/A list’s code never changes/)).toBeVisible();
  await expect(edit.getByRole('textbox', { name: 'Code' })).toHaveCount(0);
  await edit.getByLabel('Name', { exact: true }).fill('Spring fair 2025');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(lists.getByRole('row').filter({ hasText: 'Spring fair 2025' })).toBeVisible();

  const tags = pane.getByRole('list', { name: 'Tags of Demo' });
  await pane.getByLabel('New tag').fill('Early Birds');
  await pane.getByRole('button', { name: 'Add tag' }).click();
  await expect(pane.getByText('Tag made: “Early Birds”, code early-birds.')).toBeVisible();
  await expect(tags.getByText('early-birds')).toBeVisible();
  await pane.getByLabel('New tag').fill('early_birds');
  await pane.getByRole('button', { name: 'Add tag' }).click();
  await expect(pane.getByText(/already/i).filter({ hasText: 'early-birds' })).toBeVisible();
  await expect(tags.getByText('early-birds')).toHaveCount(1);

  // deleted after a confirm that says it leaves everybody
  await tags.getByRole('button', { name: 'Delete tag Early Birds' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete the tag “Early Birds”?' });
  await expect(confirm).toContainText('removed from everybody');
  await confirm.getByRole('button', { name: 'Delete tag' }).click();
  await expect(tags.getByText('early-birds')).toHaveCount(0);
});

test('an address suppressed, then its suppression removed by the address typed (hashed in the app)', async ({ page }) => {
  const pane = await openSection(page, 'Suppressions');
  const table = pane.getByRole('table', { name: /Suppressed addresses of Demo/ });
  await expect(table.getByRole('row').nth(1)).toBeVisible();

  await pane.getByRole('button', { name: 'Suppress an address…' }).first().click();
  let dialog = page.getByRole('dialog', { name: 'Suppress an address' });
  await dialog.getByLabel('Address').fill('not an address');
  await dialog.getByRole('button', { name: 'Suppress', exact: true }).click();
  await expect(dialog.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('Address').fill('Quiet.Person@Fair.Example');
  await dialog.getByLabel('Note').fill('Asked on the phone');
  await dialog.getByRole('button', { name: 'Suppress', exact: true }).click();
  await expect(dialog).toBeHidden();
  const row = table.getByRole('row').filter({ hasText: 'q***@fair.example' });
  await expect(row).toContainText('Asked on the phone');

  // removed by the address typed in another case: the app sends its fingerprint
  await pane.getByRole('button', { name: 'Remove by address…' }).click();
  dialog = page.getByRole('dialog', { name: 'Remove a suppression' });
  await dialog.getByLabel('Address').fill('quiet.person@FAIR.example ');
  await dialog.getByRole('button', { name: 'Remove suppression' }).click();
  await expect(dialog).toBeHidden();
  await expect(table.getByRole('row').filter({ hasText: 'q***@fair.example' })).toHaveCount(0);
});

test('a suppression the site’s rate limit holds back: counted down in the dialog, then sent once more by itself, applied once', async ({ page }, info) => {
  const pane = await openSection(page, 'Suppressions');
  const table = pane.getByRole('table', { name: /Suppressed addresses of Demo/ });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  const plugin = info.project.metadata?.flavor === 'real' ? 'mailroom' : 'mailer';
  // the site answers the first try 429 (nothing done) with a Retry-After of 7 s, longer than the
  // Host sits out by itself (5 s), and the next one as usual
  demo.cms.faults.set({ route: `POST /${plugin}/suppressions`, rateLimit: { retryAfter: 7 }, times: 1 });

  await pane.getByRole('button', { name: 'Suppress an address…' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Suppress an address' });
  await dialog.getByLabel('Address').fill('held.back@fair.example');
  await dialog.getByRole('button', { name: 'Suppress', exact: true }).click();
  // the wait is said in the dialog, counting down, with a way not to retry
  const wait = dialog.locator('[data-rate-limited]');
  await expect(wait).toContainText(/Trying again in \d+ s/);
  await expect(wait.getByRole('button', { name: 'Don’t retry' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Suppress', exact: true })).toHaveAttribute('aria-disabled', 'true');
  // then sent once more without anyone asking: done, and only once
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  await expect(table.getByRole('row').filter({ hasText: 'h***@fair.example' })).toHaveCount(1);
  expect(demo.cms.mailer.store.suppression(suppressionHash('held.back@fair.example'))).toBeTruthy();
});

test('an address erased: a plain warning first, then the counts of what was forgotten; again, nothing is left', async ({ page }) => {
  const pane = await openSection(page, 'Suppressions');
  let dialog: Locator;
  // a person the site holds, forgotten everywhere
  await bridge(page, 'mailer.add', { siteId: demo.siteId, email: 'forget.me@example.net', name: 'Forget Me', tags: ['press'], mode: 'subscribed', note: 'Met at the fair' });
  await pane.getByRole('button', { name: 'Erase an address…' }).click();
  dialog = page.getByRole('dialog', { name: 'Erase an address' });
  await expect(dialog.getByText('Erasing forgets this address everywhere, and cannot be undone.')).toBeVisible();
  await dialog.getByLabel('Address to erase').fill('forget.me@example.net');
  await dialog.getByRole('button', { name: 'Erase everywhere' }).click();
  await expect(dialog.getByRole('alert').first()).toBeVisible();
  await dialog.getByRole('checkbox', { name: 'I understand this cannot be undone' }).check();
  await dialog.getByRole('button', { name: 'Erase everywhere' }).click();
  const done = page.getByRole('dialog', { name: 'Erased' });
  const forgotten = done.getByRole('list', { name: 'Forgotten on the site' });
  await expect(forgotten).toContainText('1 person');
  await expect(forgotten).toContainText('1 list membership');
  await expect(forgotten).toContainText('1 tag on them');
  await done.getByRole('button', { name: 'Done' }).click();

  // again: nothing left to forget
  await pane.getByRole('button', { name: 'Erase an address…' }).click();
  dialog = page.getByRole('dialog', { name: 'Erase an address' });
  await dialog.getByLabel('Address to erase').fill('forget.me@example.net');
  await dialog.getByRole('checkbox', { name: 'I understand this cannot be undone' }).check();
  await dialog.getByRole('button', { name: 'Erase everywhere' }).click();
  await expect(page.getByRole('dialog', { name: 'Erased' }).getByText('Nothing to forget.')).toBeVisible();
});
