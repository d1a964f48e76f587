/**
 * One bulk action over a selection or over everyone matching the table's filter: the count shown
 * before acting (`mailer.count`: the number the Host's walk will report as its total), the run with
 * its progress (`mailer.bulkProgress` of this run's id) and Stop (between two batches), and the
 * outcome. A run whose answer was lost part way is not sent again blindly: the Host refuses with a
 * `conflict` saying so, this class holds that question (`question`), and only the person's "go
 * on" sends it again with `again` (it goes on from where it stopped).
 */
import type { BulkOutcome, BulkProgress, ChannelInput, SubscriberFilter } from '../../../../electron/contract/index';
import { invoke, on } from '../../../lib/client';
import { AppError } from '../../../lib/errors';

export type BulkInput = Omit<ChannelInput<'mailer.bulk'>, 'siteId' | 'bulkId' | 'again'>;

/** A job id as the contract takes it (8–64 letters, digits, - and _). */
export const newJobId = (prefix: string): string => `${prefix}-${crypto.randomUUID().replaceAll('-', '')}`;

export class BulkRun {
  readonly siteId: string;
  /** How many match the filter, counted before acting (null: not counted yet, or a selection). */
  matching = $state<number | null>(null);
  counting = $state(false);
  countError = $state<string | null>(null);
  /** The run under way: its id and progress. */
  bulkId = $state<string | null>(null);
  progress = $state.raw<BulkProgress | null>(null);
  /** Stop was asked (it stops between two batches). */
  stopping = $state(false);
  outcome = $state.raw<BulkOutcome | null>(null);
  /** The Host's question after a lost answer (go on from where it stopped?), and what it was about. */
  question = $state<string | null>(null);
  #asked: BulkInput | null = null;
  #countGeneration = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get running(): boolean {
    return this.bulkId !== null;
  }

  /** Counts who matches a filter (shown before acting); a newer count drops an older one's answer. */
  async count(filter: SubscriberFilter): Promise<void> {
    const generation = ++this.#countGeneration;
    this.counting = true;
    this.countError = null;
    try {
      const r = await invoke('mailer.count', { siteId: this.siteId, filter });
      if (generation === this.#countGeneration) this.matching = r.total;
    } catch (err) {
      if (generation === this.#countGeneration) {
        this.matching = null;
        this.countError = AppError.from(err).message;
      }
    } finally {
      if (generation === this.#countGeneration) this.counting = false;
    }
  }

  /**
   * Runs the action; answers its outcome, or null when the Host asked first (`question`: an earlier
   * run of the same action lost an answer). Other refusals are thrown (a form shows them).
   */
  async run(input: BulkInput, again = false): Promise<BulkOutcome | null> {
    const bulkId = newJobId('bulk');
    this.bulkId = bulkId;
    this.stopping = false;
    this.outcome = null;
    this.question = null;
    this.progress = { bulkId, siteId: this.siteId, action: input.action, target: input.target.kind, processed: 0, total: input.target.kind === 'ids' ? input.target.ids.length : this.matching, done: {}, skipped: {} };
    const off = on('mailer.bulkProgress', (p) => {
      if (p.bulkId === bulkId) this.progress = p;
    });
    try {
      const outcome = await invoke('mailer.bulk', { siteId: this.siteId, bulkId, ...input, ...(again ? { again: true } : {}) });
      this.outcome = outcome;
      this.progress = outcome;
      return outcome;
    } catch (err) {
      const e = AppError.from(err);
      this.progress = null;
      if (e.code === 'conflict' && !again) {
        this.question = e.message;
        this.#asked = input;
        return null;
      }
      throw e;
    } finally {
      off();
      this.bulkId = null;
      this.stopping = false;
    }
  }

  /** The person looked and wants the lost run to go on from where it stopped. */
  async goOn(): Promise<BulkOutcome | null> {
    const input = this.#asked;
    if (!input) return null;
    this.#asked = null;
    return this.run(input, true);
  }

  /** Leaves the question unanswered (nothing is sent). */
  dropQuestion(): void {
    this.question = null;
    this.#asked = null;
  }

  /** Stops the run between two batches: what was done stays done. */
  async stop(): Promise<void> {
    if (!this.bulkId) return;
    this.stopping = true;
    await invoke('mailer.cancelBulk', { bulkId: this.bulkId }).catch(() => undefined);
  }

  /** Back to choosing (a new action). */
  reset(): void {
    this.outcome = null;
    this.progress = null;
    this.question = null;
    this.#asked = null;
  }
}
