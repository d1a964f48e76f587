/**
 * One site's Users area: the list as the site pages it (more rows are asked for as the person
 * scrolls), the filter tab and search that narrow it, its plugins' tabs, columns and row actions,
 * a client-side sort of the rows loaded (the site declares which columns sort), and the changes
 * made from here reflected without reading the list again.
 */
import type { CmsUser, UserListExtensions, UsersOfflineState } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';

const PER_PAGE = 50;

export type SortKey = { column: string; dir: 'asc' | 'desc' } | null;

export class UsersState {
  readonly siteId: string;
  ext = $state.raw<UserListExtensions | null>(null);
  rows = $state.raw<CmsUser[]>([]);
  total = $state<number | null>(null);
  more = $state(false);
  loading = $state(false);
  error = $state<AppError | null>(null);
  /** Rows of the list the site sent that could not be read, each saying why. */
  unreadable = $state<string[]>([]);
  /** The time of Sitedesk's copy the list was answered from (the site did not answer); null when the site answered. */
  copiedAt = $state<string | null>(null);
  /** The copy could not apply the tab's rule (it is the site's): every account in it is listed. */
  filterIgnored = $state(false);
  /** Whether a copy of the accounts is kept for offline reading (null while unknown). */
  offline = $state.raw<UsersOfflineState | null>(null);
  offlineBusy = $state(false);
  filter = $state('all');
  search = $state('');
  sort = $state<SortKey>(null);
  #page = 0;
  #seq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** The rows in the order shown: the site's, or sorted by a sortable column (the rows loaded only). */
  get shown(): CmsUser[] {
    const sort = this.sort;
    const col = sort && this.ext?.columns.find((c) => c.id === sort.column);
    if (!sort || !col) return this.rows;
    const value = (u: CmsUser) => u.extra[col.field] ?? null;
    const dir = sort.dir === 'asc' ? 1 : -1;
    return [...this.rows].sort((a, b) => {
      const x = value(a);
      const y = value(b);
      if (x === y) return 0;
      if (x === null) return 1; // missing values last, whichever the direction
      if (y === null) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true })) * dir;
    });
  }

  async start(): Promise<void> {
    void invoke('users.offline', { siteId: this.siteId }).then(
      (o) => (this.offline = o),
      () => undefined,
    );
    try {
      this.ext = await invoke('users.extensions', { siteId: this.siteId });
      this.filter = this.ext.defaultFilter;
    } catch {
      // a site without the extension points lists all its accounts; the list says what failed
      this.ext = { tabs: [{ id: 'all', plugin: '', label: 'All', badge: null }], defaultFilter: 'all', showAll: true, columns: [], actions: [] };
    }
    await this.reload();
  }

  /** The list from its first page (a new filter or search). */
  async reload(): Promise<void> {
    this.#page = 0;
    this.rows = [];
    this.unreadable = [];
    this.more = false;
    await this.loadMore();
  }

  async loadMore(): Promise<void> {
    const mine = ++this.#seq;
    this.loading = true;
    this.error = null;
    try {
      const page = await invoke('users.list', {
        siteId: this.siteId,
        page: this.#page + 1,
        perPage: PER_PAGE,
        ...(this.search.trim() ? { search: this.search.trim() } : {}),
        ...(this.filter !== 'all' ? { filter: this.filter } : {}),
      });
      if (mine !== this.#seq) return;
      this.#page = page.page;
      const known = new Set(this.rows.map((u) => u.username));
      this.rows = [...this.rows, ...page.items.filter((u) => !known.has(u.username))];
      this.total = page.total;
      this.more = page.more;
      this.copiedAt = page.copiedAt ?? null;
      this.filterIgnored = page.filterIgnored === true;
      if (page.unreadable) this.unreadable = [...this.unreadable, ...page.unreadable];
    } catch (err) {
      if (mine === this.#seq) this.error = AppError.from(err);
    } finally {
      if (mine === this.#seq) this.loading = false;
    }
  }

  /** Keeps a copy of the accounts on this computer for offline reading, or removes it. */
  async setOffline(keep: boolean): Promise<void> {
    this.offlineBusy = true;
    try {
      this.offline = await invoke('users.setOffline', { siteId: this.siteId, keep });
    } finally {
      this.offlineBusy = false;
    }
  }

  setFilter(id: string): void {
    if (id === this.filter) return;
    this.filter = id;
    void this.reload();
  }

  sortBy(column: string): void {
    const s = this.sort;
    this.sort = !s || s.column !== column ? { column, dir: 'asc' } : s.dir === 'asc' ? { column, dir: 'desc' } : null;
  }

  /** An account created or changed here: shown at once, in place (or first, when new). */
  put(user: CmsUser): void {
    const i = this.rows.findIndex((u) => u.username === user.username);
    // a list row carries its plugin columns' values; an account read alone does not
    if (i >= 0) this.rows = this.rows.map((u, j) => (j === i ? { ...user, extra: u.extra } : u));
    else {
      this.rows = [user, ...this.rows];
      if (this.total !== null) this.total++;
    }
  }

  removed(username: string): void {
    const before = this.rows.length;
    this.rows = this.rows.filter((u) => u.username !== username);
    if (this.total !== null && this.rows.length < before) this.total--;
  }
}
