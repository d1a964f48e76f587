/**
 * Issue 15 end to end, plugin scripts: off until allowed for the site (a plain warning), then a
 * plugin's report drawn by its own script inside the jail (a sandboxed frame with an opaque
 * origin), handed the report's data; turned off again, nothing runs.
 */
import { expect, test } from '@playwright/test';
import { openArea, siteButton, sitePane, useDemoSite, UNHURRIED } from './support/app';

const demo = useDemoSite('sitedesk-scripts-e2e-', UNHURRIED);

test('a plugin’s report drawn by its script in the jail, only once allowed', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await demo.connect(page);
  const pane = await openArea(page, 'Demo', 'System');
  const report = pane.getByRole('article', { name: 'Site health' });
  await expect(report.getByText(/drawn by the site-health plugin’s own script/)).toBeVisible();
  await expect(report.locator('iframe')).toHaveCount(0);
  await report.getByRole('button', { name: 'Allow plugin scripts for Demo…' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Allow Demo’s plugin scripts?' }).or(page.getByRole('dialog', { name: 'Allow Demo’s plugin scripts?' }));
  await expect(confirm.getByText(/cannot see the app, your other sites, your sign-in/)).toBeVisible();
  await confirm.getByRole('button', { name: 'Allow plugin scripts' }).click();

  const frame = report.locator('iframe[title="Site health"]');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts');
  await expect(report.frameLocator('iframe[title="Site health"]').getByText(/checks passed/)).toBeVisible({ timeout: 10_000 });
  // an opaque origin: the jail's own document says so
  const origin = await report.frameLocator('iframe[title="Site health"]').locator('body').evaluate(() => window.origin);
  expect(origin).toBe('null');

  await report.getByRole('button', { name: 'Turn plugin scripts off for Demo' }).click();
  await expect(report.locator('iframe')).toHaveCount(0);
  await expect(report.getByRole('button', { name: 'Allow plugin scripts for Demo…' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a plugin page’s script in the jail cannot reach the app: parent, top, storage, cookies, popups, the Host and the app’s invoke all fail', async ({ page }) => {
  await demo.connect(page);
  // the app collects what the probe reports (its messages are not the jail's protocol: the app ignores them)
  await page.evaluate(() => {
    (window as unknown as { probe: unknown[] }).probe = [];
    window.addEventListener('message', (e) => {
      const d = e.data as { type?: string };
      if (d?.type === 'sitedesk-probe:report') (window as unknown as { probe: unknown[] }).probe.push(d);
    });
  });
  await siteButton(page, 'Demo').click();
  const pane = sitePane(page, 'Demo');
  await pane.getByRole('navigation', { name: 'Demo Areas' }).getByRole('button', { name: /^Site health/ }).click();
  await pane.getByRole('button', { name: 'Allow plugin scripts for Demo…' }).click();
  await page.getByRole('button', { name: 'Allow plugin scripts' }).click();
  const frame = pane.locator('iframe[sandbox="allow-scripts"]');
  await expect(pane.frameLocator('iframe[sandbox="allow-scripts"]').getByText('Site health: see the report.')).toBeVisible({ timeout: 10_000 });

  // a second round with addresses to fetch: the app's own server, the site's API, the Host's socket port
  const appUrl = new URL(page.url()).origin;
  const urls = [`${appUrl}/`, `${demo.cms.url}/pages`, `${appUrl}/index.html`];
  await frame.evaluate((el: HTMLIFrameElement, u: string[]) => el.contentWindow!.postMessage({ type: 'sitedesk-probe:run', urls: u }, '*'), urls);
  await expect.poll(() => page.evaluate(() => (window as unknown as { probe: { round: number }[] }).probe.length), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  const reports = (await page.evaluate(() => (window as unknown as { probe: { round: number; results: { probe: string; escaped: boolean; detail: string }[] }[] }).probe)) ?? [];
  const rows = reports.flatMap((r) => r.results);
  const names = new Set(rows.map((r) => r.probe));
  for (const must of ['parent.document', 'top.document', 'parent.sitedesk', 'window.sitedesk', 'localStorage', 'document.cookie', 'window.open', 'indexedDB', ...urls.map((u) => `fetch ${u}`)]) {
    expect(names, must).toContain(must);
  }
  expect(rows.filter((r) => r.escaped), JSON.stringify(rows.filter((r) => r.escaped))).toEqual([]);
  // and the app's own storage saw nothing of it
  expect(await page.evaluate(() => window.localStorage.getItem('probe'))).toBeNull();

  // scripts allowed for the site: a floating widget from the overview, drawn in the jail on demand
  await pane.getByRole('button', { name: 'Overview', exact: true }).click();
  const things = pane.getByRole('list', { name: 'Widgets and panels from plugins' });
  const uptime = things.getByRole('listitem').filter({ hasText: /site-health/ }).filter({ hasText: 'Floating widget' });
  await uptime.getByRole('button', { name: 'Show' }).click();
  await expect(things.frameLocator('iframe[sandbox="allow-scripts"]').getByText(/Uptime 99\.98%/)).toBeVisible({ timeout: 10_000 });
});
