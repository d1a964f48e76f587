/** The `about.*` channels (contract/about.ts) on the about service. */
import type { aboutChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { AboutService } from './service';

export function aboutHandlers(about: Lazy<AboutService>): HandlersOf<typeof aboutChannels> {
  return {
    'about.licences': () => about().licences(),
  };
}
