/**
 * A CMS site's packages (document 1, "Package management"; the real GpmController and its
 * PackageSerializer where the document says less): the installed plugins and themes, a package's
 * readme and changelog, the update summary, the repository, and the writes — install, remove,
 * update, update all, core upgrade, direct install from a URL or a zip.
 *
 * Both servers are read: the document's update summary is `{total, cms: {installed_version,
 * available_version, updatable, is_symlink}, plugins: [{slug, installed_version,
 * available_version}]}`, the real one `{grav: {current, available, updatable, date, is_symlink},
 * plugins: [package with version and available_version], total, installed}`. A row that cannot be
 * read is set aside with its reason and the others are shown; the real service's permission for
 * writes is `api.gpm.write` (the document says only "authenticated").
 */
import * as v from 'valibot';
import { AppError, isAppError } from '../../base/app-error';
import type { CoreVersion, PackageInfo, PackageType, PackageUpdate, RepositoryPackage, RepositoryPage, UpdateSummary } from '../../contract';
import { isPlainObject, pathName } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer, parseRows } from '../parse';
import { multipartFile } from '../multipart';
import { callName, listCall, nextPage, request } from './envelope';
import { absoluteOnSite } from './users';
import { segment } from '../url-path';

/** What the settings need of an installed package: its scope and name. */
export interface InstalledPackage {
  slug: string;
  name: string;
  version: string | null;
  enabled: boolean | null;
}

const Slug = pathName('package name', 100);
/** A site downloads and unpacks a package (with its dependencies) before it answers: minutes, not seconds. */
const WORK_TIMEOUT_MS = 10 * 60_000;
const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : typeof x === 'number' ? String(x) : null);
const bool = (x: unknown): boolean | null => (typeof x === 'boolean' ? x : x === 1 || x === '1' || x === 'true' ? true : x === 0 || x === '0' || x === 'false' ? false : null);
/** An outside link (homepage, docs): http(s) only. */
const link = (x: unknown): string | null => {
  const s = text(x);
  if (!s) return null;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : null;
  } catch {
    return null;
  }
};
const authorOf = (x: unknown): string | null => (isPlainObject(x) ? text(x.name) : text(x));
const keywordsOf = (x: unknown): string[] =>
  (Array.isArray(x) ? x.map(text) : typeof x === 'string' ? x.split(',').map(text) : []).filter((k): k is string => k !== null).slice(0, 30);
const dependenciesOf = (x: unknown): { name: string; version: string | null }[] =>
  Array.isArray(x)
    ? x.flatMap((d) => (isPlainObject(d) && text(d.name) ? [{ name: text(d.name)!, version: text(d.version) }] : typeof d === 'string' && d.trim() ? [{ name: d.trim(), version: null }] : []))
    : [];

const Row = v.looseObject({ slug: Slug });

function packageInfo(raw: Record<string, unknown>, type: PackageType, origin: string): PackageInfo {
  const available = text(raw.available_version);
  return {
    slug: String(raw.slug),
    type: raw.type === 'theme' || raw.type === 'plugin' ? raw.type : type,
    name: text(raw.name) ?? String(raw.slug),
    version: text(raw.version) ?? text(raw.installed_version),
    description: text(raw.description),
    author: authorOf(raw.author),
    homepage: link(raw.homepage),
    docs: link(raw.docs),
    bugs: link(raw.bugs),
    enabled: bool(raw.enabled),
    symlink: bool(raw.is_symlink) === true,
    updatable: bool(raw.updatable) === true || (available !== null && bool(raw.updatable) !== false),
    availableVersion: available,
    icon: text(raw.icon),
    keywords: keywordsOf(raw.keywords),
    dependencies: dependenciesOf(raw.dependencies),
    thumbnailUrl: absoluteOnSite(text(raw.thumbnail), origin),
    screenshotUrl: absoluteOnSite(text(raw.screenshot), origin),
  };
}

const siteOrigin = (t: Transport) => new URL(t.url('/')).origin;
const rowProblem = (raw: unknown, problem: string) => `${isPlainObject(raw) && typeof raw.slug === 'string' ? raw.slug : 'a package'}: ${problem}`;

async function installedOf(t: Transport, type: PackageType): Promise<{ items: PackageInfo[]; problems: string[] }> {
  const call: CallOptions = { path: type === 'plugin' ? '/gpm/plugins' : '/gpm/themes' };
  const r = await request(t, call);
  const { rows, problems } = parseRows(Row, r.data, t, `the installed ${type}s`, callName(call));
  const origin = siteOrigin(t);
  return { items: rows.map((x) => packageInfo(x.value as Record<string, unknown>, type, origin)), problems: problems.map((p) => rowProblem(p.raw, p.problem)) };
}

