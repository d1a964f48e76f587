/**
 * Issue 16 end to end, the audit trail kept offline: Keep a copy from a site's Audit trail, the
 * site stops answering, the kept copy searched with full text and the filters; an exported file
 * imported as a copy of its own, both searched at once; what matches exported again; the copy's
 * retention chosen here (not the site's); a copy forgotten.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { openArea, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-audit-kept-e2e-', { ...UNHURRIED, audit: { enabled: true }, auditSeed: 2000 });
// a long walk (keep, offline search, import, export, retention, forget): 41 s in a whole run, near the default minute
test.describe.configure({ timeout: 120_000 });

test('keep a copy, go offline and search it; import a file, export again, retention, forget', async ({ page }) => {
  const out = mkdtempSync(join(tmpdir(), 'sitedesk-audit-kept-'));
  try {
    // an export of the trail, as a person would have saved it from the site some day
    const r = await fetch(`${demo.cms.url}/audit/export?format=csv&event=media.upload`, { headers: { 'X-API-Key': demo.cms.seeded!.adminApiKey! } });
    expect(r.status).toBe(200);
    const exported = join(out, 'old-uploads.csv');
    writeFileSync(exported, await r.text());
    const exportedRows = readFileSync(exported, 'utf8').trimEnd().split('\n').length - 1;
    expect(exportedRows).toBeGreaterThan(0);

    await demo.connect(page);
    const pane = await openArea(page, 'Demo', 'Audit trail');
    await expect(pane.getByRole('search', { name: 'Filter the audit trail' }).getByText(/^[\d,]+ events$/)).toBeVisible();
    await pane.getByRole('button', { name: 'Keep a copy' }).click();
    const keptLine = pane.getByText(/Sitedesk keeps a copy of this trail: [\d,]+ events, kept/);
    await expect(keptLine).toBeVisible({ timeout: 30_000 });
    const keptCount = Number((await keptLine.textContent())!.match(/trail: ([\d,]+) events/)![1]!.replaceAll(',', ''));
    expect(keptCount).toBeGreaterThanOrEqual(2000);
    await expect(pane.getByRole('button', { name: 'Keep up to date' })).toBeVisible();

    // the site stops answering: the kept copy is searched offline
    demo.cms.faults.set({ route: '*', drop: true });
    await pane.getByRole('button', { name: 'Read again' }).click();
    await expect(pane.getByText(/Sitedesk keeps a full copy of this trail, searchable offline: [\d,]+ events/)).toBeVisible({ timeout: 20_000 });
    await pane.getByRole('button', { name: 'Search the kept copy' }).click();
    const dialog = page.getByRole('dialog', { name: 'Audit trails kept on this computer' });
    const copies = dialog.getByRole('list', { name: 'Kept copies' });
    await expect(copies.getByRole('listitem')).toHaveCount(1);
    await expect(copies.getByRole('checkbox', { name: /^Demo/ })).toBeChecked();
    const filters = dialog.getByRole('search', { name: 'Filter the audit trail' });
    await expect(filters.getByText(`${keptCount.toLocaleString('en-US')} events`)).toBeVisible();
    await filters.getByLabel('Event').selectOption('media.upload');
    await filters.getByLabel('Search').fill('image-14');
    const grid = dialog.getByRole('grid', { name: 'Kept audit events' });
    await expect(grid.getByRole('row').nth(1)).toContainText('media.upload');
    // full text matches words: image-14 is the file image-14.jpg, not image-140 … image-149 (the site's q is a substring)
    const matched = demo.cms.audit.store.query({ event: 'media.upload', q: 'image-14.' }, 1, 0).total;
    expect(matched).toBeGreaterThan(0);
    await expect(filters.getByText(`${matched.toLocaleString('en-US')} ${matched === 1 ? 'event' : 'events'} match`, { exact: true })).toBeVisible();
    await grid.getByRole('row').nth(1).click();
    await expect(dialog.getByRole('complementary', { name: 'The kept event in full' }).getByRole('heading', { name: /media\.upload/ })).toBeVisible();
    await expect(dialog.getByText(/From Sitedesk’s copies: Demo kept/)).toBeVisible();

    // an exported file imported as a copy of its own; both are searched at once
    await dialog.getByRole('button', { name: 'Import a file…' }).click();
    const imp = page.getByRole('dialog', { name: 'Import an audit trail file' });
    await imp.getByLabel('File').fill(exported);
    await imp.getByLabel('It is the trail of').selectOption({ label: 'Another site: keep it as a copy of its own' });
    await imp.getByLabel('Name of the copy').fill('Old uploads');
    await imp.getByRole('button', { name: 'Import' }).click();
    await expect(imp.getByRole('status')).toContainText(`${exportedRows.toLocaleString('en-US')} new`, { timeout: 20_000 });
    await imp.getByRole('button', { name: 'Done' }).click();
    await expect(copies.getByRole('listitem')).toHaveCount(2);
    await copies.getByRole('checkbox', { name: /^Demo/ }).uncheck();
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect(filters.getByText(`${(keptCount + exportedRows).toLocaleString('en-US')} events`)).toBeVisible();

    // what matches, exported again
    await filters.getByLabel('Search').fill('image-14');
    const again = join(out, 'kept-again.csv');
    await dialog.getByRole('button', { name: 'Export…' }).click();
    const exp = page.getByRole('dialog', { name: 'Export kept events' });
    await exp.getByLabel('Save as').fill(again);
    await exp.getByRole('button', { name: 'Export' }).click();
    await expect(exp.getByRole('status')).toContainText('written to', { timeout: 20_000 });
    const againLines = readFileSync(again, 'utf8').trimEnd().split('\n');
    expect(againLines[0]).toMatch(/^id,ts,event,severity,actor_id/);
    expect(againLines.length - 1).toBe(matched * 2); // the site's copy and the imported one
    await exp.getByRole('button', { name: 'Done' }).click();

    // retention is the person's choice: the imported copy keeps at most 10 events
    const old = copies.getByRole('listitem').filter({ hasText: 'Old uploads' });
    await old.getByLabel('How long the copy of Old uploads keeps its events').selectOption('count');
    await old.getByLabel('Events to keep').fill('10');
    await old.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alertdialog', { name: /Keep at most 10 events of Old uploads\?/ }).getByRole('button', { name: 'Remove older events' }).click();
    await expect(old).toContainText(/^.*\b10 events\b/);

    // forgotten
    await old.getByRole('button', { name: 'Forget the copy of Old uploads…' }).click();
    await page.getByRole('alertdialog', { name: 'Forget this copy?' }).getByRole('button', { name: 'Forget the copy' }).click();
    await expect(copies.getByRole('listitem')).toHaveCount(1);
  } finally {
    demo.cms.faults.clear();
    rmSync(out, { recursive: true, force: true });
  }
});
