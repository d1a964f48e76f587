/**
 * Issue 21, the screens added after accessibility.spec.ts walked the app: the Mailer's sections
 * and their dialogs, Sites at a glance, About Sitedesk and the audit trails kept on this computer,
 * each through axe-core as there (light and dark, wide and narrow; a hovered or focused state in
 * light and dark).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { A11Y_SIZES, checkScreen as check, checkState } from './support/a11y';
import { DEMO, openArea, rail, switchArea, UNHURRIED, useDemoSite } from './support/app';

// a small audience: these tests are about the screens, not about 20,000 people
const demo = useDemoSite('sitedesk-a11y-added-e2e-', { ...UNHURRIED, mailer: { subscribers: 1500 }, audit: { enabled: true }, auditSeed: 200 });


// each test walks many screens, each checked four ways by axe (seconds each on a busy machine)
test.describe.configure({ timeout: 600_000 });
test.use({ viewport: A11Y_SIZES.wide });

/** Opens the Mailer area (its Subscribers section first); answers the pane. */
async function openMailer(page: Page): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, DEMO, 'Mailer');
  await expect(pane.getByRole('search', { name: 'Filter the subscribers' }).getByText(/^[\d,]+ people$/)).toBeVisible({ timeout: 30_000 });
  return pane;
}

/** In the open Mailer area, one of its sections. */
async function section(pane: Locator, name: string): Promise<void> {
  await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name }).click();
  await expect(pane.getByRole('heading', { name, level: 4 })).toBeVisible();
}

