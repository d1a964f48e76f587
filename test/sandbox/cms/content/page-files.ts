/**
 * The content on disk, laid out like the file-based CMS it imitates, under `<data>/pages/`:
 *
 *   pages/01.home/default.en.md       a folder per page; `NN.` is the order prefix (visible page),
 *   pages/01.home/default.de.md       `{template}.{lang}.md` one file per language,
 *   pages/01.home/hero.png            `{template}.md` an untyped base file (single-language sites,
 *   pages/01.home/hero.png.meta.yaml  or the fallback of every language), media files beside them
 *   pages/02.blog/item-one/item.md    with optional `<file>.meta.yaml` sidecars; children nest.
 *
 * Every read rescans the tree (cheap), so a file changed behind the server's back is seen at once;
 * parsed page files are cached by path, size and modification time. Writes go to a temporary file
 * in the same folder and are renamed into place (atomic), then stamped with the sandbox clock's
 * time so `modified` follows `sandbox.clock`. All file operations are synchronous: one request's
 * change is never interleaved with another's.
 *
 * The site's language set lives in `<data>/site.json` (multilanguage is on when it lists any).
 *
 * For the real flavour it also answers what Grav computes from the same files: a page read in a
 * language with the content fallback (asked language, default language, base file;
 * getgrav/grav:system/src/Grav/Common/Language/Language.php getFallbackLanguages()), the public
 * route `/` of the home page (`home.alias`), and a page's `modified` as the newest file of its
 * folder (system/src/Grav/Common/Flex/Types/Pages/Storage/PageStorage.php).
 */
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Clock } from '../../clock';
import { FrontMatterError, parsePageFile, parseYaml, serializePageFile, type YamlMap } from './frontmatter';

export interface SiteConfig {
  /** enabled content languages; empty = a single-language site (multilanguage off) */
  languages: string[];
  /** one of `languages`; null when multilanguage is off */
  defaultLanguage: string | null;
  /** taxonomy types the site declares (always listed by GET /taxonomy, even when unused) */
  taxonomies: string[];
  /**
   * The CMS's `system.languages.include_default_lang_file_extension` (default true): a default
   * language file is named `{template}.{lang}.md`; false names it `{template}.md`.
   */
  includeDefaultLangFileExtension: boolean;
  /**
   * The CMS's `home.alias`: the structural route of the home page. The real service answers that
   * page with the public route `/` (and `raw_route` this one); the documents know no such alias.
   */
  home: string;
}

const SINGLE_LANGUAGE: SiteConfig = { languages: [], defaultLanguage: null, taxonomies: ['category', 'tag'], includeDefaultLangFileExtension: true, home: '/home' };

export function siteConfigFor(languages: string[]): SiteConfig {
  const langs = [...new Set(languages.map((l) => l.trim()).filter(Boolean))];
  return { ...SINGLE_LANGUAGE, languages: langs, defaultLanguage: langs[0] ?? null };
}

/** A markdown file of a page folder. */
export interface PageFileRef {
  /** file name, e.g. `default.de.md` */
  name: string;
  /** `default` */
  template: string;
  /** `de`; null for an untyped base file (`default.md`) */
  lang: string | null;
}

export interface PageNode {
  /** absolute folder path */
  dir: string;
  /** folder name, e.g. `02.blog` */
  folder: string;
  /** folder name without the order prefix */
  slug: string;
  /** the numeric order prefix, null when unordered */
  order: number | null;
  /** digits of the order prefix as written (`02.` → 2); 0 when unordered */
  orderDigits: number;
  /** `/blog/post`; `/` for the pages root */
  route: string;
  parent: PageNode | null;
  /** in native order: ordered folders by prefix, then unordered by slug */
  children: PageNode[];
  /** the folder's markdown files; a folder without any is not a page (its children still are) */
  files: PageFileRef[];
  /** media file names (sidecars and markdown excluded), sorted */
  media: string[];
}

export interface ContentTree {
  /** the pages root container (not a page) */
  root: PageNode;
  /** every folder below the root by route */
  byRoute: Map<string, PageNode>;
  /** every page (folders holding a markdown file), depth first in native order */
  pages: PageNode[];
}

export type ParsedPage =
  | { ok: true; header: YamlMap; content: string; mtimeMs: number; size: number }
  | { ok: false; error: FrontMatterError; mtimeMs: number; size: number };

