/**
 * "Make available offline" of a 10,000-page CMS site (the sandbox in a process of its own):
 *   - pages per second of a first mirror, against the sandbox's raw throughput in the same run: a
 *     plain concurrent fetch loop making the same requests (the page list, then every page), with
 *     the same concurrency (8). Goal: ratio ≥ 0.7.
 *   - a second mirror of the unchanged site. Goal: at least 5 times faster than the first.
 * The machine may be busy with other work, so the raw loop and a first mirror (each on a fresh
 * Host) alternate ROUNDS times; each mirror is compared with the raw loops just before and after
 * it, and the median ratio is reported.
 * Usage: npm run bench -- mirror [PAGES] [ROUNDS]
 */
import { spawnSandbox } from './support/spawn-sandbox';
import { benchHost } from './support/mirror-host';

const PAGES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
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

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => (ms / 1000).toFixed(2);

try {
  console.log(`site: ${sandbox.pages} pages (one language; sandbox with pages.check_method none, in its own process), concurrency ${CONCURRENCY}`);
  // the sandbox reads and parses its files once, so neither side pays for a cold server
  await rawLoop();
  const raws = [await rawLoop()];
  const rounds: { pps: number; rawPps: number; ratio: number; first: number; second: number; speedup: number; failed: number }[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const bench = await benchHost(sandbox); // a fresh Host: an empty cache
    const first = await bench.mirror();
    const second = await bench.mirror();
    await bench.close();
    raws.push(await rawLoop());
    const [before, after] = [raws.at(-2)!, raws.at(-1)!];
    const rawPps = (before.pages + after.pages) / ((before.ms + after.ms) / 1000);
    const pps = first.progress.total / (first.ms / 1000);
    const r = { pps, rawPps, ratio: pps / rawPps, first: first.ms, second: second.ms, speedup: first.ms / second.ms, failed: first.progress.failed + second.progress.failed };
    rounds.push(r);
    console.log(
      `round ${round}: raw ${s(before.ms)} s / ${s(after.ms)} s → ${rawPps.toFixed(0)} pages/s; first mirror ${s(first.ms)} s → ${pps.toFixed(0)} pages/s ` +
        `(ratio ${r.ratio.toFixed(2)}); second mirror ${s(second.ms)} s (${r.speedup.toFixed(1)}×; unchanged ${second.progress.unchanged}); failed reads ${r.failed}`,
    );
  }
  const ratio = median(rounds.map((r) => r.ratio));
  const speedup = median(rounds.map((r) => r.speedup));
  console.log(`ratio to raw (median of ${ROUNDS}):     ${ratio.toFixed(2)}  (goal ≥ 0.7) ${ratio >= 0.7 ? 'met' : 'MISSED'}`);
  console.log(`second vs first (median of ${ROUNDS}):  ${speedup.toFixed(1)}× faster  (goal ≥ 5×) ${speedup >= 5 ? 'met' : 'MISSED'}`);
  console.log(
    JSON.stringify({
      bench: 'mirror',
      pages: PAGES,
      rounds: ROUNDS,
      raw_pages_per_s: Math.round(median(rounds.map((r) => r.rawPps))),
      pages_per_s: Math.round(median(rounds.map((r) => r.pps))),
      ratio_to_raw: +ratio.toFixed(2),
      first_s: +s(median(rounds.map((r) => r.first))),
      second_s: +s(median(rounds.map((r) => r.second))),
      second_speedup: +speedup.toFixed(1),
    }),
  );
} finally {
  await sandbox.stop();
}
