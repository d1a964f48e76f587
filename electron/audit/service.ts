/**
 * A CMS site's audit trail: its status, its events paged with the filters, the facets for the
 * pickers, and an export streamed into a file the person chose. The status, the facets and the
 * first page of the events last read (small: one page, for the filter it was read with) are kept
 * as copies for offline reading with their time; later pages are read from the site only.
 *
 * The site decides who may read its trail (`api.super`; `admin.super` alone is refused; a demo
 * account is refused); its refusals, the 404 of a trail that is off and the 503 of a site without
 * SQLite are put in plain words here, so every screen says the same.
 *
 * The export is never held in memory: each piece the site sends is written to a private temporary
 * file beside the chosen one (0600, created new) and counted (export-count.ts); once the site's
 * file ended whole it takes the chosen name (never replacing a file unless the person said so). A
 * cut, refused or cancelled export removes its temporary file, so no partial file is left.
 */
import { randomBytes } from 'node:crypto';
import { constants as fsc } from 'node:fs';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AppError, isAppError } from '../base/app-error';
import { checkTarget, fileError, settle } from '../base/save-file';
import { cmsAudit, type RawEventsPage } from '../api/cms/audit';
import { isDemoRefusal } from '../api/errors';
import type { AuditEventsPage, AuditExportFormat, AuditExportOutcome, AuditExportProgress, AuditFacets, AuditFilter, AuditStatus, SaveFileChoice } from '../contract';
import { AUDIT_WORDS, isDemoAccount } from '../contract';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';
import { exportCounter } from './export-count';

const STATUS_KEY = 'audit:status';
const FACETS_KEY = 'audit:facets';
/** The first page of the events last read, with the filter and page size it answers: one per site, so the copies stay small. */
const EVENTS_KEY = 'audit:events';
const filterKey = (filter: AuditFilter, perPage: number) => `${perPage}:${JSON.stringify(Object.entries(filter).filter(([, x]) => x !== undefined && x !== '').sort(([a], [b]) => a.localeCompare(b)))}`;
type EventsCopy = { key: string; page: RawEventsPage };

/** How often an export under way reports (at most), and after how many bytes at the latest. */
const PROGRESS_MS = 150;

export const OFF_MESSAGE = AUDIT_WORDS.off;
export const UNAVAILABLE_MESSAGE = AUDIT_WORDS.unavailable;
export const DEMO_MESSAGE = AUDIT_WORDS.demo;
export const NOT_SUPER_MESSAGE = AUDIT_WORDS.notSuper;

export interface AuditServiceDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
  /** An export's progress, for the `audit.exportProgress` event. */
  progress: (p: AuditExportProgress) => void;
  /** The system's save dialog (Electron's shell); browser mode has none and asks for a path. */
  chooseSaveFile?: (o: { title: string; defaultName: string; format: AuditExportFormat }) => Promise<string | null>;
  now?: () => number;
}

