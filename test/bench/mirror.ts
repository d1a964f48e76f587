/**
 * "Make available offline" of a 10,000-page CMS site (the sandbox in a process of its own), in
 * each flavour, and against the real service's default rate limit:
 *   1. spec flavour, limiter off: pages per second of a first mirror, against the sandbox's raw
 *      throughput in the same run: a plain concurrent fetch loop making the same requests (the
 *      page list, then every page), with the same concurrency (8). Goal: ratio ≥ 0.7. A second
 *      mirror of the unchanged site: goal at least 5 times faster than the first.
 *   2. real flavour (Grav's token bucket per account, raised high enough for the run, so every
 *      answer carries X-RateLimit-* and the pacer is in every request): the same two figures,
 *      and the second mirror sends no conditional request and gets no 304.
 *   3. real flavour with the default limit, 120 requests a minute: a mirror of 300 pages never
 *      sends more than the bucket allows — no 429, and at no moment more requests than 120 plus
 *      the refill since the first. About a minute and a half.
 * The machine may be busy with other work, so the raw loop and a first mirror (each on a fresh
 * Host) alternate ROUNDS times; each mirror is compared with the raw loops just before and after
 * it, and the median ratio is reported.
 * Usage: npm run bench -- mirror [PAGES] [ROUNDS] [BUCKET_PAGES]
 */
import { spawnSandbox, type ChildSandbox } from './support/spawn-sandbox';
import { benchHost } from './support/mirror-host';
import { median, seconds as s } from './support/figures';

const PAGES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 3);
const BUCKET_PAGES = Number(process.argv[4] ?? 300);
const CONCURRENCY = 8;
const PER_PAGE = 100;
/** The real service's default: `rate_limit.requests` 120, `window` 60. */
const REAL_LIMIT = { limit: 120, windowSec: 60 };

const encode = (route: string) => route.split('/').filter(Boolean).map(encodeURIComponent).join('/');

async function pool<T>(items: T[], n: number, fn: (x: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (next < items.length) await fn(items[next++]!);
  }));
}

interface ListAnswer {
  data: { route: string; raw_route?: string }[];
  meta: { total?: number; pagination?: { total?: number } };
  links?: { next?: string };
}

/**
 * The requests a mirror makes, with nothing but fetch: the list pages, then a plain read of each
 * page. Reads both shapes of a list (the spec's meta.total; the real service's meta.pagination and
 * links.next, and a page addressed by its raw_route: the home page lists as `/`).
 */
async function rawLoop(sandbox: ChildSandbox): Promise<{ ms: number; pages: number }> {
  const headers = { 'X-API-Key': sandbox.apiKey, Accept: 'application/json' };
  const t = performance.now();
  const routes: string[] = [];
  for (let page = 1; ; page++) {
    const r = (await (await fetch(`${sandbox.url}/pages?page=${page}&per_page=${PER_PAGE}&sort=default&translations=true`, { headers })).json()) as ListAnswer;
    routes.push(...r.data.map((x) => x.raw_route ?? x.route));
    const total = r.meta.pagination?.total ?? r.meta.total ?? 0;
    if (r.data.length === 0 || (r.links ? !r.links.next : page * PER_PAGE >= total)) break;
  }
  await pool(routes, CONCURRENCY, async (route) => {
    const r = await fetch(`${sandbox.url}/pages/${encode(route)}`, { headers });
    await r.text();
  });
  return { ms: performance.now() - t, pages: routes.length };
}

interface Round {
  pps: number;
  rawPps: number;
  ratio: number;
  first: number;
  second: number;
  speedup: number;
  failed: number;
  conditional: number;
  notModified: number;
  limited: number;
}

