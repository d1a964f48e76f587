/**
 * The Subscribers section's state: the table's filter (every filter of the contract), the search
 * as it is typed (debounced; a newer search drops the answer of an older one, so the last typed
 * wins), the rows read page by page from the site (SubscriberRows), the status counts of the whole
 * table and a list's counts from the first page, the names the pickers offer (lists with their
 * counts, tags, the campaigns the site's segment vocabulary names), the selection (ids, across
 * pages), and the offline copy's state (a per-site choice: subscribers are personal data).
 *
 * While the site is away the Host answers the table from the copy when there is one: `copiedAt`
 * says from when, `filterIgnored` what a copy cannot filter, and nothing can be changed.
 */
import type { MailerList, MailerOfflineState, MailerTag, SubscriberFilter, SubscriberRow } from '../../../../electron/contract/index';
import { invoke, on } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { Selection } from '../../../lib/selection.svelte';
import { campaignsOf, cleanFilter } from '../mailer-words';
import { SubscriberRows, type SubscriberRowsOptions } from './subscriber-rows.svelte';

export interface SubscribersOptions extends SubscriberRowsOptions {
  /** How long typing rests before the search is asked (ms). */
  debounceMs?: number;
}

const sameFilter = (a: SubscriberFilter, b: SubscriberFilter) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

export class SubscribersState {
  readonly siteId: string;
  /** The filter the table shows. */
  filter = $state.raw<SubscriberFilter>({});
  /** The search box's words as typed (the filter's `q` follows once typing rests). */
  query = $state('');
  readonly rows: SubscriberRows;
  /** The site's lists with their counts (null until read). */
  lists = $state.raw<MailerList[] | null>(null);
  tags = $state.raw<MailerTag[] | null>(null);
  /** The campaigns the site names (its segment vocabulary's options). */
  campaigns = $state.raw<{ value: number; label: string }[]>([]);
  /** Why the pickers' names could not be read (the pickers offer what is set). */
  namesProblem = $state<string | null>(null);
  offline = $state.raw<MailerOfflineState | null>(null);
  offlineBusy = $state(false);
  readonly selection = new Selection<number>();

  readonly #debounceMs: number;
  #typing: ReturnType<typeof setTimeout> | undefined;
  #offs: (() => void)[] = [];

  constructor(siteId: string, o: SubscribersOptions = {}) {
    this.siteId = siteId;
    this.#debounceMs = o.debounceMs ?? 250;
    this.rows = new SubscriberRows(this.#loaderFor({}), { describe: (err) => AppError.from(err).message, ...o });
  }

  #loaderFor(filter: SubscriberFilter) {
    return (page: number, perPage: number) => invoke('mailer.subscribers', { siteId: this.siteId, filter, page, perPage });
  }

  /** People matching the filter (the site's count), null before the first page. */
  get total(): number | null {
    return this.rows.head?.total ?? null;
  }
  get statusCounts() {
    return this.rows.head?.statusCounts ?? null;
  }
  get listCounts() {
    return this.rows.head?.listCounts ?? null;
  }
  /** The copy's time while the site is away (the table is the offline copy's). */
  get copiedAt(): string | null {
    return this.rows.head?.copiedAt ?? null;
  }
  get filterIgnored() {
    return this.rows.head?.filterIgnored ?? [];
  }
  /** The whole table's size: the status counts added up (null when the site did not say). */
  get everybody(): number | null {
    const c = this.statusCounts;
    return c ? Object.values(c).reduce((a, b) => a + b, 0) : null;
  }
  get filtered(): boolean {
    return Object.keys(this.filter).length > 0;
  }

