/**
 * A CMS site's mailing audience (docs/mailer-audience.md): the plugin found and kept per site
 * (base.ts); subscribers, lists, tags, segments, suppressions and erasure through the site's
 * routes (api/cms/mailer.ts); imports (imports.ts); the offline copy of subscribers, only by the
 * person's choice (offline-copy.ts).
 *
 * - **Kept on this computer by default**: the status counts, lists, tags, segments and the
 *   segment vocabulary (site_cache copies with their time, read while the site is away). Nothing
 *   personal: subscribers only in the offline copy, a choice per site.
 * - **Writes are sent now or refused with the reason**, never queued (`sendNow`): consent and
 *   personal data, where a change landing hours later, unseen, could undo what someone asked for
 *   meanwhile. The site's refusals keep its words and its `reason`, their fields under the
 *   channel's input names.
 * - **A write whose answer was lost is never sent twice blindly** (`base/uncertain.ts`): the same
 *   add, resubscribe, confirm, unsubscribe, erase or list asked again answers what the first did
 *   (`earlier`); a bulk action asks first and then goes on from where it stopped.
 * - **A demo account's writes** are refused here before anything is sent, as the site would
 *   (`demoWriteBlocked`); on Mailroom its reads too.
 * - **No address reaches a log line**: this area logs nothing, its errors name fields, never
 *   values, and the lost-write memory is keyed by the address's hash.
 */
import { AppError, isAppError, mayHaveArrived } from '../base/app-error';
import { createdOnce, timeOfDay, UncertainWrites } from '../base/uncertain';
import { cmsMailer, filterBody, filterField, inputField, type RawSubscriberPage } from '../api/cms/mailer';
import { isDemoRefusal } from '../api/errors';
import type { Transport } from '../api/transport';
import type {
  AddOutcome,
  BulkOutcome,
  BulkProgress,
  ChannelParsed,
  EraseOutcome,
  MailerBase,
  MailerExportProgress,
  MailerList,
  MailerOfflineState,
  MailerSegment,
  MailerSite,
  MailerTag,
  SaveFileChoice,
  SegmentDelete,
  SegmentGroup,
  StatusCounts,
  Subscriber,
  SubscriberChange,
  SubscriberFilter,
  SubscriberPage,
  SubscriberRow,
} from '../contract';
import { conditionCount, demoWriteBlocked, filterIsEmpty, filterProblems, isDemoAccount, MAILER_WORDS, mailerBlockedReason, SEGMENT_CONDITIONS_MAX, setField } from '../contract';
import { suppressionHash } from '../common/email-hash';
import type { MailerRepo } from '../db/repos/mailer';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';
import { mailerCampaigns } from './campaigns';
import { mailDrafts } from './drafts';
import type { MailDraftsRepo } from '../db/repos/mail-drafts';
import { mailerReports } from './reports';
import { mailerFlows } from './flows';
import { gone, goneAlready, mailerBases, pluginOf } from './base';
import { csvRecords, exportToFile, jsonDocument } from './export-file';
import { mailerImports, type ImportDeps } from './imports';
import { mailerCopy } from './offline-copy';

const LISTS_KEY = 'mailer:lists';
const TAGS_KEY = 'mailer:tags';
const SEGMENTS_KEY = 'mailer:segments';
const VOCABULARY_KEY = 'mailer:vocabulary';
/** The whole table's status counts and size, as the last read said. */
const COUNTS_KEY = 'mailer:counts';
type Counts = { total: number; statusCounts: StatusCounts | null };

