/**
 * What the end-to-end specs share: browser mode on a fresh data folder per test, one call over the
 * bridge the UI uses, the demo CMS site added by API key, and the locators of the rail, the panes,
 * the page tree and the editor.
 */
import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { startCmsSandbox, type CmsSandbox, type CmsSandboxOptions } from '../../sandbox/cms/server';
import { isFlavor, type Flavor } from '../../sandbox/flavor';
import { UNHURRIED } from '../../support/limits';
import { tempDir } from '../../support/tmp';
import { startBrowserMode, type BrowserMode, type StartOptions } from '../browser-mode';

// ---- the flavour

/**
 * The sandbox flavour of the running Playwright project (`metadata.flavor` in playwright.config.ts):
 * `spec` for the documents' behaviour, `real` for the real services'.
 */
export function flavorOf(info: TestInfo): Flavor {
  const f = info.project.metadata?.flavor;
  return isFlavor(f) ? f : 'spec';
}

// ---- the bridge

/** A bridge call the Host answered with an error; `code` is the Host's (`not_found`, …). */
export class BridgeError extends Error {
  readonly code: string | undefined;
  constructor(channel: string, error: { code?: string; message?: string } | undefined) {
    super(`${channel}: ${error?.message}`);
    this.code = error?.code;
  }
}

/**
 * One call through the same bridge the UI uses (browser mode's WebSocket; the token is in the
 * page's URL). Events share the socket, so the reply is the message with the call's id. Answers
 * the value; an error answer throws a `BridgeError`.
 */
export async function bridge<T = unknown>(page: Page, channel: string, input: unknown): Promise<T> {
  const reply = await page.evaluate(
    async ([channel, input]) => {
      const token = new URLSearchParams(location.search).get('token');
      const ws = new WebSocket(`ws://${location.host}/bridge?token=${token}`);
      await new Promise((r) => (ws.onopen = r));
      try {
        return await new Promise<{ ok: boolean; value?: unknown; error?: { code?: string; message?: string } }>((resolve) => {
          ws.addEventListener('message', function onMessage(e) {
            const msg = JSON.parse(e.data);
            if (msg.id !== 1) return; // an event, not our reply
            ws.removeEventListener('message', onMessage);
            resolve(msg);
          });
          ws.send(JSON.stringify({ id: 1, channel, input }));
        });
      } finally {
        ws.close();
      }
    },
    [channel, input] as const,
  );
  if (!reply.ok) throw new BridgeError(channel, reply.error);
  return reply.value as T;
}

/**
 * Adds a CMS site signed in by API key through the bridge (adding through the form has its own
 * tests) and reads its account, so its areas open at once; answers the site's id.
 */
export async function addCmsSite(page: Page, site: { name: string; baseUrl: string; apiKey: string }): Promise<string> {
  const { id } = await bridge<{ id: string }>(page, 'sites.add', {
    name: site.name,
    kind: 'cms',
    baseUrl: site.baseUrl,
    environment: null,
    authMode: 'apikey',
    apiKey: site.apiKey,
  });
  await bridge(page, 'auth.refreshMe', { siteId: id });
  return id;
}

/**
 * Adds a store site through the bridge, signed in by the API key given or set to user login
 * (`authMode: 'password'`, nobody logged in yet); answers the site's id.
 */
export async function addStoreSite(
  page: Page,
  site: { name: string; baseUrl: string } & ({ authMode: 'apikey'; apiKey: string } | { authMode: 'password' }),
): Promise<string> {
  const { id } = await bridge<{ id: string }>(page, 'sites.add', { kind: 'store', environment: null, ...site });
  return id;
}

/** A page as `pages.get` answers it (the fields a draft is made of). */
export interface SitePage {
  title: string;
  content: string;
  header: Record<string, unknown>;
}

/** An edit saved locally, as the editor saves it: the page is read once (cached), then drafted. */
export async function saveDraft(
  page: Page,
  siteId: string,
  route: string,
  edit: (p: SitePage) => Partial<SitePage> & { template?: string },
): Promise<{ id: number }> {
  const p = await bridge<SitePage>(page, 'pages.get', { siteId, route });
  return bridge(page, 'drafts.save', { siteId, route, title: p.title, header: p.header, content: p.content, ...edit(p) });
}

