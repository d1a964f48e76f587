/**
 * Document 1's Package management, both flavours (the real one after
 * getgrav/grav-plugin-api:classes/Api/Controllers/GpmController.php, recordings 42–46):
 *
 *   GET  /gpm/plugins, /gpm/themes              api.gpm.read; installed, with enabled, is_symlink, updatable
 *   GET  /gpm/plugins/{slug}, /gpm/themes/{slug} api.gpm.read; + ETag; 404 not installed
 *   GET  /gpm/{plugins|themes}/{slug}/readme|changelog
 *                                               spec: authenticated, real: api.gpm.read; data.content; 404
 *   GET  /gpm/updates?flush=1                   api.gpm.read; the update summary (flush refetches the repository)
 *   GET  /gpm/grav/changelog?flush=1            real only: api.gpm.read; the core's changelog past the installed version
 *   POST /gpm/install {package, type, license?} spec: authenticated, real: api.gpm.write; 201; 422 unknown,
 *                                               installed already, premium without (or a malformed) licence,
 *                                               failed (real: 500); dependencies installed first
 *   POST /gpm/remove {package}                  spec: authenticated, real: api.gpm.write; 204; 404; real: 500 symlinked
 *   POST /gpm/update {package}                  spec: authenticated, real: api.gpm.write; 200; 422 not updatable
 *                                               or not installed; 500 failed
 *   POST /gpm/update-all                        api.gpm.write; {updated, failed} (real + skipped, cascaded_dependencies)
 *   POST /gpm/upgrade                           api.gpm.write; 200 {message, previous_version, new_version};
 *                                               400 (real: 422) latest or symlinked
 *   POST /gpm/direct-install                    api.gpm.write; JSON `url` or multipart `file` (a zip holding a
 *                                               blueprints.yaml); 201; 400 neither or both (real: 422
 *                                               neither, url wins over file); 500 not a package / unreachable
 *   GET  /gpm/search?q=                         spec: authenticated, real: api.gpm.read; paged; 400 (real 422) no q
 *   GET  /gpm/repository/plugins|themes         api.gpm.read; paged (per_page up to 2000), q; 502 unreachable
 *   GET  /gpm/repository/{slug}                 api.gpm.read; 404
 *
 * A theme's thumbnail and screenshot are made in the API's thumbnail cache when the theme is
 * listed, so the media library's `GET /thumbnails/{file}` serves them (as the real ThumbnailService
 * shares that cache).
 *
 * Every write waits the package world's `workMs` (real time) between its before and after events,
 * so a client shows progress. Events: install, remove, update (each package of an update-all in
 * spec; the real update-all and direct install fire none), core upgrade (spec onApiBeforeCmsUpgrade
 * / onApiCmsUpgraded, real onApiBeforeGravUpgrade / onApiGravUpgraded).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpProblem, json, readBody, requireFields, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { etagOf } from '../content/etag';
import { paged, pagingOf } from '../content/paging';
import { invalidates } from '../real-wire';
import { scopeInfo, valueAt } from '../site/config-store';
import { solidJpeg } from '../site/seed-media';
import { coreChangelog, type PackageInfo, type PackageType } from './catalog';
import { installedWire, matchesReal, matchesSpec, repositoryWire, thumbnailName } from './serialize';
import { directSource, download, packageOf } from './direct-install';
import { installedExtension } from './settings-scopes';
import type { InstalledPackage, PackageWorld } from './world';

const LICENSE = /^[A-F0-9]{8}-[A-F0-9]{8}-[A-F0-9]{8}-[A-F0-9]{8}$/;
const SPEC_REPO_MAX = 2000;

const ucfirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plural = (t: PackageType) => `${t}s` as 'plugins' | 'themes';

export function registerPackageRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';
  const world = (): PackageWorld => ctx.packages;
  /** spec's "authenticated" routes ask for api.access; the real ones for the gpm permissions */
  const readPerm = real ? 'api.gpm.read' : 'api.access';
  const writePerm = real ? 'api.gpm.write' : 'api.access';
  /** a failed operation: the document's 422 for install, the real service's 500 with its title */
  const failed = (status: 422 | 500, title: string, detail: string) => new HttpProblem(real ? 500 : status, real ? title : status === 422 ? 'Unprocessable Entity' : title, detail);
  const bad = (detail: string) => new HttpProblem(real ? 422 : 400, real ? 'Unprocessable Entity' : 'Bad Request', detail);
  const fire = (name: string, data: Record<string, unknown>) => ctx.events.record(name, data);

  const enabledOf = (p: InstalledPackage): boolean => {
    const lookup = installedExtension(world());
    if (p.type === 'theme') {
      const system = scopeInfo('system');
      const active = system ? valueAt(ctx.site.config.effective(system), 'pages.theme') : null;
      return p.slug === (typeof active === 'string' ? active : 'quark2');
    }
    const info = scopeInfo(`plugins/${p.slug}`, lookup);
    return info ? ctx.site.config.effective(info).enabled !== false : true;
  };
  const view = (p: InstalledPackage) => {
    if (p.type === 'theme') themeImages(ctx, p.slug);
    return { pkg: p, enabled: enabledOf(p), available: world().availableFor(p), licensed: world().license(p.slug) !== null };
  };

  // ---- installed packages

  for (const type of ['plugin', 'theme'] as const) {
    const base = `/gpm/${plural(type)}`;
    router.on('GET', base, (req, res, _p, url) => {
      authorize(ctx, req, url, 'api.gpm.read');
      json(res, 200, { data: world().list(type).map((p) => installedWire(ctx.flavor, ctx.prefix, view(p))) });
    });
    router.on('GET', `${base}/{slug}`, (req, res, params, url) => {
      authorize(ctx, req, url, 'api.gpm.read');
      const p = world().get(params.slug!, type);
      if (!p) throw new HttpProblem(404, 'Not Found', `${ucfirst(type)} '${params.slug}' is not installed.`);
      const data = installedWire(ctx.flavor, ctx.prefix, view(p), true);
      json(res, 200, { data }, { ETag: etagOf(data) });
    });
    for (const doc of ['readme', 'changelog'] as const) {
      router.on('GET', `${base}/{slug}/${doc}`, (req, res, params, url) => {
        authorize(ctx, req, url, readPerm);
        const slug = params.slug!;
        if (real && (slug === '.' || slug === '..' || slug.includes('\\') || slug.includes('\0'))) throw bad(`Invalid package slug '${slug}'.`);
        const p = world().get(slug, type);
        if (!p) throw new HttpProblem(404, 'Not Found', `Package '${slug}' not found.`);
        const content = p[doc];
        if (content === null) throw new HttpProblem(404, 'Not Found', doc === 'readme' ? `No README found for '${slug}'.` : `No changelog found for '${slug}'.`);
        json(res, 200, { data: { content } });
      });
    }
  }

  // ---- updates

  router.on('GET', '/gpm/updates', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.read');
    const w = world();
    w.repository(flag(url.searchParams.get('flush')));
    const plugins = w.updatable('plugin');
    const themes = w.updatable('theme');
    const coreUpdatable = w.coreUpdatable();
    const total = plugins.length + themes.length + (coreUpdatable ? 1 : 0);
    if (real) {
      const available = w.coreAvailable();
      const wire = (p: InstalledPackage) => {
        const { thumbnail: _t, screenshot: _s, ...rest } = installedWire('real', ctx.prefix, view(p));
        return rest;
      };
      json(res, 200, {
        data: {
          grav: { current: w.coreVersion, available, updatable: coreUpdatable, date: available ? (coreChangelog('0', available)[0]?.date ?? null) : null, is_symlink: w.knobs.coreSymlinked },
          plugins: plugins.map(wire),
          themes: themes.map(wire),
          total,
          installed: w.count(),
        },
      });
      return;
    }
    const entry = (p: InstalledPackage) => ({ slug: p.slug, installed_version: p.version, available_version: w.availableFor(p) });
    json(res, 200, {
      data: {
        total,
        cms: { installed_version: w.coreVersion, available_version: w.coreAvailable(), updatable: coreUpdatable, is_symlink: w.knobs.coreSymlinked },
        plugins: plugins.map(entry),
        themes: themes.map(entry),
      },
    });
  });

  if (real) {
    router.on('GET', '/gpm/grav/changelog', (req, res, _p, url) => {
      authorize(ctx, req, url, 'api.gpm.read');
      const w = world();
      w.repository(flag(url.searchParams.get('flush')));
      const available = w.coreAvailable();
      const parts = available ? coreChangelog(w.coreVersion, available).map((e) => `# v${e.version} (${e.date})\n\n${e.content.trim()}`) : [];
      json(res, 200, { data: { content: parts.join('\n\n') } });
    });
  }

  // ---- install, remove, update

  router.on('POST', '/gpm/install', async (req, res, _p, url) => {
    authorize(ctx, req, url, writePerm);
    const body = await readBody(req);
    requireFields(body, real ? ['package'] : ['package', 'type'], real ? 422 : 400);
    if (typeof body.package !== 'string') throw bad("The 'package' field must be a package slug.");
    const slug = body.package;
    const type = body.type ?? 'plugin';
    if (type !== 'plugin' && type !== 'theme') throw bad(`Invalid package type '${String(type)}'. Must be 'plugin' or 'theme'.`);
    const w = world();
    if (w.get(slug, type)) throw new HttpProblem(422, 'Unprocessable Entity', `${ucfirst(type)} '${slug}' is already installed. Use the update endpoint to update it.`);
    const license = body.license;
    if (license !== undefined && license !== null && license !== '') {
      if (typeof license !== 'string' || !LICENSE.test(license)) throw new HttpProblem(422, 'Unprocessable Entity', 'Invalid license format. Expected: XXXXXXXX-XXXXXXXX-XXXXXXXX-XXXXXXXX (uppercase hex).');
      w.setLicense(slug, license);
    }
    const repo = w.repository();
    const entry = repo?.get(slug) ?? null;
    if (entry?.premium && !w.license(slug)) {
      throw new HttpProblem(422, 'Unprocessable Entity', `'${slug}' is a premium package and requires a license. Pass a 'license' field in the request body, or upload a license via the license-manager plugin/API.`);
    }
    const notFound = () => new HttpProblem(422, 'Unprocessable Entity', repo ? `Package '${slug}' not found in the GPM repository.` : 'GPM not reachable. Please check your internet connection or check the Grav site is reachable');
    // the real service fires its before-event ahead of finding the package in the repository
    if (real) fire('onApiBeforePackageInstall', { package: slug, type });
    if (!entry || entry.type !== type) throw notFound();
    if (!real) fire('onApiBeforePackageInstall', { package: slug, type });
    const deps = entry.dependencies.filter((d) => d.name !== 'grav' && d.name !== 'php' && !w.get(d.name)).map((d) => repo!.get(d.name)).filter((d): d is PackageInfo => d !== undefined);
    await w.work(1 + deps.length);
    if (w.knobs.failingInstalls.includes(slug)) throw failed(422, 'Installation Failed', `Installation failed: the downloaded package '${slug}' is corrupt (checksum mismatch).`);
    for (const d of deps) w.put(fromRepository(d));
    w.put(fromRepository(entry));
    const dependencies = deps.map((d) => d.slug);
    fire('onApiPackageInstalled', real ? { package: slug, type, dependencies } : { package: slug, type });
    const message = `${ucfirst(type)} '${slug}' installed successfully.${dependencies.length ? ` Dependencies installed: ${dependencies.join(', ')}.` : ''}`;
    const tags = [`${plural(type)}:create:${slug}`, `${plural(type)}:list`, 'gpm:update', ...dependencies.map((d) => `plugins:create:${d}`), ...(dependencies.length ? ['plugins:list'] : [])];
    json(res, 201, { data: { message, package: slug, type, dependencies } }, real ? invalidates([...new Set(tags)]) : {});
  });

  router.on('POST', '/gpm/remove', async (req, res, _p, url) => {
    authorize(ctx, req, url, writePerm);
    const body = await readBody(req);
    requireFields(body, ['package'], real ? 422 : 400);
    const slug = String(body.package);
    const w = world();
    const p = w.get(slug, 'plugin') ?? w.get(slug, 'theme');
    if (!p) throw new HttpProblem(404, 'Not Found', `Package '${slug}' is not installed.`);
    fire('onApiBeforePackageRemove', { package: slug, type: p.type });
    await w.work();
    // Grav's uninstaller leaves a symlinked package alone and reports the removal as failed
    if (real && p.symlink) throw new HttpProblem(500, 'Removal Failed', `Failed to remove ${p.type} '${slug}'.`);
    w.remove(slug, p.type);
    fire('onApiPackageRemoved', { package: slug, type: p.type });
    const tags = [`${plural(p.type)}:delete:${slug}`, `${plural(p.type)}:list`, 'gpm:update'];
    res.writeHead(204, real ? invalidates(tags) : {}).end();
  });

  router.on('POST', '/gpm/update', async (req, res, _p, url) => {
    authorize(ctx, req, url, writePerm);
    const body = await readBody(req);
    requireFields(body, ['package'], real ? 422 : 400);
    const slug = String(body.package);
    const w = world();
    const p = w.get(slug, 'plugin') ?? w.get(slug, 'theme');
    if (!p || w.availableFor(p) === null) throw new HttpProblem(422, 'Unprocessable Entity', `Package '${slug}' is not updatable or not installed.`);
    fire('onApiBeforePackageUpdate', { package: slug, type: p.type });
    await w.work();
    const error = updateOne(w, p);
    if (error) throw new HttpProblem(500, real ? 'Update Failed' : 'Internal Server Error', error);
    fire('onApiPackageUpdated', real ? { package: slug, type: p.type, dependencies: [] } : { package: slug, type: p.type });
    const tags = [`${plural(p.type)}:update:${slug}`, `${plural(p.type)}:list`, 'gpm:update'];
    json(res, 200, { data: { message: `Package '${slug}' updated successfully.`, package: slug, type: p.type, dependencies: [] } }, real ? invalidates(tags) : {});
  });

  router.on('POST', '/gpm/update-all', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.write');
    const w = world();
    w.repository(true);
    const updated: string[] = [];
    const failures: { package: string; error: string }[] = [];
    for (const p of [...w.updatable('plugin'), ...w.updatable('theme')]) {
      // the document fires the update events per package; the real update-all fires none
      if (!real) fire('onApiBeforePackageUpdate', { package: p.slug, type: p.type });
      await w.work();
      const error = updateOne(w, p);
      if (error) {
        failures.push({ package: p.slug, error });
        continue;
      }
      updated.push(p.slug);
      if (!real) fire('onApiPackageUpdated', { package: p.slug, type: p.type });
    }
    const data = real ? { updated, failed: failures, skipped: [], cascaded_dependencies: [] } : { updated, failed: failures };
    json(res, 200, { data }, real ? invalidates(['plugins:list', 'themes:list', 'gpm:update']) : {});
  });

  router.on('POST', '/gpm/upgrade', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.write');
    const w = world();
    w.repository(true);
    if (!w.coreUpdatable()) throw bad(real ? 'Grav is already at the latest version.' : 'The CMS is already at the latest version.');
    if (w.knobs.coreSymlinked) throw bad(real ? 'Cannot upgrade Grav when installed via symlink.' : 'Cannot upgrade the CMS: it is installed via symlink.');
    const previous = w.coreVersion;
    const next = w.coreAvailable()!;
    fire(real ? 'onApiBeforeGravUpgrade' : 'onApiBeforeCmsUpgrade', { current_version: previous, available_version: next });
    await w.work(2);
    w.upgradeCore(next);
    fire(real ? 'onApiGravUpgraded' : 'onApiCmsUpgraded', { previous_version: previous, new_version: next });
    json(res, 200, { data: { message: real ? 'Grav upgraded successfully.' : 'The CMS was upgraded successfully.', previous_version: previous, new_version: next } }, real ? invalidates(['grav:update', 'gpm:update']) : {});
  });

  router.on('POST', '/gpm/direct-install', async (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.write');
    const { url: source, file } = await directSource(req, ctx.settings.uploadMax);
    const fail = (detail: string) => new HttpProblem(500, real ? 'Installation Failed' : 'Internal Server Error', detail);
    if (!real && source !== null && file !== null) throw bad('Send either a "url" or an uploaded "file", not both.');
    if (source === null && file === null) throw bad('Either a "url" field or an uploaded "file" is required.');
    let bytes: Buffer;
    if (source !== null) {
      if (real && officialOnly(ctx)) {
        let host: string | null = null;
        try {
          host = new URL(source).hostname;
        } catch {
          throw fail(`Malformed GPM URL: ${source}`);
        }
        if (host !== 'getgrav.org') throw fail('Only official GPM URLs are allowed. You can modify this behavior in the System configuration.');
      }
      bytes = await download(source).catch(() => {
        throw fail('Zip package not found.');
      });
    } else bytes = file!;
    const pkg = packageOf(bytes);
    if (typeof pkg === 'string') throw fail(pkg);
    const w = world();
    const existing = w.get(pkg.slug, pkg.type);
    if (existing?.symlink) throw fail('Cannot overwrite symlinks.');
    if (!real) fire('onApiBeforePackageInstall', { package: pkg.slug, type: pkg.type });
    await w.work();
    w.put(pkg);
    if (!real) fire('onApiPackageInstalled', { package: pkg.slug, type: pkg.type });
    json(res, 201, { data: { message: 'Package installed successfully via direct install.' } }, real ? invalidates(['plugins:list', 'themes:list', 'gpm:update']) : {});
  });

  // ---- the repository

  const repoPaging = (url: URL) => {
    if (real) {
      // getPagination(), then a larger per_page (up to 2000) taken as asked
      const p = pagingOf('real', url);
      const asked = Math.trunc(Number(url.searchParams.get('per_page')));
      return { page: p.page, perPage: Number.isFinite(asked) && asked > p.perPage ? Math.min(2000, asked) : p.perPage };
    }
    const page = Math.max(1, Math.trunc(Number(url.searchParams.get('page') ?? 1)) || 1);
    const raw = url.searchParams.get('per_page');
    const n = raw === null || raw.trim() === '' ? 20 : Math.trunc(Number(raw));
    return { page, perPage: Number.isNaN(n) ? 20 : Math.min(SPEC_REPO_MAX, Math.max(1, n)) };
  };
  const entryWire = (p: PackageInfo) => repositoryWire(ctx.flavor, p, world().get(p.slug, p.type), world().license(p.slug) !== null);
  const matches = real ? matchesReal : matchesSpec;

  router.on('GET', '/gpm/search', (req, res, _p, url) => {
    authorize(ctx, req, url, readPerm);
    const q = url.searchParams.get('q');
    if (q === null || q.trim() === '') throw bad("The 'q' query parameter is required for search.");
    const { page, perPage } = pagingOf(ctx.flavor, url);
    const repo = world().repository();
    const rows = repo ? [...repo.values()].filter((p) => matches(p, q)) : [];
    json(res, 200, paged(ctx.flavor, ctx.prefix, '/gpm/search', rows.slice((page - 1) * perPage, page * perPage).map(entryWire), rows.length, page, perPage));
  });

  for (const type of ['plugin', 'theme'] as const) {
    const path = `/gpm/repository/${plural(type)}`;
    router.on('GET', path, (req, res, _p, url) => {
      authorize(ctx, req, url, 'api.gpm.read');
      const { page, perPage } = repoPaging(url);
      const repo = world().repository();
      if (!repo) throw new HttpProblem(502, 'Bad Gateway', 'Unable to reach GPM repository.');
      const q = url.searchParams.get('q');
      const rows = [...repo.values()].filter((p) => p.type === type && (!q || matches(p, q)));
      json(res, 200, paged(ctx.flavor, ctx.prefix, path, rows.slice((page - 1) * perPage, page * perPage).map(entryWire), rows.length, page, perPage));
    });
  }

  router.on('GET', '/gpm/repository/{slug}', (req, res, params, url) => {
    authorize(ctx, req, url, 'api.gpm.read');
    const p = world().repository()?.get(params.slug!);
    if (!p) throw new HttpProblem(404, 'Not Found', `Package '${params.slug}' not found in GPM repository.`);
    json(res, 200, { data: entryWire(p) });
  });
}

