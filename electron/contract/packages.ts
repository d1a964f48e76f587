/**
 * The `packages.*` channels: a CMS site's plugins and themes (document 1, "Package management";
 * the real GpmController's shapes where the document says less), its update summary, the package
 * repository, and the package work — install, remove, update, update all, core upgrade, direct
 * install — which the Host runs as jobs: each takes the site a few seconds, so a job is started,
 * reported as `packages.job` events while it runs, and kept for the Host's life, so the person can
 * leave it running and look at it from anywhere (and a batch across sites is the same jobs).
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { pathName } from './names';
import { MEDIA_CHUNK_BYTES } from './pages';
import type { ErrorCode } from './errors';

export const PACKAGE_TYPES = ['plugin', 'theme'] as const;
export type PackageType = (typeof PACKAGE_TYPES)[number];
export const PackageTypeSchema = v.picklist(PACKAGE_TYPES, 'A package is a plugin or a theme.');

/** A package's slug: one path segment (the real service refuses slashes and dots-only names). */
export const PackageSlug = pathName('package name', 100);

/** Grav's licence format for a premium package (GPM's Licenses::validate). */
export const LICENCE_PATTERN = /^[A-F0-9]{8}-[A-F0-9]{8}-[A-F0-9]{8}-[A-F0-9]{8}$/;

/** The biggest package zip sent from here (the real repository's largest packages are a few MB). */
export const PACKAGE_ZIP_MAX_BYTES = 64 * 1024 * 1024;

export const PACKAGE_LIMITS = { repositoryPerPage: 2000, jobsPerRun: 400, search: 200 } as const;

export interface PackageInfo {
  slug: string;
  type: PackageType;
  name: string;
  version: string | null;
  description: string | null;
  author: string | null;
  homepage: string | null;
  docs: string | null;
  bugs: string | null;
  /** A plugin's own `enabled` setting; for a theme, whether it is the site's theme. Null when the site does not say. */
  enabled: boolean | null;
  /** Installed through a symlink (a developer's checkout): never updated, upgraded or removed from here. */
  symlink: boolean;
  updatable: boolean;
  availableVersion: string | null;
  /** The package's icon name as its blueprint gives it (a Font Awesome name). */
  icon: string | null;
  keywords: string[];
  dependencies: { name: string; version: string | null }[];
  /** A theme's pictures, absolute URLs on the site (or null). */
  thumbnailUrl: string | null;
  screenshotUrl: string | null;
}

export interface InstalledPackages {
  plugins: PackageInfo[];
  themes: PackageInfo[];
  /** Rows the site sent that could not be read, each with its reason. */
  problems: string[];
  /** When the lists came from Sitedesk's copy (the site did not answer): the time they were read. */
  copiedAt: string | null;
}

export interface CoreVersion {
  installed: string | null;
  available: string | null;
  updatable: boolean;
  symlink: boolean;
  /** The newer release's date, where the site says. */
  date: string | null;
}

export interface PackageUpdate {
  slug: string;
  type: PackageType;
  name: string;
  installed: string | null;
  available: string | null;
  symlink: boolean;
}

export interface UpdateSummary {
  core: CoreVersion;
  plugins: PackageUpdate[];
  themes: PackageUpdate[];
  /** Updates waiting, the core counting as one (as the site counts). */
  total: number;
  /** Installed packages, where the site says. */
  installed: number | null;
  copiedAt: string | null;
}

export interface RepositoryPackage {
  slug: string;
  type: PackageType;
  name: string;
  version: string | null;
  description: string | null;
  author: string | null;
  homepage: string | null;
  icon: string | null;
  keywords: string[];
  installed: boolean;
  premium: boolean;
  /** A premium package whose licence the site holds already. */
  licensed: boolean;
  purchaseUrl: string | null;
}

export interface RepositoryPage {
  items: RepositoryPackage[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
  problems: string[];
}

const Licence = v.pipe(
  v.string(),
  v.trim(),
  v.toUpperCase(),
  v.regex(LICENCE_PATTERN, 'A licence looks like XXXXXXXX-XXXXXXXX-XXXXXXXX-XXXXXXXX (digits and A–F).'),
);

const PackageUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(2000, 'A package address is at most 2000 characters.'),
  v.regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'Enter the address of a package zip (http or https).'),
);

const UploadId = v.pipe(v.string(), v.minLength(1), v.maxLength(64));

/** One piece of package work. */
export const PackageJobRequest = v.variant('kind', [
  v.strictObject({ kind: v.literal('install'), siteId: SiteId, slug: PackageSlug, type: PackageTypeSchema, licence: v.optional(Licence) }),
  v.strictObject({ kind: v.literal('remove'), siteId: SiteId, slug: PackageSlug }),
  v.strictObject({ kind: v.literal('update'), siteId: SiteId, slug: PackageSlug }),
  v.strictObject({ kind: v.literal('updateAll'), siteId: SiteId }),
  v.strictObject({ kind: v.literal('upgrade'), siteId: SiteId }),
  v.strictObject({ kind: v.literal('directUrl'), siteId: SiteId, url: PackageUrl }),
  /** A zip staged with `packages.uploadChunk` under `uploadId`. */
  v.strictObject({ kind: v.literal('directZip'), siteId: SiteId, uploadId: UploadId, filename: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(255)) }),
]);
export type PackageJobRequest = v.InferOutput<typeof PackageJobRequest>;
export type PackageJobKind = PackageJobRequest['kind'];

