/**
 * What each site's plugins add (addons.list) and the site's translations of their labels, read once
 * per site and account (another account sees other items: the site gates them), and the plugin
 * page each site's pane has open. App-wide because the site's area navigation, its overview, its
 * Settings and the page area all read the same lists.
 */
import type { SiteAddons } from '../../electron/contract/index';
import { invoke } from '../lib/client';
import { AppError } from '../lib/errors';

/** The area id under which a plugin's page opens in a site's pane (renderer/areas.ts). */
export const PLUGIN_PAGE_AREA = 'addons';

interface Entry {
  /** Whose lists these are (the account signed in when they were read). */
  who: string;
  addons: SiteAddons | null;
  strings: Record<string, string>;
  loading: boolean;
  error: string | null;
}

class AddonsState {
  bySite = $state<Record<string, Entry>>({});
  /** Site id → the plugin page its pane shows (its plugin and its label in words). */
  pages = $state<Record<string, { plugin: string; label: string }>>({});

  /** Reads the site's lists unless they were read for this account already. */
  ensure(siteId: string, who: string): void {
    const e = this.bySite[siteId];
    if (e && e.who === who && (e.addons || e.loading)) return;
    void this.load(siteId, who);
  }

  async load(siteId: string, who: string): Promise<void> {
    this.bySite[siteId] = { who, addons: this.bySite[siteId]?.addons ?? null, strings: this.bySite[siteId]?.strings ?? {}, loading: true, error: null };
    const [list, strings] = await Promise.allSettled([invoke('addons.list', { siteId }), invoke('addons.translations', { siteId, lang: 'en' })]);
    const e = this.bySite[siteId];
    if (!e || e.who !== who) return;
    e.loading = false;
    if (list.status === 'fulfilled') e.addons = list.value;
    else e.error = AppError.from(list.reason).message;
    // without the site's translations a key reads as words made from it (views/addons/labels.ts)
    if (strings.status === 'fulfilled') e.strings = strings.value.strings;
  }

  of(siteId: string): Entry | undefined {
    return this.bySite[siteId];
  }

  /** Chooses the plugin page the site's pane shows (the caller then selects PLUGIN_PAGE_AREA). */
  choosePage(siteId: string, plugin: string, label: string): void {
    this.pages[siteId] = { plugin, label };
  }
}

export const addons = new AddonsState();
