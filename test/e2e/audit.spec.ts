/**
 * Issue 16 end to end, the site's audit trail: its status, every filter through the pickers with
 * the count of matches, the rows read by keyboard, an export of the filtered trail to a file
 * (checked on disk), a page update's before/after with the sandbox's detailed coverage, and a
 * trail of a million events read to its oldest by keyboard (its pages read as they come into view).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';
import { SandboxClient, pagePath } from '../sandbox/cms/test-client';

const demo = useDemoSite('sitedesk-audit-e2e-', (info) => ({ ...UNHURRIED, audit: { enabled: true }, auditSeed: info.title.includes('million') ? 1_000_000 : 2000 }));

test('filter the audit trail and export it', async ({ page }) => {
  const out = mkdtempSync(join(tmpdir(), 'sitedesk-audit-export-'));
  try {
    await demo.connect(page);
    const pane = await openArea(page, 'Demo', 'Audit trail');
    await expect(pane.getByText(/Coverage standard/)).toBeVisible();
    const filters = pane.getByRole('search', { name: 'Filter the audit trail' });
    await expect(filters.getByText('2,000 events')).toBeVisible();
    const grid = pane.getByRole('grid', { name: 'Audit events of Demo' });
    await expect(grid.getByRole('row').nth(1)).toBeVisible();

    await filters.getByLabel('Event').selectOption('media.upload');
    await expect(filters.getByText('200 events match')).toBeVisible();
    await filters.getByLabel('Actor').selectOption('admin');
    await expect(filters.getByText('100 events match')).toBeVisible();
    await filters.getByLabel('Severity').selectOption('info');
    await filters.getByLabel('Target type').selectOption('media');
    await filters.getByLabel('Search').fill('image-14');
    const matched = demo.cms.audit.store.query({ event: 'media.upload', actor: 'admin', severity: 'info', target_type: 'media', q: 'image-14' }, 1, 0).total;
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThan(100);
    await expect(filters.getByText(`${matched} ${matched === 1 ? 'event' : 'events'} match`, { exact: true })).toBeVisible();
    const rows = grid.getByRole('row').filter({ hasText: 'media.upload' });
    await expect(rows).toHaveCount(matched);

    // the rows by keyboard: the focused one is the one in the detail
    await rows.first().click();
    const detail = pane.getByRole('complementary', { name: 'The event in full' });
    await expect(detail.getByRole('heading', { name: /media\.upload/ })).toBeVisible();
    const firstId = await detail.getByText(/^\d+$/).first().textContent();
    await page.keyboard.press('ArrowDown');
    if (matched > 1) await expect(detail.getByText(firstId!, { exact: true })).toHaveCount(0);

    // export what is filtered
    await pane.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the audit trail' });
    await expect(dialog.getByText(`${matched} ${matched === 1 ? 'event' : 'events'} matching the filters`)).toBeVisible();
    const file = join(out, 'uploads.csv');
    await dialog.getByLabel('Save as').fill('relative.csv');
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect(dialog.getByText(/Enter a full path/)).toBeVisible();
    await dialog.getByLabel('Save as').fill(file);
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect(dialog.getByRole('status')).toContainText(`${matched} ${matched === 1 ? 'event' : 'events'} written to`);
    await expect(dialog.getByText(file)).toBeVisible();
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines[0]).toMatch(/^id,ts,event,severity,actor_id/);
    expect(lines).toHaveLength(matched + 1);
    expect(lines.slice(1).every((l) => l.includes(',media.upload,info,admin,') && l.includes('image-14'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    await dialog.getByRole('button', { name: 'Done' }).click();

    // the same name again: asked before it is replaced
    await pane.getByRole('button', { name: 'Export…' }).click();
    await dialog.getByRole('radio', { name: 'JSON' }).click();
    await dialog.getByLabel('Save as').fill(file);
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect(dialog.getByRole('alert')).toContainText('is there already. Replace it with the export?');
    await dialog.getByRole('button', { name: 'Replace it' }).click();
    await expect(dialog.getByRole('status')).toContainText('written to');
    expect((JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length).toBe(matched);
    await dialog.getByRole('button', { name: 'Done' }).click();

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(filters.getByText('2,000 events')).toBeVisible();
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test('a page update read as before and after', async ({ page }) => {
  demo.cms.audit.knobs.coverage = 'detailed';
  const editor = await new SandboxClient(demo.cms).keyFor('editor');
  const r = await editor.patch(pagePath('/blog'), { title: 'The audited blog', content: 'A body written for the audit trail.\n\nWith a second paragraph.' });
  expect(r.status, r.text).toBe(200);
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Audit trail');
  await expect(pane.getByText(/Coverage detailed/)).toBeVisible();
  const filters = pane.getByRole('search', { name: 'Filter the audit trail' });
  await filters.getByLabel('Actor').selectOption('editor');
  await filters.getByLabel('Event').selectOption('page.update');
  const grid = pane.getByRole('grid', { name: 'Audit events of Demo' });
  const row = grid.getByRole('row').filter({ hasText: '/blog' }).first();
  await row.click();
  const detail = pane.getByRole('complementary', { name: 'The event in full' });
  await expect(detail.getByRole('heading', { name: 'What changed' })).toBeVisible();
  await expect(detail.getByRole('group', { name: /^title: before .+, after The audited blog$/ })).toBeVisible();
  const content = detail.getByRole('region', { name: 'content' });
  await expect(content).toBeVisible();
  await expect(content.getByText(/\d+ added/)).toBeVisible();
  await expect(content.locator('ins').filter({ hasText: 'second' })).toBeVisible();
  await expect(content.locator('del').filter({ hasText: 'demo' }).first()).toBeVisible();
});

test('a million-event trail scrolls to its oldest event by keyboard', async ({ page }) => {
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'Audit trail');
  const filters = pane.getByRole('search', { name: 'Filter the audit trail' });
  await expect(filters.getByText('1,000,000 events')).toBeVisible({ timeout: 30_000 });
  const grid = pane.getByRole('grid', { name: 'Audit events of Demo' });
  await expect(grid).toHaveAttribute('aria-rowcount', '1000001');
  await grid.locator('[data-index="0"]').click();
  await page.keyboard.press('End');
  const last = grid.locator('[data-index="999999"]');
  await expect(last).toBeFocused();
  await expect(last).toContainText(/\d{4}-\d\d-\d\d \d\d:\d\d/);
  // the oldest event (the first generated) is the one in the detail
  const detail = pane.getByRole('complementary', { name: 'The event in full' });
  await expect(detail.getByText('Event id')).toBeVisible();
  await expect(detail.locator('.fact').filter({ hasText: 'Event id' }).locator('dd')).toHaveText('1');
  await page.keyboard.press('PageUp');
  await expect(grid.locator('[data-index]:focus')).toContainText(/\d{4}-\d\d-\d\d/);
  // only the rows near the view are in the page
  expect(await grid.locator('[data-index]').count()).toBeLessThan(120);
});

test('an export under way shows its progress and, cancelled, leaves no file', async ({ page }) => {
  const out = mkdtempSync(join(tmpdir(), 'sitedesk-audit-cancel-'));
  try {
    await demo.connect(page);
    const pane = await openArea(page, 'Demo', 'Audit trail');
    await expect(pane.getByRole('search', { name: 'Filter the audit trail' }).getByText('2,000 events')).toBeVisible();
    // long enough that the steps below happen while it waits, however loaded the machine
    demo.cms.faults.set({ route: 'GET /audit/export', latencyMs: 30_000 });
    await pane.getByRole('button', { name: 'Export…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export the audit trail' });
    await dialog.getByLabel('Save as').fill(join(out, 'slow.csv'));
    await dialog.getByRole('button', { name: 'Export' }).click();
    await expect(dialog.getByRole('progressbar', { name: 'Export progress' })).toBeVisible();
    await expect(dialog.getByText('0 events so far (0 bytes)')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('export-under-way.png') });
    await dialog.getByRole('button', { name: 'Cancel export' }).click();
    await expect(page.getByText('Export cancelled')).toBeVisible();
    await expect(dialog.getByRole('progressbar')).toHaveCount(0);
    expect(readdirSync(out)).toEqual([]);
  } finally {
    demo.cms.faults.clear();
    rmSync(out, { recursive: true, force: true });
  }
});