// ---- browser mode per test

export interface AppSession {
  /** This test's data folder. */
  readonly dataDir: string;
  /** Browser mode while it runs. */
  readonly app: BrowserMode | undefined;
  /** Starts browser mode on this test's data folder and keychain service. */
  start(opts?: Pick<StartOptions, 'secrets'>): Promise<BrowserMode>;
  /** Starts browser mode and opens it in `page`. */
  open(page: Page, opts?: Pick<StartOptions, 'secrets'>): Promise<BrowserMode>;
  /** Stops browser mode and opens it again on the same data folder and keychain (a restart of the app). */
  restart(page: Page): Promise<BrowserMode>;
}

/**
 * Registers hooks that give every test a fresh data folder and keychain service (kept across a
 * restart, as a restart must find the same tokens) and stop browser mode after the test.
 */
export function useBrowserMode(prefix: string): AppSession {
  let dir: ReturnType<typeof tempDir> | undefined;
  let keychainService = '';
  let app: BrowserMode | undefined;
  test.beforeEach(() => {
    dir = tempDir(prefix);
    keychainService = `SitedeskE2E-${randomUUID()}`;
  });
  test.afterEach(async () => {
    await app?.stop();
    app = undefined;
    dir?.remove();
    dir = undefined;
  });
  const session: AppSession = {
    get dataDir() {
      if (!dir) throw new Error('useBrowserMode: the data folder exists only while a test runs');
      return dir.path;
    },
    get app() {
      return app;
    },
    async start(opts = {}) {
      app = await startBrowserMode({ dataDir: session.dataDir, keychainService, ...opts });
      return app;
    },
    async open(page, opts = {}) {
      const started = await session.start(opts);
      await page.goto(started.url);
      return started;
    },
    async restart(page) {
      await app?.stop();
      app = undefined;
      return session.open(page);
    },
  };
  return session;
}

// ---- the demo site per test

/** The name `useDemoSite` gives the site unless told otherwise. */
export const DEMO = 'Demo';

export interface DemoSite {
  /** This test's CMS sandbox with the demo accounts and content (301 pages in en, de, fr). */
  readonly cms: CmsSandbox;
  readonly session: AppSession;
  /** The site's id, once `connect` has added it. */
  readonly siteId: string;
  /**
   * Opens the app in `page` with the sandbox added as a CMS site by API key (the admin's unless
   * another is given) under `name` (default `DEMO`); answers the site's id.
   */
  connect(page: Page, opts?: { name?: string; apiKey?: string }): Promise<string>;
  /** `connect`, then the site's Pages area with its tree loaded; answers the pane. */
  openPages(page: Page, opts?: { name?: string; apiKey?: string }): Promise<Locator>;
}

/**
 * Sandbox options a spec's demo site starts with besides the flavour and the demo seed (a test
 * not about the rate limit may raise the real flavour's 120 a minute: `limits: {api: …}`).
 */
export type DemoSandboxOptions = Omit<CmsSandboxOptions, 'flavor' | 'seed' | 'content' | 'dataDir'>;

/** The real flavour's bucket raised far past what a test sends, for tests that are not about it (shared with the Host tests). */
export { UNHURRIED };

/**
 * Registers hooks that give every test its own demo CMS sandbox and browser mode (see
 * useBrowserMode). `sandbox` adds options to every test's sandbox, or per test from its info (its
 * title, its flavour).
 */
