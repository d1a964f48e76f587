/**
 * Offline search over a mirrored 10,000-page site: latency of search.query at the Host (the
 * contract call, as the renderer makes it), p50 and p95 over a mix of queries — the most common
 * word of the site (every page matches: the ranking's worst case), rare words, numbers, a
 * prefix, a phrase, several words, a miss. Goal: p95 under 20 ms.
 * Usage: npm run bench -- search [PAGES] [ROUNDS]
 */
import { benchHost } from './support/mirror-host';
import { percentile, withSandbox } from './support/figures';

const PAGES = Number(process.argv[2] ?? 10_000);
const ROUNDS = Number(process.argv[3] ?? 100);
const QUERIES = ['page', 'generated', 'section', 'page 42.17', '4217', 'sec*', '"generated page"', 'section 73', 'zeppelin', 'Page Section Generated'];

await withSandbox(PAGES, async (sandbox) => {
  const bench = await benchHost(sandbox);
  const { progress } = await bench.mirror();
  await sandbox.stop(); // offline search: the site is not needed any more
  const per = new Map<string, number[]>(QUERIES.map((q) => [q, []]));
  const all: number[] = [];
  const hits = new Map<string, number>();
  for (let round = 0; round < ROUNDS + 5; round++) {
    for (const text of QUERIES) {
      const t = performance.now();
      const r = await bench.host.invoke('search.query', { text, limit: 20 });
      const ms = performance.now() - t;
      if (!r.ok) throw new Error(`${text}: ${r.error.message}`);
      hits.set(text, (r.value as unknown[]).length);
      if (round < 5) continue; // warm-up
      per.get(text)!.push(ms);
      all.push(ms);
    }
  }
  await bench.close();
  const f = (x: number) => x.toFixed(2);
  console.log(`index: ${progress.total} pages mirrored; ${all.length} searches (${ROUNDS} rounds of ${QUERIES.length} queries, 20 results each)`);
  for (const [text, xs] of per) console.log(`  ${JSON.stringify(text).padEnd(26)} p50 ${f(percentile(xs, 50)).padStart(6)} ms  p95 ${f(percentile(xs, 95)).padStart(6)} ms  (${hits.get(text)} hits)`);
  const p50 = percentile(all, 50);
  const p95 = percentile(all, 95);
  console.log(`all: p50 ${f(p50)} ms  p95 ${f(p95)} ms  max ${f(Math.max(...all))} ms  (goal p95 < 20 ms) ${p95 < 20 ? 'met' : 'MISSED'}`);
  console.log(JSON.stringify({ bench: 'search', pages: progress.total, searches: all.length, p50_ms: +f(p50), p95_ms: +f(p95), max_ms: +f(Math.max(...all)) }));
});