test('the Mailer’s audience: subscribers, a person’s page and its dialogs, adding, acting on many, exporting', async ({ page }) => {
  const pane = await openMailer(page);
  const grid = pane.getByRole('grid', { name: 'Subscribers of Demo' });
  const filters = pane.getByRole('search', { name: 'Filter the subscribers' });
  await check(page, 'mailer: subscribers', grid.locator('[data-index="0"]'));
  await grid.getByRole('row').nth(2).hover();
  await checkState(page, 'mailer: subscribers, a row hovered');
  await grid.getByRole('row').nth(1).focus();
  await checkState(page, 'mailer: subscribers, a row focused');
  await filters.getByRole('group', { name: 'Status' }).getByRole('button', { name: /^Bounced/ }).click();
  await expect(filters.getByText(/ match$/)).toBeVisible();
  await checkState(page, 'mailer: subscribers filtered');
  await filters.getByRole('button', { name: 'Clear filters' }).click();

  // a person subscribed to the newsletter only: their page, then each of its dialogs
  const store = demo.cms.mailer.store;
  const newsletter = store.listByCode('newsletter')!;
  const who = store
    .query({ status: 'subscribed', list: newsletter.id, list_status: 'subscribed' }, 200, 0)
    .rows.find((r) => store.memberships(r.id).length === 1 && !r.suppressed)!;
  await filters.getByLabel('Search subscribers').fill(who.email);
  await expect(filters.getByText('1 person match', { exact: true })).toBeVisible();
  await grid.getByRole('row').nth(1).click();
  const person = pane.getByRole('complementary', { name: 'The person’s page' });
  await check(page, 'mailer: a person’s page', person.getByText(who.email));

  await person.getByRole('button', { name: 'Edit…' }).click();
  const edit = page.getByRole('dialog', { name: /^Edit / });
  await check(page, 'mailer: edit a person', edit.getByLabel('Name'));
  await edit.getByLabel('Tags').fill('edited');
  await edit.getByLabel('Tags').press('Enter');
  await edit.getByRole('checkbox', { name: /^Partner offers/ }).check();
  await edit.getByRole('button', { name: 'Save' }).click();
  await check(page, 'mailer: edit a person, kept off a list', edit.getByRole('alert'));
  await edit.getByRole('button', { name: 'Close', exact: true }).click();

  await person.getByRole('button', { name: 'Unsubscribe…' }).click();
  const ask = page.getByRole('alertdialog', { name: 'Unsubscribe from every list?' });
  await check(page, 'mailer: unsubscribe confirm', ask);
  await ask.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(person.locator('.badges')).toContainText('Unsubscribed');
  await expect(person.getByText('Taken off by the site').first()).toBeVisible();
  await checkState(page, 'mailer: a person’s page, unsubscribed');

  await person.getByRole('button', { name: 'Put back…' }).click();
  const back = page.getByRole('dialog', { name: /^Put .* back$/ });
  await back.getByRole('button', { name: 'Put back' }).click();
  await expect(back.getByLabel('How they asked')).toHaveAttribute('aria-invalid', 'true');
  await check(page, 'mailer: put back, the note missing', back);
  await back.getByLabel('How they asked').fill('Asked by phone');
  await back.getByRole('button', { name: 'Put back' }).click();
  await expect(back).toBeHidden();

  await person.getByRole('button', { name: 'Export data…' }).click();
  await check(page, 'mailer: export a person’s data', page.getByRole('dialog', { name: /^Export .*’s data$/ }).getByLabel('Save as'));
  await page.keyboard.press('Escape');
  await person.getByRole('button', { name: 'Close the person’s page' }).click();
  await expect(person).toBeHidden();
  await filters.getByLabel('Search subscribers').fill('');

  // adding a person: the form, the field the site refused, the outcome
  await pane.getByRole('button', { name: 'Add…' }).click();
  const add = page.getByRole('dialog', { name: 'Add a subscriber' });
  await check(page, 'mailer: add a subscriber', add.getByLabel('Email address'));
  await add.getByLabel('Email address').fill('reader@localhost');
  await add.getByRole('button', { name: 'Invite' }).click();
  await expect(add.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await check(page, 'mailer: add a subscriber, refused');
  await add.getByLabel('Email address').fill('new.reader@example.org');
  await add.getByRole('button', { name: 'Invite' }).click();
  await check(page, 'mailer: add a subscriber, invited', add.getByRole('status'));
  await page.keyboard.press('Escape');
  await expect(add).toBeHidden();

  // acting on everyone waiting to confirm: the count first, the tag missing, the result
  const chips = filters.getByRole('group', { name: 'Status' });
  await chips.getByRole('button', { name: /^Waiting to confirm/ }).click();
  await expect(filters.getByText(/ match$/)).toBeVisible();
  await pane.getByRole('button', { name: 'Act on many…' }).click();
  const bulk = page.getByRole('dialog', { name: 'Act on many' });
  await check(page, 'mailer: act on many, the count', bulk.getByText('everybody waiting to confirm'));
  await bulk.getByLabel('Action').selectOption({ label: 'Add a tag' });
  await bulk.getByRole('button', { name: /^Tag / }).click();
  await expect(bulk.getByText('Enter the tag.')).toBeVisible();
  await checkState(page, 'mailer: act on many, the tag missing');
  await bulk.getByLabel('Tag', { exact: true }).fill('Spring drive');
  await bulk.getByRole('button', { name: /^Tag / }).click();
  await check(page, 'mailer: act on many, done', bulk.getByRole('status').filter({ hasText: 'Add a tag: done for' }));
  await bulk.getByRole('button', { name: 'Done' }).click();

  await pane.getByRole('button', { name: 'Export…' }).click();
  await check(page, 'mailer: export the subscribers', page.getByRole('dialog', { name: 'Export the subscribers' }).getByLabel('Save as'));
  await page.keyboard.press('Escape');
  await pane.getByRole('button', { name: /^Offline copy/ }).click();
  await check(page, 'mailer: subscribers offline', page.getByRole('dialog', { name: 'Subscribers offline' }).getByText(/Subscribers are personal data/));
  await page.keyboard.press('Escape');
});

test('the Mailer’s tools: an import step by step, lists and tags, segments with conditions, suppressions and erasing', async ({ page }) => {
  const pane = await openMailer(page);

  // an import: its history, then each step of the wizard
  await section(pane, 'Imports');
  await check(page, 'mailer: imports', pane.getByRole('table', { name: /Past imports of Demo/ }).getByText('webinar-leads.csv'));
  await pane.getByRole('button', { name: 'New import…' }).first().click();
  await check(page, 'mailer: import, the file', pane.getByLabel('CSV file'));
  const rows = ['Email address,First name,Last name,Tags'];
  for (let i = 1; i <= 12; i++) rows.push(`reader${i}@import.example,Reader,Number ${i},spring`);
  rows.push('not-an-address,Broken,Row,');
  const file = join(demo.session.dataDir, 'contacts.csv');
  writeFileSync(file, rows.join('\n') + '\n');
  await pane.getByLabel('CSV file').fill(file);
  await pane.getByRole('button', { name: 'Read the file' }).click();
  await expect(pane.getByRole('heading', { name: 'Columns: contacts.csv' })).toBeVisible();
  await check(page, 'mailer: import, the columns mapped', pane.getByRole('region', { name: 'Dry run of the whole file' }).getByText(/rows would be written/));
  await pane.getByRole('combobox', { name: 'Read “Email address” as' }).selectOption('');
  await pane.getByRole('button', { name: 'Next' }).click();
  await check(page, 'mailer: import, no address column', pane.getByRole('alert').filter({ hasText: /address/i }).first());
  await pane.getByRole('combobox', { name: 'Read “Email address” as' }).selectOption('email');
  await pane.getByRole('button', { name: 'Next' }).click();
  await check(page, 'mailer: import, list and consent', pane.getByRole('heading', { name: /^List and consent/ }));
  await pane.getByLabel('List', { exact: true }).selectOption({ label: 'Product updates' });
  await pane.getByRole('button', { name: 'Next' }).click();
  await expect(pane.getByText('Say whether these people confirmed at the other tool.')).toBeVisible();
  await checkState(page, 'mailer: import, consent not said');
  await pane.getByRole('radio', { name: /Yes, they confirmed/ }).check();
  await pane.getByLabel('Where they agreed').fill('Signup form at the spring fair');
  await pane.getByRole('button', { name: 'Next' }).click();
  await check(page, 'mailer: import, the dry run', pane.getByRole('heading', { name: /^Dry run/ }));
  await pane.getByRole('button', { name: 'Run the import' }).click();
  await check(page, 'mailer: import, done', pane.getByText(/Imported contacts\.csv: 13 rows read\./));
  await pane.getByRole('button', { name: 'Done' }).click();

  // lists and tags: the tables, a new list refused by the site, a list edited, a tag's delete
  await section(pane, 'Lists and tags');
  const lists = pane.getByRole('table', { name: 'Lists of Demo' });
  await check(page, 'mailer: lists and tags', lists.getByText('Newsletter', { exact: true }));
  await pane.getByRole('button', { name: 'New list…' }).click();
  const newList = page.getByRole('dialog', { name: 'New list' });
  await check(page, 'mailer: new list', newList.getByLabel('Code'));
  await newList.getByLabel('Code').fill('Bad Code');
  await newList.getByLabel('Name', { exact: true }).fill('Spring fair');
  await newList.getByRole('button', { name: 'Make list' }).click();
  await expect(newList.getByLabel('Code')).toHaveAttribute('aria-invalid', 'true');
  await check(page, 'mailer: new list, the code refused');
  await page.keyboard.press('Escape');
  await lists.getByRole('button', { name: 'Edit list Newsletter' }).click();
  await check(page, 'mailer: edit a list', page.getByRole('dialog', { name: 'Edit list “Newsletter”' }).getByText(/A list’s code never changes/));
  await page.keyboard.press('Escape');
  await pane.getByLabel('New tag').fill('Early Birds');
  await pane.getByRole('button', { name: 'Add tag' }).click();
  await expect(pane.getByText('Tag made: “Early Birds”, code early-birds.')).toBeVisible();
  await checkState(page, 'mailer: a tag made');
  await pane.getByRole('list', { name: 'Tags of Demo' }).getByRole('button', { name: 'Delete tag Early Birds' }).click();
  await check(page, 'mailer: delete a tag confirm', page.getByRole('alertdialog', { name: 'Delete the tag “Early Birds”?' }));
  await page.keyboard.press('Escape');

  // segments: a saved one, then a new one built with a condition and a group
  await section(pane, 'Segments');
  const segments = pane.getByRole('navigation', { name: 'Segments of Demo' });
  await segments.getByRole('button', { name: /Quiet readers/ }).click();
  await check(page, 'mailer: a segment', pane.getByLabel('Name'));
  await pane.getByRole('button', { name: 'New segment' }).click();
  await pane.getByLabel('Name').fill('VIP readers');
  const preview = pane.getByRole('complementary', { name: 'Who this picks now' });
  const all = pane.getByRole('region', { name: 'Matches all of these' });
  const row = all.getByRole('group', { name: /^Condition 1 of/ });
  await row.getByRole('combobox', { name: 'Field' }).selectOption({ label: 'Tagged' });
  await expect(preview.getByText(/not filled in yet/)).toBeVisible();
  await checkState(page, 'mailer: a condition not filled in');
  await row.getByRole('combobox', { name: 'Value' }).selectOption({ label: 'Customer' });
  await all.getByRole('button', { name: 'Group', exact: true }).click();
  await expect(all.getByRole('group', { name: /^Group \d of/ })).toBeVisible();
  await check(page, 'mailer: the condition builder with a group', preview.getByRole('list', { name: 'Newest who count' }).getByRole('listitem').first());

  // suppressions: the table, suppressing with a bad address, removing by address, erasing
  await section(pane, 'Suppressions');
  await check(page, 'mailer: suppressions', pane.getByRole('table', { name: /Suppressed addresses of Demo/ }).getByRole('row').nth(1));
  await pane.getByRole('button', { name: 'Suppress an address…' }).first().click();
  const suppress = page.getByRole('dialog', { name: 'Suppress an address' });
  await suppress.getByLabel('Address').fill('not an address');
  await suppress.getByRole('button', { name: 'Suppress', exact: true }).click();
  await expect(suppress.getByLabel('Address')).toHaveAttribute('aria-invalid', 'true');
  await check(page, 'mailer: suppress an address, refused', suppress);
  await page.keyboard.press('Escape');
  await pane.getByRole('button', { name: 'Remove by address…' }).click();
  await check(page, 'mailer: remove a suppression', page.getByRole('dialog', { name: 'Remove a suppression' }).getByLabel('Address'));
  await page.keyboard.press('Escape');
  await pane.getByRole('button', { name: 'Erase an address…' }).click();
  const erase = page.getByRole('dialog', { name: 'Erase an address' });
  await check(page, 'mailer: erase an address', erase.getByText('Erasing forgets this address everywhere, and cannot be undone.'));
  await erase.getByLabel('Address to erase').fill('new.reader@example.org');
  await erase.getByRole('button', { name: 'Erase everywhere' }).click();
  await check(page, 'mailer: erase, not confirmed', erase.getByRole('alert').first());
  await erase.getByRole('checkbox', { name: 'I understand this cannot be undone' }).check();
  await erase.getByRole('button', { name: 'Erase everywhere' }).click();
  await check(page, 'mailer: erased', page.getByRole('dialog', { name: 'Erased' }).getByRole('button', { name: 'Done' }));
  await page.getByRole('dialog', { name: 'Erased' }).getByRole('button', { name: 'Done' }).click();
});

test('the Mailer’s campaigns: the table and its filters, a new campaign with its audience, sending now or at a time, canceling', async ({ page }) => {
  const pane = await openMailer(page);
  await section(pane, 'Campaigns');
  const table = pane.getByRole('table', { name: /Campaigns of Demo/ });
  await check(page, 'mailer: campaigns', table.getByRole('row', { name: /Winter preview/ }));
  await pane.getByRole('group', { name: 'Show campaigns by state' }).getByRole('button', { name: /^Sent/ }).click();
  await expect(table.getByRole('row', { name: /Winter preview/ })).toHaveCount(0);
  await checkState(page, 'mailer: campaigns, the sent ones');
  await pane.getByRole('group', { name: 'Show campaigns by state' }).getByRole('button', { name: /^All/ }).click();
  await pane.getByRole('button', { name: 'New campaign…' }).click();
  const made = page.getByRole('dialog', { name: 'New campaign' });
  await check(page, 'mailer: new campaign', made.getByText(/would reach/));
  await made.getByRole('button', { name: 'Make draft' }).click();
  await check(page, 'mailer: new campaign, no name', made.getByText(/Give the campaign a name/));
  await made.getByRole('button', { name: 'Cancel' }).click();
  await expect(made).toBeHidden();
  await table.getByRole('button', { name: 'Schedule VIP evening' }).click();
  const send = page.getByRole('dialog', { name: 'Send “VIP evening”?' });
  await send.getByLabel('At a date and time').check();
  await check(page, 'mailer: send at a time, not ready', send.getByText(/It cannot go out yet/));
  await send.getByRole('button', { name: 'Cancel' }).click();
  await table.getByRole('button', { name: 'Cancel VIP evening' }).click();
  await check(page, 'mailer: cancel a campaign', page.getByRole('alertdialog', { name: /Cancel “VIP evening” for good/ }));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep it' }).click();

  // a sent one's page: the figures, the chart, its links and sends
  await table.getByRole('button', { name: 'Autumn news', exact: true }).click();
  await check(page, 'mailer: a campaign’s report', pane.getByRole('grid', { name: /Sends of Autumn news/ }).getByRole('row').nth(1));
  await pane.getByText('The hours as a table').click();
  await checkState(page, 'mailer: a campaign’s hours as a table');
  await pane.getByRole('button', { name: 'All campaigns' }).click();
  // a draft's page: the editor with the site's render beside it, and a test copy
  await table.getByRole('button', { name: 'Winter preview', exact: true }).click();
  await check(page, 'mailer: writing a campaign', pane.getByRole('region', { name: 'As the site renders it' }).getByText(/Still to write/));
  await pane.getByRole('button', { name: 'Send a test…' }).click();
  await check(page, 'mailer: a test copy', page.getByRole('dialog', { name: 'Send a test copy' }).getByLabel('Address'));
  await page.getByRole('dialog', { name: 'Send a test copy' }).getByRole('button', { name: 'Cancel' }).click();

  // the overview: alerts, the audience, the growth chart, the latest campaigns
  await section(pane, 'Overview');
  await check(page, 'mailer: overview', pane.getByRole('img', { name: /Growth of the audience per day/ }));
  await pane.getByText('The days as a table').click();
  await checkState(page, 'mailer: overview, the days as a table');

  // templates: the list, one rendered, the dialog
  await section(pane, 'Templates');
  await pane.getByRole('list', { name: 'Templates of Demo' }).getByRole('button', { name: /^Monthly newsletter/ }).click();
  await check(page, 'mailer: templates', pane.getByRole('region', { name: /“Monthly newsletter” as the site renders it/ }).locator('.paper'));
  await pane.getByRole('button', { name: 'New template…' }).click();
  await check(page, 'mailer: new template', page.getByRole('dialog', { name: 'New template' }).getByLabel('Name'));
  await page.getByRole('dialog', { name: 'New template' }).getByRole('button', { name: 'Cancel' }).click();
});

test('a campaign written while the site is away: the kept notice, Changes with it, the merge view of a conflict', async ({ page }) => {
  const pane = await openMailer(page);
  await section(pane, 'Campaigns');
  await pane.getByRole('table', { name: /Campaigns of Demo/ }).getByRole('button', { name: 'Winter preview', exact: true }).click();
  const store = demo.cms.mailer.store.db;
  try {
    demo.cms.faults.set({ route: '*', drop: true });
    await pane.getByLabel('Subject', { exact: true }).fill('Mine');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(pane.getByText('Kept on this computer, not on the site yet')).toBeVisible({ timeout: 20_000 });
    await check(page, 'mailer: a campaign kept on this computer', pane.getByRole('status').filter({ hasText: 'Not on the site yet.' }));
    await pane.getByRole('button', { name: 'All campaigns' }).click();
    await switchArea(pane, 'Demo', 'Changes');
    await check(page, 'changes: a campaign waiting', pane.getByRole('listitem').filter({ hasText: 'Winter preview' }));
    store.prepare("UPDATE campaigns SET fields = json_set(fields, '$.subject', 'Theirs') WHERE name = 'Winter preview'").run();
    demo.cms.faults.clear();
    const item = pane.getByRole('listitem').filter({ hasText: 'Winter preview' });
    await expect(item).toContainText('Conflict: changed on the site too', { timeout: 60_000 });
    await item.getByRole('button', { name: /^Resolve…/ }).click();
    await check(page, 'changes: a campaign’s merge view', pane.getByRole('region', { name: 'Resolve conflict: Winter preview' }).getByRole('radiogroup', { name: 'Subject' }));
  } finally {
    demo.cms.faults.clear();
  }
});

test('the Mailer’s deliverability, reports and a campaign’s subject test: a failing domain with its fix, the providers, a report as chart and table, its download', async ({ page }) => {
  // a list mailing from a domain without records (behind the app's back): every check fails
  const list = demo.cms.mailer.store.lists()[0]!;
  demo.cms.mailer.store.db.prepare("UPDATE lists SET from_email = 'news@partner.example' WHERE id = ?").run(list.id);
  // a subject test sent on the sandbox's clock, through the site's own API
  const api = (method: string, path: string, body?: unknown) => fetch(`${demo.cms.url}${path}`, { method, headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey!, 'Content-Type': 'application/json' }, body: JSON.stringify(body ?? {}) }).then((r) => r.json() as Promise<{ data: { id: number; status: string } }>);
  const ab = (await api('POST', '/mailer/campaigns', { name: 'Which subject', subject: 'Spring at the fair', subject_b: 'Three new stalls', ab_sample_percent: 20, ab_window_minutes: 30, body_md: '# Spring', list_ids: [list.id] })).data;
  await api('POST', `/mailer/campaigns/${ab.id}/start`);
  for (let i = 0; i < 40; i++) {
    demo.cms.clock.advance(i < 10 ? 3_000 : 10 * 60_000);
    if ((await fetch(`${demo.cms.url}/mailer/campaigns/${ab.id}`, { headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey! } }).then((r) => r.json() as Promise<{ data: { status: string } }>)).data.status === 'sent') break;
  }
  const pane = await openMailer(page);
  await section(pane, 'Campaigns');
  await pane.getByRole('table', { name: /Campaigns of Demo/ }).getByRole('button', { name: 'Which subject', exact: true }).click();
  await check(page, 'mailer: a campaign’s subject test', pane.getByRole('region', { name: 'Subject test' }).getByRole('status'));
  await pane.getByRole('button', { name: 'All campaigns' }).click();
  await section(pane, 'Deliverability');
  await check(page, 'mailer: deliverability', pane.getByRole('list', { name: 'Checks of partner.example' }).getByText('v=DMARC1; p=none', { exact: true }));
  await pane.getByRole('region', { name: 'Bounce and complaint reports' }).getByRole('listitem').filter({ hasText: 'Mailgun' }).getByRole('button', { name: 'Make a secret' }).click();
  await pane.getByRole('region', { name: 'Bounce and complaint reports' }).getByRole('button', { name: 'Replace the secret…' }).click();
  await check(page, 'mailer: replace a provider’s secret', page.getByRole('alertdialog', { name: /Replace Mailgun’s webhook secret/ }));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();

  await section(pane, 'Reports');
  await pane.getByLabel('Report').selectOption({ label: 'Growth' });
  await check(page, 'mailer: a report with its chart', pane.getByRole('img', { name: /^Day chart\./ }));
  await pane.getByLabel('Report').selectOption({ label: 'Campaigns' });
  await checkState(page, 'mailer: a report as a table');
  await pane.getByRole('button', { name: 'Download CSV…' }).click();
  await check(page, 'mailer: download a report', page.getByRole('dialog', { name: 'Download the campaigns report' }).getByLabel('Save as'));
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Download the campaigns report' })).toBeHidden();
});

