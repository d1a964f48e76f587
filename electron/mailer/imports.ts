/**
 * The mailer's imports: a CSV file the person picked is sent to the site as it is read from disk
 * (`fs.openAsBlob` inside a multipart body of known length: a 64 MB file is never held whole by
 * the Host), with the bytes sent announced as `mailer.importProgress` events; first for a preview
 * (columns, preset, mapping, first rows, dry run: nothing is written on the site), then for the
 * run, which the site queues (202) and works through at its own pace. The Host follows a run by
 * reading it every `pollMs` as background work and announces each change until it ends (or the
 * site stops answering: `lost`, and `mailer.import` with `follow` takes it up again).
 *
 * A run whose answer was lost (the upload went, no answer came) may have been queued: the same run
 * asked again looks for an import of that file queued since in the site's history and answers it
 * (`earlier`), instead of sending the file a second time.
 */
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute } from 'node:path';
import { AppError, isAppError, mayHaveArrived } from '../base/app-error';
import { UncertainWrites } from '../base/uncertain';
import { cmsMailer } from '../api/cms/mailer';
import { multipartBlob } from '../api/multipart';
import type { Transport } from '../api/transport';
import type { ChannelParsed, ImportMapping, ImportPage, ImportPreview, ImportProgress, MailerBase, MailerFileChoice, MailerImport } from '../contract';
import type { MailerBases } from './base';

export interface ImportDeps {
  bases: MailerBases;
  t: (siteId: string) => Transport;
  read: (siteId: string) => Transport;
  background: (siteId: string, signal?: AbortSignal) => Transport;
  writable: (siteId: string, b: MailerBase) => void;
  sendNow: <T>(refused: string, send: () => Promise<T>) => Promise<T>;
  said: (err: unknown) => never;
  emit: (p: ImportProgress) => void;
  chooseOpenFile?: (o: { title: string }) => Promise<string | null>;
  pollMs?: number;
  now?: () => number;
}

/** Upload progress is announced at most this often. */
const ANNOUNCE_MS = 200;
/** A followed run the site stops answering for is given up after this many reads in a row. */
const FOLLOW_MISSES = 5;
const DONE = new Set(['finished', 'failed']);

/** The file named: an absolute path to a file there (its size and time tell one upload from another). */
async function checkFile(path: string): Promise<{ size: number; mtimeMs: number }> {
  const refuse = (message: string) => new AppError({ code: 'invalid_input', message, fields: { file: message } });
  if (!isAbsolute(path)) throw refuse('Enter the file’s full path, starting at the top of the disk (for example /home/me/subscribers.csv).');
  const s = await stat(path).catch(() => null);
  if (!s) throw refuse('There is no file at that path.');
  if (!s.isFile()) throw refuse('That is not a file.');
  if (s.size === 0) throw refuse('That file is empty.');
  return { size: s.size, mtimeMs: s.mtimeMs };
}

/** The mapping as the site takes it: field → heading or 0-based column (the fields not given left out). */
const mappingJson = (m: ImportMapping): string => JSON.stringify(Object.fromEntries(Object.entries(m).filter(([, col]) => col !== undefined)));

