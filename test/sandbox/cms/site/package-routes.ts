/**
 * The installed packages, as far as the settings need them (issue 15 grows the rest of document
 * 1's Packages): `GET /gpm/plugins` and `GET /gpm/themes`, `api.gpm.read`, each package with the
 * real service's fields (recordings 42 and 44: slug, name, version, type, description, author,
 * enabled …). Whether a package is enabled is its own setting (`enabled` in its configuration), so
 * a settings change shows here.
 *
 *   GET /gpm/plugins   data: [package]    200; 401; 403
 *   GET /gpm/themes    data: [package]    200; 401; 403
 */
import { json, type Router } from '../../http';
import type { CmsContext } from '../context';
import { authorize } from '../credentials';
import { scopeInfo } from './config-store';
import { PLUGINS, THEMES, type Extension } from './extensions';

const capitalised = (slug: string) => slug.charAt(0).toUpperCase() + slug.slice(1);

function listed(ctx: CmsContext, kind: 'plugin' | 'theme', all: Record<string, Extension>) {
  return Object.entries(all).map(([slug, ext]) => {
    const info = scopeInfo(`${kind}s/${slug}`);
    const enabled = info ? ctx.site.config.effective(info).enabled !== false : true;
    return {
      slug,
      name: ext.title ?? capitalised(slug),
      version: '1.0.0',
      type: kind,
      description: `The sandbox's ${slug} ${kind}.`,
      author: { name: 'Sitedesk sandbox' },
      enabled,
      is_symlink: false,
      updatable: false,
    };
  });
}

export function registerPackageRoutes(router: Router, ctx: CmsContext): void {
  router.on('GET', '/gpm/plugins', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.read');
    json(res, 200, { data: listed(ctx, 'plugin', PLUGINS) });
  });
  router.on('GET', '/gpm/themes', (req, res, _p, url) => {
    authorize(ctx, req, url, 'api.gpm.read');
    json(res, 200, { data: listed(ctx, 'theme', THEMES) });
  });
}
