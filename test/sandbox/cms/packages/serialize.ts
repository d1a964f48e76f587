/**
 * Packages on the wire, per flavour.
 *
 * real: getgrav/grav-plugin-api:classes/Api/Serializers/PackageSerializer.php (recordings 42–45):
 *   slug, name, version, type, description, description_html, author {name, email, url},
 *   homepage, bugs, enabled and is_symlink (installed ones), premium/licensed/purchase_url,
 *   dependencies, keywords (the blueprint's comma-separated text), icon; the controllers add
 *   updatable (+ available_version when true), a theme's thumbnail and screenshot, the
 *   repository's `installed`.
 * spec: document 1's Package, Theme and Repository entry (slug, name, version, enabled,
 *   is_symlink, updatable; detail installed_version, available_version; theme thumbnail, detail
 *   screenshot; repository description, author.name, installed, installed_version), plus type,
 *   description, author and premium/licensed where they apply, so one client reads both.
 */
import { createHash } from 'node:crypto';
import type { Flavor } from '../../flavor';
import type { PackageInfo } from './catalog';
import type { InstalledPackage } from './world';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

/** Parsedown's safe mode on a one-line description: escaped text, **bold**, `code`, in a paragraph. */
function descriptionHtml(md: string): string | null {
  if (md === '') return null;
  const html = escapeHtml(md)
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/`([^`]+)`/g, '<code>$1</code>');
  return `<p>${html}</p>`;
}

/** A theme's image under the API's public /thumbnails route (the real names hash the file). */
export function thumbnailName(slug: string, kind: 'thumbnail' | 'screenshot'): string {
  return `${createHash('md5').update(`${slug}/${kind}`).digest('hex')}.jpg`;
}

/** The real serializer's common part. */
function realBase(p: PackageInfo): Record<string, unknown> {
  return {
    slug: p.slug,
    name: p.name,
    version: p.version,
    type: p.type,
    description: p.description,
    description_html: descriptionHtml(p.description),
    author: { ...p.author },
    homepage: p.homepage,
    bugs: p.bugs,
  };
}

function realTail(p: PackageInfo, licensed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.premium) Object.assign(out, { premium: true, licensed, purchase_url: `https://licensing.getgrav.org/buy/${p.premium.permalink}` });
  if (p.dependencies.length) out.dependencies = p.dependencies.map((d) => ({ ...d }));
  // Grav infers the core versions a package supports from its `grav` dependency
  const grav = p.dependencies.find((d) => d.name === 'grav');
  if (grav) out.compatibility = { grav: /^>=\s*1\./.test(grav.version) ? ['1.7', '2.0'] : ['2.0'], api: [] };
  out.keywords = p.keywords.join(', ');
  out.icon = p.icon;
  return out;
}

export interface InstalledView {
  pkg: InstalledPackage;
  enabled: boolean;
  available: string | null;
  licensed: boolean;
}

/** An installed package in a list (`detail`: one package's own read). */
export function installedWire(flavor: Flavor, prefix: string, v: InstalledView, detail = false): Record<string, unknown> {
  const { pkg } = v;
  const images = pkg.type === 'theme' ? { thumbnail: `${prefix}/thumbnails/${thumbnailName(pkg.slug, 'thumbnail')}`, screenshot: `${prefix}/thumbnails/${thumbnailName(pkg.slug, 'screenshot')}` } : null;
  if (flavor === 'real') {
    const out: Record<string, unknown> = { ...realBase(pkg), enabled: v.enabled, is_symlink: pkg.symlink, ...realTail(pkg, v.licensed) };
    if (v.available) Object.assign(out, { available_version: v.available, updatable: true });
    else out.updatable = false;
    if (images) Object.assign(out, images);
    return out;
  }
  const out: Record<string, unknown> = {
    slug: pkg.slug,
    name: pkg.name,
    version: pkg.version,
    type: pkg.type,
    description: pkg.description,
    author: { name: pkg.author.name },
    enabled: v.enabled,
    is_symlink: pkg.symlink,
    updatable: v.available !== null,
  };
  if (pkg.premium) Object.assign(out, { premium: true, licensed: v.licensed });
  if (images) out.thumbnail = images.thumbnail;
  if (detail) {
    Object.assign(out, { installed_version: pkg.version, available_version: v.available ?? pkg.version });
    if (images) out.screenshot = images.screenshot;
  }
  return out;
}

/** A repository entry (lists, search, one package). */
export function repositoryWire(flavor: Flavor, p: PackageInfo, installed: InstalledPackage | null, licensed: boolean): Record<string, unknown> {
  if (flavor === 'real') {
    const out: Record<string, unknown> = { ...realBase(p), ...realTail(p, licensed) };
    if (p.type === 'theme') out.screenshot = `https://getgrav.org/images/${p.slug}-screenshot.jpg`;
    out.installed = installed !== null;
    return out;
  }
  const out: Record<string, unknown> = {
    slug: p.slug,
    name: p.name,
    version: p.version,
    type: p.type,
    description: p.description,
    author: { name: p.author.name },
    installed: installed !== null,
    installed_version: installed?.version ?? null,
  };
  if (p.premium) Object.assign(out, { premium: true, licensed });
  return out;
}

/** The real search's match: slug, name, description, author name or a keyword contains the text (any case). */
export function matchesReal(p: PackageInfo, q: string): boolean {
  const needle = q.toLowerCase();
  return [p.slug, p.name, p.description, p.author.name, ...p.keywords].some((t) => t.toLowerCase().includes(needle));
}

/** The document's: name, slug or description. */
export function matchesSpec(p: PackageInfo, q: string): boolean {
  const needle = q.toLowerCase();
  return [p.slug, p.name, p.description].some((t) => t.toLowerCase().includes(needle));
}
