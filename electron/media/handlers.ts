/** The `media.*` channels (contract/media.ts) on the media service. */
import type { mediaChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { MediaService } from './service';

export function mediaHandlers(media: Lazy<MediaService>): HandlersOf<typeof mediaChannels> {
  return {
    'media.list': (q) => media().list(q),
    'media.uploadChunk': (q) => media().stageChunk(q),
    'media.upload': (q) => media().upload(q),
    'media.delete': (q) => media().remove(q),
  };
}
