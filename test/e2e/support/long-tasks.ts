/**
 * The renderer's long tasks (main-thread work over 50 ms, the Long Tasks API) while a perf test
 * moves through a big list: recording starts now, and the durations so far are read back.
 */
import type { Page } from '@playwright/test';

export async function recordLongTasks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __long: number[] };
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push(e.duration);
    }).observe({ type: 'longtask', buffered: false });
  });
}

export const longTasks = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { __long: number[] }).__long);