export interface MediaFile {
  name: string;
  path: string;
  size: number;
  mtimeMs: number;
  /** the `<file>.meta.yaml` sidecar, when present and readable */
  meta: YamlMap | null;
}

const ORDER_RE = /^(\d+)\.(.+)$/;
const META_SUFFIX = '.meta.yaml';

/** `/a/b` from any spelling (`a/b`, `/a/b/`, `a//b`); `/` for the root. */
export function normalizeRoute(raw: string): string {
  const segs = raw.split('/').filter((s) => s !== '');
  return '/' + segs.join('/');
}

export function parentRoute(route: string): string {
  const i = route.lastIndexOf('/');
  return i <= 0 ? '/' : route.slice(0, i);
}

export function routeBasename(route: string): string {
  return route.slice(route.lastIndexOf('/') + 1);
}

/** A slug may become a folder name: one segment, no traversal, no control characters. */
export function slugProblem(slug: string): string | null {
  if (slug === '') return 'must not be empty';
  if (slug === '.' || slug === '..' || slug.includes('..')) return 'must not contain ".."';
  if (/[/\\]/.test(slug)) return 'must be a single path segment';
  if (/[\x00-\x1f\x7f]/.test(slug)) return 'must not contain control characters';
  if (slug.startsWith('.')) return 'must not start with "."';
  if (slug.length > 200) return 'is too long';
  return null;
}

/** Whether `route` is `ancestor` itself or lies below it. */
export function inSubtree(route: string, ancestor: string): boolean {
  return ancestor === '/' || route === ancestor || route.startsWith(ancestor + '/');
}

export function folderName(slug: string, order: number | null, digits = 2): string {
  return order === null ? slug : `${String(order).padStart(digits, '0')}.${slug}`;
}

export class PageFiles {
  readonly root: string;
  private readonly configFile: string;
  private readonly cache = new Map<string, ParsedPage>();
  /** folder listings, trusted while the folder's mtime is unchanged (see `listing`) */
  private readonly listings = new Map<string, { mtimeMs: number; scannedAt: number; entries: { name: string; dir: boolean }[] }>();
  private moveFailure: number | null = null;
  /** deferred seeding, run before the first look at the disk (see `onFirstUse`) */
  private pending: (() => void) | null = null;
  site: SiteConfig;
  /**
   * Like the CMS's `pages.check_method`: 'file' notices a file changed behind the server's back at
   * once (every read looks at the disk); 'none' trusts what it scanned until the sandbox itself
   * writes, which makes lists of a 10,000-page site cheap (the benchmarks).
   */
  checkMethod: 'file' | 'none' = 'file';
  /** the last whole-tree scan, reused under checkMethod 'none' until a write */
  private snapshot: ContentTree | null = null;

  constructor(
    dataDir: string,
    private readonly clock: Clock,
    site?: SiteConfig,
  ) {
    this.root = join(dataDir, 'pages');
    this.configFile = join(dataDir, 'site.json');
    this.site = site ?? this.loadConfig() ?? { ...SINGLE_LANGUAGE };
  }

  private loadConfig(): SiteConfig | null {
    if (!existsSync(this.configFile)) return null;
    try {
      return { ...SINGLE_LANGUAGE, ...(JSON.parse(readFileSync(this.configFile, 'utf8')) as Partial<SiteConfig>) };
    } catch {
      return null;
    }
  }

  /** Sets (and persists) the site's languages and options. */
  configure(site: SiteConfig): void {
    this.site = { ...site, languages: [...site.languages], taxonomies: [...site.taxonomies] };
    mkdirSync(dirname(this.configFile), { recursive: true });
    writeFileSync(this.configFile, JSON.stringify(this.site, null, 2) + '\n');
    this.changed();
  }

  /**
   * Runs `fn` (seeding) right before the content is first looked at, so a sandbox that never
   * serves a page (most auth tests) never pays for writing the demo site.
   */
  onFirstUse(fn: () => void): void {
    this.pending = fn;
  }

  /** Runs the deferred seeding now, if any. */
  ready(): void {
    const fn = this.pending;
    this.pending = null;
    fn?.();
  }

  get multilang(): boolean {
    return this.site.languages.length > 0;
  }

  exists(): boolean {
    return existsSync(this.root);
  }

  // ------------------------------------------------------------------------------------------
  // The tree

  private rootNode(): PageNode {
    this.ready();
    mkdirSync(this.root, { recursive: true });
    return { dir: this.root, folder: '', slug: '', order: null, orderDigits: 0, route: '/', parent: null, children: [], files: [], media: [] };
  }