/** Writes a theme's two images into the thumbnail cache, once. */
function themeImages(ctx: CmsContext, slug: string): void {
  const dir = ctx.site.media.thumbs;
  for (const kind of ['thumbnail', 'screenshot'] as const) {
    const file = join(dir, thumbnailName(slug, kind));
    if (existsSync(file)) continue;
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, kind === 'thumbnail' ? solidJpeg(400, 300, 180) : solidJpeg(1200, 900, 120));
  }
}

/** PHP's FILTER_VALIDATE_BOOLEAN of a query value (1, true, on, yes). */
function flag(v: string | null): boolean {
  return v !== null && ['1', 'true', 'on', 'yes'].includes(v.trim().toLowerCase());
}

function fromRepository(p: PackageInfo): InstalledPackage {
  return { ...structuredClone(p), symlink: false, source: 'repository' };
}

/** Moves an installed package to the repository's version; the error text when the update fails. */
function updateOne(w: PackageWorld, p: InstalledPackage): string | null {
  const remote = w.repository()?.get(p.slug);
  if (!remote) return `Package '${p.slug}' not found in the GPM repository.`;
  if (w.knobs.failingUpdates.includes(p.slug)) return `Checksum mismatch: the downloaded package for '${p.slug}' ${remote.version} does not match the repository.`;
  const next = structuredClone(remote);
  w.put({ ...next, readme: p.readme === null ? null : next.readme, symlink: false, source: p.source });
  return null;
}

/** The real flavour's `system.gpm.official_gpm_only`: the site's system setting, else the knob. */
function officialOnly(ctx: CmsContext): boolean {
  const system = scopeInfo('system');
  const v = system ? valueAt(ctx.site.config.effective(system), 'gpm.official_gpm_only') : null;
  return typeof v === 'boolean' ? v : ctx.packages.knobs.officialGpmOnly;
}
