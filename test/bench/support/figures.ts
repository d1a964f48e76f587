/**
 * What the benchmarks share besides their Host (mirror-host.ts): the statistics they report and
 * running a benchmark against a CMS sandbox in its own process that is stopped however it ends.
 */
import { spawnSandbox, type ChildSandbox } from './spawn-sandbox';

/** The p-th percentile (0–100) of a list of numbers. */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

/** The middle value (the upper one of an even count). */
export const median = (xs: number[]) => percentile(xs, 50);

/** Milliseconds as seconds with two decimals. */
export const seconds = (ms: number) => (ms / 1000).toFixed(2);

/** Runs `fn` against a sandbox of `pages` pages in a process of its own, stopped at the end (also on a failure). */
export async function withSandbox<T>(pages: number, fn: (sandbox: ChildSandbox) => Promise<T>, options?: Parameters<typeof spawnSandbox>[1]): Promise<T> {
  const sandbox = await spawnSandbox(pages, options);
  try {
    return await fn(sandbox);
  } finally {
    await sandbox.stop();
  }
}