export function useDemoSite(prefix: string, sandbox: DemoSandboxOptions | ((info: TestInfo) => DemoSandboxOptions) = {}): DemoSite {
  const session = useBrowserMode(prefix);
  let cms: CmsSandbox | undefined;
  let siteId = '';
  test.beforeEach(async ({}, info) => {
    const extra = typeof sandbox === 'function' ? sandbox(info) : sandbox;
    cms = await startCmsSandbox({ ...extra, flavor: flavorOf(info), seed: 'demo', content: 'demo' });
    siteId = '';
  });
  test.afterEach(async () => {
    await cms?.close();
    cms = undefined;
  });
  const demo: DemoSite = {
    get cms() {
      if (!cms) throw new Error('useDemoSite: the sandbox runs only while a test runs');
      return cms;
    },
    session,
    get siteId() {
      return siteId;
    },
    async connect(page, opts = {}) {
      await session.open(page);
      await expect(rail(page)).toBeVisible();
      siteId = await addCmsSite(page, {
        name: opts.name ?? DEMO,
        baseUrl: demo.cms.url,
        apiKey: opts.apiKey ?? demo.cms.seeded!.adminApiKey!,
      });
      // browser mode's policy lets images come from the sites it knew when the page loaded (the
      // site was added through the bridge after that): load the page again, as a person would
      await page.reload();
      await expect(rail(page)).toBeVisible();
      return siteId;
    },
    async openPages(page, opts = {}) {
      await demo.connect(page, opts);
      return openPagesArea(page, opts.name ?? DEMO);
    },
  };
  return demo;
}

// ---- the window

/** The rail of sites. */
export const rail = (page: Page) => page.getByRole('navigation', { name: 'Sites', exact: true });
/** A site's button in the rail (its description says who is signed in and what waits to sync). */
export const siteButton = (page: Page, site: string) => rail(page).getByRole('button', { name: site, exact: true });
/** A site's pane. */
export const sitePane = (page: Page, site: string) => page.getByRole('region', { name: site, exact: true });

/** Opens a site's pane from the rail, then one of its areas; answers the pane. */
export async function openArea(page: Page, site: string, area: string): Promise<Locator> {
  await siteButton(page, site).click();
  const pane = sitePane(page, site);
  await pane.getByRole('button', { name: area, exact: true }).click();
  return pane;
}

/**
 * In a site's open pane: back to its overview if an area is open, then the area `name` from the
 * overview's list; waits for the area's heading.
 */
export async function switchArea(pane: Locator, site: string, name: string): Promise<void> {
  const back = pane.getByRole('button', { name: 'Overview', exact: true });
  if (await back.isVisible()) await back.click();
  await pane.getByRole('navigation', { name: `${site} Areas` }).getByRole('button', { name, exact: true }).click();
  await expect(pane.getByRole('heading', { name, exact: true, level: 2 })).toBeVisible();
}

/** Opens a site's Pages area and waits for its tree's first row; answers the pane. */
export async function openPagesArea(page: Page, site = DEMO): Promise<Locator> {
  const pane = await openArea(page, site, 'Pages');
  await expect(treeItem(pane, 'Home', site)).toBeVisible();
  return pane;
}

// ---- the Pages area

/** The filters above the tree and the list. */
export const pageFilters = (pane: Locator) => pane.getByRole('search', { name: 'Filter pages' });
/** The page tree of a pane's site. */
export const pageTree = (pane: Locator, site = DEMO) => pane.getByRole('tree', { name: `Pages of ${site}` });
/** A row of the page tree, by its title. */
export const treeItem = (pane: Locator, title: string, site = DEMO) =>
  pageTree(pane, site).getByRole('treeitem', { name: title, exact: true });

/** Expands a closed tree node by clicking its chevron area (the row's left edge) and waits for its children. */
export async function expand(pane: Locator, title: string): Promise<void> {
  const row = treeItem(pane, title);
  await row.click({ position: { x: 10, y: 14 } });
  await expect(row).toHaveAttribute('aria-expanded', 'true');
  await expect(row).not.toHaveAttribute('aria-busy', 'true');
}

/** The page editor of a pane (its name follows the page's title: a save or a language switch changes it). */
export const editorOf = (pane: Locator) => pane.getByRole('region', { name: /^Edit / });
/** The editor's text. */
export const markdown = (editor: Locator) => editor.getByRole('textbox', { name: 'Markdown content' });

/** Opens `parent` in the tree unless it is open, then its child `title` in the editor; answers the editor. */
export async function openInEditor(pane: Locator, parent: string, title: string): Promise<Locator> {
  const folder = treeItem(pane, parent);
  if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click({ position: { x: 10, y: 14 } });
  await expect(folder).toHaveAttribute('aria-expanded', 'true');
  await treeItem(pane, title).click();
  await expect(pane.getByRole('region', { name: `Edit ${title}`, exact: true })).toBeVisible();
  await expect(markdown(editorOf(pane))).toBeVisible();
  return editorOf(pane);
}
