/**
 * Route arithmetic, one copy for the Host and the renderer. Routes here are structural (the site's
 * `raw_route`: `/blog/post`, the root is `/`), so a route's parent and slug follow from its text;
 * where the site says a page's parent, its `parentRoute` is used instead. Pure, so it is unit-tested.
 */

export const ROOT = '/';

/** A route with its leading slash (`blog/post` → `/blog/post`). */
export const withSlash = (route: string): string => (route.startsWith('/') ? route : `/${route}`);

/** The parent route of `/a/b` is `/a`; of `/a` it is `/`. */
export function parentOf(route: string): string {
  const i = route.lastIndexOf('/');
  return i <= 0 ? ROOT : route.slice(0, i);
}

/** The last segment of a route (`/a/b` → `b`; the root has none: ''). A trailing slash is ignored. */
export function slugOf(route: string): string {
  return route.split('/').filter(Boolean).at(-1) ?? '';
}

/** `child` is `route` itself or below it. */
export function inSubtree(child: string, route: string): boolean {
  return child === route || child.startsWith(route === ROOT ? '/' : `${route}/`);
}

/** The route of a page `slug` below `parent`. */
export function joinRoute(parent: string, slug: string): string {
  return `${parent === ROOT ? '' : parent}/${slug}`;
}

/** Drops routes that lie below another route of the list (moving the ancestor moves them too). */
export function topmost(routes: Iterable<string>): string[] {
  const list = [...new Set(routes)];
  return list.filter((r) => !list.some((o) => o !== r && inSubtree(r, o)));
}

/** A title → slug the way the CMS likes them: lower case, ASCII where possible, dashes. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}

/** What a person typed as a route, as a route: `blog/` or ` /blog ` → `/blog`, '' → `/`. */
export function normaliseRoute(text: string): string {
  const t = text.trim().replace(/\/+$/, '');
  if (t === '') return ROOT;
  return withSlash(t);
}
