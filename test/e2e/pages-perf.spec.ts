/**
 * A 10,000-page site stays smooth: the tree with every section open holds ten thousand rows, yet
 * only the rows in view are in the DOM, and scrolling it end to end never blocks the renderer for
 * long. The list view pages the site 50 rows at a time and moves through its pages without jank.
 * Measured in the real Chromium with the Long Tasks API, against an in-process sandbox.
 *
 * And a page opens from the offline copy with the site stopped as fast as a cached page opens
 * online (issue 20: it took 2.9 s, against about 0.2 s online).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { tempDir } from '../support/tmp';
import { addCmsSite, bridge, expand, markdown, openArea, pageTree, treeItem, useBrowserMode } from './support/app';
import { longTasks, recordLongTasks } from './support/long-tasks';

let cms: CmsSandbox;
const session = useBrowserMode('sitedesk-perf-e2e-');

test.describe('a 10,000-page site', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000);
    cms = await startCmsSandbox({ seed: 'demo', content: { pages: 10_000 } });
    // the sandbox reads its pages from disk on the first request (~15 s for 10,000): not the app's time
    await fetch(`${cms.url}/pages?per_page=1`, { headers: { 'X-API-Key': cms.seeded!.adminApiKey! } });
  });
  test.afterAll(async () => {
    await cms.close();
  });

  async function openPages(page: Page) {
    await session.open(page);
    await addCmsSite(page, { name: 'Big', baseUrl: cms.url, apiKey: cms.seeded!.adminApiKey! });
    return openArea(page, 'Big', 'Pages');
  }


  test('the tree with 10,000 rows: a bounded DOM and no long stalls while scrolling end to end', async ({ page }) => {
    test.setTimeout(240_000);
    const pane = await openPages(page);
    const tree = pageTree(pane, 'Big');
    const first = tree.getByRole('treeitem', { name: 'Section 1', exact: true });
    await expect(first).toBeVisible();
    // "*" opens every section at the top level: 100 folders of 99 pages each
    await first.focus();
    await page.keyboard.press('*');
    await expect(tree.getByRole('treeitem', { name: 'Section 1', exact: true })).toHaveAttribute('aria-expanded', 'true');
    await expect
      .poll(async () => tree.getByRole('treeitem').first().getAttribute('aria-setsize'), { timeout: 60_000 })
      .toBe('100');
    // wait until every level has arrived: the last section's last child can be reached with End
    await expect
      .poll(
        async () => {
          // the focus stays in the tree (the row it left is no longer in the DOM): End again
          await page.keyboard.press('End');
          return page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
        },
        // 100 folder reads at once: ~17 s at the Host alone here (the sandbox scans 10,000 pages for each)
        { timeout: 120_000, intervals: [1000] },
      )
      .toContain('Page 100.');

    const inDom = await tree.getByRole('treeitem').count();
    console.log(`tree rows in the DOM with ~10,000 open rows: ${inDom}`);
    expect(inDom).toBeLessThan(120);

    await recordLongTasks(page);
    const scroller = await tree.evaluateHandle((el) => {
      let n: HTMLElement | null = el as HTMLElement;
      while (n && n.scrollHeight <= n.clientHeight) n = n.parentElement;
      return n!;
    });
    const height = await scroller.evaluate((el) => el.scrollHeight);
    expect(height).toBeGreaterThan(10_000 * 20); // the whole list is scrollable, not just a window of it
    const t0 = Date.now();
    await page.keyboard.press('Home');
    // a fast flick from top to bottom, 60 wheel steps, then straight back up with Home
    const box = (await tree.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 60; i++) await page.mouse.wheel(0, height / 60);
    await expect.poll(() => scroller.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 2)).toBe(true);
    await expect(tree.getByRole('treeitem', { name: /Page 100\.\d+/ }).first()).toBeVisible();
    const elapsed = Date.now() - t0;
    const long = await longTasks(page);
    console.log(`scrolled ${height}px in ${elapsed} ms; long tasks: ${long.length} (max ${Math.round(Math.max(0, ...long))} ms)`);
    // a frame is 16 ms; the Long Tasks API reports anything over 50 ms. Two cores shared with the
    // Host and the sandbox still leave no single stall of 200 ms or more.
    expect(Math.max(0, ...long)).toBeLessThan(200);
    expect(await tree.getByRole('treeitem').count()).toBeLessThan(120);
  });

  test('the list view of 10,000 pages: 50 rows a page, moving through pages stays quick', async ({ page }) => {
    const pane = await openPages(page);
    await pane.getByRole('button', { name: 'List', exact: true }).click();
    const list = pane.getByRole('grid', { name: 'Pages' });
    await expect(list).toBeVisible();
    await expect(pane.getByText('Page 1 of 200', { exact: true })).toBeVisible();
    await recordLongTasks(page);
    const next = pane.getByRole('button', { name: /Next page/i });
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) {
      await next.click();
      await expect(pane.getByText(new RegExp(`Page ${i + 2} of`)).first()).toBeVisible();
    }
    const perPage = (Date.now() - t0) / 5;
    const long = await longTasks(page);
    console.log(`list: ${Math.round(perPage)} ms per page of 50 rows; long tasks: ${long.length} (max ${Math.round(Math.max(0, ...long))} ms)`);
    expect(Math.max(0, ...long)).toBeLessThan(200);
    const rowsInDom = await list.getByRole('row').count();
    expect(rowsInDom).toBeLessThanOrEqual(51); // a head row and at most a page of rows
  });
});

/** The nearest-rank percentile of a sample (p in 0–100). */
function percentile(xs: readonly number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Clicks a page in the tree and answers the milliseconds until its text is in the editor. */
async function timeOpen(pane: Locator, title: string): Promise<number> {
  const t0 = Date.now();
  await treeItem(pane, title).click();
  const editor = pane.getByRole('region', { name: `Edit ${title}`, exact: true });
  await expect(markdown(editor)).toContainText(`# ${title}`, { timeout: 10_000 });
  return Date.now() - t0;
}

test('a page opens from the offline copy with the site stopped as fast as a cached page opens online', async ({ page }) => {
  test.setTimeout(240_000);
  const dir = tempDir('sitedesk-perf-offline-site-');
  let demo: CmsSandbox | undefined = await startCmsSandbox({ seed: 'demo', content: 'demo', dataDir: dir.path });
  try {
    await session.open(page);
    const siteId = await addCmsSite(page, { name: 'Demo', baseUrl: demo.url, apiKey: demo.seeded!.adminApiKey! });
    const pane = await openArea(page, 'Demo', 'Pages');
    await expand(pane, 'Blog');
    // the blog's first posts, newest first: eight opened online, eight only copied
    const titles = await pageTree(pane)
      .getByRole('treeitem', { name: /\(\d+\)$/ })
      .evaluateAll((rows) => rows.slice(0, 16).map((r) => r.querySelector('.title')!.textContent!.trim()));
    expect(titles).toHaveLength(16);
    const opened = titles.slice(0, 8);
    const copied = titles.slice(8);

    // online: each page opened once (now cached), then opened again twice over: the cached open
    for (const t of opened) await timeOpen(pane, t);
    const online: number[] = [];
    for (let round = 0; round < 2; round++) for (const t of opened) online.push(await timeOpen(pane, t));

    // the whole site copied, then the site stopped (connection refused)
    const { runId } = await bridge<{ runId: number }>(page, 'mirror.start', { siteId });
    await expect
      .poll(async () => (await bridge<{ runId: number; state: string }[]>(page, 'mirror.status', { siteId })).find((r) => r.runId === runId)?.state, { timeout: 90_000 })
      .toBe('done');
    await demo.close();
    demo = undefined;

    // offline: the pages opened before and the pages never opened, alternating, twice over
    const offline: number[] = [];
    const firstTime: number[] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 8; i++) {
        offline.push(await timeOpen(pane, opened[i]!));
        const ms = await timeOpen(pane, copied[i]!);
        offline.push(ms);
        if (round === 0) firstTime.push(ms);
      }
    }
    await expect(pane.getByText(/The site is not reachable\. This is Sitedesk’s copy from/)).toBeVisible();

    const onlineP95 = percentile(online, 95);
    const offlineP95 = percentile(offline, 95);
    console.log(
      `open a cached page online: p50 ${percentile(online, 50)} ms, p95 ${onlineP95} ms (n=${online.length}); ` +
        `open from the copy, site stopped: p50 ${percentile(offline, 50)} ms, p95 ${offlineP95} ms (n=${offline.length}; ` +
        `never opened before: p95 ${percentile(firstTime, 95)} ms); ratio of p95s ${(offlineP95 / onlineP95).toFixed(2)} (bound 1.5)`,
    );
    expect(offlineP95).toBeLessThanOrEqual(1.5 * onlineP95);
  } finally {
    await demo?.close();
    dir.remove();
  }
});