export type PackageJobState = 'queued' | 'running' | 'done' | 'failed' | 'skipped';

export interface PackageJob {
  id: string;
  /** Jobs started together (one run): a cross-site update is one batch. */
  batchId: string;
  siteId: string;
  kind: PackageJobKind;
  /** The package, where the job has one. */
  slug: string | null;
  /** What it does, in words ("Update Email on Northwind Journal"). */
  label: string;
  state: PackageJobState;
  queuedAt: string;
  startedAt: string | null;
  endedAt: string | null;
  /** The site's message, or why it failed or was skipped. */
  message: string | null;
  /** Why it failed, as an error code (network, rate_limited, invalid_input …); null otherwise. */
  code: ErrorCode | null;
  /** Versions moved, where known ("5.0.3 → 5.1.0"). */
  fromVersion: string | null;
  toVersion: string | null;
  /** Update all: the site's answer per package. */
  results: { package: string; ok: boolean; message: string | null }[] | null;
  /** The request again, for a retry (a licence is not kept). */
  retry: PackageJobRequest | null;
}

/** A site's line in the updates across sites: its summary, or why there is none. */
export interface SiteUpdates {
  siteId: string;
  summary: UpdateSummary | null;
  /** Why the site is not in the table (signed out, may not read packages, not answering). */
  skipped: string | null;
}

const SlugRef = v.strictObject({ siteId: SiteId, type: PackageTypeSchema, slug: PackageSlug });

export const packagesChannels = {
  'packages.installed': channel<InstalledPackages>()(v.strictObject({ siteId: SiteId })),
  /** One package's readme or changelog as the site holds it (markdown; null when it has none). */
  'packages.document': channel<{ content: string | null }>()(v.strictObject({ siteId: SiteId, type: PackageTypeSchema, slug: PackageSlug, which: v.picklist(['readme', 'changelog']) })),
  /** The core's changelog for the versions newer than the installed one (markdown). */
  'packages.coreChangelog': channel<{ content: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** The update summary; `flush` asks the site to look again rather than answer from its cache. */
  'packages.updates': channel<UpdateSummary>()(v.strictObject({ siteId: SiteId, flush: v.optional(v.boolean()) })),
  /** The update summary of each of these sites, each on its own (one failing is said, the rest shown). */
  'packages.updatesAcross': channel<SiteUpdates[]>()(
    v.strictObject({ siteIds: v.pipe(v.array(SiteId), v.minLength(1, 'Choose at least one site.'), v.maxLength(64, 'At most 64 sites.')), flush: v.optional(v.boolean()) }),
  ),
  'packages.repository': channel<RepositoryPage>()(
    v.strictObject({
      siteId: SiteId,
      type: PackageTypeSchema,
      q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(PACKAGE_LIMITS.search, `A search is at most ${PACKAGE_LIMITS.search} characters.`))),
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1),
      perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(PACKAGE_LIMITS.repositoryPerPage, `At most ${PACKAGE_LIMITS.repositoryPerPage} a page.`)), 100),
    }),
  ),
  /** A package as the repository describes it (with whether it is installed). */
  'packages.repositoryPackage': channel<RepositoryPackage>()(SlugRef),
  /** Stages the next piece of a package zip for a `directZip` job. */
  'packages.uploadChunk': channel<{ received: number }>()(
    v.strictObject({ uploadId: UploadId, offset: v.pipe(v.number(), v.integer(), v.minValue(0)), data: v.pipe(v.string(), v.maxLength(Math.ceil(MEDIA_CHUNK_BYTES / 3) * 4, 'A chunk is at most 4 MB.')) }),
  ),
  /** Starts package work: queued at once (a site does one at a time, a few sites at once); answers the jobs as queued. */
  'packages.run': channel<PackageJob[]>()(
    v.strictObject({ jobs: v.pipe(v.array(PackageJobRequest), v.minLength(1, 'Nothing to do.'), v.maxLength(PACKAGE_LIMITS.jobsPerRun, `At most ${PACKAGE_LIMITS.jobsPerRun} jobs at once.`)) }),
  ),
  /** The jobs of this Host's life, newest first. */
  'packages.jobs': channel<PackageJob[]>()(v.strictObject({})),
  /** Forgets finished jobs (all, or these). Running and queued jobs stay. */
  'packages.clearJobs': channel<{ cleared: number }>()(v.strictObject({ ids: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(64))), v.maxLength(1000))) })),
};

export const packagesEvents = {
  /** A job was queued, started or ended. */
  'packages.job': event<PackageJob>(),
};
