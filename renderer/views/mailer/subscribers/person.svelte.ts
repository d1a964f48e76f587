/**
 * One person's page: everything the site holds of them (consent, lists with where they stand,
 * tags, sends, the import that brought them, a suppression, the consent history), read from the
 * site or, while it is away, from the offline copy with its time (`partial` when only their table
 * row is kept). Their changes: an edit (what the site kept off is said), unsubscribe, resubscribe
 * with the note saying how they asked, confirm by hand, and delete. Each change answers the person
 * as the site has them now; the table's row follows (`onchange`), and the page is read again for
 * the new line of their consent history.
 */
import type { ChannelInput, Subscriber, SubscriberChange, SubscriberEdit, SubscriberRow } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';

export interface PersonHooks {
  /** Their row changed on the site (the table shows it). */
  onchange?: (row: SubscriberRow) => void;
  /** They were deleted. */
  ongone?: (id: number) => void;
}

export type ChangeInput = ChannelInput<'mailer.update'>['changes'];

export class PersonState {
  readonly siteId: string;
  readonly id: number;
  person = $state.raw<Subscriber | null>(null);
  /** The copy's time when the page came from the offline copy. */
  copiedAt = $state<string | null>(null);
  /** Only their table row is kept offline: their history, sends and the rest are not. */
  partial = $state(false);
  loading = $state(false);
  error = $state<string | null>(null);
  /** Deleted here. */
  deleted = $state(false);
  readonly #hooks: PersonHooks;
  #generation = 0;

  constructor(siteId: string, id: number, hooks: PersonHooks = {}) {
    this.siteId = siteId;
    this.id = id;
    this.#hooks = hooks;
  }

  async load(): Promise<void> {
    const generation = ++this.#generation;
    this.loading = true;
    try {
      const r = await invoke('mailer.subscriber', { siteId: this.siteId, id: this.id });
      if (generation !== this.#generation) return;
      this.person = r.subscriber;
      this.copiedAt = r.copiedAt;
      this.partial = r.partial;
      this.error = null;
    } catch (err) {
      if (generation !== this.#generation) return;
      this.error = AppError.from(err).message;
    } finally {
      if (generation === this.#generation) this.loading = false;
    }
  }

  /** The site's answer to a change: the row now, here and in the table, then the page read again (its history grew). */
  #took(row: SubscriberRow): void {
    if (this.person) this.person = { ...this.person, ...row };
    this.#hooks.onchange?.(row);
    void this.load();
  }

  async update(changes: ChangeInput): Promise<SubscriberEdit> {
    const r = await invoke('mailer.update', { siteId: this.siteId, id: this.id, changes });
    this.#took(r.subscriber);
    return r;
  }

  async unsubscribe(): Promise<SubscriberChange> {
    const r = await invoke('mailer.unsubscribe', { siteId: this.siteId, id: this.id });
    this.#took(r.subscriber);
    return r;
  }

  async resubscribe(note: string, listId?: number): Promise<SubscriberChange> {
    const r = await invoke('mailer.resubscribe', { siteId: this.siteId, id: this.id, note, ...(listId !== undefined ? { listId } : {}) });
    this.#took(r.subscriber);
    return r;
  }

  async confirm(): Promise<SubscriberChange> {
    const r = await invoke('mailer.confirm', { siteId: this.siteId, id: this.id });
    this.#took(r.subscriber);
    return r;
  }

  async remove(): Promise<void> {
    await invoke('mailer.delete', { siteId: this.siteId, id: this.id });
    this.deleted = true;
    this.#hooks.ongone?.(this.id);
  }

  /** Lists they left (the ones a resubscribe can put them back on). */
  get leftLists() {
    return (this.person?.lists ?? []).filter((l) => l.status === 'unsubscribed');
  }
  /** On no list any more, or off some list: a resubscribe may be wanted. */
  get canResubscribe(): boolean {
    return this.leftLists.length > 0;
  }
  get canConfirm(): boolean {
    return this.person?.status === 'pending' || (this.person?.lists ?? []).some((l) => l.status === 'pending');
  }
  get canUnsubscribe(): boolean {
    return (this.person?.lists ?? []).some((l) => l.status !== 'unsubscribed');
  }
}