export function auditService(deps: AuditServiceDeps) {
  const { t, read, once, away, withCopy } = siteCalls(deps);
  const running = new Map<string, AbortController>();

  /** The site's refusals and the trail's states, in words; other errors as they came. */
  function said(siteId: string, err: unknown): never {
    if (!isAppError(err)) throw err;
    const status = err.info.status;
    if (err.code === 'forbidden') {
      const me = deps.sessions.get(siteId).info().me;
      throw new AppError({ ...err.info, message: isDemoRefusal(err) || isDemoAccount(me) || /demo mode/i.test(`${err.info.detail ?? ''} ${err.message}`) ? DEMO_MESSAGE : NOT_SUPER_MESSAGE }, { cause: err });
    }
    if (err.code === 'not_found' || status === 404) throw new AppError({ ...err.info, message: OFF_MESSAGE }, { cause: err });
    if (status === 503) throw new AppError({ ...err.info, message: UNAVAILABLE_MESSAGE }, { cause: err });
    throw err;
  }
  /** A demo account is refused before any request: the site would refuse it too. */
  function notDemo(siteId: string): void {
    if (isDemoAccount(deps.sessions.get(siteId).info().me)) throw new AppError({ code: 'forbidden', status: 403, message: DEMO_MESSAGE });
  }

  return {
    async status(siteId: string): Promise<AuditStatus> {
      notDemo(siteId);
      try {
        const { value, copiedAt } = await withCopy(siteId, deps.siteCache, STATUS_KEY, (transport) => cmsAudit.status(transport));
        return { ...value, copiedAt };
      } catch (err) {
        said(siteId, err);
      }
    },

    async events(siteId: string, filter: AuditFilter, page: number, perPage: number): Promise<AuditEventsPage> {
      notDemo(siteId);
      try {
        if (page !== 1) return { ...(await cmsAudit.events(read(siteId), { filter, page, perPage })), copiedAt: null };
        // as withCopy, for the one copy that answers only the filter it was read with
        const key = filterKey(filter, perPage);
        const copy = () => {
          const c = deps.siteCache.get<EventsCopy>(siteId, EVENTS_KEY);
          return c && c.value.key === key ? c : undefined;
        };
        const held = copy();
        if (held && away(siteId)) return { ...held.value.page, copiedAt: held.fetchedAt };
        try {
          const value = await cmsAudit.events(held ? once(siteId) : t(siteId), { filter, page, perPage });
          deps.siteCache.put(siteId, EVENTS_KEY, { key, page: value } satisfies EventsCopy);
          return { ...value, copiedAt: null };
        } catch (err) {
          const late = unreachable(err) ? copy() : undefined;
          if (late) return { ...late.value.page, copiedAt: late.fetchedAt };
          throw err;
        }
      } catch (err) {
        said(siteId, err);
      }
    },

    async facets(siteId: string): Promise<AuditFacets> {
      notDemo(siteId);
      try {
        const { value, copiedAt } = await withCopy(siteId, deps.siteCache, FACETS_KEY, (transport) => cmsAudit.facets(transport));
        return { ...value, copiedAt };
      } catch (err) {
        said(siteId, err);
      }
    },

    async chooseFile(format: AuditExportFormat): Promise<SaveFileChoice> {
      if (!deps.chooseSaveFile) return { unsupported: true };
      const file = await deps.chooseSaveFile({ title: 'Export the audit trail', defaultName: `audit-log.${format}`, format });
      return file ? { file, confirmed: true } : { cancelled: true };
    },

    async export(input: { siteId: string; exportId: string; format: AuditExportFormat; filter: AuditFilter; file: string; overwrite?: boolean | undefined }): Promise<AuditExportOutcome> {
      const { siteId, exportId, format, filter } = input;
      notDemo(siteId);
      if (running.has(exportId)) throw new AppError({ code: 'conflict', message: 'That export is under way already.' });
      const file = await checkTarget(input.file, input.overwrite === true);
      // how many match, when the site says: the file's count is then checked against what the site writes at most
      let matched: number | null = null;
      try {
        matched = (await cmsAudit.events(t(siteId), { filter, page: 1, perPage: 1 })).total;
      } catch (err) {
        said(siteId, err);
      }

      const stop = new AbortController();
      running.set(exportId, stop);
      const temp = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.part`);
      let fh: FileHandle | null = null;
      const counter = exportCounter(format);
      let lastReport = 0;
      const report = (force = false) => {
        const at = Date.now();
        if (!force && at - lastReport < PROGRESS_MS) return;
        lastReport = at;
        deps.progress({ exportId, siteId, bytes: counter.bytes, rows: counter.rows });
      };
      try {
        try {
          fh = await open(temp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL, 0o600);
        } catch (err) {
          throw fileError(err, file, 'could not be created');
        }
        const handle = fh;
        report(true);
        try {
          await cmsAudit.exportTo(t(siteId), { format, filter }, {
            signal: stop.signal,
            into: async (piece) => {
              counter.feed(piece);
              try {
                await handle.write(piece);
              } catch (err) {
                throw fileError(err, file, 'could not be written');
              }
              report();
            },
          });
        } catch (err) {
          if (stop.signal.aborted) return { outcome: 'cancelled', rows: counter.rows, bytes: counter.bytes };
          if (isAppError(err) && (err.code === 'network' || err.code === 'timeout') && counter.bytes > 0) {
            throw new AppError({ ...err.info, message: `The export was cut off after ${counter.rows.toLocaleString('en')} events (${err.message.replace(/\.$/, '')}). The unfinished file was removed; export again.` }, { cause: err });
          }
          said(siteId, err);
        }
        if (stop.signal.aborted) return { outcome: 'cancelled', rows: counter.rows, bytes: counter.bytes };
        const problem = counter.problem();
        if (problem) {
          throw new AppError({ code: 'bad_response', message: `The site’s export is not whole: ${problem} (${counter.rows.toLocaleString('en')} events came). The unfinished file was removed; export again.` });
        }
        await handle.sync();
        await handle.close();
        fh = null;
        await settle(temp, file, input.overwrite === true);
        report(true);
        return { outcome: 'written', file, format, rows: counter.rows, bytes: counter.bytes, matched };
      } finally {
        running.delete(exportId);
        if (fh) await fh.close().catch(() => undefined);
        await unlink(temp).catch(() => undefined);
      }
    },

    cancelExport(exportId: string): { cancelled: boolean } {
      const stop = running.get(exportId);
      if (!stop) return { cancelled: false };
      stop.abort();
      return { cancelled: true };
    },

    /** Stops every export under way (the Host closes): their temporary files are removed. */
    close(): void {
      for (const stop of running.values()) stop.abort();
    },
  };
}

export type AuditService = ReturnType<typeof auditService>;