  /** Reads the table, the pickers' names and the offline copy's state, and follows the copy's changes. */
  async start(): Promise<void> {
    this.#offs.push(
      on('mailer.offlineChanged', (s) => {
        if (s.siteId === this.siteId) this.offline = s;
      }),
    );
    await Promise.all([this.rows.reset(this.#loaderFor(this.filter)), this.loadNames(), this.loadOffline()]);
  }

  /** Stops following events and a pending search. */
  dispose(): void {
    clearTimeout(this.#typing);
    for (const off of this.#offs.splice(0)) off();
  }

  async loadNames(): Promise<void> {
    const [lists, tags, vocabulary] = await Promise.allSettled([
      invoke('mailer.lists', { siteId: this.siteId }),
      invoke('mailer.tags', { siteId: this.siteId }),
      invoke('mailer.vocabulary', { siteId: this.siteId }),
    ]);
    if (lists.status === 'fulfilled') this.lists = lists.value.lists;
    if (tags.status === 'fulfilled') this.tags = tags.value.tags;
    if (vocabulary.status === 'fulfilled') this.campaigns = campaignsOf(vocabulary.value.vocabulary);
    const failed = [lists, tags].find((r) => r.status === 'rejected');
    this.namesProblem = failed?.status === 'rejected' ? AppError.from(failed.reason).message : null;
  }

  async loadOffline(): Promise<void> {
    try {
      this.offline = await invoke('mailer.offline', { siteId: this.siteId });
    } catch {
      // the section still works; the dialog asks again
    }
  }

  /** The search box changed: asked once typing rests. */
  type(text: string): void {
    this.query = text;
    clearTimeout(this.#typing);
    this.#typing = setTimeout(() => void this.setFilter({ q: text }), this.#debounceMs);
  }

  /** Changes part of the filter (`undefined` or '' clears a field); the table starts again from its top. */
  async setFilter(patch: Partial<Record<keyof SubscriberFilter, unknown>>): Promise<void> {
    if ('q' in patch) {
      clearTimeout(this.#typing);
      this.query = typeof patch.q === 'string' ? patch.q : '';
    }
    const next = cleanFilter({ ...this.filter, ...patch } as SubscriberFilter);
    if (sameFilter(next, this.filter)) return;
    this.filter = next;
    this.selection.clear();
    await this.rows.reset(this.#loaderFor(next));
  }

  async clearFilters(): Promise<void> {
    clearTimeout(this.#typing);
    this.query = '';
    if (!this.filtered) return;
    this.filter = {};
    this.selection.clear();
    await this.rows.reset(this.#loaderFor({}));
  }

  /** Reads the table from its top again (and the pickers' names). */
  async reload(): Promise<void> {
    await Promise.all([this.rows.reset(), this.loadNames()]);
  }

  /** Reads the pages in view again, where the table is (after a bulk action), and the names' counts. */
  refresh(): void {
    this.rows.refresh();
    void this.loadNames();
  }

  /** A person changed here: their row shows it. */
  put(person: SubscriberRow): void {
    this.rows.put(person);
  }

  /** A person deleted here: struck through in the table, out of the selection. */
  gone(id: number): void {
    this.rows.gone(id);
    if (this.selection.has(id)) this.selection.set(this.selection.list.filter((x) => x !== id));
  }

  /** Selects or unselects a row; with `range`, every row read from the last one chosen to this one. */
  select(index: number, o: { range?: boolean; anchorIndex?: number | null } = {}): void {
    const p = this.rows.personAt(index);
    if (!p) return;
    if (o.range && o.anchorIndex !== undefined && o.anchorIndex !== null) {
      const span = this.rows.idsBetween(o.anchorIndex, index);
      this.selection.set([...this.selection.items, ...span]);
      this.selection.anchor = p.id;
    } else this.selection.toggle(p.id);
  }

  /** Turns the offline copy on (filled in the background) or off (removed from this computer at once). */
  async setOffline(keep: boolean): Promise<void> {
    this.offlineBusy = true;
    try {
      this.offline = await invoke('mailer.setOffline', { siteId: this.siteId, keep });
    } finally {
      this.offlineBusy = false;
    }
  }
}
