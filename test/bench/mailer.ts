/**
 * The Mailer's audience at size (issue 17, "Performance"), against the CMS sandbox in a process of
 * its own with its generated audience (500,000 people by default):
 * 1. the Subscribers table scrolled in real Chromium through the renderer (browser mode's web server
 *    on a Host in this process, the built renderer of out/): flicks across the table, each coming to
 *    rest, then a slow reading scroll. Every GET of the site's subscribers is counted at the Host's
 *    fetch; the figures are the requests against the pages the view showed when it rested or moved
 *    slowly (goal: ratio 1, nothing read that was not shown) and against the pages scrolled past
 *    (goal: far under 1), and the page's long tasks (PerformanceObserver 'longtask': goal none,
 *    i.e. nothing held the renderer over 50 ms) with the frame times while scrolling (p95 against
 *    the 16.7 ms of 60 frames a second).
 * 2. a CSV of 100,000 rows imported through the Host (mailer.importPreview with its dry run, then
 *    mailer.importRun to the end): the file is streamed to the site, so the Host's resident set,
 *    sampled every 50 ms, grows by a small part of the file's size (the ratio printed), and its heap
 *    after a garbage collection is where it was before.
 * Needs the built app (`npx node scripts/build.mjs`) for the renderer.
 * The machine is shared and its load moves (long tasks come and go with it), so the table and the
 * yardstick take turns ROUNDS times and the medians are compared.
 * Usage: npm run bench -- mailer [PEOPLE] [IMPORT_ROWS] [ROUNDS]
 */
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { startWebServer } from '../../electron/web/server';
import type { ImportProgress } from '../../electron/contract';
import { chromiumArgs } from '../../playwright.config';
import { hostCalls } from '../support/host-calls';
import { tempDir } from '../support/tmp';
import { percentile, seconds, withSandbox } from './support/figures';

const PEOPLE = Number(process.argv[2] ?? 500_000);
const IMPORT_ROWS = Number(process.argv[3] ?? 100_000);
/** The table and the yardstick take turns this many times (the machine's load moves meanwhile); medians are reported. */
const ROUNDS = Number(process.argv[4] ?? 3);
const ROW_PX = 34; // the table's row height (SubscribersTable.svelte)
const root = process.cwd();
const rendererDir = join(root, 'out/renderer');
if (!existsSync(join(rendererDir, 'index.html'))) {
  console.error('The renderer is not built: run `npx node scripts/build.mjs` first.');
  process.exit(2);
}
const mb = (bytes: number) => bytes / 1024 / 1024;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** The Host's fetch, counting the reads of the subscribers table (GET …/subscribers). */
function countingFetch() {
  const counted = { tableReads: 0, requests: 0 };
  const wrapped: typeof fetch = (input, init) => {
    counted.requests++;
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    if (method === 'GET' && /\/(mailer|mailroom)\/subscribers$/.test(url.pathname)) counted.tableReads++;
    return fetch(input, init);
  };
  return { fetch: wrapped, counted };
}

interface ScrollFigures {
  /** distinct pages of the table under the view when it rested, or while it moved slowly */
  pagesShown: number;
  /** rows the view moved past, all movements added up */
  rowsPassed: number;
  longTasks: number[];
  frames: number[];
  perPage: number;
  rowsInDom: number;
}

/**
 * In the page: flicks across the table (each animated over 30 frames and then left to rest until
 * its rows are read), then a slow scroll of 3 rows a frame; records the long tasks and frame times
 * meanwhile, and which pages were under the view when it rested or moved slowly.
 */
