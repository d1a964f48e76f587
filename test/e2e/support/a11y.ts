/**
 * The accessibility check every screen of the end-to-end tests goes through: axe-core (through
 * `@axe-core/playwright`) with the WCAG 2.1 A and AA rules plus axe's best practices, on the page as
 * it is now (its theme, its size, what is hovered, selected or focused). A violation fails the test
 * with the rule, each element's selector and markup, and for contrast the ratio measured and the
 * colours, so the message says what to fix without opening a trace.
 *
 * A new area's spec calls `expectAccessibleEverywhere(page, 'area: what shows')` at each screen
 * it opens (light and dark, wide and narrow, in place), or `expectAccessible` for the page as it is
 * (a hovered row, a selected result); `accessibility.spec.ts` walks every area that way.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';

/** The window sizes every screen is checked at: a laptop's and a small window's. */
export const A11Y_SIZES = { wide: { width: 1280, height: 800 }, narrow: { width: 800, height: 700 } } as const;

/** The rule sets checked: WCAG 2.0 and 2.1, levels A and AA, and axe's best practices. */
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

export interface AccessibleOptions {
  /** Only this part of the page (a CSS selector), e.g. a dialog. The whole page when left out. */
  include?: string;
  /**
   * Rules left out on this screen, each with the reason (shown in the report). For a rule that
   * cannot judge the screen, never for a violation to be fixed.
   */
  skip?: Record<string, string>;
}

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
  any: { id: string; data?: unknown; message: string }[];
  all: { id: string; data?: unknown; message: string }[];
  none: { id: string; data?: unknown; message: string }[];
}

/** One node's failure in words: where it is, its markup, and for contrast the numbers. */
function describeNode(rule: string, node: AxeNode): string {
  const where = node.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : String(t))).join(' ');
  const lines = [`    at ${where}`, `       ${node.html.replace(/\s+/g, ' ').slice(0, 240)}`];
  if (rule === 'color-contrast' || rule === 'color-contrast-enhanced') {
    for (const check of [...node.any, ...node.all, ...node.none]) {
      const d = check.data as
        | { contrastRatio?: number; expectedContrastRatio?: string; fgColor?: string; bgColor?: string; fontSize?: string; fontWeight?: string; messageKey?: string }
        | undefined;
      if (!d || typeof d !== 'object') continue;
      if (d.contrastRatio !== undefined && d.contrastRatio !== 0) {
        lines.push(
          `       contrast ${d.contrastRatio}:1 (needs ${d.expectedContrastRatio}): ${d.fgColor} on ${d.bgColor}, ${d.fontSize} ${d.fontWeight}`,
        );
      } else if (d.messageKey) {
        lines.push(`       contrast not measured: ${d.messageKey} (${check.message})`);
      }
    }
  } else if (node.failureSummary) {
    lines.push(...node.failureSummary.split('\n').map((l) => `       ${l.trim()}`));
  }
  return lines.join('\n');
}

/**
 * Runs axe on `page` now and fails with every violation in words. `name` says which screen this
 * is in the message (and in the report's annotations: the screens checked by a test are listed).
 */
export async function expectAccessible(page: Page, name: string, opts: AccessibleOptions = {}): Promise<void> {
  // the app animates dialogs and menus in for 0.1 s: measure colours once they are at rest
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  // legacy mode runs axe in the page itself: the default finishes the run in a new blank page of
  // the context, which never answers under browser mode. Frames of other origins (a plugin's
  // sandboxed frame) are left out either way.
  let builder = new AxeBuilder({ page }).withTags(A11Y_TAGS).setLegacyMode(true);
  if (opts.include) builder = builder.include(opts.include);
  const skip = opts.skip ?? {};
  if (Object.keys(skip).length) builder = builder.disableRules(Object.keys(skip));
  const results = await builder.analyze();
  const scheme = await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  const size = page.viewportSize();
  const where = `${name} (${scheme}, ${size ? `${size.width}x${size.height}` : 'window'})`;
  test.info().annotations.push({ type: 'accessible', description: where });
  const violations = results.violations as unknown as { id: string; impact?: string; help: string; helpUrl: string; nodes: AxeNode[] }[];
  const message = violations
    .map((v) => [`  ${v.id} (${v.impact ?? 'no impact given'}): ${v.help}`, ...v.nodes.map((n) => describeNode(v.id, n))].join('\n'))
    .join('\n');
  expect.soft(violations.length, `Accessibility violations on ${where}:\n${message}`).toBe(0);
}

/**
 * Checks the screen now showing in light and dark, wide (1280×800) and narrow (800×700): the
 * colour scheme and the window's size are switched in place, so a screen reached once is checked
 * four ways; the page is left light or dark, wide or narrow as it was. With `ready`, waits for it
 * first (the element that says the screen is there).
 */
export async function expectAccessibleEverywhere(
  page: Page,
  name: string,
  opts: AccessibleOptions & {
    ready?: Locator;
    /** Only light and dark at the size the page has (a hovered row stays hovered only while nothing moves). */
    themesOnly?: boolean;
  } = {},
): Promise<void> {
  if (opts.ready) await expect(opts.ready).toBeVisible();
  const was = page.viewportSize();
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  try {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const size of opts.themesOnly ? [null] : Object.values(A11Y_SIZES)) {
        if (size) await page.setViewportSize(size);
        // a frame for the layout and the virtual lists to follow the new size
        await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
        await expectAccessible(page, name, opts);
      }
    }
  } finally {
    await page.emulateMedia({ colorScheme: dark ? 'dark' : 'light' });
    if (was && !opts.themesOnly) await page.setViewportSize(was);
  }
}

/** Checks the screen in light and dark, wide and narrow, once `ready` shows. */
export const checkScreen = (page: Page, name: string, ready?: Locator): Promise<void> => expectAccessibleEverywhere(page, name, { ready });

/**
 * Checks a passing state (a hovered row, a selected result, a focused control), or a screen
 * already checked at both sizes with only its words changed (a count, a message), in light and dark.
 */
export const checkState = (page: Page, name: string): Promise<void> => expectAccessibleEverywhere(page, name, { themesOnly: true });
