/**
 * The audit trail kept offline (contract/audit-copy.ts): copies of sites' trails and of imported
 * files in the app's database, searched all at once offline, exported again, kept as long as the
 * person chose. Keeping, importing and exporting are jobs of the Host: they answer at once, report
 * `auditCopy.job` while they run, can be stopped, and go on from what they did (a keep from its
 * saved run, an import by adding only what the copy lacks). Forgetting a copy hides it at once
 * and removes its events in batches (overwritten on disk: secure_delete, and the full-text index's
 * own secure-delete). Nothing here writes to a site, and no event's value is ever logged.
 */
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { AppError, isAppError, isUnreachable } from '../base/app-error';
import type { AuditCopy, AuditCopyFacets, AuditCopyJob, AuditCopyJobKind, AuditCopyPage, AuditCopyStamp, AuditFileChoice, AuditRetention, ChannelParsed } from '../contract';
import { keyOf, type AuditCopyRepo, type CopyRow, type SearchSpec } from '../db/repos/audit-copy';
import type { SitesRepo } from '../db/repos/sites';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import { KeepCancelled, keepTrail, type KeepRun } from './keep';
import { checkExportFile, checkImportFile, exportFile, FileJobCancelled, formatOf, importFile } from './files';
import { retentionCut } from './retention';
import { auditFtsQuery, withLabels } from './fts';

export interface AuditCopyDeps extends SiteCallDeps {
  repo: AuditCopyRepo;
  sites: SitesRepo;
  emitJob: (job: AuditCopyJob) => void;
  emitCopies: (copies: AuditCopy[]) => void;
  /** The system's open-file dialog (Electron's shell); browser mode has none and asks for a path. */
  chooseOpenFile?: () => Promise<string | null>;
  now?: () => number;
  /** Events removed per transaction when a retention or a forget removes many (default 5,000). */
  removeBatch?: number;
}

/** How often a running job is reported at most (its changes of state always are). */
const EMIT_EVERY_MS = 250;
const KEEP_FINISHED = 100;

interface Live {
  job: AuditCopyJob;
  controller: AbortController;
  finished: Promise<void>;
  emittedAt: number;
}

const yieldLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
/** How long a cancel waits for a job to stop (a request already sent runs on; the job's event says when it stopped). */
const STOP_WAIT_MS = 2_000;
const within = (p: Promise<unknown>, ms: number) => Promise.race([p, new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.())]);

/** A search that cannot match anything (only copies that are not there, no word to look for). */
const NOTHING = Symbol('nothing');

