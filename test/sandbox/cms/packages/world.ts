/**
 * The site's packages and the repository it updates from, kept in `packages.json` in the data
 * folder (a sandbox restarted on its folder keeps what was installed): the installed plugins and
 * themes with their versions and whether they are symlinks, the licences given for premium ones,
 * the core's version (in the settings: what /me reports) and the knobs tests turn.
 *
 * The repository is read as Grav's package manager reads it: through a cache. New releases
 * published while the sandbox runs (`publish`, the `/__sandbox/packages/release` control) show
 * only after a refresh: `flush` on /gpm/updates, an update-all or an upgrade (which refresh, as the
 * real ones do), or the cache growing a day old on the sandbox clock.
 */
import { join } from 'node:path';
import { JsonBacked } from '../../json-file';
import type { Clock } from '../../clock';
import type { CmsSettings } from '../context';
import { baseRepository, compareVersions, INSTALLED_SEED, nextCoreVersion, readmeFor, changelogFor, type InstalledSeed, type PackageInfo, type PackageType } from './catalog';

/** An installed package: its own metadata (from the repository or its zip) at its installed version. */
export interface InstalledPackage extends PackageInfo {
  symlink: boolean;
  /** how it came: with the site, from the repository, or a zip (direct install) */
  source: 'site' | 'repository' | 'direct';
}

/** What tests and `POST /__sandbox/packages` change while the sandbox runs. */
export interface PackageKnobs {
  /** how long one package's install, update or removal takes, in milliseconds (real time) */
  workMs: number;
  /** the core is installed as a symlink: upgrades are refused */
  coreSymlinked: boolean;
  /** the repository has no newer core (the core is the latest) */
  coreLatest: boolean;
  /** the repository cannot be reached (the repository lists answer 502) */
  repositoryUnreachable: boolean;
  /**
   * the real flavour's `system.gpm.official_gpm_only` (Grav's default true: a direct install from
   * any URL but getgrav.org is refused); the site's system configuration wins when it sets it
   */
  officialGpmOnly: boolean;
  /** packages whose install fails (a corrupt download); default ['broken-installer'] */
  failingInstalls: string[];
  /** packages whose update fails (a checksum mismatch); default ['sitemap'] */
  failingUpdates: string[];
}

interface State {
  installed: InstalledPackage[];
  licenses: Record<string, string>;
  /** releases published while running: slug → package at its new version */
  releases: Record<string, PackageInfo>;
  /** the core's newer release ('' until first computed) */
  coreAvailable: string;
  /** the core's version after an upgrade ('' while it is the one the sandbox started with) */
  coreUpgradedTo: string;
}

const CACHE_MS = 86400_000;

export class PackageWorld extends JsonBacked<State> {
  readonly knobs: PackageKnobs;
  /** the repository as last fetched: slug → package */
  private cache: Map<string, PackageInfo> | null = null;
  private fetchedAt = 0;

  constructor(
    dataDir: string,
    private readonly clock: Clock,
    private readonly settings: CmsSettings,
    knobs: Partial<PackageKnobs> = {},
    /** the packages the site's settings know (extensions.ts): all installed, by their display names */
    known: Record<PackageType, Record<string, { title: string | null }>> = { plugin: {}, theme: {} },
  ) {
    super(join(dataDir, 'packages.json'), { installed: [], licenses: {}, releases: {}, coreAvailable: '', coreUpgradedTo: '' });
    this.knobs = { workMs: 2500, coreSymlinked: false, coreLatest: false, repositoryUnreachable: false, officialGpmOnly: true, failingInstalls: ['broken-installer'], failingUpdates: ['sitemap'], ...knobs };
    if (!this.exists()) this.seed(known);
    // a site restarted on its folder keeps the core it was upgraded to
    else if (this.state.coreUpgradedTo) this.settings.cmsVersion = this.state.coreUpgradedTo;
  }

  private seed(known: Record<PackageType, Record<string, { title: string | null }>>): void {
    const repo = new Map(baseRepository().map((p) => [p.slug, p]));
    // every package with settings is installed, at 1.0.0 unless the seed names its version
    const extra: InstalledSeed[] = (['plugin', 'theme'] as const).flatMap((type) =>
      Object.keys(known[type])
        .filter((slug) => !INSTALLED_SEED.some((s) => s.slug === slug && s.type === type))
        .map((slug) => ({ slug, type, version: '1.0.0' })),
    );
    this.state.installed = [...INSTALLED_SEED, ...extra].map((s) => {
      const from = repo.get(s.slug)?.type === s.type ? repo.get(s.slug) : undefined;
      const name = known[s.type][s.slug]?.title ?? from?.name ?? s.slug.charAt(0).toUpperCase() + s.slug.slice(1);
      const base: PackageInfo = from ?? {
        slug: s.slug,
        type: s.type,
        name,
        version: s.version,
        date: '2025-06-01T00:00:00Z',
        description: `The site's own ${s.slug} ${s.type}.`,
        author: { name: 'Sitedesk sandbox', email: 'sandbox@example.test', url: 'https://example.test' },
        homepage: 'https://example.test',
        bugs: 'https://example.test/issues',
        keywords: [s.type],
        icon: 'plug',
        dependencies: [],
        readme: null,
        changelog: null,
      };
      const pkg: InstalledPackage = { ...base, name, version: s.version, symlink: s.symlink ?? false, source: 'site' };
      pkg.readme = s.bare ? null : readmeFor(pkg);
      pkg.changelog = s.bare ? null : changelogFor(pkg.name, s.version, base.date, 3);
      return pkg;
    });
    this.sortInstalled();
    this.state.coreAvailable = nextCoreVersion(this.settings.cmsVersion);
    this.save();
  }

