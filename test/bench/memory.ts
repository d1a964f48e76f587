/**
 * Memory of the Host after mirroring a 10,000-page site: the resident set of this process (the
 * Host and nothing else of note: the sandbox runs in a process of its own), sampled during the
 * mirror for the peak, right after it, and after a garbage collection. Goal: under 300 MB.
 * Also how long the Host's event loop was held at a time during the mirror (its delay, p99 and
 * max): a mirror must never freeze the Host.
 * Usage: npm run bench -- memory [PAGES]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { benchHost } from './support/mirror-host';
import { withSandbox } from './support/figures';

const PAGES = Number(process.argv[2] ?? 10_000);
const mb = (bytes: number) => bytes / 1024 / 1024;

await withSandbox(PAGES, async (sandbox) => {
  const before = process.memoryUsage().rss;
  const bench = await benchHost(sandbox);
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const { progress, ms } = await bench.mirror();
  loop.disable();
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
  const lag = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(`event loop delay during the mirror: p50 ${lag(loop.percentile(50))} ms, p99 ${lag(loop.percentile(99))} ms, max ${lag(loop.max)} ms`);
  console.log(
    JSON.stringify({
      bench: 'memory',
      pages: progress.total,
      rss_mb: +f(after.rss),
      peak_rss_mb: +f(peak),
      rss_after_gc_mb: +f(collected.rss),
      heap_used_mb: +f(after.heapUsed),
      loop_delay_p99_ms: +lag(loop.percentile(99)),
      loop_delay_max_ms: +lag(loop.max),
    }),
  );
});
