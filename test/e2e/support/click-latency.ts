/**
 * The app's own time from a click to what it shows, measured in the page: from the click event
 * to the first DOM change after which `selector` holds `text`. A bound on "at once" is about the
 * app, and Playwright's polling and trace snapshots (on a loaded CI machine, more than the app's
 * own work) are left out of it.
 */
import type { Page } from '@playwright/test';

type Probe = { clickAt: number; shownAt: number };

/** Arms the measure for the next click; the function it gives waits for the text and answers ms. */
export async function armClickLatency(page: Page, selector: string, text: string): Promise<() => Promise<number>> {
  await page.evaluate(([sel, want]) => {
    const w = window as unknown as { __clickLatency: Probe };
    const probe: Probe = { clickAt: 0, shownAt: 0 };
    w.__clickLatency = probe;
    const holds = () => (document.querySelector(sel)?.textContent ?? '').includes(want);
    document.addEventListener('click', () => {
      probe.clickAt = performance.now();
      if (holds()) return void (probe.shownAt = probe.clickAt);
      const seen = new MutationObserver(() => {
        if (!holds()) return;
        probe.shownAt = performance.now();
        seen.disconnect();
      });
      seen.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, { capture: true, once: true });
  }, [selector, text] as const);
  return async () => {
    const handle = await page.waitForFunction(() => {
      const p = (window as unknown as { __clickLatency: Probe }).__clickLatency;
      return p.shownAt > 0 ? p.shownAt - p.clickAt : 0;
    });
    return Math.round((await handle.jsonValue()) as number);
  };
}
