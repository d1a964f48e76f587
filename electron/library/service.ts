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
import { AppError, isAppError, mayHaveArrived, UNCERTAIN_MS } from '../base/app-error';
import { cmsLibrary, type LibraryQuery } from '../api/cms/library';
import type { ChannelParsed, LibraryFile, LibraryFolder, LibraryListing } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';
import { uploadStaging } from '../media/upload-staging';
import { throttledProgress, type UploadProgress } from '../base/upload-progress';

export interface LibraryDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
  /** Upload progress, for the `library.progress` event. */
  progress: (p: UploadProgress) => void;
}

/** The copy's key of one folder's listing: what was asked, so a copy answers exactly the listing it was. */
export const listingKey = (q: LibraryQuery) => `library:list:${JSON.stringify([q.path, q.page, q.perPage, q.type ?? ''])}`;

const NOT_SENT = 'Changes to the media library are never sent later by themselves: do it again once the site answers.';

/** A delete the site answers "not found": the thing is gone, as asked. */
const goneAlready = (err: unknown): void => {
  if (!(isAppError(err) && err.code === 'not_found')) throw err;
};

export function libraryService(deps: LibraryDeps) {
  const { siteCache, progress } = deps;
  const { t, once, away } = siteCalls(deps);
  const staging = uploadStaging();
  /**
   * Uploads whose answer was lost (the site may have the file), by site, folder and name: when and
   * how many bytes. The same upload asked again first looks in the folder: a file of that name (or
   * the site's dated copy of it, `YYYYMMDDHHMMSS-name`) with the same size is the one sent, and is
   * answered without a second copy.
   */
  const uncertainUploads = new Map<string, { at: number; size: number }>();
  const DATED = /^\d{14}-/;

  /**
   * A write: always tried (a person asking is a try worth making, even when the site was away a
   * moment ago), and refused with the reason when the site does not answer.
   */
  async function write<T>(siteId: string, what: string, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (err) {
      if (unreachable(err)) throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}. ${what[0]!.toUpperCase()}${what.slice(1)} was not done. ${NOT_SENT}` }, { cause: err });
      throw err;
    }
  }

  return {
    async list(q: ChannelParsed<'library.list'>): Promise<LibraryListing> {
      const query: LibraryQuery = { path: q.search ? '' : q.path, page: q.page, perPage: q.perPage, search: q.search || undefined, type: q.type };
      const key = query.search ? null : listingKey(query);
      const copy = key ? siteCache.get<LibraryListing>(q.siteId, key) : undefined;
      if (copy && away(q.siteId)) return { ...copy.value, copiedAt: copy.fetchedAt };
      try {
        const page = await cmsLibrary.list(copy ? once(q.siteId) : t(q.siteId), query);
        const listing: LibraryListing = { path: query.path, search: query.search ?? null, type: query.type ?? null, ...page, copiedAt: null };
        if (key) siteCache.put(q.siteId, key, listing);
        return listing;
      } catch (err) {
        if (copy && unreachable(err)) return { ...copy.value, copiedAt: copy.fetchedAt };
        throw err;
      }
    },

    /** A piece of a file for a later `upload`. */
    stageChunk(q: ChannelParsed<'library.uploadChunk'>): { received: number } {
      return { received: staging.add(q.uploadId, q.offset, Buffer.from(q.data, 'base64')) };
    },

    async upload(q: ChannelParsed<'library.upload'>): Promise<LibraryFile> {
      const bytes = staging.take(q.uploadId);
      const key = `${q.siteId}\n${q.path}\n${q.filename}`;
      const earlier = uncertainUploads.get(key);
      if (earlier && Date.now() - earlier.at < UNCERTAIN_MS && earlier.size === bytes.length) {
        const there = await write(q.siteId, `the upload of ${q.filename}`, () => cmsLibrary.list(t(q.siteId), { path: q.path, page: 1, perPage: 100 }));
        const same = there.files.find((f) => (f.name === q.filename || (DATED.test(f.name) && f.name.replace(DATED, '') === q.filename)) && f.size === bytes.length);
        uncertainUploads.delete(key);
        if (same) return same;
      }
      try {
        return await write(q.siteId, `the upload of ${q.filename}`, () =>
          cmsLibrary.upload(t(q.siteId), q.path, { name: q.filename, type: q.type, bytes }, { ...(q.replace ? { replace: true } : {}), onProgress: throttledProgress(q.uploadId, progress) }),
        );
      } catch (err) {
        if (mayHaveArrived(err)) uncertainUploads.set(key, { at: Date.now(), size: bytes.length });
        throw err;
      }
    },

    // deleting what is not there (any more: an earlier answer lost, another admin) is what was asked
    remove: (q: ChannelParsed<'library.delete'>): Promise<{ path: string }> =>
      write(q.siteId, `the delete of ${q.path}`, () => cmsLibrary.remove(t(q.siteId), q.path).catch(goneAlready)).then(() => ({ path: q.path })),

    move: (q: ChannelParsed<'library.move'>): Promise<LibraryFile> => write(q.siteId, `the move of ${q.from}`, () => cmsLibrary.move(t(q.siteId), q.from, q.to)),

    createFolder: (q: ChannelParsed<'library.createFolder'>): Promise<LibraryFolder> =>
      write(q.siteId, `the new folder ${q.path}`, () => cmsLibrary.createFolder(t(q.siteId), q.path)),

    renameFolder: (q: ChannelParsed<'library.renameFolder'>): Promise<LibraryFolder> =>
      write(q.siteId, `the renaming of ${q.from}`, () => cmsLibrary.renameFolder(t(q.siteId), q.from, q.to)),

    removeFolder: (q: ChannelParsed<'library.deleteFolder'>): Promise<{ path: string }> =>
      write(q.siteId, `the delete of the folder ${q.path}`, () => cmsLibrary.removeFolder(t(q.siteId), q.path).catch(goneAlready)).then(() => ({ path: q.path })),
  };
}

export type LibraryService = ReturnType<typeof libraryService>;