  /** The whole tree, scanned now. */
  tree(): ContentTree {
    if (this.checkMethod === 'none' && this.snapshot) return this.snapshot;
    const root = this.rootNode();
    const byRoute = new Map<string, PageNode>();
    const pages: PageNode[] = [];
    const walk = (node: PageNode) => {
      this.fill(node);
      for (const child of node.children) {
        // two folders with the same slug (`01.a` and `a`): the first in native order wins, like the CMS
        if (!byRoute.has(child.route)) byRoute.set(child.route, child);
        this.fill(child);
        if (child.files.length) pages.push(child);
        walk(child);
      }
    };
    walk(root);
    const tree = { root, byRoute, pages };
    if (this.checkMethod === 'none') this.snapshot = tree;
    return tree;
  }

  /**
   * The folder at `route` (the root container for `/`), found by walking down from the root, with
   * its subtree scanned `depth` levels deep (1: its children are known and scanned). Null when no
   * folder has that route. Cheaper than `tree()` on big sites.
   */
  folderAt(route: string, depth = 1): PageNode | null {
    let node = this.rootNode();
    this.fill(node);
    for (const seg of normalizeRoute(route).split('/').filter(Boolean)) {
      const child = node.children.find((c) => c.slug === seg);
      if (!child) return null;
      this.fill(child);
      node = child;
    }
    const deeper = (n: PageNode, levels: number) => {
      if (levels <= 0) return;
      for (const c of n.children) {
        this.fill(c);
        deeper(c, levels - 1);
      }
    };
    deeper(node, depth);
    return node;
  }

  /** The page at `route`: a folder holding a markdown file (see `folderAt` for `depth`). */
  find(route: string, depth = 1): PageNode | null {
    const node = this.folderAt(route, depth);
    return node && node.files.length && node.route !== '/' ? node : null;
  }

