/**
 * The `media.*` channels and the upload progress event: a page's media, uploads staged in pieces
 * and then sent to the site, deletes. The types, schemas and size limits sit with the pages
 * (pages.ts).
 */
import { channel, event } from './define';
import { MediaChunk, MediaDelete, MediaList, MediaUpload, type PageMediaItem } from './pages';

export const mediaChannels = {
  'media.list': channel<PageMediaItem[]>()(MediaList),
  /** Stages the next piece of a file for `media.upload` (answers the bytes staged so far). */
  'media.uploadChunk': channel<{ received: number }>()(MediaChunk),
  /** Progress arrives as `media.progress` events with the same uploadId; answers the page's media after the upload. */
  'media.upload': channel<PageMediaItem[]>()(MediaUpload),
  'media.delete': channel<{ filename: string }>()(MediaDelete),
};

export const mediaEvents = {
  /** Bytes of an upload sent to the site so far. */
  'media.progress': event<{ uploadId: string; sent: number; total: number }>(),
};
