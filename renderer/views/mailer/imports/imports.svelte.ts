/**
 * A site's imports (docs/mailer-audience.md, "Imports").
 *
 * `ImportWizard`: one CSV brought in, in steps. The file (the system's open dialog, or a path the
 * Host checks in browser mode) is sent for a preview: its columns, the preset the site detected,
 * the mapping, the first rows as read and a dry run of the whole file. The person maps columns to
 * fields — each change previewed again a moment later, the answer to the latest question shown —
 * chooses the list, a tag, whether they confirmed at the other tool and the basis of their
 * consent (the dry run follows the list too), then runs it and follows its progress as the Host
 * announces it (`mailer.importProgress`: uploading, queued, running, finished or failed). Going
 * back keeps what the person chose; only another file starts the mapping over.
 *
 * `ImportHistory`: past runs, newest first, a page at a time, with their counts; a run still going
 * is followed and its row kept current.
 */
import type { ImportPreview, ImportProgress, MailerImport } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';
import { assign, mappingFromPreview, mappingProblems, toInput, type FieldMap } from './import-mapping';
import type { ImportField } from '../../../../electron/contract/index';

export type Step = 'file' | 'map' | 'options' | 'review' | 'run';

export const STEPS: { key: Step; label: string }[] = [
  { key: 'file', label: 'File' },
  { key: 'map', label: 'Columns' },
  { key: 'options', label: 'List and consent' },
  { key: 'review', label: 'Dry run' },
  { key: 'run', label: 'Import' },
];

/** How long after the last change the file is previewed again (ms). */
export const REPREVIEW_DELAY = 500;

/** A job id the Host accepts (`JobId`: 8 to 64 letters, digits, hyphens, underscores). */
export const jobId = (kind: string): string => `${kind}-${crypto.randomUUID().replaceAll('-', '')}`;

export type WizardField = 'file' | 'mapping' | 'listId' | 'tag' | 'basis' | 'asConfirmed';

export class ImportWizard {
  readonly siteId: string;
  step = $state<Step>('file');
  /** The path as typed or chosen. */
  file = $state('');
  /** The file the preview is of. */
  previewed = $state<string | null>(null);
  preview = $state.raw<ImportPreview | null>(null);
  /** Where the first mapping of this file came from (a preset, headings): said even after the person changes it. */
  detected = $state.raw<Pick<ImportPreview, 'preset' | 'mappingSource'> | null>(null);
  map = $state.raw<FieldMap>({});
  /** null: people only, on no list. */
  listId = $state<number | null>(null);
  tag = $state('');
  /** Not chosen yet: the person must say. */
  asConfirmed = $state<boolean | null>(null);
  basis = $state('');
  /** A preview is waiting to be asked or answered. */
  previewing = $state(false);
  previewError = $state.raw<AppError | null>(null);
  /** The file going up for the preview. */
  sending = $state.raw<{ sent: number; total: number } | null>(null);
  /** The run: as queued, then as its events say. */
  run = $state.raw<MailerImport | null>(null);
  progress = $state.raw<ImportProgress | null>(null);
  earlier = $state(false);
  readonly action = new FormAction<WizardField>({
    fields: { file: 'file', mapping: 'mapping', listId: 'listId', tag: 'tag', basis: 'basis', asConfirmed: 'asConfirmed' },
    alertWithFields: true,
    disposeWith: 'owner',
  });
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #previewJob: string | null = null;
  #runJob: string | null = null;

  constructor(siteId: string, listId: number | null) {
    this.siteId = siteId;
    this.listId = listId;
  }

  get columns(): { index: number; header: string }[] {
    return this.preview?.columns ?? [];
  }

  /** The run has ended (finished, failed) or is no longer followed. */
  get ended(): boolean {
    const phase = this.progress?.phase;
    return phase === 'finished' || phase === 'failed' || phase === 'lost';
  }

  /** A run is under way (sent and not ended). */
  get running(): boolean {
    return this.step === 'run' && !this.ended && !this.action.error;
  }

