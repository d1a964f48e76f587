/**
 * A CMS site's media library: folders listed page by page (or searched through), uploads staged in
 * pieces like page media and sent with progress events, deletes, renames and moves of files and
 * folders.
 *
 * Offline: each folder's listing read is kept as a copy (site_cache, one key per folder, page and
 * type), so the library stays readable while the site is away, with the time of the copy. A search
 * is not kept: every text searched would be a row of its own, growing without end. Writes
 * are not queued: a change the site does not answer is refused with the reason, because a file
 * moved or deleted hours later, unseen, could break pages that were fixed meanwhile.
 */
import { goneAlready, mayHaveArrived } from '../base/app-error';
import { UncertainWrites } from '../base/uncertain';
import { cmsLibrary, type LibraryQuery } from '../api/cms/library';
import type { Transport } from '../api/transport';
import type { ChannelParsed, LibraryFile, LibraryFolder, LibraryListing } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { uploadStaging } from '../media/upload-staging';
import { throttledProgress, type UploadProgress } from '../base/upload-progress';

export interface LibraryDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
  /** Upload progress, for the `library.progress` event. */
  progress: (p: UploadProgress) => void;
  now?: () => number;
}

/** The site's dated copy of a name taken in the folder (`YYYYMMDDHHMMSS-name`). */
const DATED = /^\d{14}-/;

/** The copy's key of one folder's listing: what was asked, so a copy answers exactly the listing it was. */
export const listingKey = (q: LibraryQuery) => `library:list:${JSON.stringify([q.path, q.page, q.perPage, q.type ?? ''])}`;

export function libraryService(deps: LibraryDeps) {
  const { siteCache, progress } = deps;
  const { t, withCopy, sendNow } = siteCalls(deps);
  const staging = uploadStaging();
  /**
   * Uploads whose answer was lost (the site may have the file), by site, folder and name: when and
   * how many bytes. The same upload asked again first looks in the folder: a file of that name (or
   * the site's dated copy of it, `YYYYMMDDHHMMSS-name`) with the same size is the one sent, and is
   * answered without a second copy.
   */
  const uncertainUploads = new UncertainWrites<number>(deps.now);

  return {
    async list(q: ChannelParsed<'library.list'>): Promise<LibraryListing> {
      const query: LibraryQuery = { path: q.search ? '' : q.path, page: q.page, perPage: q.perPage, search: q.search || undefined, type: q.type };
      const listing = async (transport: Transport): Promise<LibraryListing> => ({ path: query.path, search: query.search ?? null, type: query.type ?? null, ...(await cmsLibrary.list(transport, query)), copiedAt: null });
      // a search is not kept: each text would be a copy of its own
      if (query.search) return listing(t(q.siteId));
      const { value, copiedAt } = await withCopy(q.siteId, siteCache, listingKey(query), listing);
      return { ...value, copiedAt };
    },

    /** A piece of a file for a later `upload`. */
    stageChunk(q: ChannelParsed<'library.uploadChunk'>): { received: number } {
      return { received: staging.add(q.uploadId, q.offset, Buffer.from(q.data, 'base64')) };
    },

    async upload(q: ChannelParsed<'library.upload'>): Promise<LibraryFile> {
      const bytes = staging.take(q.uploadId);
      const key = `${q.siteId}\n${q.path}\n${q.filename}`;
      const refused = `The upload of ${q.filename} was not done`;
      if (uncertainUploads.get(key)?.value === bytes.length) {
        const there = await sendNow(refused, () => cmsLibrary.list(t(q.siteId), { path: q.path, page: 1, perPage: 100 }));
        const same = there.files.find((f) => (f.name === q.filename || (DATED.test(f.name) && f.name.replace(DATED, '') === q.filename)) && f.size === bytes.length);
        uncertainUploads.forget(key);
        if (same) return same;
      }
      try {
        return await sendNow(refused, () =>
          cmsLibrary.upload(t(q.siteId), q.path, { name: q.filename, type: q.type, bytes }, { ...(q.replace ? { replace: true } : {}), onProgress: throttledProgress(q.uploadId, progress) }),
        );
      } catch (err) {
        if (mayHaveArrived(err)) uncertainUploads.remember(key, bytes.length);
        throw err;
      }
    },

    // deleting what is not there (any more: an earlier answer lost, another admin) is what was asked
    remove: (q: ChannelParsed<'library.delete'>): Promise<{ path: string }> =>
      sendNow(`The delete of ${q.path} was not done`, () => cmsLibrary.remove(t(q.siteId), q.path).catch(goneAlready)).then(() => ({ path: q.path })),

    move: (q: ChannelParsed<'library.move'>): Promise<LibraryFile> => sendNow(`The move of ${q.from} was not done`, () => cmsLibrary.move(t(q.siteId), q.from, q.to)),

    createFolder: (q: ChannelParsed<'library.createFolder'>): Promise<LibraryFolder> =>
      sendNow(`Creating the folder ${q.path} was not done`, () => cmsLibrary.createFolder(t(q.siteId), q.path)),

    renameFolder: (q: ChannelParsed<'library.renameFolder'>): Promise<LibraryFolder> =>
      sendNow(`The renaming of ${q.from} was not done`, () => cmsLibrary.renameFolder(t(q.siteId), q.from, q.to)),

    removeFolder: (q: ChannelParsed<'library.deleteFolder'>): Promise<{ path: string }> =>
      sendNow(`The delete of the folder ${q.path} was not done`, () => cmsLibrary.removeFolder(t(q.siteId), q.path).catch(goneAlready)).then(() => ({ path: q.path })),
  };
}

export type LibraryService = ReturnType<typeof libraryService>;