  /**
   * A folder's entries. Adding, removing or renaming an entry changes the folder's mtime, so a
   * cached listing is reused while the mtime is unchanged, unless it was taken within 100 ms of
   * that mtime (file times are coarse: a change in the same clock tick would be missed, the
   * "racy" case git knows too). Edits inside files are caught by the page-file cache's own stat.
   */
  private listing(dir: string): { name: string; dir: boolean }[] | null {
    let st;
    try {
      st = statSync(dir);
    } catch {
      this.listings.delete(dir);
      return null;
    }
    const hit = this.listings.get(dir);
    if (hit && this.checkMethod === 'none') return hit.entries;
    if (hit && hit.mtimeMs === st.mtimeMs && hit.scannedAt - st.mtimeMs > 100) return hit.entries;
    let raw;
    try {
      raw = readdirSync(dir, { withFileTypes: true });
    } catch {
      return null;
    }
    const entries = raw.filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isFile())).map((e) => ({ name: e.name, dir: e.isDirectory() }));
    this.listings.set(dir, { mtimeMs: st.mtimeMs, scannedAt: Date.now(), entries });
    return entries;
  }

  private fill(node: PageNode): void {
    if (node.files.length || node.children.length || node.media.length) return;
    const entries = this.listing(node.dir);
    if (!entries) return;
    const langs = new Set(this.site.languages);
    for (const e of entries) {
      if (e.dir) {
        const m = ORDER_RE.exec(e.name);
        const slug = m ? m[2]! : e.name;
        node.children.push({
          dir: join(node.dir, e.name),
          folder: e.name,
          slug,
          order: m ? Number(m[1]) : null,
          orderDigits: m ? m[1]!.length : 0,
          route: (node.route === '/' ? '' : node.route) + '/' + slug,
          parent: node,
          children: [],
          files: [],
          media: [],
        });
      } else if (e.name.endsWith('.md')) node.files.push(pageFileRef(e.name, langs));
      else if (!e.name.endsWith(META_SUFFIX)) node.media.push(e.name);
    }
    node.children.sort(nativeOrder);
    node.files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    node.media.sort();
  }

  /** The child page folders that are pages. */
  pageChildren(node: PageNode): PageNode[] {
    for (const c of node.children) this.fill(c);
    return node.children.filter((c) => c.files.length > 0);
  }

  /** Page folder paths relative to the pages root, with `/` separators (`02.blog/item-one`). */
  relPath(path: string): string {
    return relative(this.root, path).split(sep).join('/');
  }

  // ------------------------------------------------------------------------------------------
  // Languages of a page

  isLanguage(code: string): boolean {
    return this.site.languages.includes(code);
  }

  /**
   * The file a page is read from in `lang` (default: the site's default language): the explicit
   * `{template}.{lang}.md`, else the untyped base file, which stands in for every language. On a
   * single-language site: the base file (or any markdown file). Null when the page has no file
   * for that language.
   */
  resolve(node: PageNode, lang?: string | null, fallback = false): { file: PageFileRef; language: string | null } | null {
    if (!node.files.length) return null;
    if (!this.multilang) {
      const file = node.files.find((f) => f.lang === null) ?? node.files[0]!;
      return { file, language: null };
    }
    const want = lang ?? this.site.defaultLanguage;
    // `fallback`: the CMS's default content fallback, the asked language, then the default
    // language, then the untyped base file (what the real service reads a page in)
    const chain = fallback ? [...new Set([want, this.site.defaultLanguage])] : [want];
    for (const code of chain) {
      const explicit = node.files.find((f) => f.lang === code);
      if (explicit) return { file: explicit, language: code };
    }
    const base = node.files.find((f) => f.lang === null);
    return base ? { file: base, language: null } : null;
  }

  /**
   * The newest modification time of any file in a page's folder (its language files, media and
   * sidecars): what the CMS's page index reports as the page's `modified`.
   */
  folderModifiedMs(node: PageNode): number {
    let newest = 0;
    for (const e of this.listing(node.dir) ?? []) {
      if (e.dir) continue;
      try {
        newest = Math.max(newest, statSync(join(node.dir, e.name)).mtimeMs);
      } catch {
        /* gone meanwhile */
      }
    }
    return newest;
  }

  /** The route the real service answers for a page: `/` for the home page, else its own. */
  publicRoute(node: PageNode): string {
    return node.route === this.site.home ? '/' : node.route;
  }

  /**
   * Languages the CMS reports as translated, with the file backing each: every language with its
   * own file, plus the default language when only an untyped base file stands for it.
   */
  translated(node: PageNode): Record<string, string> {
    const out: Record<string, string> = {};
    if (!this.multilang) return out;
    const base = node.files.find((f) => f.lang === null);
    for (const code of this.site.languages) {
      const file = node.files.find((f) => f.lang === code);
      if (file) out[code] = file.name;
      else if (code === this.site.defaultLanguage && base) out[code] = base.name;
    }
    return out;
  }

  /** The file name a page of `template` gets for `lang` (null: the untyped base file). */
  fileNameFor(template: string, lang: string | null): string {
    const base = basename(template);
    if (lang === null || !this.multilang) return `${base}.md`;
    if (lang === this.site.defaultLanguage && !this.site.includeDefaultLangFileExtension) return `${base}.md`;
    return `${base}.${lang}.md`;
  }

  // ------------------------------------------------------------------------------------------
  // Page files

  read(node: PageNode, file: PageFileRef): ParsedPage {
    const path = join(node.dir, file.name);
    if (this.checkMethod === 'none') {
      const trusted = this.cache.get(path);
      if (trusted) return trusted;
    }
    const st = statSync(path);
    const hit = this.cache.get(path);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    const text = readFileSync(path, 'utf8');
    let parsed: ParsedPage;
    try {
      const { header, content } = parsePageFile(text);
      parsed = { ok: true, header, content, mtimeMs: st.mtimeMs, size: st.size };
    } catch (err) {
      if (!(err instanceof FrontMatterError)) throw err;
      parsed = { ok: false, error: err, mtimeMs: st.mtimeMs, size: st.size };
    }
    this.cache.set(path, parsed);
    return parsed;
  }

  writePage(dir: string, fileName: string, header: Record<string, unknown>, content: string): void {
    this.writeFile(join(dir, fileName), serializePageFile(header, content));
  }

  /** Atomic write (temporary file + rename), stamped with the sandbox clock (or `mtimeMs`). */
  writeFile(path: string, data: string | Buffer, mtimeMs?: number): void {
    mkdirSync(dirname(path), { recursive: true });
    const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(4).toString('hex')}.tmp`);
    writeFileSync(tmp, data);
    renameSync(tmp, path);
    const t = (mtimeMs ?? this.clock.now()) / 1000;
    utimesSync(path, t, t);
    this.cache.delete(path);
    this.changed();
  }

  /** The sandbox wrote: under checkMethod 'none' what it trusted is scanned again. */
  private changed(): void {
    this.snapshot = null;
    if (this.checkMethod === 'none') this.listings.clear();
  }

  removeFile(path: string): void {
    if (existsSync(path)) unlinkSync(path);
    this.cache.delete(path);
    this.changed();
  }

  renameFile(from: string, to: string): void {
    renameSync(from, to);
    this.cache.delete(from);
    this.cache.delete(to);
    this.changed();
  }

  createFolder(path: string): void {
    mkdirSync(path, { recursive: true });
    this.changed();
  }

  removeFolder(path: string): void {
    rmSync(path, { recursive: true, force: true });
    this.dropCacheUnder(path);
    this.changed();
  }

  /**
   * Test knob: the `n`th folder move from now (1 = the next) fails with an I/O-like error, to
   * exercise the rollback of multi-step operations such as reorganize.
   */
  failMoveAfter(n: number | null): void {
    this.moveFailure = n;
  }

  moveFolder(from: string, to: string): void {
    if (this.moveFailure !== null && --this.moveFailure <= 0) {
      this.moveFailure = null;
      throw new Error(`EIO: injected failure moving ${basename(from)}`);
    }
    mkdirSync(dirname(to), { recursive: true });
    renameSync(from, to);
    this.dropCacheUnder(from);
    this.changed();
  }

  copyFolder(from: string, to: string): void {
    // like the CMS's folder copy: the copies are new files (modified now)
    cpSync(from, to, { recursive: true, errorOnExist: true, force: false });
    this.changed();
  }

  private dropCacheUnder(dir: string): void {
    for (const key of this.cache.keys()) if (key.startsWith(dir + sep)) this.cache.delete(key);
    for (const key of this.listings.keys()) if (key === dir || key.startsWith(dir + sep)) this.listings.delete(key);
  }

  // ------------------------------------------------------------------------------------------
  // Media

  media(node: PageNode): MediaFile[] {
    return node.media.map((name) => this.mediaFile(node, name)).filter((m): m is MediaFile => m !== null);
  }

  mediaFile(node: PageNode, name: string): MediaFile | null {
    const path = join(node.dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      return null;
    }
    if (!st.isFile()) return null;
    return { name, path, size: st.size, mtimeMs: st.mtimeMs, meta: this.sidecar(path) };
  }

  private sidecar(path: string): YamlMap | null {
    const file = path + META_SUFFIX;
    if (!existsSync(file)) return null;
    try {
      const v = parseYaml(readFileSync(file, 'utf8'));
      return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    } catch {
      return null; // an unreadable sidecar hides its metadata, never the file
    }
  }

  /**
   * Every file backing a medium: the file, its retina variants (`name@2x.ext`) and their
   * sidecars. Empty when none exists.
   */
  mediaVariants(node: PageNode, name: string): string[] {
    const dot = name.lastIndexOf('.');
    const stem = dot > 0 ? name.slice(0, dot) : name;
    const ext = dot > 0 ? name.slice(dot + 1) : '';
    const variant = new RegExp(`^${escapeRe(stem)}@\\d+x\\.${escapeRe(ext)}$`, 'i');
    const out: string[] = [];
    let entries: string[];
    try {
      entries = readdirSync(node.dir);
    } catch {
      return out;
    }
    for (const entry of entries) {
      if (entry !== name && !variant.test(entry)) continue;
      const path = join(node.dir, entry);
      if (existsSync(path)) out.push(path);
      if (existsSync(path + META_SUFFIX)) out.push(path + META_SUFFIX);
    }
    return out;
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function pageFileRef(name: string, langs: Set<string>): PageFileRef {
  const stem = name.slice(0, -3);
  const dot = stem.lastIndexOf('.');
  if (dot > 0) {
    const code = stem.slice(dot + 1);
    if (langs.has(code)) return { name, template: stem.slice(0, dot), lang: code };
  }
  return { name, template: stem, lang: null };
}

/** Ordered folders by prefix first (then name), then unordered ones by slug, case-insensitively. */
export function nativeOrder(a: PageNode, b: PageNode): number {
  if (a.order !== null && b.order !== null) return a.order - b.order || cmp(a.folder, b.folder);
  if (a.order !== null) return -1;
  if (b.order !== null) return 1;
  return cmp(a.slug.toLowerCase(), b.slug.toLowerCase()) || cmp(a.slug, b.slug);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
