/**
 * What a direct install is sent and what it finds: a JSON or form `url`, or a multipart `file`;
 * the zip fetched (from loopback only: the sandbox has no internet and serves zips itself under
 * /__sandbox/packages) and opened; the package its `blueprints.yaml` describes, or the words of
 * Grav's installer (getgrav/grav-plugin-api:classes/Api/Services/GpmService.php directInstall())
 * for what is wrong with it.
 */
import type { IncomingMessage } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { readBody } from '../../http';
import { readMultipart } from '../../multipart';
import type { PackageType } from './catalog';
import type { InstalledPackage } from './world';
import { readZip } from './zip';

/** What a direct install was sent: a JSON or form `url`, or a multipart `file` (and maybe a `url` field). */
export async function directSource(req: IncomingMessage, maxBytes: number): Promise<{ url: string | null; file: Buffer | null }> {
  const type = String(req.headers['content-type'] ?? '');
  if (/^multipart\/form-data/i.test(type)) {
    const form = await readMultipart(req, maxBytes);
    const file = form.files.find((f) => f.field === 'file')?.data ?? null;
    const url = form.fields.url?.trim() ? form.fields.url.trim() : null;
    return { url, file };
  }
  const body = await readBody(req);
  return { url: typeof body.url === 'string' && body.url.trim() !== '' ? body.url.trim() : null, file: null };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Fetches a package zip: only from loopback (the sandbox has no internet; it serves zips itself). */
export async function download(source: string): Promise<Buffer> {
  const u = new URL(source);
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || !LOOPBACK.has(u.hostname)) throw new Error('not reachable');
  const r = await fetch(u, { signal: AbortSignal.timeout(10_000) });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
  return Buffer.from(await r.arrayBuffer());
}

/**
 * The package a zip holds (its blueprints.yaml, at the top or in one folder, as GitHub's archives
 * nest it), or the real installer's words for what is wrong with it.
 */
export function packageOf(bytes: Buffer): InstalledPackage | string {
  const files = readZip(bytes);
  if (!files) return 'Package extraction failed.';
  const blueprintPath = [...files.keys()].filter((n) => /^(?:[^/]+\/)?blueprints\.yaml$/.test(n)).sort((a, b) => a.length - b.length)[0];
  if (!blueprintPath) return 'Not a valid Grav package.';
  const folder = blueprintPath.includes('/') ? blueprintPath.slice(0, blueprintPath.indexOf('/') + 1) : '';
  let bp: Record<string, unknown>;
  try {
    const parsed = parseYaml(files.get(blueprintPath)!.toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'Not a valid Grav package.';
    bp = parsed as Record<string, unknown>;
  } catch {
    return 'Not a valid Grav package.';
  }
  const type: PackageType = bp.type === 'theme' ? 'theme' : 'plugin';
  const folderSlug = folder.replace(/\/$/, '').replace(/^grav-(?:plugin|theme)-/, '').replace(/-(?:main|master|develop|\d[\w.]*)$/, '');
  const slugFrom = typeof bp.slug === 'string' ? bp.slug : folderSlug || (typeof bp.name === 'string' ? bp.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') : '');
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(slugFrom)) return 'Package name could not be determined.';
  const text = (k: string, d: string) => (typeof bp[k] === 'string' || typeof bp[k] === 'number' ? String(bp[k]) : d);
  const author = (typeof bp.author === 'object' && bp.author !== null ? bp.author : {}) as Record<string, unknown>;
  const doc = (name: string) => files.get(folder + name)?.toString('utf8') ?? null;
  return {
    slug: slugFrom,
    type,
    name: text('name', slugFrom),
    version: text('version', '0.0.0'),
    date: new Date().toISOString(),
    description: text('description', ''),
    author: { name: typeof author.name === 'string' ? author.name : '', email: typeof author.email === 'string' ? author.email : '', url: typeof author.url === 'string' ? author.url : '' },
    homepage: text('homepage', ''),
    bugs: text('bugs', ''),
    keywords: text('keywords', '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    icon: text('icon', 'plug'),
    dependencies: Array.isArray(bp.dependencies) ? bp.dependencies.filter((d): d is { name: string; version: string } => typeof d === 'object' && d !== null && typeof (d as { name?: unknown }).name === 'string').map((d) => ({ name: d.name, version: String(d.version ?? '*') })) : [],
    readme: doc('README.md'),
    changelog: doc('CHANGELOG.md'),
    symlink: false,
    source: 'direct',
  };
}
