/**
 * "Make available offline" of a 10,000-page CMS site (the sandbox in a process of its own):
 *   - pages per second of a first mirror, against the sandbox's raw throughput in the same run: a
 *     plain concurrent fetch loop making the same requests (the page list, then every page), with
 *     the same concurrency (8). Goal: ratio ≥ 0.7.
 *   - a second mirror of the unchanged site. Goal: at least 5 times faster than the first.
 * Usage: npm run bench -- mirror [PAGES]
 */
import { spawnSandbox } from './support/spawn-sandbox';
import { benchHost } from './support/mirror-host';

const PAGES = Number(process.argv[2] ?? 10_000);
const CONCURRENCY = 8;
const PER_PAGE = 100;

const sandbox = await spawnSandbox(PAGES);
const headers = { 'X-API-Key': sandbox.apiKey, Accept: 'application/json' };
const encode = (route: string) => route.split('/').filter(Boolean).map(encodeURIComponent).join('/');

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

/** The requests a mirror makes, with nothing but fetch: the list pages, then a plain read of each page. */
async function rawLoop(): Promise<{ ms: number; pages: number }> {
  const t = performance.now();
  const list = async (page: number) => {
    const r = await fetch(`${sandbox.url}/pages?page=${page}&per_page=${PER_PAGE}&sort=default&translations=true`, { headers });
    return (await r.json()) as { data: { route: string }[]; meta: { total: number } };
  };
  const routes: string[] = [];
  for (let page = 1; ; page++) {
    const r = await list(page);
    routes.push(...r.data.map((x) => x.route));
    if (r.data.length === 0 || page * PER_PAGE >= r.meta.total) break;
  }
  await pool(routes, CONCURRENCY, async (route) => {
    const r = await fetch(`${sandbox.url}/pages/${encode(route)}`, { headers });
    await r.text();
  });
  return { ms: performance.now() - t, pages: routes.length };
}

try {
  // the sandbox reads and parses its files once, so neither side pays for a cold server
  await rawLoop();
  const raw1 = await rawLoop();
  const bench = await benchHost(sandbox);
  const first = await bench.mirror();
  const raw2 = await rawLoop();
  const second = await bench.mirror();
  await bench.close();

  const rawPps = (raw1.pages + raw2.pages) / ((raw1.ms + raw2.ms) / 1000);
  const pps = first.progress.total / (first.ms / 1000);
  const ratio = pps / rawPps;
  const speedup = first.ms / second.ms;
  const s = (ms: number) => (ms / 1000).toFixed(2);
  console.log(`site: ${sandbox.pages} pages (one language; sandbox with pages.check_method none, in its own process), concurrency ${CONCURRENCY}`);
  console.log(`raw fetch loop:   ${s(raw1.ms)} s and ${s(raw2.ms)} s → ${rawPps.toFixed(0)} pages/s`);
  console.log(`first mirror:     ${s(first.ms)} s → ${pps.toFixed(0)} pages/s (fetched ${first.progress.fetched}, failed ${first.progress.failed})`);
  console.log(`second mirror:    ${s(second.ms)} s (unchanged ${second.progress.unchanged}, fetched ${second.progress.fetched}, failed ${second.progress.failed})`);
  console.log(`ratio to raw:     ${ratio.toFixed(2)}  (goal ≥ 0.7) ${ratio >= 0.7 ? 'met' : 'MISSED'}`);
  console.log(`second vs first:  ${speedup.toFixed(1)}× faster  (goal ≥ 5×) ${speedup >= 5 ? 'met' : 'MISSED'}`);
  console.log(
    JSON.stringify({
      bench: 'mirror',
      pages: first.progress.total,
      raw_pages_per_s: Math.round(rawPps),
      pages_per_s: Math.round(pps),
      ratio_to_raw: +ratio.toFixed(2),
      first_s: +s(first.ms),
      second_s: +s(second.ms),
      second_speedup: +speedup.toFixed(1),
    }),
  );
} finally {
  await sandbox.stop();
}
