/**
 * The package world's test controls under `/__sandbox` (see ../control-routes.ts):
 *
 *   GET|POST  /__sandbox/packages          the knobs {workMs, coreSymlinked, coreLatest,
 *                                          repositoryUnreachable, officialGpmOnly, failingInstalls,
 *                                          failingUpdates} (POST changes the ones sent) with the
 *                                          core's version and what is installed
 *   POST      /__sandbox/packages/release  {slug, version}: the repository publishes a new release
 *                                          (the site sees it after a refresh, e.g. /gpm/updates?flush=1)
 *   GET       /__sandbox/packages/{slug}.zip
 *                                          a package zip for direct install: a repository package
 *                                          (`?version=` another version), or `not-a-package.zip`
 *                                          (a zip without blueprints.yaml: its install fails)
 */
import { badControl } from '../../control';
import { HttpProblem, json, readBody, type Router } from '../../http';
import type { CmsContext } from '../context';
import { baseRepository, type PackageInfo } from './catalog';
import type { PackageKnobs } from './world';
import { writeZip } from './zip';

/** A package's zip as GitHub's archives nest it: `grav-plugin-<slug>/blueprints.yaml`, README, CHANGELOG, the code. */
export function packageZip(p: Pick<PackageInfo, 'slug' | 'type' | 'name' | 'version' | 'description' | 'author'> & Partial<Pick<PackageInfo, 'readme' | 'changelog'>>): Buffer {
  const dir = `grav-${p.type}-${p.slug}/`;
  const blueprint = [
    `name: ${JSON.stringify(p.name)}`,
    `slug: ${p.slug}`,
    `type: ${p.type}`,
    `version: ${JSON.stringify(p.version)}`,
    `description: ${JSON.stringify(p.description)}`,
    'author:',
    `  name: ${JSON.stringify(p.author.name)}`,
    `  email: ${JSON.stringify(p.author.email)}`,
    `keywords: ${p.type}, sandbox`,
    'dependencies:',
    '  - { name: grav, version: ">=1.7.0" }',
    '',
  ].join('\n');
  return writeZip([
    { name: `${dir}blueprints.yaml`, data: blueprint },
    { name: `${dir}README.md`, data: p.readme ?? `# ${p.name}\n\n${p.description}\n` },
    { name: `${dir}CHANGELOG.md`, data: p.changelog ?? `# v${p.version}\n## 2026-11-01\n\n1. [](#new)\n    * First release\n` },
    { name: `${dir}${p.slug}.php`, data: `<?php\nnamespace Grav\\Plugin;\n// ${p.name}\n` },
  ]);
}

const KNOBS = ['coreSymlinked', 'coreLatest', 'repositoryUnreachable', 'officialGpmOnly'] as const;

export function registerPackageControls(router: Router, ctx: CmsContext): void {
  const state = () => {
    const w = ctx.packages;
    return { ...w.knobs, coreVersion: w.coreVersion, coreAvailable: w.coreAvailable(), installed: [...w.list('plugin'), ...w.list('theme')].map((p) => ({ slug: p.slug, type: p.type, version: p.version, symlink: p.symlink })) };
  };
  router.on('GET', '/packages', (_req, res) => json(res, 200, { data: state() }));
  router.on('POST', '/packages', async (req, res) => {
    const body = await readBody(req);
    const knobs: Partial<PackageKnobs> = {};
    if (body.workMs !== undefined) {
      if (typeof body.workMs !== 'number' || !(body.workMs >= 0)) throw badControl('workMs must be a number ≥ 0.');
      knobs.workMs = body.workMs;
    }
    for (const k of KNOBS) {
      if (body[k] === undefined) continue;
      if (typeof body[k] !== 'boolean') throw badControl(`${k} must be true or false.`);
      knobs[k] = body[k];
    }
    for (const k of ['failingInstalls', 'failingUpdates'] as const) {
      if (body[k] === undefined) continue;
      const list = body[k];
      if (!Array.isArray(list) || !list.every((x): x is string => typeof x === 'string')) throw badControl(`${k} must be a list of package slugs.`);
      knobs[k] = list;
    }
    Object.assign(ctx.packages.knobs, knobs);
    json(res, 200, { data: state() });
  });
  router.on('POST', '/packages/release', async (req, res) => {
    const body = await readBody(req);
    if (typeof body.slug !== 'string' || typeof body.version !== 'string' || !/^\d+\.\d+\.\d+$/.test(body.version)) throw badControl('Send {"slug": "…", "version": "x.y.z"}.');
    try {
      json(res, 200, { data: ctx.packages.publish(body.slug, body.version) });
    } catch (err) {
      throw badControl(err);
    }
  });
  router.on('GET', '/packages/{file}', (_req, res, params, url) => {
    const m = /^([a-z0-9][a-z0-9_-]*)\.zip$/.exec(params.file!);
    if (!m) throw new HttpProblem(404, 'Not Found', 'Ask for /__sandbox/packages/<slug>.zip.');
    let zip: Buffer;
    if (m[1] === 'not-a-package') zip = writeZip([{ name: 'notes/README.md', data: '# Just notes\n\nNo blueprints.yaml here.\n' }]);
    else {
      const p = baseRepository().find((x) => x.slug === m[1]);
      if (!p) throw new HttpProblem(404, 'Not Found', `No package ${m[1]} in the repository.`);
      zip = packageZip({ ...p, version: url.searchParams.get('version') ?? p.version });
    }
    res.writeHead(200, { 'Content-Type': 'application/zip', 'Content-Length': zip.length, 'Content-Disposition': `attachment; filename="${m[1]}.zip"` });
    res.end(zip);
  });
}