test('the Mailer’s automations: the list, a new one from a recipe, the step editor, its people, enrolling, taking out, deleting', async ({ page }) => {
  const pane = await openMailer(page);
  await section(pane, 'Automations');
  const table = pane.getByRole('table', { name: 'Automations of Demo' });
  await check(page, 'mailer: automations', table.getByRole('row', { name: /Welcome series/ }));
  await pane.getByRole('button', { name: 'New automation…' }).click();
  const made = page.getByRole('dialog', { name: 'New automation' });
  await check(page, 'mailer: new automation, the recipes', made.getByRole('radio', { name: /Welcome series/ }));
  await made.getByRole('radio', { name: /From scratch/ }).check();
  await made.getByRole('button', { name: 'Make draft' }).click();
  await check(page, 'mailer: new automation, no name', made.getByText(/Give the automation a name/));
  await made.getByRole('button', { name: 'Cancel' }).click();
  await expect(made).toBeHidden();

  // the seeded one: its steps with people on them, a step of each kind added, its people
  await table.getByRole('button', { name: 'Welcome series', exact: true }).click();
  const steps = pane.getByRole('list', { name: 'Steps of Welcome series' });
  await check(page, 'mailer: an automation’s steps', steps.getByRole('listitem').first());
  for (const kind of ['Check a condition', 'Change a tag', 'Send a letter']) {
    await pane.getByLabel('Add a step').selectOption({ label: kind });
    await pane.getByRole('button', { name: 'Add', exact: true }).click();
  }
  await check(page, 'mailer: the step editor, new steps of each kind', steps.getByRole('listitem').last().getByLabel('Subject'));
  await steps.getByRole('listitem').first().getByRole('button', { name: 'Move step 1 down' }).focus();
  await checkState(page, 'mailer: the step editor, a move focused');
  await pane.getByRole('button', { name: 'Undo changes' }).click();
  await pane.getByRole('tab', { name: 'People' }).click();
  await check(page, 'mailer: an automation’s people', pane.getByRole('table', { name: 'People in Welcome series' }).getByRole('row').nth(1));
  await pane.getByRole('table', { name: 'People in Welcome series' }).getByRole('button', { name: /^Take out / }).first().click();
  await check(page, 'mailer: take a person out', page.getByRole('alertdialog', { name: /^Take .* out of “Welcome series”\?$/ }));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep them in' }).click();
  await pane.getByRole('button', { name: 'Enrol a person…' }).click();
  const enrol = page.getByRole('dialog', { name: 'Enrol a person in “Welcome series”' });
  await check(page, 'mailer: enrol a person', enrol.getByRole('radio').first());
  await enrol.getByRole('button', { name: 'Cancel' }).click();
  await pane.getByRole('button', { name: 'Delete…' }).click();
  await check(page, 'mailer: delete an automation with people in it', page.getByRole('alertdialog', { name: 'Delete “Welcome series”?' }).getByText(/taken out first/));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Keep it' }).click();
  await pane.getByRole('button', { name: 'Resume…' }).click();
  await check(page, 'mailer: resume an automation', page.getByRole('alertdialog', { name: 'Resume “Welcome series”?' }));
  await page.getByRole('alertdialog').getByRole('button', { name: 'Not now' }).click();
});

