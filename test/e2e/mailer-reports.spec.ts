/**
 * Issue 18 end to end, the Mailer's deliverability, reports and the A/B subject test on the demo
 * site (document 2's mailer; the real flavour's Mailroom answers none of these routes, and the
 * sections say so): a From domain failing its checks with what to add and Copy, checked again; a
 * provider's secret made and its webhook set up; a report as a table and a chart described in
 * words, its CSV saved and its first line read; a sent subject test showing its winner.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-mailer-reports-e2e-', { ...UNHURRIED, mailer: { subscribers: 300 } });

/** The site's own API, behind the app's back (what another admin, or the provider, would do). */
async function siteCall(method: string, path: string, body?: unknown): Promise<any> {
  const r = await fetch(`${demo.cms.url}${path}`, { method, headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey!, 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
  expect(r.ok, `${method} ${path}: ${r.status}`).toBe(true);
  return r.status === 204 ? null : ((await r.json()) as { data: unknown }).data;
}

async function openSection(page: Page, name: string): Promise<Locator> {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Mailer');
  await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name }).click();
  return pane;
}

test('deliverability: a From domain failing its checks, with what to add and Copy; checked again; a provider’s secret made and its webhook set up', async ({ page }, info) => {
  test.skip(info.project.metadata?.flavor === 'real', 'Mailroom answers no deliverability route: the last test');
  const lists = (await siteCall('GET', '/mailer/lists')) as { id: number }[];
  await siteCall('PATCH', `/mailer/lists/${lists[0]!.id}`, { from_email: 'news@partner.example' });
  const pane = await openSection(page, 'Deliverability');
  await expect(pane.getByRole('heading', { name: 'Deliverability', level: 4 })).toBeVisible();
  await expect(pane.getByText(/Some checks fail/)).toBeVisible();

  const partner = pane.getByRole('list', { name: 'Checks of partner.example' });
  const spf = partner.getByRole('listitem').filter({ hasText: 'SPF' });
  await expect(spf).toContainText('Failed');
  await expect(spf).toContainText('does not name the mail relay');
  await expect(spf.getByText('v=spf1 include:mail.example include:other-relay.example ~all')).toBeVisible();
  await spf.getByRole('button', { name: 'Copy the SPF record for partner.example' }).click();
  await expect(page.getByText('The record is on the clipboard.')).toBeVisible();
  const dmarc = partner.getByRole('listitem').filter({ hasText: 'DMARC' });
  await expect(dmarc.getByText('v=DMARC1; p=none', { exact: true })).toBeVisible();
  await expect(dmarc.getByText('_dmarc.partner.example', { exact: true })).toBeVisible();
  // the site's own domain only watches with DMARC: a warning, with the policy to move to
  const own = pane.getByRole('list', { name: 'Checks of site.example' });
  await expect(own.getByRole('listitem').filter({ hasText: 'DMARC' })).toContainText('Warning');
  await expect(own.getByRole('listitem').filter({ hasText: 'SPF' })).toContainText('Passed');

  // another list's From since: the site keeps its look-up, so it shows once checked again
  await siteCall('PATCH', `/mailer/lists/${lists[1]!.id}`, { from_email: 'hello@shop.example' });
  await expect(pane.getByRole('list', { name: 'Checks of shop.example' })).toHaveCount(0);
  demo.cms.clock.advance(2_000);
  await pane.getByRole('button', { name: 'Check again' }).click();
  await expect(page.getByText('Every From domain was looked up now.')).toBeVisible();
  const shop = pane.getByRole('list', { name: 'Checks of shop.example' });
  await expect(shop.getByRole('listitem')).toHaveCount(3);
  await expect(shop.getByText('Passed')).toHaveCount(3);

  // a provider: a secret made (never shown), the webhook URL to give it, set up through its API
  const providers = pane.getByRole('region', { name: 'Bounce and complaint reports' });
  const mailgun = providers.getByRole('listitem').filter({ hasText: 'Mailgun' });
  await expect(mailgun).toContainText('No secret yet');
  await expect(mailgun.getByRole('button', { name: 'Set up the webhook' })).toBeDisabled();
  await mailgun.getByRole('button', { name: 'Make a secret' }).click();
  await expect(mailgun).toContainText('Secret set');
  await expect(mailgun.getByText(/\/mailer\/webhooks\/mailgun$/)).toBeVisible();
  const hash = demo.cms.mailer.store.db.prepare("SELECT secret_hash FROM providers WHERE name = 'mailgun'").pluck().get() as string;
  await expect(page.getByText(hash)).toHaveCount(0);
  await mailgun.getByRole('button', { name: 'Set up the webhook' }).click();
  await expect(mailgun).toContainText(/Set up .*\(webhook mailgun_wh_\d+\)/);
  // Amazon SES is set up by hand: no such button, and how is said once it has a secret
  const ses = providers.getByRole('listitem').filter({ hasText: 'Amazon SES' });
  await expect(ses.getByRole('button', { name: 'Set up the webhook' })).toHaveCount(0);
});

