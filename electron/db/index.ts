/** The one interface to SQLite: every query of the app lives behind these repositories. */
import type { Db } from './open';
import { sitesRepo } from './repos/sites';
import { prefsRepo } from './repos/prefs';
import { sessionsRepo } from './repos/sessions';
import { pagesRepo } from './repos/pages';
import { syncRepo } from './repos/sync';
import { mirrorRepo } from './repos/mirror';
import { searchRepo } from './repos/search';
import { siteCacheRepo } from './repos/site-cache';
import { storeRepo } from './repos/store';
import { auditCopyRepo } from './repos/audit-copy';
import { mailerRepo } from './repos/mailer';
import { mailDraftsRepo } from './repos/mail-drafts';

export { openDatabase, closeDatabase, type Db } from './open';

export function repositories(db: Db) {
  return { sites: sitesRepo(db), prefs: prefsRepo(db), sessions: sessionsRepo(db), pages: pagesRepo(db), sync: syncRepo(db),
    mirror: mirrorRepo(db), search: searchRepo(db), siteCache: siteCacheRepo(db), store: storeRepo(db), auditCopy: auditCopyRepo(db), mailer: mailerRepo(db), mailDrafts: mailDraftsRepo(db) };
}

export type Repositories = ReturnType<typeof repositories>;