async function scrollTable(page: Page, flicks: number): Promise<ScrollFigures> {
  return page.evaluate(
    async ({ flicks, rowPx }) => {
      const grid = document.querySelector('[role="grid"][aria-label^="Subscribers of"]')!;
      const body = grid.querySelectorAll<HTMLElement>(':scope > [role="rowgroup"]')[1]!;
      const total = Number(grid.getAttribute('aria-rowcount')) - 1;
      const perPage = 200;
      const long: number[] = [];
      const frames: number[] = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) long.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
      const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
      const shown = new Set<number>();
      const noteShown = () => {
        const first = Math.floor(body.scrollTop / rowPx);
        const last = Math.min(total - 1, Math.floor((body.scrollTop + body.clientHeight - 1) / rowPx));
        for (let p = Math.floor(first / perPage); p <= Math.floor(last / perPage); p++) shown.add(p);
      };
      /** Waits until no row in view is a placeholder (its page read), at most 10 s. */
      const settled = async () => {
        const until = performance.now() + 10_000;
        await new Promise((r) => setTimeout(r, 100));
        while (performance.now() < until && body.querySelector('[role="row"][aria-busy="true"]')) await new Promise((r) => setTimeout(r, 20));
      };
      let rowsPassed = 0;
      let last = await frame();
      const move = async (to: number, steps: number, slow: boolean) => {
        const from = body.scrollTop;
        for (let i = 1; i <= steps; i++) {
          body.scrollTop = from + ((to - from) * i) / steps;
          const t = await frame();
          frames.push(t - last);
          last = t;
          if (slow) noteShown();
        }
        rowsPassed += Math.abs(body.scrollTop - from) / rowPx;
      };
      noteShown();
      // deterministic spots across the whole table, far apart, both ways
      const max = body.scrollHeight - body.clientHeight;
      for (let i = 0; i < flicks; i++) {
        const spot = ((i * 7919) % flicks) / flicks;
        await move(Math.round(spot * max), 30, false);
        await settled();
        last = await frame();
        noteShown();
      }
      // a slow reading scroll: 3 rows a frame for 400 frames (6 pages)
      await move(body.scrollTop + 3 * rowPx * 400, 400, true);
      await settled();
      noteShown();
      return { pagesShown: shown.size, rowsPassed: Math.round(rowsPassed), longTasks: long, frames, perPage, rowsInDom: body.querySelectorAll('[role="row"]').length };
    },
    { flicks, rowPx: ROW_PX },
  );
}

/**
 * The yardstick: the same scroll over a plain page of the same size — a scroller as tall as the
 * table, its rows in view (and 10 either side) written by a few lines of plain script on every
 * scroll event, every row's text there at once (nothing to read) — in the same browser, just after
 * the table. What it costs is this machine's layout, paint and raster of such a scroll (software
 * rendering here: the project's Chromium runs with --disable-gpu), so the table's figures are
 * given against it.
 */
async function yardstickPage(page: Page, rows: number, size: { width: number; height: number }): Promise<void> {
  await page.setContent(`<!doctype html><html><body style="margin:0;font:13px system-ui">
    <div role="grid" aria-label="Subscribers of the yardstick" aria-rowcount="${rows + 1}" style="display:flex;flex-direction:column;width:${size.width}px">
      <div role="rowgroup"><div role="row" style="height:30px">Address Name Status Lists Tags Joined by Joined</div></div>
      <div role="rowgroup" id="body" style="position:relative;overflow-y:auto;height:${size.height}px"><div id="spacer" style="position:relative;height:${rows * ROW_PX}px"></div></div>
    </div>
    <script>
      const body = document.getElementById('body'), spacer = document.getElementById('spacer');
      const draw = () => {
        const first = Math.max(0, Math.floor(body.scrollTop / ${ROW_PX}) - 10);
        const last = Math.min(${rows} - 1, Math.ceil((body.scrollTop + body.clientHeight) / ${ROW_PX}) + 10);
        let html = '';
        for (let i = first; i <= last; i++) html += '<div role="row" style="position:absolute;left:0;right:0;height:${ROW_PX}px;display:grid;grid-template-columns:34px 1.5fr 1fr 150px 1.2fr .9fr 120px 104px;align-items:center;border-bottom:1px solid #ddd;transform:translateY(' + i * ${ROW_PX} + 'px)"><span><input type="checkbox"></span><span>reader' + i + '@example.org</span><span>Reader ' + i + '</span><span>Subscribed</span><span>Newsletter</span><span>vip</span><span>Signup form</span><span>Nov 27, 2026</span></div>';
        spacer.innerHTML = html;
      };
      body.addEventListener('scroll', draw, { passive: true });
      draw();
    </script></body></html>`);
}