export function mailerImports(deps: ImportDeps) {
  const now = () => (deps.now ?? Date.now)();
  const pollMs = deps.pollMs ?? 1000;
  /** Runs whose answer was lost, by site and file (path, size, time): the newest import before it, to find what it queued. */
  const lostRuns = new UncertainWrites<{ newest: number }>(deps.now);
  /** Runs followed now, by site and import id, with the ids of the views following each. */
  const following = new Map<string, { siteId: string; stop: AbortController; jobs: Set<string> }>();

  /** Sends the file in a multipart body, announcing the bytes sent. */
  async function upload(siteId: string, jobId: string, b: MailerBase, what: 'preview' | 'run', file: string, fields: Record<string, string>) {
    const blob = await openAsBlob(file, { type: 'text/csv' }).catch(() => {
      throw new AppError({ code: 'invalid_input', message: 'That file could not be read.', fields: { file: 'That file could not be read.' } });
    });
    const body = multipartBlob('file', { name: basename(file), type: 'text/csv', blob }, fields);
    let last = 0;
    const announce = (sent: number, total: number) => {
      if (sent < total && now() - last < ANNOUNCE_MS) return;
      last = now();
      deps.emit({ siteId, jobId, phase: 'uploading', sent, total, import: null });
    };
    announce(0, body.bytes.size);
    return cmsMailer.upload(deps.t(siteId), b, what, { ...body, onProgress: announce });
  }

  /** Follows a run until it ends, announcing each change to every view following it (`jobId`: the view's). */
  function follow(siteId: string, jobId: string, first: MailerImport): void {
    const key = `${siteId}\n${first.id}`;
    const already = following.get(key);
    if (already) {
      already.jobs.add(jobId);
      return;
    }
    if (DONE.has(first.status)) return;
    const stop = new AbortController();
    const jobs = new Set([jobId]);
    following.set(key, { siteId, stop, jobs });
    const tell = (phase: ImportProgress['phase'], run: MailerImport | null) => {
      for (const job of jobs) deps.emit({ siteId, jobId: job, phase, sent: 0, total: 0, import: run });
    };
    void (async () => {
      let seen = JSON.stringify(first);
      let misses = 0;
      try {
        while (!stop.signal.aborted) {
          await new Promise((r) => setTimeout(r, pollMs));
          if (stop.signal.aborted) return;
          let run: MailerImport;
          try {
            run = await deps.bases.on(siteId, (b) => cmsMailer.import(deps.background(siteId, stop.signal), b, first.id));
            misses = 0;
          } catch (err) {
            if (stop.signal.aborted) return;
            // a run the site no longer has, or a site that stopped answering: said, and left
            if (++misses >= FOLLOW_MISSES || (isAppError(err) && err.code !== 'network' && err.code !== 'timeout' && err.code !== 'rate_limited')) {
              tell('lost', null);
              return;
            }
            continue;
          }
          const text = JSON.stringify(run);
          if (text !== seen) {
            seen = text;
            tell(phaseOf(run), run);
          }
          if (DONE.has(run.status)) return;
        }
      } finally {
        following.delete(key);
      }
    })();
  }

  return {
    async chooseFile(): Promise<MailerFileChoice> {
      if (!deps.chooseOpenFile) return { unsupported: true };
      const file = await deps.chooseOpenFile({ title: 'Choose a CSV file of subscribers' });
      return file ? { file } : { cancelled: true };
    },

    async preview(input: ChannelParsed<'mailer.importPreview'>): Promise<ImportPreview> {
      const { siteId, jobId, file } = input;
      await checkFile(file);
      const fields: Record<string, string> = {};
      if (input.mapping) fields.mapping = mappingJson(input.mapping);
      if (input.listId !== undefined) fields.list_id = String(input.listId);
      // nothing is written on the site, but it is a POST of the person's file: sent now, never later
      const r = await deps.sendNow('The file was not read', () => deps.bases.on(siteId, (b) => upload(siteId, jobId, b, 'preview', file, fields))).catch(deps.said);
      return cmsMailer.previewOf(deps.t(siteId), r.data);
    },

    async run(input: ChannelParsed<'mailer.importRun'>): Promise<{ import: MailerImport; earlier: boolean }> {
      const { siteId, jobId, file } = input;
      const f = await checkFile(file);
      const key = `${siteId}\n${file}\n${f.size}\n${f.mtimeMs}`;
      const earlier = lostRuns.get(key);
      if (earlier) {
        // the lost run may have been queued: its import is the answer, not a second upload
        const history = await deps.bases.on(siteId, (b) => cmsMailer.imports(deps.t(siteId), b, { page: 1, perPage: 20 })).catch(deps.said);
        const made = history.items.find((i) => i.fileName === basename(file) && i.id > earlier.value.newest);
        lostRuns.forget(key);
        if (made) {
          deps.emit({ siteId, jobId, phase: phaseOf(made), sent: 0, total: 0, import: made });
          follow(siteId, jobId, made);
          return { import: made, earlier: true };
        }
      }
      const fields: Record<string, string> = {
        mapping: mappingJson(input.mapping),
        list_id: input.listId === null ? '' : String(input.listId),
        as_confirmed: input.asConfirmed ? 'true' : 'false',
      };
      if (input.tag !== undefined) fields.tag = input.tag;
      if (input.basis !== undefined) fields.basis = input.basis;
      // the newest run there is now, so one a lost answer queued can be told apart later (not known: no such lookup)
      const newest = await deps.bases.on(siteId, (b) => cmsMailer.imports(deps.t(siteId).derive({ networkRetries: false }), b, { page: 1, perPage: 1 })).then(
        (r) => r.items[0]?.id ?? 0,
        () => null,
      );
      let made: MailerImport;
      try {
        const r = await deps
          .sendNow('No import was started', () =>
            deps.bases.on(siteId, (b) => {
              deps.writable(siteId, b);
              return upload(siteId, jobId, b, 'run', file, fields);
            }),
          )
          .catch(deps.said);
        made = cmsMailer.importOf(deps.t(siteId), r.data);
        lostRuns.forget(key);
      } catch (err) {
        if (mayHaveArrived(err) && newest !== null) lostRuns.remember(key, { newest });
        throw err;
      }
      deps.emit({ siteId, jobId, phase: phaseOf(made), sent: 0, total: 0, import: made });
      follow(siteId, jobId, made);
      return { import: made, earlier: false };
    },

    list: (siteId: string, page: number, perPage: number): Promise<ImportPage> => deps.bases.on(siteId, (b) => cmsMailer.imports(deps.read(siteId), b, { page, perPage })).catch(deps.said),

    async one(siteId: string, id: number, followAs?: string): Promise<MailerImport> {
      const run = await deps.bases.on(siteId, (b) => cmsMailer.import(deps.read(siteId), b, id)).catch(deps.said);
      if (followAs) follow(siteId, followAs, run);
      return run;
    },

    dropped(siteId: string): void {
      for (const f of following.values()) if (f.siteId === siteId) f.stop.abort();
    },

    close(): void {
      for (const f of following.values()) f.stop.abort();
    },
  };
}

const phaseOf = (run: MailerImport): ImportProgress['phase'] => (run.status === 'finished' ? 'finished' : run.status === 'failed' ? 'failed' : run.status === 'running' ? 'running' : 'queued');
