/**
 * One site as its pane sees it: the site (kept current with the site list), its account and what
 * the account may open, and each area's per-site state. SitePane provides it to everything below
 * it (`provideSite`), so a component asks `useSite()` instead of being handed a `site` prop and
 * looking it up in the app-wide state by id.
 *
 *   const ctx = useSite();
 *   ctx.site                                the site, as the list now describes it (reactive)
 *   ctx.blocked('pages')                    why the account may not open an area, or null
 *   $derived(ctx.area('pages', () => new …(ctx.id)))  the area's state of this site: made once, kept for the session
 *
 * The contexts live for the session in `siteContexts`, so an area's state comes back as it was left
 * and a way in from elsewhere (a search result) reaches the same one.
 */
import { getContext, setContext } from 'svelte';
import type { CmsArea, Me, SessionInfo, Site } from '../../electron/contract/index';
import { sessions } from './sessions.svelte';
import { sites } from './sites.svelte';

/** What a component below a site pane reads of its site. */
export interface SiteScope {
  readonly id: string;
  readonly site: Site;
  readonly session: SessionInfo | null;
  readonly me: Me | null;
  blocked(area: CmsArea): string | null;
  area<T>(key: string, make: () => T): T;
}

export class SiteContext implements SiteScope {
  readonly id: string;
  #last: Site | null;
  #areas = new Map<string, { state: unknown; destroy: () => void }>();

  constructor(id: string, site: Site | null = null) {
    this.id = id;
    this.#last = site;
  }

  /** The site as the list now describes it (its last known form once it is gone). */
  get site(): Site {
    const now = sites.byId(this.id);
    if (now) this.#last = now;
    if (!this.#last) throw new Error(`No site ${this.id}`);
    return this.#last;
  }

  get session(): SessionInfo | null {
    return sessions.info(this.id);
  }

  /** The signed-in account as /me described it (CMS sites), or null. */
  get me(): Me | null {
    return sessions.me(this.id);
  }

  /** Why the account may not open `area` now, or null when it may. */
  blocked(area: CmsArea): string | null {
    return sessions.blockedReason(this.id, area);
  }

  /**
   * The per-site state an area keeps under `key`, made on first use. It is made in an effect root
   * of its own: its deriveds would otherwise belong to the component that asked first and stop
   * following once that component is gone (the person opened the overview and came back).
   */
  area<T>(key: string, make: () => T): T {
    let entry = this.#areas.get(key);
    if (!entry) {
      let state!: T;
      const destroy = $effect.root(() => {
        state = make();
      });
      entry = { state, destroy };
      this.#areas.set(key, entry);
    }
    return entry.state as T;
  }

  destroy(): void {
    for (const entry of this.#areas.values()) entry.destroy();
    this.#areas.clear();
  }
}

class SiteContexts {
  #byId = new Map<string, SiteContext>();

  /** The context of a site (made on first use, kept for the session). */
  for(site: Site | string): SiteContext {
    const id = typeof site === 'string' ? site : site.id;
    let ctx = this.#byId.get(id);
    if (!ctx) {
      ctx = new SiteContext(id, typeof site === 'string' ? null : site);
      this.#byId.set(id, ctx);
    }
    return ctx;
  }

  /** Forgets the contexts (and area states) of sites that are gone. */
  prune(siteIds: readonly string[]): void {
    const known = new Set(siteIds);
    for (const [id, ctx] of this.#byId) {
      if (known.has(id)) continue;
      ctx.destroy();
      this.#byId.delete(id);
    }
  }
}

export const siteContexts = new SiteContexts();

const KEY = Symbol('site');

/**
 * Makes the pane's site the site of every component below the caller. A pane can switch sites in
 * place (another tab chosen), so what is provided follows `current` rather than holding one site.
 * Call during component init.
 */
export function provideSite(current: () => SiteContext): SiteScope {
  const scope: SiteScope = {
    get id() {
      return current().id;
    },
    get site() {
      return current().site;
    },
    get session() {
      return current().session;
    },
    get me() {
      return current().me;
    },
    blocked: (area) => current().blocked(area),
    area: (key, make) => current().area(key, make),
  };
  return setContext(KEY, scope);
}

/** The site of the pane this component is in. Call during component init. */
export function useSite(): SiteScope {
  const scope = getContext<SiteScope | undefined>(KEY);
  if (!scope) throw new Error('useSite() is called outside a site pane');
  return scope;
}