test('Sites at a glance, About Sitedesk and the audit trails kept on this computer', async ({ page }) => {
  await demo.connect(page);
  await rail(page).getByRole('button', { name: 'Sites at a glance' }).click();
  const glance = page.getByRole('dialog', { name: 'Sites at a glance' });
  const row = glance.getByRole('table', { name: 'Health of each content site' }).getByRole('row', { name: new RegExp(`^Open ${DEMO}`) });
  await expect(row.getByRole('cell').nth(2)).toHaveText(/^\d+\.\d+/);
  await check(page, 'sites at a glance', glance.getByText(/needs? a look|looks? well/));
  await row.getByRole('button', { name: /^Updates on Demo/ }).hover();
  await checkState(page, 'sites at a glance, a cell hovered');
  await page.keyboard.press('Escape');
  await expect(glance).toBeHidden();

  // About: the licences, one open with its text
  const aboutButton = page.getByRole('button', { name: /^About Sitedesk / });
  await aboutButton.click();
  const about = page.getByRole('dialog', { name: 'About Sitedesk' });
  await check(page, 'about sitedesk', about.getByRole('list', { name: 'Open-source packages' }).getByRole('listitem').first());
  await about.getByLabel('Filter packages').fill('marked');
  await about.getByRole('list', { name: 'Open-source packages' }).getByRole('button', { name: /^marked / }).click();
  await check(page, 'about sitedesk, a licence open', about.getByRole('region', { name: /^LICENSE(\.md)? of marked$/ }));
  await about.getByLabel('Filter packages').fill('no-such-package-anywhere');
  await expect(about.getByText('No package matches “no-such-package-anywhere”.')).toBeVisible();
  await checkState(page, 'about sitedesk, nothing matches');
  await page.keyboard.press('Escape');
  await expect(about).toBeHidden();

  // the audit trail kept, then searched while the site is away
  const pane = await openArea(page, DEMO, 'Audit trail');
  await pane.getByRole('button', { name: 'Keep a copy' }).click();
  await expect(pane.getByText(/Sitedesk keeps a copy of this trail: [\d,]+ events, kept/)).toBeVisible({ timeout: 30_000 });
  demo.cms.faults.set({ route: '*', drop: true });
  try {
    await pane.getByRole('button', { name: 'Read again' }).click();
    await check(page, 'audit trail offline, a copy kept', pane.getByText(/Sitedesk keeps a full copy of this trail, searchable offline/));
    await pane.getByRole('button', { name: 'Search the kept copy' }).click();
    const kept = page.getByRole('dialog', { name: 'Audit trails kept on this computer' });
    const grid = kept.getByRole('grid', { name: 'Kept audit events' });
    await check(page, 'kept audit trails', grid.getByRole('row').nth(1));
    await grid.getByRole('row').nth(2).hover();
    await checkState(page, 'kept audit trails, a row hovered');
    await grid.getByRole('row').nth(1).click();
    await check(page, 'kept audit trails, an event open', kept.getByRole('complementary', { name: 'The kept event in full' }).getByRole('heading').first());
    await kept.getByRole('search', { name: 'Filter the audit trail' }).getByLabel('Search').fill('no-such-words-anywhere');
    await check(page, 'kept audit trails, nothing matches', kept.getByRole('search', { name: 'Filter the audit trail' }).getByText(/^0 events match$/));
    await kept.getByRole('search', { name: 'Filter the audit trail' }).getByLabel('Search').fill('');

    await kept.getByRole('button', { name: 'Import a file…' }).click();
    await check(page, 'kept audit trails, import a file', page.getByRole('dialog', { name: 'Import an audit trail file' }).getByLabel('File'));
    await page.keyboard.press('Escape');
    await kept.getByRole('button', { name: 'Export…' }).click();
    await check(page, 'kept audit trails, export', page.getByRole('dialog', { name: 'Export kept events' }).getByLabel('Save as'));
    await page.keyboard.press('Escape');

    const copy = kept.getByRole('list', { name: 'Kept copies' }).getByRole('listitem').first();
    await copy.getByLabel(/^How long the copy of Demo keeps its events/).selectOption('count');
    await copy.getByLabel('Events to keep').fill('10');
    await expect(copy.getByRole('button', { name: 'Apply' })).toBeVisible();
    await checkState(page, 'kept audit trails, a retention being chosen');
    await copy.getByRole('button', { name: 'Apply' }).click();
    await check(page, 'kept audit trails, retention confirm', page.getByRole('alertdialog', { name: /Keep at most 10 events of Demo\?/ }));
    await page.keyboard.press('Escape');
  } finally {
    demo.cms.faults.clear();
  }
});