async function scrollBench(host: Host, counted: { tableReads: number }, sandbox: { url: string; apiKey: string }) {
  const { call } = hostCalls(() => host);
  const site = await call('sites.add', { name: 'Big', kind: 'cms', baseUrl: sandbox.url, environment: null, authMode: 'apikey', apiKey: sandbox.apiKey });
  await call('auth.refreshMe', { siteId: site.id });
  const web = await startWebServer({ host, staticDir: rendererDir });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(web.url);
    await page.getByRole('navigation', { name: 'Sites', exact: true }).getByRole('button', { name: 'Big', exact: true }).click();
    const pane = page.getByRole('region', { name: 'Big', exact: true });
    const t0 = performance.now();
    await pane.getByRole('button', { name: 'Mailer', exact: true }).click();
    const grid = pane.getByRole('grid', { name: 'Subscribers of Big' });
    await grid.locator('[data-index="0"]').filter({ hasText: '@' }).waitFor({ timeout: 120_000 });
    const firstMs = performance.now() - t0;
    const rowCount = Number(await grid.getAttribute('aria-rowcount')) - 1;
    const before = counted.tableReads;
    const size = await grid.evaluate((g) => {
      const body = g.querySelectorAll<HTMLElement>(':scope > [role="rowgroup"]')[1]!;
      return { width: body.clientWidth, height: body.clientHeight };
    });
    const yard = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await yardstickPage(yard, rowCount, size);
    // the first round counts the reads (later ones find some pages still held)
    const fig = await scrollTable(page, 12);
    const reads = counted.tableReads - before;
    const tableRounds = [fig];
    const yardRounds = [await scrollTable(yard, 12)];
    for (let r = 1; r < ROUNDS; r++) {
      await page.bringToFront();
      tableRounds.push(await scrollTable(page, 12));
      await yard.bringToFront();
      yardRounds.push(await scrollTable(yard, 12));
    }
    const med = (xs: number[]) => percentile(xs, 50);
    const p95 = (f: ScrollFigures) => percentile(f.frames, 95);
    const tableLong = med(tableRounds.map((f) => f.longTasks.length));
    const yardLong = med(yardRounds.map((f) => f.longTasks.length));
    const tableP95 = med(tableRounds.map(p95));
    const yardP95 = med(yardRounds.map(p95));
    const base = yardRounds[0]!;
    const baseOver50 = base.longTasks.filter((d) => d > 50);
    const passedPages = fig.rowsPassed / fig.perPage;
    const over50 = fig.longTasks.filter((d) => d > 50);
    console.log(`Scrolling the subscribers table in Chromium (${rowCount.toLocaleString('en')} people, ${fig.perPage} a page):`);
    console.log(`  first rows shown ${seconds(firstMs)} s after the area opened`);
    console.log(`  rows scrolled past: ${fig.rowsPassed.toLocaleString('en')} (${passedPages.toFixed(0)} pages); pages shown at rest or read slowly: ${fig.pagesShown}`);
    console.log(`  pages read from the site: ${reads}: ratio to pages shown ${(reads / fig.pagesShown).toFixed(2)} (goal 1), to pages scrolled past ${(reads / passedPages).toFixed(4)}`);
    const longest = (xs: number[]) => (xs.length ? Math.max(...xs) : 0);
    console.log(`  long tasks while scrolling: ${fig.longTasks.length} (over 50 ms: ${over50.length}, longest ${longest(fig.longTasks).toFixed(0)} ms); goal none`);
    console.log(`  frame time p50 ${percentile(fig.frames, 50).toFixed(1)} ms, p95 ${percentile(fig.frames, 95).toFixed(1)} ms, max ${longest(fig.frames).toFixed(1)} ms over ${fig.frames.length} frames: p95 is ${(percentile(fig.frames, 95) / (1000 / 60)).toFixed(2)} × a 60 fps frame`);
    console.log(`  the yardstick (a plain page of the same size scrolled the same way, ${size.width}×${size.height} px), first round: long tasks ${base.longTasks.length} (over 50 ms: ${baseOver50.length}, longest ${longest(base.longTasks).toFixed(0)} ms), frame p95 ${p95(base).toFixed(1)} ms`);
    console.log(`  ${ROUNDS} rounds each, taking turns: long tasks per round, table ${tableRounds.map((f) => f.longTasks.length).join(', ')}; yardstick ${yardRounds.map((f) => f.longTasks.length).join(', ')}`);
    console.log(`  the table against the yardstick (medians): long tasks ${tableLong} / ${yardLong} = ${(tableLong / Math.max(1, yardLong)).toFixed(2)} ×, frame p95 ${tableP95.toFixed(1)} / ${yardP95.toFixed(1)} ms = ${(tableP95 / yardP95).toFixed(2)} ×`);
    console.log(`  rows in the DOM: ${fig.rowsInDom}`);
    return { people: rowCount, firstMs: Math.round(firstMs), rowsPassed: fig.rowsPassed, pagesShown: fig.pagesShown, reads, readsPerShown: reads / fig.pagesShown, readsPerPassed: reads / passedPages, longTasks: fig.longTasks.length, longOver50: over50.length, longestTask: longest(fig.longTasks), frameP95: percentile(fig.frames, 95), rowsInDom: fig.rowsInDom, rounds: ROUNDS, medianLongTasks: tableLong, yardstickMedianLongTasks: yardLong, longTasksPerYardstick: tableLong / Math.max(1, yardLong), medianFrameP95: tableP95, yardstickMedianFrameP95: yardP95, frameP95PerYardstick: tableP95 / yardP95 };
  } finally {
    await browser.close();
    await web.close();
  }
}

