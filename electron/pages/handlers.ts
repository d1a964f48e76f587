/** The `pages.*` channels (contract/pages.ts) on the pages service. */
import type { pagesChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { PagesService } from './service';

export function pagesHandlers(pages: Lazy<PagesService>): HandlersOf<typeof pagesChannels> {
  return {
    'pages.list': (q) => pages().list(q),
    'pages.children': ({ siteId, route }) => pages().children(siteId, route),
    'pages.level': ({ siteId, route }) => pages().level(siteId, route),
    'pages.get': (q) => pages().get(q),
    'pages.create': (q) => pages().create(q),
    'pages.save': (q) => pages().save(q),
    'pages.delete': (q) => pages().remove(q),
    'pages.move': (q) => pages().move(q),
    'pages.reorder': (q) => pages().reorder(q),
    'pages.copy': (q) => pages().copy(q),
    'pages.batch': (q) => pages().batch(q),
    'pages.reorganize': (q) => pages().reorganize(q),
    'pages.taxonomy': ({ siteId }) => pages().taxonomy(siteId),
  };
}