/** First and second mirrors on fresh Hosts against raw loops, ROUNDS times. */
async function measure(sandbox: ChildSandbox, label: string): Promise<Round[]> {
  // the sandbox reads and parses its files once, so neither side pays for a cold server
  await rawLoop(sandbox);
  const raws = [await rawLoop(sandbox)];
  const rounds: Round[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const bench = await benchHost(sandbox); // a fresh Host: an empty cache
    const first = await bench.mirror();
    const limitedFirst = bench.wire.count(429);
    bench.wire.clear();
    const second = await bench.mirror();
    const wire = { conditional: bench.wire.conditional, notModified: bench.wire.count(304), limited: limitedFirst + bench.wire.count(429) };
    await bench.close();
    raws.push(await rawLoop(sandbox));
    const [before, after] = [raws.at(-2)!, raws.at(-1)!];
    const rawPps = (before.pages + after.pages) / ((before.ms + after.ms) / 1000);
    const pps = first.progress.total / (first.ms / 1000);
    const r: Round = { pps, rawPps, ratio: pps / rawPps, first: first.ms, second: second.ms, speedup: first.ms / second.ms, failed: first.progress.failed + second.progress.failed, ...wire };
    rounds.push(r);
    console.log(
      `${label} round ${round}: raw ${s(before.ms)} s / ${s(after.ms)} s → ${rawPps.toFixed(0)} pages/s; first mirror ${s(first.ms)} s → ${pps.toFixed(0)} pages/s ` +
        `(ratio ${r.ratio.toFixed(2)}); second mirror ${s(second.ms)} s (${r.speedup.toFixed(1)}×; unchanged ${second.progress.unchanged}, ` +
        `conditional requests ${r.conditional}, 304s ${r.notModified}); failed reads ${r.failed}; 429s ${r.limited}`,
    );
  }
  return rounds;
}

/**
 * A mirror against the default limit: every request the Host sent, when it left, and the 429s.
 * "Never more than the bucket allows": at every request, the requests sent so far are at most the
 * bucket plus its refill since the first one.
 */
async function underTheDefaultLimit(sandbox: ChildSandbox) {
  const bench = await benchHost(sandbox); // its adding the site (a /me) counts in the budget too
  const run = await bench.mirror();
  await bench.close();
  const sent = bench.wire.sentAt;
  const rate = REAL_LIMIT.limit / REAL_LIMIT.windowSec;
  const peak = Math.max(...sent.map((t, i) => i + 1 - ((t - sent[0]!) / 1000) * rate));
  // the least time the bucket lets this many requests take; and keeping the tenth of it that
  // background work leaves for a person's requests (the pacer's reserve)
  const least = Math.max(0, (sent.length - REAL_LIMIT.limit) / rate);
  const reserve = Math.max(2, Math.ceil(REAL_LIMIT.limit / 10));
  const leastWithReserve = Math.max(0, (sent.length - (REAL_LIMIT.limit - reserve)) / rate);
  return { run, requests: sent.length, limited: bench.wire.count(429), peak, seconds: run.ms / 1000, least, leastWithReserve };
}

const summary = (rounds: Round[]) => ({
  ratio: median(rounds.map((r) => r.ratio)),
  speedup: median(rounds.map((r) => r.speedup)),
  rawPps: Math.round(median(rounds.map((r) => r.rawPps))),
  pps: Math.round(median(rounds.map((r) => r.pps))),
  first: +s(median(rounds.map((r) => r.first))),
  second: +s(median(rounds.map((r) => r.second))),
  conditional: rounds.reduce((n, r) => n + r.conditional, 0),
  notModified: rounds.reduce((n, r) => n + r.notModified, 0),
  limited: rounds.reduce((n, r) => n + r.limited, 0),
});
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

