/**
 * One site's Packages area: the installed plugins and themes and the update summary (the copy with
 * its time while the site is away), the package chosen and its readme and changelog, and the
 * repository browsed page by page. The work itself (install, update, remove, upgrade) runs in the
 * Host (state/package-work.svelte.ts); when a job of this site ends, the lists are read again.
 */
import type { InstalledPackages, PackageInfo, PackageType, RepositoryPackage, UpdateSummary } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';

export type PackagesView = 'plugins' | 'themes' | 'updates' | 'repository';

const REPO_PAGE = 50;

export class PackagesState {
  readonly siteId: string;
  view = $state<PackagesView>('plugins');
  installed = $state.raw<InstalledPackages | null>(null);
  installedError = $state<AppError | null>(null);
  loading = $state(false);
  updates = $state.raw<UpdateSummary | null>(null);
  updatesError = $state<AppError | null>(null);
  checking = $state(false);
  /** The package whose detail is open. */
  selected = $state<{ type: PackageType; slug: string } | null>(null);
  docs = $state<Record<string, { readme: string | null; changelog: string | null } | 'loading' | AppError>>({});
  filter = $state('');

  repoType = $state<PackageType>('plugin');
  repoQuery = $state('');
  repoItems = $state.raw<RepositoryPackage[]>([]);
  repoTotal = $state<number | null>(null);
  repoNext = $state<number | null>(null);
  repoLoading = $state(false);
  repoError = $state<AppError | null>(null);
  repoProblems = $state<string[]>([]);
  /** The repository was asked at least once (its first page is read when the view first opens). */
  repoStarted = $state(false);
  #repoSeq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get copiedAt(): string | null {
    return this.installed?.copiedAt ?? this.updates?.copiedAt ?? null;
  }

  list(type: PackageType): PackageInfo[] {
    const all = (type === 'plugin' ? this.installed?.plugins : this.installed?.themes) ?? [];
    const f = this.filter.trim().toLowerCase();
    return f ? all.filter((p) => [p.slug, p.name, p.description ?? ''].some((x) => x.toLowerCase().includes(f))) : all;
  }

  /** Whether the site has this package now (the repository's flag is as of its last read). */
  has(p: { slug: string; type: PackageType; installed: boolean }): boolean {
    const list = p.type === 'plugin' ? this.installed?.plugins : this.installed?.themes;
    return list ? list.some((x) => x.slug === p.slug) : p.installed;
  }

  get selectedPackage(): PackageInfo | null {
    const s = this.selected;
    if (!s) return null;
    return this.list(s.type).find((p) => p.slug === s.slug) ?? null;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      this.installed = await invoke('packages.installed', { siteId: this.siteId });
      this.installedError = null;
    } catch (err) {
      this.installedError = AppError.from(err);
    } finally {
      this.loading = false;
    }
    await this.check(false);
  }

  /** The update summary; `flush` asks the site to look again ("Check again"). */
  async check(flush: boolean): Promise<void> {
    this.checking = true;
    try {
      this.updates = await invoke('packages.updates', { siteId: this.siteId, ...(flush ? { flush: true } : {}) });
      this.updatesError = null;
    } catch (err) {
      this.updatesError = AppError.from(err);
    } finally {
      this.checking = false;
    }
  }

  async loadDocs(type: PackageType, slug: string): Promise<void> {
    const key = `${type}/${slug}`;
    if (this.docs[key] && !(this.docs[key] instanceof AppError)) return;
    this.docs[key] = 'loading';
    try {
      const [readme, changelog] = await Promise.all(
        (['readme', 'changelog'] as const).map((which) => invoke('packages.document', { siteId: this.siteId, type, slug, which }).then((d) => d.content)),
      );
      this.docs[key] = { readme: readme ?? null, changelog: changelog ?? null };
    } catch (err) {
      this.docs[key] = AppError.from(err);
    }
  }

  /** The repository from its first page (a new type or search). */
  async searchRepository(): Promise<void> {
    this.repoStarted = true;
    this.repoItems = [];
    this.repoNext = 1;
    this.repoProblems = [];
    await this.moreRepository();
  }

  async moreRepository(): Promise<void> {
    if (this.repoNext === null) return;
    const mine = ++this.#repoSeq;
    this.repoLoading = true;
    this.repoError = null;
    try {
      const q = this.repoQuery.trim();
      const page = await invoke('packages.repository', { siteId: this.siteId, type: this.repoType, page: this.repoNext, perPage: REPO_PAGE, ...(q ? { q } : {}) });
      if (mine !== this.#repoSeq) return;
      const known = new Set(this.repoItems.map((p) => p.slug));
      this.repoItems = [...this.repoItems, ...page.items.filter((p) => !known.has(p.slug))];
      this.repoTotal = page.total;
      this.repoNext = page.next;
      this.repoProblems = [...this.repoProblems, ...page.problems];
    } catch (err) {
      if (mine === this.#repoSeq) this.repoError = AppError.from(err);
    } finally {
      if (mine === this.#repoSeq) this.repoLoading = false;
    }
  }
}