export interface MailerServiceDeps extends SiteCallDeps {
  siteCache: SiteCacheRepo;
  repo: MailerRepo;
  emit: {
    offline: (s: MailerOfflineState) => void;
    exportProgress: (p: MailerExportProgress) => void;
    bulkProgress: (p: BulkProgress) => void;
    importProgress: ImportDeps['emit'];
  };
  /** The system's save dialog (Electron's shell); browser mode has none and asks for a path. */
  chooseSaveFile?: (o: { title: string; defaultName: string; format: 'csv' | 'json' }) => Promise<string | null>;
  /** The system's open-file dialog (Electron's shell). */
  chooseOpenFile?: (o: { title: string }) => Promise<string | null>;
  now?: () => number;
  /** How often a run the Host follows is read (default 1 s; tests shorten it). */
  importPollMs?: number;
  /** The offline copy's bound (tests lower it). */
  copyMax?: number;
  /** Drafts of campaigns and templates (mailer/drafts.ts). */
  drafts: MailDraftsRepo;
  /** The drafts changed: the sync's counts are told again. */
  draftsChanged?: () => void;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function mailerService(deps: MailerServiceDeps) {
  const { t, once, read, away, withCopy, sendNow } = siteCalls(deps);
  const now = () => (deps.now ?? Date.now)();
  const bases = mailerBases({ siteCache: deps.siteCache, transport: t, read });
  const background = (siteId: string, signal?: AbortSignal) => t(siteId).derive({ priority: 'background', ...(signal ? { signal } : {}) });

  const copy = mailerCopy({
    repo: deps.repo,
    siteCache: deps.siteCache,
    emit: deps.emit.offline,
    ...(deps.now ? { now: deps.now } : {}),
    ...(deps.copyMax ? { max: deps.copyMax } : {}),
    readPage: async (siteId, page, perPage, signal) => {
      const r = await bases.on(siteId, (b) => cmsMailer.subscribers(background(siteId, signal), b, { filter: {}, page, perPage }));
      return { items: r.items, total: r.total, next: r.next };
    },
  });

  /** The account signed in on the site, as /me last described it. */
  const me = (siteId: string) => deps.sessions.get(siteId).info().me;

  /** A demo account's write is refused before anything is sent, in the words every area uses. */
  function writable(siteId: string, b: MailerBase): void {
    const refused = demoWriteBlocked(me(siteId), `${b}.manage`);
    if (refused) throw new AppError({ code: 'forbidden', status: 403, message: refused });
  }

  /** The site's demo lock said in the area's words (Mailroom refuses a demo account's reads too). */
  function said(err: unknown): never {
    if (isDemoRefusal(err) && isAppError(err)) throw new AppError({ ...err.info, message: MAILER_WORDS.demoReal }, { cause: err });
    throw err;
  }

  /** A read of the site's mailer on its base; a demo account on Mailroom is refused before it asks. */
  async function reading<T>(siteId: string, call: (b: MailerBase) => Promise<T>): Promise<T> {
    return bases
      .on(siteId, (b) => {
        if (b === 'mailroom' && isDemoAccount(me(siteId))) throw new AppError({ code: 'forbidden', status: 403, message: MAILER_WORDS.demoReal });
        return call(b);
      })
      .catch(said);
  }

  /** A write on the site's base, sent now or refused with the reason. */
  function writing<T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>): Promise<T> {
    return sendNow(refused, () =>
      bases.on(siteId, (b) => {
        writable(siteId, b);
        return call(b, t(siteId));
      }),
    ).catch(said);
  }

  /** A filter the Host refuses before asking (a standing without its list), under the input's field. */
  function checkFilter(filter: SubscriberFilter, prefix: string): void {
    const problems = filterProblems(filter);
    if (!problems) return;
    const fields: Record<string, string> = {};
    for (const [k, m] of Object.entries(problems)) setField(fields, `${prefix}${k}`, m);
    throw AppError.fields(fields, Object.values(problems)[0]);
  }

  /** A read kept as a copy (lists, tags, segments, the vocabulary). */
  const copied = <T>(siteId: string, key: string, call: (t: Transport, b: MailerBase) => Promise<T>) =>
    withCopy(siteId, deps.siteCache, key, (transport) => reading(siteId, (b) => call(transport, b)));

  /** Changes a kept copy as the site confirmed (its time stays the time it was read). */
  function keepCopy<T>(siteId: string, key: string, change: (value: T) => T): void {
    const kept = deps.siteCache.get<T>(siteId, key);
    if (kept) deps.siteCache.put(siteId, key, change(kept.value), kept.fetchedAt);
  }
  /** A record the site answered, in the kept list that holds it (in its place, or added; `order`: the list's order kept). */
  const keepInList = <T extends { id: number }>(siteId: string, key: string, item: T, order?: (a: T, b: T) => number) =>
    keepCopy<T[]>(siteId, key, (list) => {
      if (list.some((x) => x.id === item.id)) return list.map((x) => (x.id === item.id ? item : x));
      const added = [...list, item];
      return order ? added.sort(order) : added;
    });

  const keepCounts = (siteId: string, r: RawSubscriberPage, filter: SubscriberFilter) => {
    if (filterIsEmpty(filter)) deps.siteCache.put(siteId, COUNTS_KEY, { total: r.total, statusCounts: r.statusCounts } satisfies Counts);
    else if (r.statusCounts) keepCopy<Counts>(siteId, COUNTS_KEY, (c) => ({ ...c, statusCounts: r.statusCounts }));
  };

  const fromCopy = (siteId: string, filter: SubscriberFilter, page: number, perPage: number): SubscriberPage => {
    const r = deps.repo.page(siteId, filter, page, perPage);
    const ignored = (['campaignId', 'campaignReceived'] as const).filter((k) => filter[k] !== undefined);
    return { items: r.items, unreadable: [], total: r.total, page, perPage, next: page * perPage < r.total ? page + 1 : null, statusCounts: r.statusCounts, listCounts: r.listCounts, copiedAt: copy.copiedAt(siteId), filterIgnored: ignored };
  };