export function auditCopyService(deps: AuditCopyDeps) {
  const { repo } = deps;
  const calls = siteCalls(deps);
  const now = deps.now ?? Date.now;
  const iso = () => new Date(now()).toISOString();
  const removeBatch = deps.removeBatch ?? 5_000;
  const jobs = new Map<string, Live>();
  const draining = new Map<number, Promise<void>>();
  let closed = false;

  const cmsSite = (siteId: string) => {
    const site = deps.sites.get(siteId);
    if (!site) throw new AppError({ code: 'not_found', message: 'That site no longer exists.' });
    if (site.kind !== 'cms') throw new AppError({ code: 'conflict', message: 'Only a CMS site has an audit trail to keep.' });
    return site;
  };

  const live = (): CopyRow[] => repo.copies().filter((c) => !c.forgotten);
  const nameOf = (c: CopyRow) => (c.siteId ? (deps.sites.get(c.siteId)?.name ?? c.name) : c.name);
  const stamp = (c: CopyRow): AuditCopyStamp => ({ copyId: c.id, siteId: c.siteId, name: nameOf(c), keptAt: c.keptAt });

  function copies(): AuditCopy[] {
    const stats = repo.stats();
    return live().map((c) => {
      const s = stats.get(c.id);
      return { id: c.id, kind: c.kind, siteId: c.siteId, name: nameOf(c), events: s?.events ?? 0, oldest: s?.oldest ?? null, newest: s?.newest ?? null, keptAt: c.keptAt, retention: c.retention, resumable: c.run !== null };
    });
  }
  const changed = () => deps.emitCopies(copies());

  const mustCopy = (copyId: number): CopyRow => {
    const c = repo.copy(copyId);
    if (!c || c.forgotten) throw new AppError({ code: 'not_found', message: 'That kept copy is no longer there.' });
    return c;
  };

  // ── jobs ────────────────────────────────────────────────────────────────────────────────

  function update(l: Live, patch: Partial<AuditCopyJob>, force = false): void {
    l.job = { ...l.job, ...patch };
    const t = now();
    if (force || l.job.state !== 'running' || t - l.emittedAt >= EMIT_EVERY_MS) {
      l.emittedAt = t;
      deps.emitJob(l.job);
    }
  }

  function trim(): void {
    const finished = [...jobs.values()].filter((l) => l.job.state !== 'running');
    for (const l of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) jobs.delete(l.job.id);
  }

  function launch(kind: AuditCopyJobKind, copyId: number | null, siteId: string | null, file: string | null, work: (l: Live, signal: AbortSignal) => Promise<Partial<AuditCopyJob>>): AuditCopyJob {
    if (closed) throw new AppError({ code: 'host_unavailable', message: 'Sitedesk is closing.' });
    const controller = new AbortController();
    const job: AuditCopyJob = { id: randomUUID(), kind, copyId, siteId, state: 'running', done: 0, total: null, bytes: null, added: 0, transferred: 0, duplicates: 0, unreadable: 0, problems: [], removed: 0, indexing: null, error: null, file: file ? basename(file) : null, startedAt: iso(), endedAt: null };
    const l: Live = { job, controller, finished: Promise.resolve(), emittedAt: 0 };
    jobs.set(job.id, l);
    update(l, {}, true);
    l.finished = (async () => {
      try {
        const end = await work(l, controller.signal);
        update(l, { ...end, state: 'done', endedAt: iso() });
      } catch (err) {
        if (err instanceof KeepCancelled || err instanceof FileJobCancelled || controller.signal.aborted) update(l, { state: 'cancelled', endedAt: iso(), error: controller.signal.reason === 'close' ? 'Sitedesk was closing.' : null });
        else update(l, { state: 'failed', endedAt: iso(), error: isAppError(err) ? err.message : 'Something went wrong; what was done so far is kept.' });
      } finally {
        trim();
        if (!closed && kind !== 'export') {
          tidyLabels();
          try {
            changed();
          } catch {
            // the database went away (damage, closing): the list is read again when it is back
          }
        }
      }
    })();
    return l.job;
  }

  const running = (pred: (j: AuditCopyJob) => boolean) => [...jobs.values()].find((l) => l.job.state === 'running' && pred(l.job));

  /** Kinds and actors no kept event uses any more go, with their words (names and user agents are personal data); not while a keep or import writes. */
  function tidyLabels(): void {
    if (running((j) => j.kind !== 'export')) return;
    try {
      repo.pruneLabels();
    } catch {
      // the database went away: the next removal or start does it
    }
  }

  /** Applies a copy's retention in batches; answers how many events it removed. */
  async function applyRetention(copyId: number): Promise<number> {
    const c = repo.copy(copyId);
    if (!c) return 0;
    const cut = retentionCut(c.retention, now());
    if (!cut) return 0;
    let key: number | null;
    if ('olderThan' in cut) key = keyOf(Math.max(0, cut.olderThan));
    else key = repo.edgeKey(copyId, cut.beyondNewest);
    if (key === null) return 0;
    let removed = 0;
    for (;;) {
      const n = repo.transaction(() => repo.removeOlder(copyId, key, removeBatch));
      removed += n;
      if (n < removeBatch) return removed;
      await yieldLoop();
    }
  }

  /** Removes a forgotten copy's events in batches, then its row. */
  function drain(copyId: number): Promise<void> {
    let p = draining.get(copyId);
    if (p) return p;
    p = (async () => {
      try {
        while (!closed) {
          const n = repo.transaction(() => repo.forgetChunk(copyId, removeBatch));
          if (n === 0) {
            tidyLabels();
            repo.checkpoint();
            return;
          }
          await yieldLoop();
        }
      } catch {
        // the database went away: the next start goes on
      } finally {
        draining.delete(copyId);
      }
    })();
    draining.set(copyId, p);
    return p;
  }

  async function stopJobsOf(copyId: number): Promise<void> {
    const mine = [...jobs.values()].filter((l) => l.job.copyId === copyId && l.job.state === 'running');
    for (const l of mine) l.controller.abort('cancel');
    // a batch a job writes after this is removed with the copy (forgetChunk)
    await within(Promise.all(mine.map((l) => l.finished)), STOP_WAIT_MS);
  }

  function startKeep(siteId: string, copyId: number): AuditCopyJob {
    return launch('keep', copyId, siteId, null, async (l, signal) => {
      const t = calls.read(siteId).derive({ priority: 'background', signal });
      try {
        const out = await repo.bulk(() => keepTrail({
          t,
          repo,
          copyId,
          signal,
          now: iso,
          progress: (k) => update(l, { done: k.done, total: k.total, added: k.added, transferred: k.transferred, duplicates: k.duplicates, unreadable: k.unreadable, problems: [...k.problems] }),
        }));
        update(l, { done: out.done, total: out.total, added: out.added, transferred: out.transferred, duplicates: out.duplicates, unreadable: out.unreadable, problems: [...out.problems] });
        repo.setKept(copyId, iso());
        return { removed: await applyRetention(copyId) };
      } catch (err) {
        if (err instanceof KeepCancelled || signal.aborted) throw err;
        if (isUnreachable(err)) {
          throw new AppError(
            { ...err.info, message: `${err.message.replace(/\.$/, '')}. The kept copy is as it was; keep a copy again once the site answers (it goes on from where this stopped).` },
            { cause: err },
          );
        }
        throw err;
      }
    });
  }

  // ── search ──────────────────────────────────────────────────────────────────────────────

  type Filter = Omit<ChannelParsed<'auditCopy.search'>, 'before' | 'limit'>;

  /** The person's filters as the table's, or NOTHING when they cannot match. */
  function specOf(f: Filter): { spec: Omit<SearchSpec, 'limit'>; terms: string[]; searched: CopyRow[] } | typeof NOTHING {
    const all = live();
    const searched = f.copies ? all.filter((c) => f.copies!.includes(c.id)) : all;
    if (!searched.length) return NOTHING;
    const spec: Omit<SearchSpec, 'limit'> = { copies: f.copies || all.length !== repo.copies().length ? searched.map((c) => c.id) : null };
    if (f.event) spec.event = f.event;
    if (f.severity) spec.severity = f.severity;
    if (f.targetType) spec.targetType = f.targetType;
    if (f.actor) spec.actor = f.actor;
    if (f.from !== undefined) spec.fromKey = keyOf(f.from);
    if (f.to !== undefined) spec.toKey = keyOf(f.to) + 999;
    let terms: string[] = [];
    if (f.q !== undefined && f.q.trim() !== '') {
      const fts = auditFtsQuery(f.q);
      if (!fts.match) return NOTHING;
      spec.match = withLabels(fts.match, (part) => repo.labelWords(part));
      terms = fts.terms;
    }
    return { spec, terms, searched };
  }

  return {
    copies,

    keep(siteId: string): AuditCopyJob {
      const site = cmsSite(siteId);
      const already = running((j) => j.kind === 'keep' && j.siteId === siteId);
      if (already) return already.job;
      const copy = repo.siteCopy(siteId) ?? mustCopy(repo.createCopy('site', siteId, site.name, iso()));
      return startKeep(siteId, copy.id);
    },

    async chooseOpenFile(): Promise<AuditFileChoice> {
      if (!deps.chooseOpenFile) return { unsupported: true };
      const file = await deps.chooseOpenFile();
      return file ? { file } : { cancelled: true };
    },

    async import(input: ChannelParsed<'auditCopy.import'>): Promise<AuditCopyJob> {
      const size = await checkImportFile(input.file);
      const format = input.format ?? (await formatOf(input.file));
      let copyId: number;
      let created = false;
      if (input.into.kind === 'site') {
        const site = cmsSite(input.into.siteId);
        const existing = repo.siteCopy(site.id);
        created = !existing;
        copyId = existing?.id ?? repo.createCopy('site', site.id, site.name, iso());
      } else {
        const existing = repo.namedCopy(input.into.name);
        created = !existing;
        copyId = existing?.id ?? repo.createCopy('file', null, input.into.name, iso());
      }
      const siteId = input.into.kind === 'site' ? input.into.siteId : null;
      return launch('import', copyId, siteId, input.file, async (l, signal) => {
        try {
          const out = await repo.bulk(() => importFile({
            repo,
            copyId,
            file: input.file,
            size,
            format,
            signal,
            // the end of the storing (indexing starts) is always said at once: a change of stage
            progress: (t) => update(l, { done: t.read, added: t.added, duplicates: t.duplicates, unreadable: t.unreadable, problems: [...t.problems], bytes: { ...t.bytes }, indexing: t.indexing && { ...t.indexing } }, l.job.indexing === null && t.indexing !== null),
          }));
          update(l, { done: out.read, added: out.added, duplicates: out.duplicates, unreadable: out.unreadable, problems: [...out.problems], bytes: { ...out.bytes }, indexing: out.indexing && { ...out.indexing } });
          repo.setKept(copyId, iso());
          return { removed: await applyRetention(copyId) };
        } catch (err) {
          // a file that was not an audit export leaves no empty copy behind
          if (created && !(repo.stats().get(copyId)?.events ?? 0)) {
            repo.markForgotten(copyId);
            await drain(copyId);
          }
          throw err;
        }
      });
    },

    async export(input: ChannelParsed<'auditCopy.export'>): Promise<AuditCopyJob> {
      const overwrite = input.overwrite ?? false;
      await checkExportFile(input.file, overwrite);
      const { file, format, overwrite: _o, ...filter } = input;
      const found = specOf(filter);
      const spec: Omit<SearchSpec, 'limit'> = found === NOTHING ? { copies: [] } : found.spec;
      const total = found === NOTHING ? 0 : repo.total(spec).total;
      return launch('export', null, null, file, async (l, signal) => {
        update(l, { total });
        // words are searched in the full-text index: an import's still being added are waited for
        if (spec.match) await repo.indexText({ signal });
        const out = await exportFile({ repo, spec, file, format, overwrite, signal, progress: (written, bytes) => update(l, { done: written, bytes: { done: bytes, total: null } }) });
        return { done: out.written, bytes: { done: out.bytes, total: out.bytes } };
      });
    },

    async cancel(jobId: string): Promise<{ job: AuditCopyJob | null }> {
      const l = jobs.get(jobId);
      if (!l || l.job.state !== 'running') return { job: null };
      l.controller.abort('cancel');
      await within(l.finished, STOP_WAIT_MS);
      return { job: l.job };
    },

    jobs: (): AuditCopyJob[] => [...jobs.values()].map((l) => l.job).reverse(),

    search(q: ChannelParsed<'auditCopy.search'>): AuditCopyPage {
      const { before, limit, ...filter } = q;
      const found = specOf(filter);
      const stamps = (rows: CopyRow[]) => rows.map(stamp);
      if (found === NOTHING) return { events: [], total: 0, totalExact: true, next: null, terms: filter.q ? auditFtsQuery(filter.q).terms : [], copies: stamps(filter.copies ? live().filter((c) => filter.copies!.includes(c.id)) : live()), indexing: null };
      const rows = repo.page({ ...found.spec, ...(before !== undefined ? { before } : {}), limit: limit + 1 });
      const more = rows.length > limit;
      const events = (more ? rows.slice(0, limit) : rows).map(({ status: _s, ...e }) => e);
      const { total, exact } = repo.total(found.spec);
      // an estimate is never below what this page shows
      const shown = (before === undefined ? 0 : 1) + events.length + (more ? 1 : 0);
      // words searched while an import's are still being indexed: the answer says how far it is
      const unindexed = found.spec.match ? repo.unindexed(found.searched.map((c) => c.id)) : 0;
      const all = unindexed ? repo.eventCount(found.searched.map((c) => c.id)) : 0;
      const indexing = unindexed ? { indexed: Math.max(0, all - unindexed), total: all } : null;
      return { events, total: exact ? total : Math.max(total, shown), totalExact: exact, next: more ? events[events.length - 1]!.key : null, terms: found.terms, copies: stamps(found.searched), indexing };
    },

    facets(copyIds?: number[]): AuditCopyFacets {
      const all = live();
      const searched = copyIds ? all.filter((c) => copyIds.includes(c.id)) : all;
      const some = copyIds || all.length !== repo.copies().length ? searched.map((c) => c.id) : null;
      const f = some && !some.length ? { events: [], actors: [], targetTypes: [], severities: [], copies: [] } : repo.facets(some);
      return { ...f, copiesKept: searched.map(stamp) };
    },

    async setRetention(copyId: number, retention: AuditRetention): Promise<AuditCopy> {
      mustCopy(copyId);
      repo.setRetention(copyId, retention);
      if (await applyRetention(copyId)) tidyLabels();
      changed();
      const c = copies().find((x) => x.id === copyId);
      if (!c) throw new AppError({ code: 'not_found', message: 'That kept copy is no longer there.' });
      return c;
    },

    async forget(copyId: number): Promise<{ copyId: number }> {
      mustCopy(copyId);
      await stopJobsOf(copyId);
      repo.markForgotten(copyId);
      changed();
      void drain(copyId);
      return { copyId };
    },

    /** The site is being removed: its copy is forgotten with it (hidden now, removed in batches). */
    dropped(siteId: string): void {
      const c = repo.siteCopy(siteId);
      if (!c) return;
      for (const l of jobs.values()) if (l.job.copyId === c.id && l.job.state === 'running') l.controller.abort('cancel');
      repo.markForgotten(c.id);
      void drain(c.id);
      changed();
    },

    /** At start: forgotten copies finish going (a site's left without its site too); keeps a quit or crash cut short go on. */
    resume(): void {
      for (const c of repo.copies()) {
        if (!c.forgotten && c.kind === 'site' && (!c.siteId || !deps.sites.get(c.siteId))) repo.markForgotten(c.id);
      }
      for (const c of repo.copies()) {
        if (c.forgotten) void drain(c.id);
        else if (c.siteId && (c.run as KeepRun | null)?.state === 'running') startKeep(c.siteId, c.id);
      }
      tidyLabels();
      // an import's words a quit or crash left unindexed
      if (repo.unindexed(null)) void repo.indexText().catch(() => {});
    },

    /** Jobs stop where they are (a keep goes on at the next start); removals go on at the next start. */
    async close(): Promise<void> {
      const mine = [...jobs.values()].filter((l) => l.job.state === 'running');
      for (const l of mine) l.controller.abort('close');
      closed = true;
      // within the Host's grace before a kill; a keep's state is saved before each request, so one cut here goes on at the next start
      await within(Promise.all([...mine.map((l) => l.finished), ...draining.values()]), 1_000);
    },
  };
}

export type AuditCopyService = ReturnType<typeof auditCopyService>;
