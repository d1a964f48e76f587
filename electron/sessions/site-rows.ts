/**
 * The site rows the Host's services work from, each read from SQLite once and kept until the site
 * is edited or removed: every request of a session needs its site (address, sign-in mode, name)
 * and a query per request showed in a mirror's profile. One instance per Host (core/host.ts makes
 * it and forgets a row at every edit and removal), shared by the CMS sessions, the store and the
 * mirror, so a row is never stale in one and fresh in another.
 */
import type { Site, SiteKind } from '../contract';
import { AppError } from '../base/app-error';
import type { SitesRepo } from '../db/repos/sites';

const KIND_WORD: Record<SiteKind, string> = { cms: 'a CMS site', store: 'a store' };

export class SiteRows {
  private readonly rows = new Map<string, Site>();

  constructor(private readonly sites: SitesRepo) {}

  /** The site, from the cache once read; `not_found` for a site that no longer exists. */
  get(id: string): Site {
    let site = this.rows.get(id);
    if (!site) {
      const stored = this.sites.get(id);
      if (!stored) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
      this.rows.set(id, (site = stored));
    }
    return site;
  }

  /** The site, which must be of `kind`: else `invalid_input` saying what it is and `why` that matters. */
  ofKind(id: string, kind: SiteKind, why: string): Site {
    const site = this.get(id);
    if (site.kind !== kind) throw new AppError({ code: 'invalid_input', message: `${site.name} is ${KIND_WORD[site.kind]}; ${why}` });
    return site;
  }

  /** The site was edited or removed: the next call reads it again. */
  forget(id: string): void {
    this.rows.delete(id);
  }
}