function coreOf(d: Record<string, unknown>): CoreVersion {
  // the real service's `grav`, the document's `cms`
  const real = isPlainObject(d.grav) ? d.grav : null;
  const spec = isPlainObject(d.cms) ? d.cms : null;
  const c = real ?? spec ?? {};
  const installed = text(c.current) ?? text(c.installed_version);
  const available = text(c.available) ?? text(c.available_version);
  return { installed, available, updatable: bool(c.updatable) === true, symlink: bool(c.is_symlink) === true, date: text(c.date) };
}

function updatesOf(list: unknown, type: PackageType): PackageUpdate[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((raw): PackageUpdate[] => {
    if (!isPlainObject(raw) || !v.is(Slug, raw.slug)) return [];
    return [
      {
        slug: raw.slug,
        type,
        name: text(raw.name) ?? raw.slug,
        installed: text(raw.installed_version) ?? text(raw.version),
        available: text(raw.available_version) ?? text(raw.available),
        symlink: bool(raw.is_symlink) === true,
      },
    ];
  });
}

function repositoryPackage(raw: Record<string, unknown>, type: PackageType): RepositoryPackage {
  return {
    slug: String(raw.slug),
    type: raw.type === 'theme' || raw.type === 'plugin' ? raw.type : type,
    name: text(raw.name) ?? String(raw.slug),
    version: text(raw.version),
    description: text(raw.description),
    author: authorOf(raw.author),
    homepage: link(raw.homepage),
    icon: text(raw.icon),
    keywords: keywordsOf(raw.keywords),
    installed: bool(raw.installed) === true,
    premium: bool(raw.premium) === true,
    licensed: bool(raw.licensed) === true,
    purchaseUrl: link(raw.purchase_url),
  };
}

/** The site's 502: it cannot reach the package repository (it has no internet, or the repository is down). */
function repositoryDown(err: unknown): never {
  if (isAppError(err) && err.info.status === 502) {
    throw new AppError({ ...err.info, message: `The site cannot reach the package repository just now (${err.message.replace(/^.*?: /, '').replace(/\.$/, '')}). Installed packages are not affected; try again later.` }, { cause: err });
  }
  throw err;
}

const Message = v.looseObject({ message: v.optional(v.nullable(v.string())) });