const children: ChildSandbox[] = [];
try {
  console.log(`site: ${PAGES} pages (one language; sandbox with pages.check_method none, in its own process), concurrency ${CONCURRENCY}`);
  const spec = await spawnSandbox(PAGES);
  children.push(spec);
  const specRounds = summary(await measure(spec, 'spec'));
  await spec.stop();

  // raised far past what the run sends, so the budget never binds but every answer carries the headers
  const real = await spawnSandbox(PAGES, { flavor: 'real', api: { limit: 1_000_000_000, windowSec: 60 } });
  children.push(real);
  const realRounds = summary(await measure(real, 'real'));
  await real.stop();

  console.log(`bucket: a mirror of ${BUCKET_PAGES} pages against the real flavour's default limit, ${REAL_LIMIT.limit} requests per ${REAL_LIMIT.windowSec} s…`);
  const limited = await spawnSandbox(BUCKET_PAGES, { flavor: 'real', api: REAL_LIMIT });
  children.push(limited);
  const bucket = await underTheDefaultLimit(limited);
  await limited.stop();

  console.log(`spec: ratio to raw (median of ${ROUNDS}):     ${specRounds.ratio.toFixed(2)}  (goal ≥ 0.7) ${met(specRounds.ratio >= 0.7)}`);
  console.log(`spec: second vs first (median of ${ROUNDS}):  ${specRounds.speedup.toFixed(1)}× faster  (goal ≥ 5×) ${met(specRounds.speedup >= 5)}`);
  console.log(`real: ratio to raw (median of ${ROUNDS}):     ${realRounds.ratio.toFixed(2)}  (goal ≥ 0.7) ${met(realRounds.ratio >= 0.7)}`);
  console.log(
    `real: second vs first (median of ${ROUNDS}):  ${realRounds.speedup.toFixed(1)}× faster, ${realRounds.notModified} 304s, ${realRounds.conditional} conditional requests  (goal ≥ 5×, no 304) ${met(realRounds.speedup >= 5 && realRounds.notModified === 0 && realRounds.conditional === 0)}`,
  );
  console.log(
    `real, ${REAL_LIMIT.limit}/min: ${bucket.requests} requests in ${bucket.seconds.toFixed(1)} s (the bucket allows no less than ${bucket.least.toFixed(1)} s, ` +
      `${bucket.leastWithReserve.toFixed(1)} s keeping a tenth for a person: ${(bucket.leastWithReserve / bucket.seconds).toFixed(2)} of that pace); at most ${bucket.peak.toFixed(1)} of ${REAL_LIMIT.limit} tokens in use; ` +
      `429s ${bucket.limited}  (goal 0 and ≤ ${REAL_LIMIT.limit}) ${met(bucket.limited === 0 && bucket.peak <= REAL_LIMIT.limit)}; mirror ${bucket.run.progress.state}, ${bucket.run.progress.done} of ${bucket.run.progress.total}`,
  );
  console.log(
    JSON.stringify({
      bench: 'mirror',
      pages: PAGES,
      rounds: ROUNDS,
      raw_pages_per_s: specRounds.rawPps,
      pages_per_s: specRounds.pps,
      ratio_to_raw: +specRounds.ratio.toFixed(2),
      first_s: specRounds.first,
      second_s: specRounds.second,
      second_speedup: +specRounds.speedup.toFixed(1),
      real_raw_pages_per_s: realRounds.rawPps,
      real_pages_per_s: realRounds.pps,
      real_ratio_to_raw: +realRounds.ratio.toFixed(2),
      real_first_s: realRounds.first,
      real_second_s: realRounds.second,
      real_second_speedup: +realRounds.speedup.toFixed(1),
      real_second_304s: realRounds.notModified,
      real_conditional_requests: realRounds.conditional,
      real_429s: realRounds.limited,
      bucket_pages: BUCKET_PAGES,
      bucket_requests: bucket.requests,
      bucket_s: +bucket.seconds.toFixed(1),
      bucket_least_s: +bucket.least.toFixed(1),
      bucket_least_with_reserve_s: +bucket.leastWithReserve.toFixed(1),
      bucket_peak_tokens: +bucket.peak.toFixed(1),
      bucket_429s: bucket.limited,
    }),
  );
} finally {
  await Promise.all(children.map((c) => c.stop()));
}
