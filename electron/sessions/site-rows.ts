/**
 * The site rows the sessions work from, each read from SQLite once and kept until the site is
 * edited or removed: every request of a session needs its site (address, sign-in mode, name) and a
 * query per request showed in a mirror's profile. Shared by the CMS and the store sessions, so both
 * forget a row on the same events.
 */
import type { Site } from '../contract';
import { AppError } from '../base/app-error';
import type { SitesRepo } from '../db/repos/sites';

export class SiteRows {
  private readonly rows = new Map<string, Site>();

  constructor(private readonly sites: SitesRepo) {}

  /** The site as stored now (not cached): for the calls that check it exists. */
  fresh(id: string): Site {
    const site = this.sites.get(id);
    if (!site) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
    return site;
  }

  /** The site, from the cache once read. */
  get(id: string): Site {
    let site = this.rows.get(id);
    if (!site) this.rows.set(id, (site = this.fresh(id)));
    return site;
  }

  /** The site was edited or removed: the next call reads it again. */
  forget(id: string): void {
    this.rows.delete(id);
  }
}
