/**
 * Browser mode's policy lets images load only from the configured sites' origins (review L3):
 * the page's Content-Security-Policy is built from the sites at each response, so a script or
 * a page's HTML cannot make the app fetch an image from anywhere else (a read receipt, the
 * reader's address, or a way out for data). The same sandbox under another origin (localhost
 * instead of 127.0.0.1) stands in for a stranger.
 */
import { expect, test, type Page } from '@playwright/test';
import { addCmsSite, rail, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-csp-e2e-');

/** Loads an image in the page: its width when it loaded, or 'blocked' with the policy's report. */
const loadImage = (page: Page, src: string) =>
  page.evaluate(
    (url) =>
      new Promise<number | string>((resolve) => {
        const violations: string[] = [];
        document.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => setTimeout(() => resolve(`blocked:${violations.join(',')}`), 50);
        img.src = url;
      }),
    src,
  );

test('images come from the sites only; the policy follows the sites at each page load', async ({ page }) => {
  await demo.connect(page);
  const before = await page.evaluate(() => fetch('/').then((r) => r.headers.get('content-security-policy')));
  const img = (before ?? '').split('; ').find((d) => d.startsWith('img-src '));
  expect(img).toBe(`img-src 'self' data: blob: ${demo.cms.origin}`);

  // a page loaded after the site was added allows its origin, and nothing else
  await page.reload();
  const own = `${demo.cms.origin}/user/pages/01.home/hero.png`;
  const stranger = own.replace('127.0.0.1', 'localhost');
  expect(await loadImage(page, own)).toBe(64);
  expect(await loadImage(page, stranger)).toBe('blocked:img-src');
});

test('a site added while the page is open: its images wait for a reload, and the page says so', async ({ page }) => {
  await demo.session.open(page);
  await expect(rail(page)).toBeVisible();
  await addCmsSite(page, { name: 'Demo', baseUrl: demo.cms.url, apiKey: demo.cms.seeded!.adminApiKey! });
  expect(await loadImage(page, `${demo.cms.origin}/user/pages/01.home/hero.png`)).toBe('blocked:img-src');
  await expect(page.getByRole('region', { name: 'Notifications' })).toContainText('Images of Demo show after a reload');
  await page.reload();
  expect(await loadImage(page, `${demo.cms.origin}/user/pages/01.home/hero.png`)).toBe(64);
});
