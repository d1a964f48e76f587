/** The `addons.*` channels (contract/addons.ts) on the addons service. */
import type { addonsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { AddonsService } from './service';

export function addonsHandlers(addons: Lazy<AddonsService>): HandlersOf<typeof addonsChannels> {
  return {
    'addons.list': ({ siteId }) => addons().list(siteId),
    'addons.pageAction': ({ siteId, plugin, actionId, again }) => addons().pageAction(siteId, plugin, actionId, again),
    'addons.runAction': ({ siteId, plugin, action, body, again }) => addons().runAction(siteId, plugin, action, body, again),
    'addons.page': ({ siteId, plugin }) => addons().page(siteId, plugin),
    'addons.pageData': ({ siteId, plugin, kind, id }) => addons().pageData(siteId, plugin, kind, id),
    'addons.savePageData': ({ siteId, plugin, kind, id, values }) => addons().savePageData(siteId, plugin, kind, id, values),
    'addons.translations': ({ siteId, lang }) => addons().translations(siteId, lang),
  };
}
