/** The `sites.*` channels (contract/sites.ts) on the sites service. */
import type { sitesChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SitesService } from './service';

export function sitesHandlers(sites: Lazy<SitesService>): HandlersOf<typeof sitesChannels> {
  return {
    'sites.list': () => sites().list(),
    'sites.add': (input) => sites().add(input),
    'sites.update': (input) => sites().update(input),
    'sites.remove': (input) => sites().remove(input.id),
    'sites.reorder': (input) => sites().reorder(input.ids),
    'sites.test': (input) => sites().test(input),
  };
}
