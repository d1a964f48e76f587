/**
 * "Make available offline", per CMS site: the latest mirror run of each site (loaded with
 * `mirror.status`, then kept by `mirror.progress` events) and its offline settings.
 *
 *   mirrors.run(siteId)        the latest run, or null (never mirrored)
 *   mirrors.begin(siteId, o)   starts or resumes; errors are thrown for the caller to show
 *   mirrors.cancel(siteId)
 */
import type { MirrorProgress, OfflineSettings } from '../../electron/contract/index';
import { invoke, on } from '../lib/client';
import { HostMirror } from './host-mirror.svelte';

class Mirrors extends HostMirror<MirrorProgress> {
  #settings = $state<Record<string, OfflineSettings>>({});

  protected fetch() {
    return invoke('mirror.status', {});
  }

  protected keyOf(p: MirrorProgress) {
    return p.siteId;
  }

  protected follow() {
    return [on('mirror.progress', (p) => this.take(p))];
  }

  /** Events of an older run (a late one after a restart) never replace a newer run. */
  protected override isNewer(held: MirrorProgress, next: MirrorProgress): boolean {
    return next.runId >= held.runId;
  }

  run(siteId: string): MirrorProgress | null {
    return this.bySite[siteId] ?? null;
  }

  running(siteId: string): boolean {
    return this.bySite[siteId]?.state === 'running';
  }

  /** Starts or resumes a run; errors are thrown for the caller to show. */
  async begin(siteId: string, o: { fresh?: boolean; confirmRemoval?: boolean; revalidateAll?: boolean } = {}): Promise<void> {
    this.take(await invoke('mirror.start', { siteId, ...o }));
  }

  async cancel(siteId: string): Promise<void> {
    const r = await invoke('mirror.cancel', { siteId });
    if (r.run) this.take(r.run);
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
