/**
 * "Make available offline", per CMS site: the latest mirror run of each site (loaded with
 * `mirror.status`, then kept by `mirror.progress` events) and its offline settings.
 *
 *   mirrors.run(siteId)        the latest run, or null (never mirrored)
 *   mirrors.start(siteId, o)   starts or resumes; errors are thrown for the caller to show
 *   mirrors.cancel(siteId)
 */
import type { MirrorProgress, OfflineSettings } from '../../../electron/contract/index';
import { invoke, on } from '../../lib/client';

export { allowanceText, count, countsText, etaText, progressText, timeLeftText } from './mirror-text';

class Mirrors {
  #runs = $state<Record<string, MirrorProgress>>({});
  #settings = $state<Record<string, OfflineSettings>>({});
  #started = false;

  /** Loads every site's latest run and follows the events; safe to call more than once. */
  async init(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    on('mirror.progress', (p) => this.#take(p));
    try {
      for (const p of await invoke('mirror.status', {})) this.#take(p);
    } catch {
      this.#started = false; // the Host was not ready: the next view that asks tries again
    }
  }

  #take(p: MirrorProgress): void {
    const had = this.#runs[p.siteId];
    // events of an older run (a late one after a restart) never replace a newer run
    if (had && had.runId > p.runId) return;
    this.#runs[p.siteId] = p;
  }

  run(siteId: string): MirrorProgress | null {
    return this.#runs[siteId] ?? null;
  }

  running(siteId: string): boolean {
    return this.#runs[siteId]?.state === 'running';
  }

  async start(siteId: string, o: { fresh?: boolean; confirmRemoval?: boolean; revalidateAll?: boolean } = {}): Promise<void> {
    this.#take(await invoke('mirror.start', { siteId, ...o }));
  }

  async cancel(siteId: string): Promise<void> {
    const r = await invoke('mirror.cancel', { siteId });
    if (r.run) this.#take(r.run);
  }

  settings(siteId: string): OfflineSettings | null {
    return this.#settings[siteId] ?? null;
  }

  async loadSettings(siteId: string): Promise<OfflineSettings> {
    const s = await invoke('mirror.settings', { siteId });
    this.#settings[siteId] = s;
    return s;
  }

  async saveSettings(siteId: string, change: Partial<OfflineSettings>): Promise<OfflineSettings> {
    const s = await invoke('mirror.setSettings', { siteId, ...change });
    this.#settings[siteId] = s;
    return s;
  }
}

export const mirrors = new Mirrors();