test('a report as a table and a chart described in words, over another period; its CSV saved and its first line the report’s columns', async ({ page }, info) => {
  test.skip(info.project.metadata?.flavor === 'real', 'Mailroom answers no report route: the last test');
  const dir = await mkdtemp(join(tmpdir(), 'sitedesk-report-csv-'));
  try {
    const pane = await openSection(page, 'Reports');
    await expect(pane.getByRole('heading', { name: 'Reports', level: 4 })).toBeVisible();
    // the campaigns report first: a table, no chart
    await expect(pane.getByRole('heading', { name: 'Campaigns', level: 5 })).toBeVisible();
    await pane.getByLabel('Report').selectOption({ label: 'Growth' });
    const table = pane.getByRole('table', { name: /^Growth report/ });
    await expect(table.getByRole('row')).toHaveCount(1 + 30 + 1);
    await expect(table.getByRole('columnheader')).toHaveText(['Day', 'Joined', 'Left', 'Net']);
    const chart = pane.getByRole('img', { name: /^Day chart\./ });
    await expect(chart).toHaveAttribute('aria-label', /30 days from .*: \d[\d,]* joined, \d[\d,]* left/);
    // the totals row is the site's sums
    const sums = (await siteCall('GET', '/mailer/reports/growth')) as { totals: { joined: number; left: number } };
    await expect(table.locator('tfoot td').first()).toHaveText(sums.totals.joined.toLocaleString('en'));
    await expect(table.locator('tfoot td').nth(1)).toHaveText(sums.totals.left.toLocaleString('en'));

    await pane.getByLabel('Over').selectOption({ label: 'the last 7 days' });
    await expect(table.getByRole('row')).toHaveCount(1 + 7 + 1);
    await expect(chart).toHaveAttribute('aria-label', /7 days from/);

    await pane.getByRole('button', { name: 'Download CSV…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Download the growth report' });
    const file = join(dir, 'growth.csv');
    await dialog.getByLabel('Save as').fill(file);
    await dialog.getByRole('button', { name: 'Save CSV' }).click();
    await expect(dialog.getByText(/7 rows/)).toBeVisible();
    await expect(dialog.getByText(file)).toBeVisible();
    const text = await readFile(file, 'utf8');
    expect(text.split('\r\n')[0]).toBe('\ufeffday,joined,left,net');
    expect(text.trimEnd().split('\r\n')).toHaveLength(8);
    // the same name again: replaced only when asked
    await dialog.getByRole('button', { name: 'Done' }).click();
    await pane.getByRole('button', { name: 'Download CSV…' }).click();
    await dialog.getByLabel('Save as').fill(file);
    await dialog.getByRole('button', { name: 'Save CSV' }).click();
    await expect(dialog.getByRole('alert').filter({ hasText: 'is there already' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Replace it' }).click();
    await expect(dialog.getByText(/7 rows/)).toBeVisible();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a sent subject test: both subjects with their sample and window, each side’s figures, the winner', async ({ page }, info) => {
  test.skip(info.project.metadata?.flavor === 'real', 'Mailroom answers no campaign routes here');
  const lists = (await siteCall('GET', '/mailer/lists')) as { id: number }[];
  const made = (await siteCall('POST', '/mailer/campaigns', { name: 'Which subject', subject: 'Spring at the fair', subject_b: 'Three new stalls', ab_sample_percent: 40, ab_window_minutes: 60, body_md: '# Spring', list_ids: [lists[0]!.id] })) as { id: number };
  await siteCall('POST', `/mailer/campaigns/${made.id}/start`, {});
  // the sandbox's clock: the sample goes out, the window runs, the winner goes to the rest
  for (let i = 0; i < 40; i++) {
    demo.cms.clock.advance(i < 10 ? 2_000 : 10 * 60_000);
    const c = (await siteCall('GET', `/mailer/campaigns/${made.id}`)) as { status: string };
    if (c.status === 'sent') break;
  }
  const site = (await siteCall('GET', `/mailer/campaigns/${made.id}`)) as { status: string; subject_test: { winner: string; sample_size: number } };
  expect(site.status).toBe('sent');

  const pane = await openSection(page, 'Campaigns');
  await pane.getByRole('table', { name: /Campaigns of Demo/ }).getByRole('button', { name: 'Which subject', exact: true }).click();
  await expect(pane.getByRole('tab', { name: 'How it went' })).toHaveAttribute('aria-selected', 'true');
  const ab = pane.getByRole('region', { name: 'Subject test' });
  await expect(ab).toContainText(`Tried on 40 % of the audience (${site.subject_test.sample_size.toLocaleString('en')} people), half each subject; the one opened most within 1 hour goes to the rest.`);
  await expect(ab.getByRole('status')).toContainText(`Subject ${site.subject_test.winner.toUpperCase()} won`);
  await expect(ab.getByRole('status')).toContainText('picked');
  const sides = ab.getByRole('table', { name: 'The two subjects and their figures in the sample' });
  await expect(sides.getByRole('rowheader', { name: /Spring at the fair/ })).toBeVisible();
  await expect(sides.getByRole('rowheader', { name: /Three new stalls/ })).toBeVisible();
  await expect(sides.getByRole('rowheader', { name: /\(the winner\)/ })).toContainText(site.subject_test.winner === 'a' ? 'Spring at the fair' : 'Three new stalls');
  await expect(sides.getByRole('columnheader', { name: 'At the pick' })).toBeVisible();
});

test('a plugin without deliverability or reports says so, and the rest of the Mailer works', async ({ page }, info) => {
  test.skip(info.project.metadata?.flavor !== 'real', 'document 2’s mailer has them: the tests before');
  const pane = await openSection(page, 'Deliverability');
  await expect(pane.getByText('No deliverability checks from this site')).toBeVisible();
  await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name: 'Reports' }).click();
  await expect(pane.getByText('No reports from this site')).toBeVisible();
  await pane.getByRole('navigation', { name: /sections$/ }).getByRole('button', { name: 'Lists and tags' }).click();
  await expect(pane.getByRole('heading', { name: 'Lists and tags', level: 4 })).toBeVisible();
});
