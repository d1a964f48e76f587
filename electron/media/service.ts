/**
 * A CMS page's media: the list (filtered and sorted by the site), uploads (the file arrives in
 * pieces, staged here, then goes to the site in one request with a few progress events), deletes.
 */
import type { ChannelParsed, PageMediaItem } from '../contract';
import { cmsMedia } from '../api/cms/media';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { uploadStaging } from './upload-staging';
import { throttledProgress, type UploadProgress } from '../base/upload-progress';

export interface MediaDeps extends SiteCallDeps {
  /** Upload progress, for the `media.progress` event. */
  progress: (p: UploadProgress) => void;
}

export function mediaService(deps: MediaDeps) {
  const { progress } = deps;
  const { t, read } = siteCalls(deps);
  const staging = uploadStaging();

  return {
    list: (q: ChannelParsed<'media.list'>): Promise<PageMediaItem[]> =>
      cmsMedia.list(read(q.siteId), q.route, { ...(q.filter ? { filter: q.filter } : {}), ...(q.sort ? { sort: q.sort } : {}), ...(q.order ? { order: q.order } : {}) }),

    /** A piece of a file for a later `upload` without `data`. */
    stageChunk(q: ChannelParsed<'media.uploadChunk'>): { received: number } {
      return { received: staging.add(q.uploadId, q.offset, Buffer.from(q.data, 'base64')) };
    },

    async upload(q: ChannelParsed<'media.upload'>): Promise<PageMediaItem[]> {
      const bytes = q.data !== undefined ? Buffer.from(q.data, 'base64') : staging.take(q.uploadId);
      return cmsMedia.upload(
        t(q.siteId),
        q.route,
        { name: q.filename, type: q.type, bytes },
        {
          ...(q.avoidOverwriting ? { avoidOverwriting: true } : {}),
          onProgress: throttledProgress(q.uploadId, progress),
        },
      );
    },

    remove: (q: ChannelParsed<'media.delete'>) => cmsMedia.remove(t(q.siteId), q.route, q.filename).then(() => ({ filename: q.filename })),
  };
}

export type MediaService = ReturnType<typeof mediaService>;
