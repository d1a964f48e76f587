/**
 * The package repository the sandbox site "downloads" from, and the packages it starts with. The
 * repository is generated from a fixed seed, so every sandbox (and every test run) sees the same
 * few hundred plugins and themes: names, descriptions, authors, keywords, versions, dependencies,
 * a readme and a changelog in markdown, some premium (a licence needed to install).
 *
 * Packages with a behaviour of their own (named so a test or a person can find them):
 *   - `broken-installer`  in the repository; its install fails (the download is corrupt) while it
 *                         is among the world's `failingInstalls` (by default)
 *   - `sitemap`           installed with an update available whose update fails while it is among
 *                         `failingUpdates` (by default), so an update-all has one failure; a test
 *                         takes it out of the list to see a retry succeed
 *   - `devtools`          installed as a symlink (a developer's checkout): never updatable, never
 *                         overwritten, though the repository has a newer version
 *   - `seo-suite`, `shop-pro`, `members-area` premium: install needs a licence
 *   - `gallery-plus`      depends on `lightbox-core` (not installed): installing it installs both
 *   - `problems`          installed without README and CHANGELOG (readme and changelog answer 404)
 */

export type PackageType = 'plugin' | 'theme';

export interface Author {
  name: string;
  email: string;
  url: string;
}

/** A package as the repository (or a package's own blueprints.yaml) describes it. */
export interface PackageInfo {
  slug: string;
  type: PackageType;
  name: string;
  version: string;
  /** release date of `version`, ISO 8601 */
  date: string;
  description: string;
  author: Author;
  homepage: string;
  bugs: string;
  keywords: string[];
  icon: string;
  /** premium: installing needs a licence (its purchase page) */
  premium?: { permalink: string };
  dependencies: { name: string; version: string }[];
  /** README.md, null when the package ships none */
  readme: string | null;
  /** CHANGELOG.md, null when the package ships none */
  changelog: string | null;
}

/** mulberry32: a small PRNG, the same numbers for the same seed everywhere. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ['simple', 'smart', 'quick', 'better', 'advanced', 'tiny', 'auto', 'social', 'secure', 'live', 'static', 'custom', 'multi', 'inline', 'lazy', 'open', 'pretty', 'clean', 'bright', 'rapid'];
const NOUNS = ['search', 'gallery', 'forms', 'cache', 'share', 'comments', 'captcha', 'analytics', 'redirects', 'breadcrumbs', 'archives', 'feed', 'tags', 'maps', 'slider', 'video', 'audio', 'backup', 'newsletter', 'calendar', 'events', 'faq', 'glossary', 'pagination', 'toc', 'highlight', 'embed', 'icons', 'fonts', 'minify', 'cookies', 'consent', 'translate', 'sitemaps', 'snippets', 'shortcodes', 'tabs', 'accordion', 'tooltips', 'notices'];
const THEME_WORDS = ['aurora', 'basalt', 'cedar', 'dune', 'ember', 'fjord', 'glacier', 'harbor', 'iris', 'juniper', 'kelp', 'lumen', 'meadow', 'nimbus', 'onyx', 'prairie', 'quartz', 'reef', 'sierra', 'tundra', 'umber', 'vale', 'willow', 'xenon', 'yarrow', 'zephyr', 'atlas', 'beacon', 'canyon', 'delta', 'echo', 'flint', 'grove', 'haven', 'indigo', 'jade', 'kestrel', 'lagoon', 'mesa', 'nova'];
const AUTHORS: Author[] = [
  { name: 'Team Grav', email: 'devs@getgrav.org', url: 'https://getgrav.org' },
  { name: 'Trilby Media', email: 'hello@trilby.example', url: 'https://trilby.example' },
  { name: 'Ada Lindqvist', email: 'ada@lindqvist.example', url: 'https://lindqvist.example' },
  { name: 'Kenji Morita', email: 'kenji@morita.example', url: 'https://morita.example' },
  { name: 'Open Web Coop', email: 'info@openweb.example', url: 'https://openweb.example' },
  { name: 'Sofía Ramírez', email: 'sofia@ramirez.example', url: 'https://ramirez.example' },
];
const ICONS = ['plug', 'search', 'image', 'list', 'bolt', 'share-alt', 'comments', 'shield', 'chart-line', 'map', 'video-camera', 'music', 'archive', 'envelope', 'calendar', 'question', 'book', 'code', 'cog', 'globe'];
const VERBS = ['Adds', 'Brings', 'Provides', 'Enables', 'Offers'];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const titleCase = (slug: string) => slug.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');

export function compareVersions(a: string, b: string): number {
  const x = a.split(/[.-]/).map((n) => parseInt(n, 10) || 0);
  const y = b.split(/[.-]/).map((n) => parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** Versions leading up to `version`, newest first (a changelog's headings). */
