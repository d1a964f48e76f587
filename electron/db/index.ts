/** The one interface to SQLite: every query of the app lives behind these repositories. */
import type { Db } from './open';
import { sitesRepo } from './repos/sites';
import { prefsRepo } from './repos/prefs';
import { sessionsRepo } from './repos/sessions';
import { pagesRepo } from './repos/pages';

export { openDatabase, closeDatabase, type Db } from './open';

export function repositories(db: Db) {
  return { sites: sitesRepo(db), prefs: prefsRepo(db), sessions: sessionsRepo(db), pages: pagesRepo(db) };
}

export type Repositories = ReturnType<typeof repositories>;
