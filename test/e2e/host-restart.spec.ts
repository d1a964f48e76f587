/**
 * Browser mode's Host dies (killed) while a person works: the page says it is reconnecting, in a
 * notice that is announced, then the notice goes and the app works on with nothing reloaded. A
 * Host that keeps dying is "the background service keeps stopping", with Try again.
 */
import { expect, test, type Page } from '@playwright/test';
import { bridge, openPagesArea, treeItem, useDemoSite } from './support/app';

const demo = useDemoSite('sitedesk-host-restart-e2e-');

/** The live region at the top of the window that speaks of the background service. */
const hostNotice = (page: Page) => page.locator('.host-notice[role="status"]');

/** Kills the running Host (which must not be `previous`); answers its pid. */
async function killHost(previous?: number): Promise<number> {
  const app = demo.session.app!;
  const pid = app.hostPid();
  expect(pid).not.toBe(previous);
  process.kill(pid, 'SIGKILL');
  return pid;
}

test('a Host killed while the app is open: "Reconnecting…" is announced, then goes, and the app works on', async ({ page }) => {
  await demo.connect(page);
  const pane = await openPagesArea(page);
  const notice = hostNotice(page);
  await expect(notice).toBeAttached(); // there before anything happens, so its text is announced
  await expect(notice).toBeEmpty();
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42)); // no reload may happen

  await killHost();
  await expect(notice).toContainText('Reconnecting to Sitedesk…');
  await expect(notice).toContainText('Your work is safe');
  await expect(notice).toBeEmpty({ timeout: 15_000 });
  expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);

  // the restarted Host answers the page: the tree opens a folder it had not read before
  await treeItem(pane, 'Blog').click({ position: { x: 10, y: 14 } });
  await expect(treeItem(pane, 'Blog')).toHaveAttribute('aria-expanded', 'true');
  await expect(bridge(page, 'sites.list', {})).resolves.toHaveLength(1);
});

test('a Host that keeps stopping: the page says so and Try again starts it', async ({ page }) => {
  test.setTimeout(90_000);
  await demo.connect(page);
  const notice = hostNotice(page);
  let last: number | undefined;
  // six deaths within a minute: the sixth is not restarted
  for (let i = 0; i < 6; i++) {
    const restarted = () => {
      try {
        return demo.session.app!.hostPid() !== last;
      } catch {
        return false; // between two Hosts
      }
    };
    await expect.poll(restarted, { timeout: 15_000 }).toBe(true);
    last = await killHost(last);
  }
  await expect(notice).toContainText('Sitedesk’s background service keeps stopping.', { timeout: 15_000 });
  await expect(page.getByRole('contentinfo', { name: 'Status bar' })).toContainText('background service stopped');
  expect(demo.session.app!.output()).toContain('keeps stopping');

  await notice.getByRole('button', { name: 'Try again' }).click();
  await expect(notice).toBeEmpty({ timeout: 15_000 });
  await expect(bridge(page, 'sites.list', {})).resolves.toHaveLength(1);
});