/** A CSV of `rows` new people (address, name, tags), written a line at a time. */
async function writeCsv(file: string, rows: number, tag: string): Promise<number> {
  const out = createWriteStream(file);
  out.write('Email address,First name,Last name,Tags\n');
  for (let i = 0; i < rows; i++) {
    if (!out.write(`bench.${tag}.${i}@import.example.org,Reader,Number ${i},"imported, bench"\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return statSync(file).size;
}

async function importBench(host: Host, dir: string, rows: number, tag: string) {
  const { call } = hostCalls(() => host);
  const [site] = await call('sites.list', {});
  const file = join(dir, `audience-${tag}.csv`);
  const bytes = await writeCsv(file, rows, tag);
  const finished = new Map<string, (p: ImportProgress) => void>();
  host.onEvent((name, payload) => {
    if (name !== 'mailer.importProgress') return;
    const p = payload as ImportProgress;
    if (p.phase === 'finished' || p.phase === 'failed' || p.phase === 'lost') finished.get(p.jobId)?.(p);
  });
  gc();
  const before = process.memoryUsage();
  let peak = before.rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  try {
    const t0 = performance.now();
    const preview = await call('mailer.importPreview', { siteId: site!.id, jobId: `bench-preview-${tag}`, file });
    const previewMs = performance.now() - t0;
    const done = new Promise<ImportProgress>((r) => finished.set(`bench-run-${tag}`, r));
    const t1 = performance.now();
    await call('mailer.importRun', { siteId: site!.id, jobId: `bench-run-${tag}`, file, mapping: preview.mapping, listId: null, asConfirmed: true, tag: 'bench' });
    const end = await done;
    const runMs = performance.now() - t1;
    clearInterval(sampler);
    gc();
    const after = process.memoryUsage();
    if (end.phase !== 'finished') throw new Error(`the import ended ${end.phase}`);
    const counts = end.import!.counts;
    const growth = peak - before.rss;
    console.log(`Importing ${rows.toLocaleString('en')} rows through the Host (${mb(bytes).toFixed(1)} MB file):`);
    console.log(`  preview with its dry run ${seconds(previewMs)} s (dry run: ${preview.dryRun.new.toLocaleString('en')} new); run to the end ${seconds(runMs)} s (${Math.round(rows / (runMs / 1000)).toLocaleString('en')} rows/s; ${counts.new.toLocaleString('en')} new)`);
    console.log(`  resident set before ${mb(before.rss).toFixed(0)} MB, peak ${mb(peak).toFixed(0)} MB: grew ${mb(growth).toFixed(1)} MB`);
    console.log(`  heap before ${mb(before.heapUsed).toFixed(1)} MB, after ${mb(after.heapUsed).toFixed(1)} MB: ratio ${(after.heapUsed / before.heapUsed).toFixed(2)}`);
    return { rows, bytes, growth, fileMb: mb(bytes), previewMs: Math.round(previewMs), runMs: Math.round(runMs), newRows: counts.new, rssBeforeMb: mb(before.rss), rssPeakMb: mb(peak), rssGrowthPerFile: growth / bytes, heapBeforeMb: mb(before.heapUsed), heapAfterMb: mb(after.heapUsed), heapRatio: after.heapUsed / before.heapUsed };
  } finally {
    clearInterval(sampler);
  }
}

const dir = tempDir('sitedesk-bench-mailer-');
mkdirSync(join(dir.path, 'data'));
try {
  await withSandbox(
    1,
    async (sandbox) => {
      console.log(`The sandbox generated ${sandbox.mailerSeeded?.subscribers.toLocaleString('en')} people in ${seconds(sandbox.mailerSeeded?.ms ?? 0)} s.`);
      const { fetch: fetchImpl, counted } = countingFetch();
      const host = await createHost({ dataDir: join(dir.path, 'data'), shell: 'browser', version: 'bench', secrets: new MemorySecretStore(), fetch: fetchImpl, log: () => {} });
      try {
        const scroll = await scrollBench(host, counted, sandbox);
        // a tenth of the rows first: streamed, the memory an import takes does not grow with the file
        const small = await importBench(host, dir.path, Math.round(IMPORT_ROWS / 10), 'small');
        const large = await importBench(host, dir.path, IMPORT_ROWS, 'large');
        const flat = large.growth / Math.max(small.growth, 1024 * 1024);
        console.log(`Memory against the file: ${(large.bytes / small.bytes).toFixed(1)} × the file, ${flat.toFixed(2)} × the resident growth (flat: about 1; the growth is ${(large.growth / large.bytes).toFixed(2)} × the large file's size)`);
        const imported = { small, large, growthRatio: flat };
        console.log(JSON.stringify({ bench: 'mailer', scroll, import: imported }));
      } finally {
        await host.close();
      }
    },
    { mailer: { subscribers: PEOPLE, importRate: 0 } },
  );
} finally {
  dir.remove();
}
