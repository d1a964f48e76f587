/** The `pages.*` channels (contract/pages.ts) on the pages service. */
import type { pagesChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { PagesService } from './service';
import type { SyncService } from '../sync/service';

/** `drafts`: the page's draft kept here, which `pages.open` carries with the page. */
export function pagesHandlers(pages: Lazy<PagesService>, drafts: Lazy<Pick<SyncService, 'forPage'>>): HandlersOf<typeof pagesChannels> {
  return {
    'pages.list': (q) => pages().list(q),
    'pages.level': ({ siteId, route }) => pages().level(siteId, route),
    'pages.get': (q) => pages().get(q),
    'pages.open': async (q) => {
      const page = await pages().get(q);
      return { page, draft: drafts().forPage(q.siteId, q.route, q.lang ?? '') };
    },
    'pages.copyAsNew': (q) => pages().copyAsNew(q),
    'pages.create': (q) => pages().create(q),
    'pages.delete': (q) => pages().remove(q),
    'pages.move': (q) => pages().move(q),
    'pages.reorder': (q) => pages().reorder(q),
    'pages.copy': (q) => pages().copy(q),
    'pages.batch': (q) => pages().batch(q),
    'pages.reorganize': (q) => pages().reorganize(q),
    'pages.taxonomy': ({ siteId }) => pages().taxonomy(siteId),
  };
}
