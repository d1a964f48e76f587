/**
 * The site list, kept in step with the Host: loaded with `sites.list`, replaced by every
 * `sites.changed` event and by the answer of each call. Also keeps the last connection test of
 * each site for the status dots (memory only: a restart starts from "not checked").
 */
import type { ChannelInput, ConnectionReport, Site, SiteDraft, SiteUpdate } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { AppError } from '../lib/errors';
import { toasts } from '../lib/app.svelte';
import { originOf } from '../../electron/common/csp';

/**
 * The site whose image the page's policy refused, if it is one of ours: browser mode's policy is
 * fixed when the page loads, so a site added later has its images refused until a reload.
 * (Electron's filter follows the sites as they change; it reports no violation.)
 */
export function siteOfRefusedImage(event: { effectiveDirective: string; blockedURI: string }, list: readonly Site[]): Site | null {
  if (event.effectiveDirective !== 'img-src' && event.effectiveDirective !== 'media-src') return null;
  const origin = originOf(event.blockedURI);
  return (origin && list.find((s) => originOf(s.baseUrl) === origin)) || null;
}

/** The values of a site form a connection test can probe before they are saved. */
export type ProbeTarget = Extract<ChannelInput<'sites.test'>, { target: unknown }>['target'];

export type TestState =
  | { state: 'running'; startedAt: number }
  | { state: 'done'; report: ConnectionReport; at: number }
  | { state: 'error'; error: AppError; at: number };

/** What the status dot shows. */
export type SiteHealth = 'unchecked' | 'checking' | 'reachable' | 'failed';

export const HEALTH_LABEL: Record<SiteHealth, string> = {
  unchecked: 'Not checked',
  checking: 'Checking…',
  reachable: 'Reachable',
  failed: 'Not reachable',
};

class SitesState {
  list = $state<Site[]>([]);
  loaded = $state(false);
  loadError = $state<AppError | null>(null);
  /** Last connection test per site id. */
  tests = $state<Record<string, TestState>>({});
  /** Bumped by every `sites.changed`: a `sites.list` answer that left the Host before it is older, and dropped. */
  #epoch = 0;

  readonly ids: string[] = $derived(this.list.map((s) => s.id));

  byId(id: string | null | undefined): Site | undefined {
    if (!id) return undefined;
    return this.list.find((s) => s.id === id);
  }

  health(id: string): SiteHealth {
    const t = this.tests[id];
    if (!t) return 'unchecked';
    if (t.state === 'running') return 'checking';
    if (t.state === 'done') return t.report.ok ? 'reachable' : 'failed';
    return 'failed';
  }

  async load(): Promise<void> {
    const epoch = this.#epoch;
    try {
      const list = await invoke('sites.list');
      if (epoch === this.#epoch) this.#apply(list);
      this.loadError = null;
    } catch (err) {
      this.loadError = AppError.from(err);
    }
  }

  /** Follow `sites.changed`. Returns the unsubscribe function. */
  start(): () => void {
    const off = on('sites.changed', (list) => {
      this.#epoch++;
      this.#apply(list);
    });
    if (typeof document === 'undefined') return off;
    const told = new Set<string>();
    const refused = (e: SecurityPolicyViolationEvent) => {
      const site = siteOfRefusedImage(e, this.list);
      if (!site || told.has(site.id)) return;
      told.add(site.id);
      toasts.info(`Images of ${site.name} show after a reload`, 'This page was opened before the site was added, and it may load images only from the sites it knew then. Reload the page to see them.');
    };
    document.addEventListener('securitypolicyviolation', refused);
    return () => {
      off();
      document.removeEventListener('securitypolicyviolation', refused);
    };
  }

  async add(draft: SiteDraft): Promise<Site> {
    const site = await invoke('sites.add', draft);
    if (!this.byId(site.id)) this.#apply([...this.list, site]);
    return site;
  }

  async update(update: SiteUpdate): Promise<Site> {
    const before = this.byId(update.id);
    const site = await invoke('sites.update', update);
    this.#apply(this.list.map((s) => (s.id === site.id ? site : s)));
    // a test of another address (or kind, or environment) says nothing about this one
    if (!before || before.baseUrl !== site.baseUrl || before.kind !== site.kind || before.environment !== site.environment) {
      this.#forgetTest(site.id);
    }
    return site;
  }

  async remove(id: string): Promise<void> {
    await invoke('sites.remove', { id });
    this.#apply(this.list.filter((s) => s.id !== id));
  }

  /** Saves a new order (the full id list). Shown at once; put back if the Host refuses. */
  async reorder(ids: string[]): Promise<void> {
    const before = this.list;
    const byId = new Map(before.map((s) => [s.id, s]));
    const next = ids.map((id) => byId.get(id)).filter((s): s is Site => s !== undefined);
    if (next.length !== before.length) throw new AppError({ code: 'invalid_input', message: 'The site list changed; try again.' });
    this.list = next;
    try {
      this.#apply(await invoke('sites.reorder', { ids }));
    } catch (err) {
      this.list = before;
      throw err;
    }
  }

  /** Moves a site `delta` places (−1 up, +1 down). Resolves to its new index, or null if it could not move. */
  async move(id: string, delta: number): Promise<number | null> {
    const ids = [...this.ids];
    const from = ids.indexOf(id);
    const to = from + delta;
    if (from < 0 || to < 0 || to >= ids.length) return null;
    ids.splice(from, 1);
    ids.splice(to, 0, id);
    await this.reorder(ids);
    return to;
  }

  /** Moves a site to `index` in the list (drag and drop). */
  async moveTo(id: string, index: number): Promise<void> {
    const ids = this.ids.filter((x) => x !== id);
    const to = Math.max(0, Math.min(index, ids.length));
    ids.splice(to, 0, id);
    if (ids.every((x, i) => x === this.ids[i])) return;
    await this.reorder(ids);
  }

  /** Tests a saved site's connection; the result is kept for the status dot. */
  async test(id: string): Promise<ConnectionReport> {
    this.tests[id] = { state: 'running', startedAt: Date.now() };
    try {
      const report = await invoke('sites.test', { id });
      if (this.byId(id)) this.tests[id] = { state: 'done', report, at: Date.now() };
      return report;
    } catch (err) {
      const error = AppError.from(err);
      if (this.byId(id)) this.tests[id] = { state: 'error', error, at: Date.now() };
      throw error;
    }
  }

  /**
   * Tests the values of a site form before they are saved. When they are a saved site's own
   * (`savedId`: address, kind and environment unchanged), its status dot takes the result.
   */
  async testTarget(target: ProbeTarget, savedId: string | null = null): Promise<ConnectionReport> {
    const report = await invoke('sites.test', { target });
    const site = this.byId(savedId);
    if (site && site.baseUrl === target.baseUrl.trim() && site.kind === target.kind && (site.environment ?? null) === (target.environment ?? null)) {
      this.recordTest(site.id, report);
    }
    return report;
  }

  /** Records the result of a test run from the edit form for a saved site. */
  recordTest(id: string, report: ConnectionReport): void {
    if (this.byId(id)) this.tests[id] = { state: 'done', report, at: Date.now() };
  }

  #apply(list: Site[]) {
    this.list = [...list].sort((a, b) => a.position - b.position);
    this.loaded = true;
    // drop test results of sites that are gone
    const ids = new Set(this.list.map((s) => s.id));
    for (const id of Object.keys(this.tests)) if (!ids.has(id)) delete this.tests[id];
  }

  #forgetTest(id: string) {
    delete this.tests[id];
  }
}

export const sites = new SitesState();

/** The host name of a site's base URL, for compact display. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}