  // ---- the core

  get coreVersion(): string {
    return this.settings.cmsVersion;
  }

  /** The newer core the repository offers, or null (latest, or the repository unreachable). */
  coreAvailable(): string | null {
    if (this.knobs.repositoryUnreachable) return null;
    if (this.knobs.coreLatest) return this.coreVersion;
    const v = this.state.coreAvailable || nextCoreVersion(this.coreVersion);
    return compareVersions(v, this.coreVersion) > 0 ? v : this.coreVersion;
  }

  coreUpdatable(): boolean {
    const v = this.coreAvailable();
    return v !== null && compareVersions(v, this.coreVersion) > 0;
  }

  /** The core moved to the available version (after an upgrade). */
  upgradeCore(to: string): void {
    this.settings.cmsVersion = to;
    this.state.coreUpgradedTo = to;
    this.save();
  }

  // ---- the repository

  /** The repository as the site sees it now (null when unreachable); `refresh` fetches it anew. */
  repository(refresh = false): Map<string, PackageInfo> | null {
    if (this.knobs.repositoryUnreachable) return null;
    if (refresh || !this.cache || this.clock.now() - this.fetchedAt > CACHE_MS) {
      const map = new Map(baseRepository().map((p) => [p.slug, p]));
      for (const [slug, p] of Object.entries(this.state.releases)) map.set(slug, structuredClone(p));
      this.cache = map;
      this.fetchedAt = this.clock.now();
    }
    return this.cache;
  }

  /** A new release in the repository (seen after the next refresh). */
  publish(slug: string, version: string): PackageInfo {
    const known = baseRepository().find((p) => p.slug === slug) ?? this.state.releases[slug];
    if (!known) throw new Error(`No package ${slug} in the repository.`);
    const next = { ...structuredClone(known), version, date: new Date(this.clock.now()).toISOString() };
    next.changelog = changelogFor(next.name, version, next.date);
    this.state.releases[slug] = next;
    this.save();
    return next;
  }

  // ---- what is installed

  list(type: PackageType): InstalledPackage[] {
    return this.state.installed.filter((p) => p.type === type).map((p) => structuredClone(p));
  }

  get(slug: string, type?: PackageType): InstalledPackage | null {
    const p = this.state.installed.find((x) => x.slug === slug && (type === undefined || x.type === type));
    return p ? structuredClone(p) : null;
  }

  count(): number {
    return this.state.installed.length;
  }

  /** The repository's newer version of an installed package, or null (none, symlinked, unreachable). */
  availableFor(p: InstalledPackage): string | null {
    if (p.symlink) return null;
    const remote = this.repository()?.get(p.slug);
    return remote && remote.type === p.type && compareVersions(remote.version, p.version) > 0 ? remote.version : null;
  }

  updatable(type?: PackageType): InstalledPackage[] {
    return this.state.installed.filter((p) => (type === undefined || p.type === type) && this.availableFor(p) !== null).map((p) => structuredClone(p));
  }

  license(slug: string): string | null {
    return this.state.licenses[slug] ?? null;
  }

  setLicense(slug: string, license: string): void {
    this.state.licenses[slug] = license;
    this.save();
  }

  /** Adds (or replaces) an installed package. */
  put(p: InstalledPackage): void {
    this.state.installed = [...this.state.installed.filter((x) => !(x.slug === p.slug && x.type === p.type)), structuredClone(p)];
    this.sortInstalled();
    this.save();
  }

  /** Plugins then themes, each by slug (the order of their folders). */
  private sortInstalled(): void {
    this.state.installed.sort((a, b) => (a.type === b.type ? (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) : a.type === 'plugin' ? -1 : 1));
  }

  remove(slug: string, type: PackageType): void {
    this.state.installed = this.state.installed.filter((x) => !(x.slug === slug && x.type === type));
    this.save();
  }

  /** Waits the time one package's work takes (real time: the client sees it take long). */
  work(factor = 1): Promise<void> {
    const ms = Math.max(0, this.knobs.workMs * factor);
    return ms ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
  }
}
