/** The `blueprints.*` channels (contract/blueprints.ts) on the blueprints service. */
import type { blueprintsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { BlueprintsService } from './service';

export function blueprintsHandlers(blueprints: Lazy<BlueprintsService>): HandlersOf<typeof blueprintsChannels> {
  return {
    'blueprints.templates': ({ siteId }) => blueprints().templates(siteId),
    'blueprints.page': ({ siteId, template }) => blueprints().page(siteId, template),
    'blueprints.pluginPage': ({ siteId, plugin, pageId }) => blueprints().pluginPage(siteId, plugin, pageId),
    'blueprints.options': ({ siteId, callable }) => blueprints().options(siteId, callable),
  };
}
