/** The `scripts.*` channels (contract/plugin-scripts.ts) on the plugin scripts service. */
import type { scriptsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { PluginScriptsService } from './service';

export function scriptsHandlers(scripts: Lazy<PluginScriptsService>): HandlersOf<typeof scriptsChannels> {
  return {
    'scripts.allowed': ({ siteId }) => scripts().allowed(siteId),
    'scripts.setAllowed': ({ siteId, allowed }) => scripts().setAllowed(siteId, allowed),
    'scripts.load': (ref) => scripts().load(ref),
    'scripts.request': (q) => scripts().request(q),
  };
}
