/** The `search.*` channels (contract/search.ts) on the search service. */
import type { searchChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SearchService } from './service';

export function searchHandlers(search: Lazy<SearchService>): HandlersOf<typeof searchChannels> {
  return {
    'search.query': (q) => search().query(q),
  };
}
