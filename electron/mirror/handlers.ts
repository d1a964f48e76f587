/** The `mirror.*` channels (contract/mirror.ts) on the mirror service. */
import type { mirrorChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { MirrorService } from './service';

export function mirrorHandlers(mirror: Lazy<MirrorService>): HandlersOf<typeof mirrorChannels> {
  return {
    'mirror.start': (q) => mirror().start(q),
    'mirror.cancel': async ({ siteId }) => ({ run: await mirror().cancel(siteId) }),
    'mirror.status': (q) => mirror().status(q?.siteId),
    'mirror.failures': ({ siteId }) => mirror().failures(siteId),
    'mirror.settings': ({ siteId }) => mirror().settings(siteId),
    'mirror.setSettings': (q) => mirror().setSettings(q),
  };
}