  /** The site not answering, said with what this computer keeps of it. */
  const needsSite = (siteId: string, err: AppError): AppError => {
    const why = copy.has(siteId) ? MAILER_WORDS.notKept : copy.keeps(siteId) ? MAILER_WORDS.notFilled : MAILER_WORDS.needsSite;
    return new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}. ${why}` }, { cause: err });
  };

  // the lost-write memory: keyed by site, the write, and the address's hash (never the address)
  const lost = new UncertainWrites<Record<string, unknown>>(deps.now);
  const lostSegments = new UncertainWrites<{ before: number[] }>(deps.now);
  /** Runs a write; when its answer is lost, `key` is remembered (with `value`) for the same write asked again. */
  async function remembering<T>(key: string, send: () => Promise<T>, value: Record<string, unknown> = {}): Promise<T> {
    try {
      const r = await send();
      lost.forget(key);
      return r;
    } catch (err) {
      if (mayHaveArrived(err)) lost.remember(key, value);
      throw err;
    }
  }

  const exports = new Map<string, AbortController>();
  const bulks = new Map<string, AbortController>();

  const imports = mailerImports({
    bases,
    t,
    read,
    background,
    writable,
    emit: deps.emit.importProgress,
    ...(deps.chooseOpenFile ? { chooseOpenFile: deps.chooseOpenFile } : {}),
    ...(deps.importPollMs ? { pollMs: deps.importPollMs } : {}),
    ...(deps.now ? { now: deps.now } : {}),
    sendNow,
    said,
  });

  const campaigns = mailerCampaigns({ t, reading, writing, copied, keepCopy, keepInList, ...(deps.now ? { now: deps.now } : {}) });
  const drafts = mailDrafts({
    repo: deps.drafts,
    on: (siteId, call) => bases.on(siteId, call).catch(said),
    t: (siteId, interactive) => t(siteId).derive({ priority: interactive ? 'interactive' : 'background' }),
    writable,
    keepCampaign: campaigns.keep,
    keepTemplate: campaigns.keepTemplate,
    changed: () => deps.draftsChanged?.(),
    known: (siteId) => void deps.sessions.get(siteId),
    ...(deps.now ? { now: deps.now } : {}),
  });

  const reports = mailerReports({
    t,
    bases,
    reading,
    writing,
    copied,
    keepCopy,
    putCopy: (siteId, key, value) => deps.siteCache.put(siteId, key, value),
    manageBlocked: (siteId, b) => {
      const account = me(siteId);
      return account ? mailerBlockedReason(account, 'manage', b) : null;
    },
    said,
    emitProgress: deps.emit.exportProgress,
    ...(deps.chooseSaveFile ? { chooseSaveFile: deps.chooseSaveFile } : {}),
    ...(deps.now ? { now: deps.now } : {}),
  });

  /** An account that may not put mail into inboxes (`send`) is refused here: the site asks only `manage` of an automation's writes. */
  async function mayMail(siteId: string, b: MailerBase): Promise<void> {
    // an API key's account is described once asked (/me); not described, the site decides
    const account = me(siteId) ?? (await deps.sessions.get(siteId).refreshMe().then((i) => i.me, () => null));
    const refused = account ? mailerBlockedReason(account, 'send', b) : null;
    if (refused) throw new AppError({ code: 'forbidden', status: 403, message: `${refused.replace(/\.$/, '')}, which this needs: it lets the automation’s sends mail people.` });
  }
  const flows = mailerFlows({ t, reading, writing, copied, keepCopy, mayMail, ...(deps.now ? { now: deps.now } : {}) });

  async function rowOf(siteId: string, id: number): Promise<SubscriberRow> {
    const s = await reading(siteId, (b) => cmsMailer.subscriber(t(siteId), b, id));
    const { consent: _c, import: _i, suppression: _s, sends: _se, sendsTotal: _st, consentLog: _l, ...row } = s;
    return row;
  }

  /** Unsubscribe, resubscribe, confirm: one shape; a lost answer's retry answers what the first did. */
  async function change(siteId: string, id: number, what: 'unsubscribe' | 'resubscribe' | 'confirm', body: Record<string, unknown>, refused: string): Promise<SubscriberChange> {
    const key = `${siteId}\n${what}\n${id}`;
    const earlier = lost.get(key) !== undefined;
    try {
      const r = await remembering(key, () => writing(siteId, refused, (b, transport) => cmsMailer.change(transport, b, id, what, body)));
      copy.put(siteId, [r.subscriber]);
      // nothing needed doing because the lost one did it
      return { changed: r.changed || earlier, subscriber: r.subscriber, earlier: earlier && !r.changed };
    } catch (err) {
      const done = isAppError(err) && earlier && ((what === 'confirm' && err.info.reason === 'not_pending') || (what === 'resubscribe' && err.info.reason === 'not_left'));
      if (!done) throw err;
      lost.forget(key);
      const subscriber = await rowOf(siteId, id);
      copy.put(siteId, [subscriber]);
      return { changed: true, subscriber, earlier: true };
    }
  }

  return {
    // ── the plugin and the offline copy

    async site(siteId: string): Promise<MailerSite> {
      const plugin = await bases.plugin(siteId);
      return { plugin, message: plugin ? null : MAILER_WORDS.none, offline: copy.state(siteId) };
    },

    offline(siteId: string): MailerOfflineState {
      deps.sessions.get(siteId); // a CMS site of the list, or refused with the reason
      return copy.state(siteId);
    },
    setOffline(siteId: string, keep: boolean): Promise<MailerOfflineState> {
      deps.sessions.get(siteId);
      return copy.setKeep(siteId, keep);
    },

    // ── subscribers

    async subscribers(siteId: string, filter: SubscriberFilter, page: number, perPage: number): Promise<SubscriberPage> {
      checkFilter(filter, 'filter.');
      if (copy.has(siteId) && away(siteId)) return fromCopy(siteId, filter, page, perPage);
      try {
        const r = await reading(siteId, (b) => cmsMailer.subscribers(copy.has(siteId) ? once(siteId) : read(siteId), b, { filter, page, perPage }));
        keepCounts(siteId, r, filter);
        copy.put(siteId, r.items);
        copy.refreshIfStale(siteId);
        return { ...r, copiedAt: null, filterIgnored: [] };
      } catch (err) {
        if (!unreachable(err)) throw err;
        if (copy.has(siteId)) return fromCopy(siteId, filter, page, perPage);
        throw needsSite(siteId, err);
      }
    },

    async count(siteId: string, filter: SubscriberFilter): Promise<{ total: number; statusCounts: StatusCounts | null }> {
      checkFilter(filter, 'filter.');
      const empty = filterIsEmpty(filter);
      if (empty) {
        const { value } = await withCopy(siteId, deps.siteCache, COUNTS_KEY, (transport) =>
          reading(siteId, async (b) => {
            const r = await cmsMailer.subscribers(transport, b, { filter, page: 1, perPage: 1 });
            return { total: r.total, statusCounts: r.statusCounts } satisfies Counts;
          }),
        );
        return value;
      }
      try {
        const r = await reading(siteId, (b) => cmsMailer.subscribers(read(siteId), b, { filter, page: 1, perPage: 1 }));
        keepCounts(siteId, r, filter);
        return { total: r.total, statusCounts: r.statusCounts };
      } catch (err) {
        if (!unreachable(err) || !copy.has(siteId)) throw err;
        const c = fromCopy(siteId, filter, 1, 1);
        return { total: c.total, statusCounts: c.statusCounts };
      }
    },

    async subscriber(siteId: string, id: number): Promise<{ subscriber: Subscriber; copiedAt: string | null; partial: boolean }> {
      const kept = (): { subscriber: Subscriber; copiedAt: string; partial: boolean } | null => {
        const k = copy.keeps(siteId) ? deps.repo.get(siteId, id) : null;
        if (!k) return null;
        const empty = { consent: { agreedAt: k.row.consentAt, ip: null, basis: null, confirmedAt: k.row.confirmedAt, leftAt: k.row.unsubscribedAt, leftBy: null, leftVia: null }, import: null, suppression: null, sends: [], sendsTotal: 0, consentLog: [] };
        // the row may be newer than the page (a write the site confirmed since)
        return { subscriber: { ...(k.detail ?? empty), ...k.row }, copiedAt: copy.copiedAt(siteId), partial: k.detail === null };
      };
      if (copy.has(siteId) && away(siteId)) {
        const k = kept();
        if (k) return k;
      }
      try {
        const s = await reading(siteId, (b) => cmsMailer.subscriber(copy.has(siteId) ? once(siteId) : read(siteId), b, id)).catch(gone('subscriber'));
        copy.putDetail(siteId, s);
        return { subscriber: s, copiedAt: null, partial: false };
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found' && err.info.reason) copy.remove(siteId, id);
        if (!unreachable(err)) throw err;
        const k = kept();
        if (k) return k;
        throw needsSite(siteId, err);
      }
    },

    async add(input: ChannelParsed<'mailer.add'>): Promise<AddOutcome> {
      const { siteId } = input;
      const key = `${siteId}\nadd\n${suppressionHash(input.email)}\n${input.listId ?? 'default'}`;
      const earlier = lost.get(key) !== undefined;
      const body: Record<string, unknown> = { email: input.email };
      if (input.name !== undefined) body.name = input.name;
      if (input.listId !== undefined) body.list_id = input.listId;
      if (input.tags !== undefined) body.tags = input.tags;
      if (input.language !== undefined && input.language !== '') body.language = input.language;
      if (input.mode !== undefined) body.mode = input.mode;
      if (input.note !== undefined) body.note = input.note;
      const r = await remembering(key, () => writing(siteId, 'Nobody was added', (b, transport) => cmsMailer.add(transport, b, body)));
      if (r.subscriber) copy.put(siteId, [r.subscriber]);
      return { outcome: r.outcome, subscriberId: r.subscriberId, listId: r.listId, listStatus: r.listStatus, subscriber: r.subscriber, earlier: earlier && (r.outcome === 'already_on' || r.outcome === 'already_invited') };
    },

    async update(input: ChannelParsed<'mailer.update'>) {
      const { siteId, id, changes } = input;
      const body: Record<string, unknown> = {};
      if (changes.name !== undefined) body.name = changes.name;
      if (changes.language !== undefined) body.language = changes.language === '' ? null : changes.language;
      if (changes.lists !== undefined) body.lists = changes.lists;
      if (changes.tags !== undefined) body.tags = changes.tags;
      const r = await writing(siteId, 'The subscriber was not changed', (b, transport) => cmsMailer.update(transport, b, id, body)).catch(gone('subscriber'));
      copy.put(siteId, [r.subscriber]);
      return r;
    },

    unsubscribe: (siteId: string, id: number) => change(siteId, id, 'unsubscribe', {}, 'They were not unsubscribed'),
    resubscribe: (siteId: string, id: number, note: string, listId?: number) => change(siteId, id, 'resubscribe', { note, ...(listId !== undefined ? { list_id: listId } : {}) }, 'They were not put back'),
    confirm: (siteId: string, id: number) => change(siteId, id, 'confirm', {}, 'They were not confirmed'),

    async remove(siteId: string, id: number): Promise<{ id: number }> {
      await writing(siteId, 'Nobody was deleted', (b, transport) => cmsMailer.remove(transport, b, id).catch(goneAlready));
      copy.remove(siteId, id);
      return { id };
    },

    // ── exports

    async chooseExportFile(what: 'person' | 'table', id?: number): Promise<SaveFileChoice> {
      if (!deps.chooseSaveFile) return { unsupported: true };
      const file =
        what === 'person'
          ? await deps.chooseSaveFile({ title: 'Export this person’s data', defaultName: `subscriber-${id ?? 'data'}-data.json`, format: 'json' })
          : await deps.chooseSaveFile({ title: 'Export the subscribers', defaultName: 'subscribers.csv', format: 'csv' });
      return file ? { file, confirmed: true } : { cancelled: true };
    },

    async exportPerson(input: ChannelParsed<'mailer.exportPerson'>) {
      const { siteId, id, exportId } = input;
      if (exports.has(exportId)) throw new AppError({ code: 'conflict', message: 'That export is under way already.' });
      const b = await bases.base(siteId);
      writable(siteId, b); // an export needs manage: a copy of personal data leaving the site
      const stop = new AbortController();
      exports.set(exportId, stop);
      try {
        return await exportToFile({
          file: input.file,
          overwrite: input.overwrite === true,
          signal: stop.signal,
          counter: jsonDocument(),
          matched: null,
          said: (err) => said(gone('subscriber')(err)),
          progress: (bytes, rows) => deps.emit.exportProgress({ exportId, siteId, bytes, rows, matched: null }),
          download: (into) => bases.on(siteId, (base) => cmsMailer.exportPerson(t(siteId), base, id, { signal: stop.signal, into })),
        });
      } finally {
        exports.delete(exportId);
      }
    },

    async exportTable(input: ChannelParsed<'mailer.exportTable'>) {
      const { siteId, exportId, filter } = input;
      checkFilter(filter, 'filter.');
      if (exports.has(exportId)) throw new AppError({ code: 'conflict', message: 'That export is under way already.' });
      const b = await bases.base(siteId);
      writable(siteId, b);
      const matched = (await reading(siteId, (base) => cmsMailer.subscribers(t(siteId), base, { filter, page: 1, perPage: 1 }))).total;
      const stop = new AbortController();
      exports.set(exportId, stop);
      try {
        return await exportToFile({
          file: input.file,
          overwrite: input.overwrite === true,
          signal: stop.signal,
          counter: csvRecords(),
          matched,
          said,
          progress: (bytes, rows) => deps.emit.exportProgress({ exportId, siteId, bytes, rows, matched }),
          download: (into) => bases.on(siteId, (base) => cmsMailer.exportTable(t(siteId), base, filter, { signal: stop.signal, into })),
        });
      } finally {
        exports.delete(exportId);
      }
    },

    cancelExport(exportId: string): { cancelled: boolean } {
      const stop = exports.get(exportId);
      stop?.abort();
      return { cancelled: stop !== undefined || reports.cancelExport(exportId) };
    },

    // ── bulk

    async bulk(input: ChannelParsed<'mailer.bulk'>): Promise<BulkOutcome> {
      const { siteId, bulkId, action, target } = input;
      if (bulks.has(bulkId)) throw new AppError({ code: 'conflict', message: 'That action is under way already.' });
      if (target.kind === 'filter') checkFilter(target.filter, 'target.filter.');
      const key = `${siteId}\nbulk\n${action}\n${JSON.stringify(target.kind === 'addresses' ? suppressionHash(target.addresses) : target)}\n${input.listId ?? ''}\n${input.tag ?? ''}\n${input.tagId ?? ''}`;
      const earlier = lost.get(key);
      if (earlier && input.again !== true) {
        throw new AppError({
          code: 'conflict',
          message: `The site may already have done part of this: the answer to the batch sent at ${timeOfDay(earlier.at)} was lost. Look at the people it names first; go on only if it did not finish (it goes on from where it stopped, so nobody it finished with is done again).`,
        });
      }
      const body: Record<string, unknown> = { action };
      if (input.listId !== undefined) body.list_id = input.listId;
      if (input.mode !== undefined) body.mode = input.mode;
      if (input.note !== undefined) body.note = input.note;
      if (input.tag !== undefined) body.tag = input.tag;
      if (input.tagId !== undefined) body.tag_id = input.tagId;
      if (target.kind === 'ids') body.ids = target.ids;
      else if (target.kind === 'addresses') body.addresses = target.addresses;
      else {
        body.filter = filterBody(target.filter);
        if (target.all !== undefined) body.all = target.all;
      }
      const TARGET_FIELDS: Record<string, string> = { ids: 'target.ids', filter: 'target.filter', addresses: 'target.addresses', all: 'target.all' };
      const rename = (f: string) => TARGET_FIELDS[f] ?? (f.startsWith('filter.') ? filterField('target.filter.')(f.slice('filter.'.length)) : inputField(f));

      const resume = earlier?.value as { after: number | null; maxId: number | null; progress: BulkProgress } | undefined;
      const progress: BulkProgress = resume ? { ...resume.progress, bulkId } : { bulkId, siteId, action, target: target.kind, processed: 0, total: null, done: {}, skipped: {} };
      let after = resume?.after ?? null;
      let maxId = resume?.maxId ?? null;
      lost.forget(key);
      const add = (into: Record<string, number>, from: Record<string, number>) => {
        for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
      };
      const stop = new AbortController();
      bulks.set(bulkId, stop);
      try {
        for (;;) {
          if (stop.signal.aborted) return { outcome: 'stopped', ...progress };
          let r;
          try {
            r = await writing(siteId, 'The action was not done', (b, transport) => cmsMailer.bulk(transport, b, { ...body, ...(after !== null ? { after } : {}), ...(maxId !== null ? { max_id: maxId } : {}) }, rename));
          } catch (err) {
            if (mayHaveArrived(err)) lost.remember(key, { after, maxId, progress: { ...progress, done: { ...progress.done }, skipped: { ...progress.skipped } } });
            // nothing done by this call yet: the error as it came; else what was done, and why it stopped
            if (progress.processed === 0 && !resume) throw err;
            return { outcome: 'interrupted', message: isAppError(err) ? err.message : 'The action stopped part way.', ...progress };
          }
          progress.processed += r.processed;
          progress.total ??= r.total;
          add(progress.done, r.done);
          add(progress.skipped, r.skipped);
          deps.emit.bulkProgress({ ...progress, done: { ...progress.done }, skipped: { ...progress.skipped } });
          if (r.finished || target.kind !== 'filter' || r.next === null) break;
          after = r.next;
          maxId = r.maxId;
        }
        return { outcome: 'finished', ...progress };
      } finally {
        bulks.delete(bulkId);
        if (target.kind === 'ids' && action === 'delete') for (const id of target.ids) copy.remove(siteId, id);
        // people changed whom the Host cannot name one by one: the copy is read again
        else copy.refresh(siteId);
      }
    },

    cancelBulk(bulkId: string): { cancelled: boolean } {
      const stop = bulks.get(bulkId);
      stop?.abort();
      return { cancelled: stop !== undefined };
    },

    // ── lists and tags

    async lists(siteId: string) {
      const { value, copiedAt } = await copied(siteId, LISTS_KEY, (transport, b) => cmsMailer.lists(transport, b));
      return { lists: value, copiedAt };
    },

    async createList(input: ChannelParsed<'mailer.createList'>): Promise<{ list: MailerList; earlier: boolean }> {
      const { siteId } = input;
      const key = `${siteId}\nlist\n${input.code}`;
      const earlier = lost.get(key) !== undefined;
      const body: Record<string, unknown> = { code: input.code, name: input.name };
      for (const [k, w] of [['description', 'description'], ['doubleOptIn', 'double_opt_in'], ['public', 'public'], ['isDefault', 'is_default'], ['position', 'position'], ['fromName', 'from_name'], ['fromEmail', 'from_email']] as const) {
        const val = input[k];
        if (val !== undefined) body[w] = val === '' ? null : val;
      }
      try {
        const list = await remembering(key, () => writing(siteId, 'No list was made', (b, transport) => cmsMailer.createList(transport, b, body)));
        keepInList(siteId, LISTS_KEY, list);
        return { list, earlier: false };
      } catch (err) {
        // the lost create made it: it is that list, not a second one
        if (!(earlier && isAppError(err) && err.info.reason === 'list_code_taken')) throw err;
        lost.forget(key);
        const list = (await reading(siteId, (b) => cmsMailer.lists(t(siteId), b))).find((l) => l.code === input.code);
        if (!list) throw err;
        keepInList(siteId, LISTS_KEY, list);
        return { list, earlier: true };
      }
    },

    async updateList(input: ChannelParsed<'mailer.updateList'>): Promise<{ list: MailerList }> {
      const { siteId, id, changes } = input;
      const body: Record<string, unknown> = {};
      for (const [k, w] of [['name', 'name'], ['description', 'description'], ['doubleOptIn', 'double_opt_in'], ['public', 'public'], ['isDefault', 'is_default'], ['position', 'position'], ['fromName', 'from_name'], ['fromEmail', 'from_email']] as const) {
        const val = changes[k];
        if (val !== undefined) body[w] = val === '' ? null : val;
      }
      const list = await writing(siteId, 'The list was not changed', (b, transport) => cmsMailer.updateList(transport, b, id, body)).catch(gone('list'));
      // a new default clears the others: the copy follows the site's whole answer when it can
      if (list.isDefault) keepCopy<MailerList[]>(siteId, LISTS_KEY, (all) => all.map((l) => (l.id === list.id ? list : { ...l, isDefault: false })));
      else keepInList(siteId, LISTS_KEY, list);
      return { list };
    },

    async tags(siteId: string) {
      const { value, copiedAt } = await copied(siteId, TAGS_KEY, (transport, b) => cmsMailer.tags(transport, b));
      return { tags: value, copiedAt };
    },

    async createTag(input: ChannelParsed<'mailer.createTag'>): Promise<{ tag: MailerTag; created: boolean }> {
      const { siteId } = input;
      const key = `${siteId}\ntag\n${(input.code ?? input.label).toLowerCase()}`;
      const earlier = lost.get(key) !== undefined;
      const r = await remembering(key, () => writing(siteId, 'No tag was made', (b, transport) => cmsMailer.createTag(transport, b, { label: input.label, ...(input.code !== undefined ? { code: input.code } : {}) })));
      keepInList(siteId, TAGS_KEY, r.tag);
      // the lost create made it: made by this action all the same
      return { tag: r.tag, created: r.created || earlier };
    },

    async deleteTag(siteId: string, id: number): Promise<{ id: number; removedFrom: number }> {
      const removedFrom = await writing(siteId, 'The tag was not deleted', (b, transport) => cmsMailer.deleteTag(transport, b, id).catch((err: unknown) => (isAppError(err) && err.info.reason === 'not_found' ? 0 : Promise.reject(err))));
      keepCopy<MailerTag[]>(siteId, TAGS_KEY, (all) => all.filter((x) => x.id !== id));
      return { id, removedFrom };
    },

    // ── segments

    async vocabulary(siteId: string) {
      const { value, copiedAt } = await copied(siteId, VOCABULARY_KEY, (transport, b) => cmsMailer.vocabulary(transport, b));
      return { vocabulary: value, copiedAt };
    },

    async previewSegment(siteId: string, definition: SegmentGroup, listId: number | null | undefined) {
      tooMany(definition);
      return reading(siteId, (b) => cmsMailer.previewSegment(read(siteId), b, { definition, ...(listId !== undefined ? { list_id: listId } : {}) }));
    },

    async segments(siteId: string) {
      const { value, copiedAt } = await copied(siteId, SEGMENTS_KEY, (transport, b) => cmsMailer.segments(transport, b));
      return { segments: value, copiedAt };
    },

    async segment(siteId: string, id: number): Promise<{ segment: MailerSegment; copiedAt: string | null }> {
      const kept = () => {
        const k = deps.siteCache.get<MailerSegment[]>(siteId, SEGMENTS_KEY);
        const s = k?.value.find((x) => x.id === id);
        return k && s ? { segment: s, copiedAt: k.fetchedAt } : null;
      };
      const k = kept();
      if (k && away(siteId)) return k;
      try {
        const segment = await reading(siteId, (b) => cmsMailer.segment(k ? once(siteId) : read(siteId), b, id)).catch(gone('segment'));
        keepInList(siteId, SEGMENTS_KEY, segment);
        return { segment, copiedAt: null };
      } catch (err) {
        const late = unreachable(err) ? kept() : null;
        if (late) return late;
        throw err;
      }
    },

    async createSegment(input: ChannelParsed<'mailer.createSegment'>): Promise<{ segment: MailerSegment }> {
      const { siteId } = input;
      tooMany(input.definition);
      const body: Record<string, unknown> = { name: input.name, definition: input.definition };
      if (input.description !== undefined) body.description = input.description === '' ? null : input.description;
      if (input.listId !== undefined) body.list_id = input.listId;
      const key = `${siteId}\nsegment\n${input.name}\n${JSON.stringify(input.definition)}`;
      const same = (s: MailerSegment) => s.name === input.name && sameJson(s.definition, input.definition);
      const segment = await createdOnce(lostSegments, key, {
        // the segments there are now, so one a lost answer made can be told apart later (not known: no such lookup)
        snapshot: () => reading(siteId, (b) => cmsMailer.segments(once(siteId), b)).then((all) => ({ before: all.map((x) => x.id) }), () => null),
        // the lost create may have made it: one of that name and definition made since is that one
        find: async ({ before }) => (await reading(siteId, (b) => cmsMailer.segments(t(siteId), b))).find((x) => !before.includes(x.id) && same(x)),
        make: () => writing(siteId, 'No segment was made', (b, transport) => cmsMailer.createSegment(transport, b, body)),
      });
      keepInList(siteId, SEGMENTS_KEY, segment);
      return { segment };
    },

    async updateSegment(input: ChannelParsed<'mailer.updateSegment'>): Promise<{ segment: MailerSegment }> {
      const { siteId, id, changes } = input;
      if (changes.definition) tooMany(changes.definition, 'changes.definition');
      const body: Record<string, unknown> = {};
      if (changes.name !== undefined) body.name = changes.name;
      if (changes.description !== undefined) body.description = changes.description === '' ? null : changes.description;
      if (changes.listId !== undefined) body.list_id = changes.listId;
      if (changes.definition !== undefined) body.definition = changes.definition;
      const segment = await writing(siteId, 'The segment was not changed', (b, transport) => cmsMailer.updateSegment(transport, b, id, body)).catch(gone('segment'));
      keepInList(siteId, SEGMENTS_KEY, segment);
      return { segment };
    },

    async deleteSegment(siteId: string, id: number): Promise<SegmentDelete> {
      try {
        await writing(siteId, 'The segment was not deleted', (b, transport) => cmsMailer.deleteSegment(transport, b, id).catch(goneAlready));
      } catch (err) {
        if (!(isAppError(err) && err.info.reason === 'segment_in_use')) throw err;
        const campaigns = await reading(siteId, (b) => cmsMailer.segment(t(siteId), b, id)).then((s) => s.campaigns, () => null);
        return { outcome: 'in_use', message: err.message, campaigns };
      }
      keepCopy<MailerSegment[]>(siteId, SEGMENTS_KEY, (all) => all.filter((s) => s.id !== id));
      return { outcome: 'deleted', id };
    },

    async recountSegment(siteId: string, id: number): Promise<{ segment: MailerSegment }> {
      const segment = await writing(siteId, 'The segment was not counted', (b, transport) => cmsMailer.recountSegment(transport, b, id)).catch(gone('segment'));
      keepInList(siteId, SEGMENTS_KEY, segment);
      return { segment };
    },

    // ── suppressions and erasure

    suppressions: (siteId: string, reason: string | undefined, page: number, perPage: number) => reading(siteId, (b) => cmsMailer.suppressions(read(siteId), b, { reason, page, perPage })),

    async suppress(input: ChannelParsed<'mailer.suppress'>) {
      const { siteId } = input;
      const key = `${siteId}\nsuppress\n${suppressionHash(input.email)}`;
      const earlier = lost.get(key) !== undefined;
      const body = { email: input.email, ...(input.reason ? { reason: input.reason } : {}), ...(input.note ? { note: input.note } : {}) };
      const r = await remembering(key, () => writing(siteId, 'The address was not suppressed', (b, transport) => cmsMailer.suppress(transport, b, body)));
      return { suppression: r.suppression, created: r.created || earlier };
    },

    async unsuppress(siteId: string, hash: string): Promise<{ hash: string; removed: boolean }> {
      const key = `${siteId}\nunsuppress\n${hash}`;
      const earlier = lost.get(key) !== undefined;
      const removed = await remembering(key, () =>
        writing(siteId, 'The suppression was not removed', (b, transport) =>
          cmsMailer.unsuppress(transport, b, hash).then(
            () => true,
            (err: unknown) => (isAppError(err) && err.info.reason === 'not_found' ? false : Promise.reject(err)),
          ),
        ),
      );
      // gone because the lost one removed it
      return { hash, removed: removed || earlier };
    },

    async erase(siteId: string, email: string): Promise<EraseOutcome> {
      const key = `${siteId}\nerase\n${suppressionHash(email)}`;
      const earlier = lost.get(key) !== undefined;
      const r = await remembering(key, () => writing(siteId, 'Nothing was erased', (b, transport) => cmsMailer.erase(transport, b, email)));
      const removedHere = copy.removeAddress(siteId, email);
      return { erased: r.erased, counts: r.counts, removedHere, earlier: earlier && !r.erased };
    },

    // ── campaigns

    campaigns: campaigns.list,
    campaign: campaigns.one,
    campaignAudience: campaigns.audience,
    createCampaign: campaigns.create,
    moveCampaign: campaigns.move,
    deleteCampaign: campaigns.remove,
    updateCampaign: campaigns.update,
    previewCampaign: campaigns.preview,
    testCampaign: campaigns.test,
    campaignSends: campaigns.sends,
    campaignLinks: campaigns.links,
    campaignTimeline: campaigns.timeline,
    campaignCatchUp: campaigns.catchUp,
    overview: campaigns.overview,
    templates: campaigns.templates,
    createTemplate: campaigns.createTemplate,
    updateTemplate: campaigns.updateTemplate,
    deleteTemplate: campaigns.deleteTemplate,
    previewTemplate: campaigns.previewTemplate,
    sendCatchUp: campaigns.sendCatchUp,
    retryFailed: campaigns.retryFailed,

    /** Campaigns and templates written here, pushed by the site's sync (mailer/drafts.ts). */
    drafts,
    // ── deliverability, providers, reports

    deliverability: reports.deliverability,
    recheckDeliverability: reports.recheck,
    providers: reports.providers,
    providerSecret: reports.secret,
    providerSetup: reports.setup,
    report: reports.report,
    chooseReportFile: reports.chooseFile,
    exportReport: reports.exportCsv,
    // ── automations

    flows: flows.list,
    flowRecipes: flows.recipes,
    flow: flows.one,
    createFlow: flows.create,
    flowFromRecipe: flows.fromRecipe,
    updateFlow: flows.update,
    moveFlow: flows.move,
    deleteFlow: flows.remove,
    enrol: flows.enrol,
    exitEnrolment: flows.exit,

    // ── imports

    chooseImportFile: imports.chooseFile,
    importPreview: imports.preview,
    importRun: imports.run,
    imports: imports.list,
    import: imports.one,

    /** The site was removed (its copies and people went with its row): work for it stops. */
    dropped(siteId: string): void {
      copy.dropped(siteId);
      imports.dropped(siteId);
    },

    /** Stops exports, bulk actions, fills and followed imports (the Host closes). */
    async close(): Promise<void> {
      for (const s of exports.values()) s.abort();
      for (const s of bulks.values()) s.abort();
      reports.close();
      imports.close();
      await copy.close();
    },
  };
}

/** More conditions than a site takes: refused here under the definition's field. */
function tooMany(definition: SegmentGroup, field = 'definition'): void {
  if (conditionCount(definition) <= SEGMENT_CONDITIONS_MAX) return;
  const message = `A segment holds at most ${SEGMENT_CONDITIONS_MAX} conditions.`;
  throw AppError.fields({ [field]: message }, message);
}

export type MailerService = ReturnType<typeof mailerService>;
export { pluginOf };