export const cmsPackages = {
  installed: installedOf,

  installedPlugins: async (t: Transport): Promise<InstalledPackage[]> => (await installedOf(t, 'plugin')).items,
  installedThemes: async (t: Transport): Promise<InstalledPackage[]> => (await installedOf(t, 'theme')).items,

  /** A package's README.md or CHANGELOG.md; null when it has none (404). */
  async document(t: Transport, type: PackageType, slug: string, which: 'readme' | 'changelog'): Promise<string | null> {
    const call: CallOptions = { path: `/gpm/${type}s/${segment(slug)}/${which}` };
    try {
      const r = await request(t, call);
      return parseAnswer(v.looseObject({ content: v.optional(v.nullable(v.string())) }), r.data, t, `the ${which}`, callName(call)).content ?? null;
    } catch (err) {
      if ((err as { code?: string }).code === 'not_found') return null;
      throw err;
    }
  },

  async coreChangelog(t: Transport): Promise<string | null> {
    const call: CallOptions = { path: '/gpm/grav/changelog' };
    const r = await request(t, call);
    return parseAnswer(v.looseObject({ content: v.optional(v.nullable(v.string())) }), r.data, t, 'the core changelog', callName(call)).content || null;
  },

  async updates(t: Transport, flush = false): Promise<Omit<UpdateSummary, 'copiedAt'>> {
    const call: CallOptions = { path: '/gpm/updates', ...(flush ? { query: { flush: 'true' } } : {}) };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({ total: v.optional(v.unknown()) }), r.data, t, 'the update summary', callName(call)) as Record<string, unknown>;
    const core = coreOf(d);
    const plugins = updatesOf(d.plugins, 'plugin');
    const themes = updatesOf(d.themes, 'theme');
    const total = typeof d.total === 'number' && Number.isInteger(d.total) && d.total >= 0 ? d.total : plugins.length + themes.length + (core.updatable ? 1 : 0);
    const installed = typeof d.installed === 'number' && Number.isInteger(d.installed) && d.installed >= 0 ? d.installed : null;
    return { core, plugins, themes, total, installed };
  },

  async repository(t: Transport, q: { type: PackageType; q?: string; page: number; perPage: number }): Promise<RepositoryPage> {
    const call: CallOptions = { path: `/gpm/repository/${q.type}s`, query: { page: String(q.page), per_page: String(q.perPage), ...(q.q ? { q: q.q } : {}) } };
    const { data, paging } = await listCall(t, call, `the ${q.type} repository`).catch(repositoryDown);
    const { rows, problems } = parseRows(Row, data, t, `the ${q.type} repository`, callName(call));
    const items = rows.map((x) => repositoryPackage(x.value as Record<string, unknown>, q.type));
    return { items, total: paging.total, page: paging.page ?? q.page, perPage: paging.perPage ?? q.perPage, next: nextPage(paging, q, rows.length + problems.length), problems: problems.map((p) => rowProblem(p.raw, p.problem)) };
  },

  async repositoryPackage(t: Transport, type: PackageType, slug: string): Promise<RepositoryPackage> {
    const call: CallOptions = { path: `/gpm/repository/${segment(slug)}` };
    const r = await request(t, call).catch(repositoryDown);
    return repositoryPackage(parseAnswer(Row, r.data, t, 'the repository package', callName(call)) as Record<string, unknown>, type);
  },

  async install(t: Transport, slug: string, type: PackageType, licence?: string): Promise<string | null> {
    const call: CallOptions = { method: 'POST', path: '/gpm/install', body: { package: slug, type, ...(licence ? { license: licence } : {}) }, timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    return r.data == null ? null : (parseAnswer(Message, r.data, t, 'the install answer', callName(call)).message ?? null);
  },

  /** 204 on the real service; a 404 (not installed) reaches the caller. */
  async remove(t: Transport, slug: string): Promise<void> {
    await request(t, { method: 'POST', path: '/gpm/remove', body: { package: slug }, timeoutMs: WORK_TIMEOUT_MS });
  },

  async update(t: Transport, slug: string): Promise<string | null> {
    const call: CallOptions = { method: 'POST', path: '/gpm/update', body: { package: slug }, timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    return r.data == null ? null : (parseAnswer(Message, r.data, t, 'the update answer', callName(call)).message ?? null);
  },

  /** Every updatable package, each on its own: the site's lists of updated, failed and skipped ones. */
  async updateAll(t: Transport): Promise<{ package: string; ok: boolean; message: string | null }[]> {
    const call: CallOptions = { method: 'POST', path: '/gpm/update-all', body: {}, timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({ updated: v.optional(v.array(v.unknown()), []), failed: v.optional(v.array(v.unknown()), []), skipped: v.optional(v.array(v.unknown()), []) }), r.data, t, 'the update-all answer', callName(call));
    const name = (x: unknown) => (typeof x === 'string' ? x : isPlainObject(x) ? (text(x.package) ?? text(x.slug) ?? '?') : '?');
    return [
      ...d.updated.map((x) => ({ package: name(x), ok: true, message: null })),
      ...d.failed.map((x) => ({ package: name(x), ok: false, message: isPlainObject(x) ? text(x.error) : null })),
      ...d.skipped.map((x) => ({ package: name(x), ok: true, message: isPlainObject(x) ? text(x.reason) : 'skipped' })),
    ];
  },

  async upgrade(t: Transport): Promise<{ message: string | null; from: string | null; to: string | null }> {
    const call: CallOptions = { method: 'POST', path: '/gpm/upgrade', body: {}, timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({ message: v.optional(v.nullable(v.string())) }), r.data, t, 'the upgrade answer', callName(call)) as Record<string, unknown>;
    return { message: text(d.message), from: text(d.previous_version), to: text(d.new_version) };
  },

  async directUrl(t: Transport, url: string): Promise<string | null> {
    const call: CallOptions = { method: 'POST', path: '/gpm/direct-install', body: { url }, timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    return r.data == null ? null : (parseAnswer(Message, r.data, t, 'the install answer', callName(call)).message ?? null);
  },

  async directZip(t: Transport, filename: string, bytes: Buffer): Promise<string | null> {
    const call: CallOptions = { method: 'POST', path: '/gpm/direct-install', raw: multipartFile('file', { name: filename, type: 'application/zip', bytes }), timeoutMs: WORK_TIMEOUT_MS };
    const r = await request(t, call);
    return r.data == null ? null : (parseAnswer(Message, r.data, t, 'the install answer', callName(call)).message ?? null);
  },
};