  /** The Host's progress event, for the preview's upload or the run. */
  take(p: ImportProgress): void {
    if (p.siteId !== this.siteId) return;
    if (p.jobId === this.#previewJob && p.phase === 'uploading') this.sending = { sent: p.sent, total: p.total };
    if (p.jobId === this.#runJob) {
      // the answer to the run can come after its first events; a later phase is never undone by an earlier one
      const order = ['uploading', 'queued', 'running', 'finished', 'failed', 'lost'];
      if (this.progress && order.indexOf(p.phase) < order.indexOf(this.progress.phase) && this.progress.phase !== 'lost') return;
      this.progress = p;
      if (p.import) this.run = p.import;
    }
  }

  /**
   * Reads the file (the first preview). Another file starts the mapping over from what the site
   * detects; the same file again keeps the person's mapping.
   */
  async readFile(path: string): Promise<boolean> {
    const file = path.trim();
    if (!file) {
      this.action.showFields({ file: 'Enter the CSV file’s full path.' });
      return false;
    }
    const same = file === this.previewed && this.preview !== null;
    const ok = await this.#ask(file, same ? this.map : null);
    if (!ok) return false;
    this.file = file;
    this.step = 'map';
    return true;
  }

  /** A column read as a field (null: not imported); previewed again shortly. */
  setColumn(column: number, field: ImportField | null): void {
    this.map = assign(this.map, column, field);
    this.action.clearField('mapping');
    this.schedule();
  }

  setList(id: number | null): void {
    if (id === this.listId) return;
    this.listId = id;
    this.action.clearField('listId');
    if (this.preview) this.schedule();
  }

  schedule(delay = REPREVIEW_DELAY): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.previewing = true;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      if (this.previewed) void this.#ask(this.previewed, this.map);
    }, delay);
  }

  /** Previews the file with the mapping (null: the site's own choice); the latest question's answer wins. */
  async #ask(file: string, map: FieldMap | null): Promise<boolean> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const seq = ++this.#seq;
    const job = jobId('preview');
    this.#previewJob = job;
    this.previewing = true;
    this.sending = null;
    const columns = this.columns;
    const first = map === null;
    if (first) this.action.reset();
    try {
      const r = await invoke('mailer.importPreview', {
        siteId: this.siteId,
        jobId: job,
        file,
        ...(map && Object.keys(map).length ? { mapping: toInput(map, columns) } : {}),
        ...(this.listId !== null ? { listId: this.listId } : {}),
      });
      if (seq !== this.#seq) return false;
      this.preview = r;
      this.previewError = null;
      if (first || file !== this.previewed) {
        this.map = mappingFromPreview(r);
        this.detected = { preset: r.preset, mappingSource: r.mappingSource };
      }
      this.previewed = file;
      return true;
    } catch (err) {
      if (seq !== this.#seq) return false;
      const e = AppError.from(err);
      if (first) this.action.show(e);
      else this.previewError = e;
      return false;
    } finally {
      if (seq === this.#seq) {
        if (!this.#timer) this.previewing = false;
        this.sending = null;
      }
    }
  }

  /** To the next step, when this one is complete (its problems shown otherwise). */
  next(): boolean {
    if (this.step === 'map') {
      const problems = mappingProblems(this.map);
      if (problems.email) {
        this.action.showFields({ mapping: problems.email });
        return false;
      }
      this.step = 'options';
    } else if (this.step === 'options') {
      if (this.asConfirmed === null) {
        this.action.showFields({ asConfirmed: 'Say whether these people confirmed at the other tool.' });
        return false;
      }
      this.step = 'review';
    }
    this.action.reset();
    return true;
  }

  back(): void {
    const order: Step[] = ['file', 'map', 'options', 'review'];
    const i = order.indexOf(this.step);
    if (i > 0) this.step = order[i - 1]!;
    this.action.reset();
  }

  /** Sends the file to be imported; the Host follows the run and announces its progress. */
  async start(): Promise<boolean> {
    const file = this.previewed;
    if (!file || this.asConfirmed === null) return false;
    const job = jobId('run');
    this.#runJob = job;
    this.progress = null;
    this.run = null;
    this.step = 'run';
    const tag = this.tag.trim();
    const basis = this.basis.trim();
    const r = await this.action.run(() =>
      invoke('mailer.importRun', {
        siteId: this.siteId,
        jobId: job,
        file,
        mapping: toInput(this.map, this.columns),
        listId: this.listId,
        asConfirmed: this.asConfirmed!,
        ...(tag ? { tag } : {}),
        ...(basis ? { basis } : {}),
      }),
    );
    if (!r) return false;
    this.earlier = r.earlier;
    // events may have come before the answer: they are newer
    const seen = this.run as MailerImport | null;
    if (seen?.id !== r.import.id) this.run = r.import;
    if (!(this.progress as ImportProgress | null)) this.progress = { siteId: this.siteId, jobId: job, phase: r.import.status === 'running' ? 'running' : 'queued', sent: 0, total: 0, import: r.import };
    return true;
  }

  /** Follows the run again after the Host lost it (the site stopped answering for a while). */
  async followAgain(): Promise<void> {
    const run = this.run;
    if (!run) return;
    const job = jobId('follow');
    this.#runJob = job;
    const r = await this.action.run(() => invoke('mailer.import', { siteId: this.siteId, id: run.id, follow: job }));
    if (r) {
      this.run = r;
      this.progress = { siteId: this.siteId, jobId: job, phase: r.status === 'finished' || r.status === 'failed' ? r.status : r.status === 'running' ? 'running' : 'queued', sent: 0, total: 0, import: r };
    }
  }

  /** Back to the options after a run the site refused (nothing was imported). */
  retreat(): void {
    this.step = 'review';
    this.progress = null;
    this.run = null;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#seq++;
    this.action.dispose();
  }
}

export const HISTORY_PER_PAGE = 20;

export class ImportHistory {
  readonly siteId: string;
  page = $state(1);
  items = $state.raw<MailerImport[] | null>(null);
  total = $state<number | null>(null);
  next = $state<number | null>(null);
  loading = $state(false);
  error = $state.raw<AppError | null>(null);
  /** Runs followed from here, by job id → import id. */
  #following = new Map<string, number>();
  #seq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get pages(): number | null {
    return this.total === null ? null : Math.max(1, Math.ceil(this.total / HISTORY_PER_PAGE));
  }

  async load(page = this.page): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const r = await invoke('mailer.imports', { siteId: this.siteId, page, perPage: HISTORY_PER_PAGE });
      if (seq !== this.#seq) return;
      this.items = r.items;
      this.total = r.total;
      this.next = r.next;
      this.page = r.page;
      this.error = null;
      for (const run of r.items) if (run.status === 'queued' || run.status === 'running') void this.#follow(run.id);
    } catch (err) {
      if (seq === this.#seq) this.error = AppError.from(err);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  /** A run still going is followed, so its row moves as it goes. */
  async #follow(id: number): Promise<void> {
    if ([...this.#following.values()].includes(id)) return;
    const job = jobId('history');
    this.#following.set(job, id);
    try {
      const r = await invoke('mailer.import', { siteId: this.siteId, id, follow: job });
      this.put(r);
    } catch {
      this.#following.delete(job);
    }
  }

  /** The Host's progress event: a run of this site shown here takes its counts. */
  take(p: ImportProgress): void {
    if (p.siteId !== this.siteId || !p.import) return;
    if (this.#following.has(p.jobId) && (p.phase === 'finished' || p.phase === 'failed' || p.phase === 'lost')) this.#following.delete(p.jobId);
    if (this.items?.some((r) => r.id === p.import!.id)) this.put(p.import);
  }

  put(run: MailerImport): void {
    if (!this.items) return;
    const at = this.items.findIndex((r) => r.id === run.id);
    if (at >= 0) this.items = this.items.map((r) => (r.id === run.id ? run : r));
    else if (this.page === 1) {
      this.items = [run, ...this.items];
      if (this.total !== null) this.total++;
    }
  }
}