function history(version: string, n: number): string[] {
  const [major = 1, minor = 0, patch = 0] = version.split('.').map(Number);
  const out = [version];
  let [mi, pa] = [minor, patch];
  while (out.length < n) {
    if (pa > 0) pa--;
    else if (mi > 0) {
      mi--;
      pa = 3;
    } else break;
    out.push(`${major}.${mi}.${pa}`);
  }
  return out;
}

/** A day before `iso` times `days`, as YYYY-MM-DD. */
const daysBefore = (iso: string, days: number) => new Date(Date.parse(iso) - days * 86400_000).toISOString().slice(0, 10);

export function changelogFor(name: string, version: string, date: string, n = 4): string {
  return history(version, n)
    .map((v, i) => `# v${v}\n## ${daysBefore(date, i * 41)}\n\n1. [](#new)\n    * ${name}: ${i === 0 ? 'settings for the new options' : `improvement number ${n - i}`}\n1. [](#bugfix)\n    * Fixed a notice when the page has no header (#${100 + i * 7})`)
    .join('\n\n');
}

export function readmeFor(p: { name: string; slug: string; description: string; type: PackageType }): string {
  const dir = p.type === 'theme' ? 'themes' : 'plugins';
  return [
    `# ${p.name}`,
    '',
    p.description,
    '',
    '## Installation',
    '',
    `Install it from the admin's package manager, or with \`bin/gpm install ${p.slug}\`, or unzip it into \`user/${dir}/${p.slug}\`.`,
    '',
    '## Configuration',
    '',
    '```yaml',
    'enabled: true',
    '```',
    '',
    'See the [documentation](https://example.test/docs) for every option. <script>alert("a readme is untrusted markdown")</script>',
  ].join('\n');
}

const BASE_DATE = '2026-10-01T00:00:00Z';

function generated(seed: number, plugins: number, themes: number): PackageInfo[] {
  const r = prng(seed);
  const out: PackageInfo[] = [];
  const seen = new Set<string>();
  const make = (slug: string, type: PackageType) => {
    const name = titleCase(slug);
    const version = `${1 + Math.floor(r() * 4)}.${Math.floor(r() * 10)}.${Math.floor(r() * 8)}`;
    const date = new Date(Date.parse(BASE_DATE) - Math.floor(r() * 900) * 86400_000).toISOString();
    const noun = slug.split('-').at(-1)!;
    const description = type === 'theme' ? `${name}: a ${pick(r, ['clean', 'bold', 'minimal', 'classic', 'modern'])} theme with ${pick(r, ['a dark mode', 'large images', 'a sidebar', 'a blog layout', 'landing-page blocks'])}.` : `${pick(r, VERBS)} ${noun} to your site, ${pick(r, ['with sensible defaults', 'configurable per page', 'with a shortcode', 'from the admin', 'with Twig helpers'])}.`;
    const info: PackageInfo = {
      slug,
      type,
      name,
      version,
      date,
      description,
      author: pick(r, AUTHORS),
      homepage: `https://github.com/example/grav-${type}-${slug}`,
      bugs: `https://github.com/example/grav-${type}-${slug}/issues`,
      keywords: [type, noun, pick(r, ['seo', 'content', 'media', 'admin', 'social', 'performance'])],
      icon: type === 'theme' ? 'paint-brush' : pick(r, ICONS),
      dependencies: [{ name: 'grav', version: '>=1.7.0' }],
      readme: null,
      changelog: null,
    };
    if (type === 'plugin' && r() < 0.06) info.premium = { permalink: slug };
    out.push(info);
  };
  while (out.length < plugins) {
    const slug = `${pick(r, ADJECTIVES)}-${pick(r, NOUNS)}`;
    if (seen.has(slug)) {
      const alt = `${slug}-${Math.floor(r() * 90) + 10}`;
      if (seen.has(alt)) continue;
      seen.add(alt);
      make(alt, 'plugin');
      continue;
    }
    seen.add(slug);
    make(slug, 'plugin');
  }
  for (const word of THEME_WORDS.slice(0, themes)) make(word, 'theme');
  return out;
}

