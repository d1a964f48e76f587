/**
 * Memory of the Host after mirroring a 10,000-page site: the resident set of this process (the
 * Host and nothing else of note: the sandbox runs in a process of its own), sampled during the
 * mirror for the peak, right after it, and after a garbage collection. Goal: under 300 MB.
 * Usage: npm run bench -- memory [PAGES]
 */
import { spawnSandbox } from './support/spawn-sandbox';
import { benchHost } from './support/mirror-host';

const PAGES = Number(process.argv[2] ?? 10_000);
const mb = (bytes: number) => bytes / 1024 / 1024;

const sandbox = await spawnSandbox(PAGES);
try {
  const before = process.memoryUsage().rss;
  const bench = await benchHost(sandbox);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const { progress, ms } = await bench.mirror();
  clearInterval(sampler);
  const after = process.memoryUsage();
  peak = Math.max(peak, after.rss);
  (globalThis as { gc?: () => void }).gc?.();
  const collected = process.memoryUsage();
  await bench.close();
  const f = (x: number) => mb(x).toFixed(0);
  console.log(`mirrored ${progress.total} pages in ${(ms / 1000).toFixed(1)} s (fetched ${progress.fetched}, failed ${progress.failed})`);
  console.log(`RSS before the Host: ${f(before)} MB`);
  console.log(`RSS during the mirror, peak: ${f(peak)} MB`);
  console.log(`RSS after mirroring: ${f(after.rss)} MB (heap used ${f(after.heapUsed)} MB)  (goal < 300 MB) ${mb(after.rss) < 300 ? 'met' : 'MISSED'}`);
  console.log(`RSS after a GC: ${f(collected.rss)} MB (heap used ${f(collected.heapUsed)} MB)`);
  console.log(JSON.stringify({ bench: 'memory', pages: progress.total, rss_mb: +f(after.rss), peak_rss_mb: +f(peak), rss_after_gc_mb: +f(collected.rss), heap_used_mb: +f(after.heapUsed) }));
} finally {
  await sandbox.stop();
}