const TEAM: Author = AUTHORS[0]!;

/** Hand-written entries: the installed packages' repository versions and the special ones above. */
function special(): PackageInfo[] {
  const p = (slug: string, type: PackageType, name: string, version: string, description: string, more: Partial<PackageInfo> = {}): PackageInfo => ({
    slug,
    type,
    name,
    version,
    date: '2026-11-10T09:00:00Z',
    description,
    author: TEAM,
    homepage: `https://github.com/getgrav/grav-${type}-${slug}`,
    bugs: `https://github.com/getgrav/grav-${type}-${slug}/issues`,
    keywords: [type, slug],
    icon: 'plug',
    dependencies: [{ name: 'grav', version: '>=1.7.0' }],
    readme: null,
    changelog: null,
    ...more,
  });
  return [
    p('api', 'plugin', 'API', '1.0.12', 'RESTful API for Grav CMS. Provides headless access to pages, media, configuration, users, and system management.', { icon: 'plug', dependencies: [{ name: 'grav', version: '>=1.7.0' }, { name: 'login', version: '>=3.8.11' }] }),
    p('email', 'plugin', 'Email', '5.1.0', 'Enables the emailing system for Grav', { icon: 'envelope', dependencies: [{ name: 'grav', version: '>=1.7.41' }, { name: 'form', version: '>=8.0.0' }] }),
    p('login', 'plugin', 'Login', '3.8.14', 'Enables user authentication and login screen.', { icon: 'sign-in' }),
    p('form', 'plugin', 'Form', '9.1.3', 'Enables forms handling and processing', { icon: 'check-square' }),
    p('error', 'plugin', 'Error', '2.0.1', 'Displays the error page.', { icon: 'warning' }),
    p('team-notes', 'plugin', 'Team Notes', '1.3.0', 'Notes for the people who run the site, pinned on an admin page of their own.', { icon: 'sticky-note' }),
    p('markdown-notices', 'plugin', 'Markdown Notices', '1.2.1', 'Adds **notices** (info, warning, note, tip) to your markdown with a simple `!` syntax.', { icon: 'exclamation-circle' }),
    p('sitemap', 'plugin', 'Sitemap', '4.1.0', 'Provides an XML sitemap of your pages for search engines.', { icon: 'map-marker' }),
    p('devtools', 'plugin', 'DevTools', '1.7.0', 'Plugin and theme scaffolding for developers.', { icon: 'wrench' }),
    p('broken-installer', 'plugin', 'Broken Installer', '0.3.0', 'An importer whose download is corrupt: installing it fails (the sandbox keeps it so failures can be seen).', { icon: 'bug' }),
    p('lightbox-core', 'plugin', 'Lightbox Core', '2.2.0', 'The lightbox script other plugins build on.', { icon: 'clone' }),
    p('gallery-plus', 'plugin', 'Gallery Plus', '3.0.2', 'Image galleries with a lightbox, built on Lightbox Core.', { icon: 'image', dependencies: [{ name: 'grav', version: '>=1.7.0' }, { name: 'lightbox-core', version: '>=2.0.0' }] }),
    p('seo-suite', 'plugin', 'SEO Suite', '2.4.0', 'Meta tags, Open Graph, structured data and a page score. Premium.', { icon: 'line-chart', premium: { permalink: 'seo-suite' }, author: AUTHORS[1]! }),
    p('shop-pro', 'plugin', 'Shop Pro', '1.9.3', 'Sell products and downloads from your pages. Premium.', { icon: 'shopping-cart', premium: { permalink: 'shop-pro' }, author: AUTHORS[1]! }),
    p('members-area', 'plugin', 'Members Area', '1.1.0', 'Pages only signed-in members may read, with sign-up. Premium.', { icon: 'users', premium: { permalink: 'members-area' }, author: AUTHORS[4]! }),
    p('quark2', 'theme', 'Quark 2', '1.2.0', 'The modernized Grav default theme — Blades CSS foundation, with light/dark/auto mode and Font Awesome 7 icons.', { icon: 'meteor' }),
    p('antimatter', 'theme', 'Antimatter', '3.0.1', 'The classic Grav theme.', { icon: 'empire' }),
  ];
}

export interface Repository {
  /** every package by slug, plugins then themes, in the repository's order */
  packages: Map<string, PackageInfo>;
}

let cached: PackageInfo[] | null = null;

/** The repository as first published: 320 plugins and 40 themes (the same on every call). */
export function baseRepository(): PackageInfo[] {
  cached ??= (() => {
    const fixed = special();
    const taken = new Set(fixed.map((p) => p.slug));
    const rest = generated(1515, 320 - fixed.filter((p) => p.type === 'plugin').length, 38).filter((p) => !taken.has(p.slug));
    const all = [...fixed, ...rest];
    for (const p of all) {
      p.readme = readmeFor(p);
      p.changelog = changelogFor(p.name, p.version, p.date);
    }
    return [...all.filter((p) => p.type === 'plugin').sort((a, b) => a.slug.localeCompare(b.slug)), ...all.filter((p) => p.type === 'theme').sort((a, b) => a.slug.localeCompare(b.slug))];
  })();
  return cached.map((p) => structuredClone(p));
}

export interface InstalledSeed {
  slug: string;
  type: PackageType;
  version: string;
  symlink?: boolean;
  /** no README / CHANGELOG on disk */
  bare?: boolean;
}

/**
 * What the site has installed at first: the settings' packages (extensions.ts) and a few more,
 * versions as the recorded site where it had them; email, login, team-notes, markdown-notices,
 * sitemap and quark2 have updates waiting.
 */
export const INSTALLED_SEED: InstalledSeed[] = [
  { slug: 'api', type: 'plugin', version: '1.0.12' },
  { slug: 'email', type: 'plugin', version: '5.0.3' },
  { slug: 'error', type: 'plugin', version: '2.0.1' },
  { slug: 'form', type: 'plugin', version: '9.1.3' },
  { slug: 'login', type: 'plugin', version: '3.8.13' },
  { slug: 'team-notes', type: 'plugin', version: '1.2.0' },
  { slug: 'problems', type: 'plugin', version: '0.9.0', bare: true },
  { slug: 'markdown-notices', type: 'plugin', version: '1.1.0' },
  { slug: 'sitemap', type: 'plugin', version: '4.0.1' },
  { slug: 'devtools', type: 'plugin', version: '1.6.2', symlink: true },
  { slug: 'quark2', type: 'theme', version: '1.1.6' },
  { slug: 'antimatter', type: 'theme', version: '3.0.1' },
];

/** The core's newer release per flavour's starting version (a knob makes the core latest instead). */
export function nextCoreVersion(current: string): string {
  const [major = 1, minor = 0, patch = 0] = current.split('.').map(Number);
  return `${major}.${minor}.${patch + 2}`;
}

/** The core's changelog entries newer than `from`, up to `to`, newest first. */
export function coreChangelog(from: string, to: string): { version: string; date: string; content: string }[] {
  const [major = 1, minor = 0, patch = 0] = to.split('.').map(Number);
  const out: { version: string; date: string; content: string }[] = [];
  for (let p = patch; p >= 0; p--) {
    const version = `${major}.${minor}.${p}`;
    if (compareVersions(version, from) <= 0) break;
    out.push({ version, date: daysBefore('2026-11-15T00:00:00Z', (patch - p) * 9), content: `1. [](#improved)\n    * Faster page collections (${version})\n1. [](#bugfix)\n    * Fixed the cache being cleared twice on save` });
  }
  return out;
}
