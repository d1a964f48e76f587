/**
 * Starting content, written straight to disk (fast: the 301-page demo takes a few tens of
 * milliseconds, 10,000 generated pages a few seconds). Deterministic, so tests can name pages.
 *
 *   demo     a multilanguage site (en default, de, fr) of exactly 301 pages: home (with one child,
 *            `/home/highlights`, tagged with the number 2024), a blog of 140
 *            posts (some only in English, a third in German, a fifth in French, every 17th only an
 *            untyped base file, every 23rd unpublished), docs in 10 ordered chapters of 12 pages,
 *            about pages with a unicode slug (`über-uns`) and one with a space (`our team`), a
 *            contact form, untyped legal pages, an unordered archive; taxonomy (category, tag);
 *            media (small generated PNGs, a text file, a PDF) with `.meta.yaml` sidecars
 *   single   a single-language site of 7 pages (untyped `{template}.md` files)
 *   empty    no pages
 *   {pages}  N generated pages in sections of 100, for benchmarks
 *
 * `languages` overrides a seed's languages (the first is the default; [] = single-language).
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { serializePageFile, stringifyYaml } from './frontmatter';
import { siteConfigFor, type PageFiles } from './page-files';

export type ContentSeed = 'demo' | 'single' | 'empty' | { pages: number };

const DEMO_LANGUAGES = ['en', 'de', 'fr'];
export const DEMO_PAGE_COUNT = 301;

export interface ContentSeedInfo {
  seed: string;
  pages: number;
  languages: string[];
}

type Variant = { header: Record<string, unknown>; content: string };
/** language code (or null for the untyped base file) → what that file holds */
type Variants = Map<string | null, Variant>;

const DAY = 86_400_000;
const BASE_TIME = Date.UTC(2024, 0, 1, 9, 0, 0);

class Writer {
  pages = 0;
  readonly langs: string[];

  constructor(
    private readonly root: string,
    langs: string[],
  ) {
    this.langs = langs;
  }

  /** Writes one page folder; `rel` uses `/`. Variants for languages the site lacks are dropped. */
  page(rel: string, template: string, variants: Variants, mtimeMs: number | null, media: [string, Buffer, Record<string, unknown>?][] = []): void {
    const dir = join(this.root, ...rel.split('/'));
    mkdirSync(dir, { recursive: true });
    const files: [string, Variant][] = [];
    for (const [lang, v] of variants) {
      if (lang === null) files.push([`${template}.md`, v]);
      else if (this.langs.includes(lang)) files.push([`${template}.${lang}.md`, v]);
    }
    if (!files.length) {
      // a single-language site (or a language set without this page's languages): one untyped file
      const v = variants.get(this.langs[0] ?? 'en') ?? variants.values().next().value!;
      files.push([`${template}.md`, v]);
    }
    for (const [name, v] of files) this.file(join(dir, name), serializePageFile(v.header, v.content), mtimeMs);
    for (const [name, data, meta] of media) {
      this.file(join(dir, name), data, mtimeMs);
      if (meta) this.file(join(dir, `${name}.meta.yaml`), stringifyYaml(meta), mtimeMs);
    }
    this.pages++;
  }

  private file(path: string, data: string | Buffer, mtimeMs: number | null): void {
    writeFileSync(path, data);
    if (mtimeMs !== null) utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
  }
}

/** A seed's own languages: en, de, fr for the demo and generated sites; none for the others. */
export function defaultLanguages(seed: ContentSeed): string[] {
  return seed === 'demo' || typeof seed === 'object' ? [...DEMO_LANGUAGES] : [];
}

/** Seeds the store's folder (which should be empty) and configures the site's languages. */
export function seedContent(store: PageFiles, seed: ContentSeed, languages?: string[]): ContentSeedInfo {
  const langs = languages ?? defaultLanguages(seed);
  store.configure(siteConfigFor(langs));
  mkdirSync(store.root, { recursive: true });
  const w = new Writer(store.root, store.site.languages);
  if (seed === 'demo') demo(w);
  else if (seed === 'single') single(w);
  else if (typeof seed === 'object') generated(w, Math.max(0, Math.floor(seed.pages)));
  return { seed: typeof seed === 'object' ? `${seed.pages} pages` : seed, pages: w.pages, languages: store.site.languages };
}

// ----------------------------------------------------------------------------------------------
// Generated media

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/** A valid PNG of one colour, `width`×`height` pixels. */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

// ----------------------------------------------------------------------------------------------
// Words

const NOUNS = {
  en: ['garden', 'river', 'mountain', 'kitchen', 'library', 'harbour', 'forest', 'market', 'bridge', 'island', 'meadow', 'castle', 'village', 'orchard', 'lighthouse', 'workshop', 'festival', 'journey', 'recipe', 'season'],
  de: ['Garten', 'Fluss', 'Berg', 'Küche', 'Bibliothek', 'Hafen', 'Wald', 'Markt', 'Brücke', 'Insel', 'Wiese', 'Burg', 'Dorf', 'Obstgarten', 'Leuchtturm', 'Werkstatt', 'Fest', 'Reise', 'Rezept', 'Jahreszeit'],
  fr: ['jardin', 'rivière', 'montagne', 'cuisine', 'bibliothèque', 'port', 'forêt', 'marché', 'pont', 'île', 'prairie', 'château', 'village', 'verger', 'phare', 'atelier', 'festival', 'voyage', 'recette', 'saison'],
};
const ADJECTIVES = {
  en: ['quiet', 'bright', 'hidden', 'old', 'new', 'little', 'golden', 'northern', 'early', 'wild'],
  de: ['Stiller', 'Heller', 'Verborgener', 'Alter', 'Neuer', 'Kleiner', 'Goldener', 'Nördlicher', 'Früher', 'Wilder'],
  fr: ['calme', 'lumineux', 'caché', 'ancien', 'nouveau', 'petit', 'doré', 'nordique', 'matinal', 'sauvage'],
};
const SENTENCES = {
  en: ['This page was written for the demo site.', 'Every paragraph here is generated, so do not read too much into it.', 'Edit it, translate it, move it around: that is what it is for.', 'Markdown keeps the text portable between tools.'],
  de: ['Diese Seite wurde für die Demo-Website geschrieben.', 'Jeder Absatz hier ist generiert.', 'Bearbeiten, übersetzen, verschieben: dafür ist sie da.', 'Markdown hält den Text zwischen Werkzeugen portabel.'],
  fr: ['Cette page a été écrite pour le site de démonstration.', 'Chaque paragraphe ici est généré.', 'Modifiez-la, traduisez-la, déplacez-la : elle est faite pour cela.', 'Le Markdown garde le texte portable entre les outils.'],
};
type Lang = keyof typeof NOUNS;
const CATEGORIES = ['news', 'releases', 'tutorials', 'opinion'];
const TAGS = ['grav', 'markdown', 'travel', 'food', 'photography', 'design', 'howto', 'community'];
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function body(lang: Lang, title: string, n: number): string {
  const s = SENTENCES[lang];
  const para = (k: number) => [s[k % s.length], s[(k + 1) % s.length], s[(k + 2) % s.length]].join(' ');
  let md = `# ${title}\n\n${para(n)}\n\n${para(n + 1)}\n`;
  if (n % 3 === 0) md += `\n- ${NOUNS[lang][n % 20]}\n- ${NOUNS[lang][(n + 7) % 20]}\n- ${NOUNS[lang][(n + 13) % 20]}\n`;
  if (n % 4 === 0) md += `\n**${cap(ADJECTIVES[lang][n % 10]!)}** — *${NOUNS[lang][(n + 3) % 20]}*.\n`;
  return md;
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');

function variants(entries: [string | null, Variant][]): Variants {
  return new Map(entries);
}

// ----------------------------------------------------------------------------------------------
// Seeds

function demo(w: Writer): void {
  const tri = (titles: Record<Lang, string>, header: Record<string, unknown> = {}, n = 0, langs: Lang[] = ['en', 'de', 'fr']) =>
    variants(langs.map((l) => [l, { header: { title: titles[l], ...header }, content: body(l, titles[l], n) }]));

  w.page(
    '01.home',
    'default',
    tri({ en: 'Home', de: 'Startseite', fr: 'Accueil' }, { menu: 'Home', taxonomy: { category: ['news'], tag: ['grav'] } }, 1),
    BASE_TIME,
    [
      ['hero.png', solidPng(64, 32, [230, 120, 40]), { alt: 'Sunset over the harbour', title: 'Harbour', caption: 'Evening light', tags: ['harbour', 'sunset'] }],
      ['banner.png', solidPng(120, 40, [40, 90, 200]), { alt: 'Team at the workshop', title: 'Workshop', description: 'Our team, 2024', tags: ['team', 'workshop'] }],
      ['logo.png', solidPng(16, 16, [20, 20, 20])],
      ['notes.txt', Buffer.from('Notes about the home page.\n'), { title: 'Notes', tags: ['internal'] }],
      ['brochure.pdf', PDF, { alt: '', title: 'Brochure', caption: 'Print version' }],
    ],
  );

  // a child of the home page, so a client can see how home's children are addressed (the real
  // service names home `/` but its children `/home/…`), and a numeric taxonomy term (a real
  // service answers it as a JSON number in GET /taxonomy)
  w.page('01.home/01.highlights', 'default', tri({ en: 'Highlights', de: 'Höhepunkte', fr: 'Points forts' }, { taxonomy: { category: ['news'], tag: [2024] } }, 15), BASE_TIME);

  w.page(
    '02.blog',
    'blog',
    tri({ en: 'Blog', de: 'Blog', fr: 'Blog' }, { child_type: 'item', content: { items: '@self.children', order: { by: 'date', dir: 'desc' }, limit: 10 } }, 2),
    BASE_TIME,
  );
  for (let i = 1; i <= 140; i++) {
    const adj = i % 10;
    const noun = (i * 7) % 20;
    const slug = `${ADJECTIVES.en[adj]}-${NOUNS.en[noun]}-${i}`;
    const titles = { en: `${cap(ADJECTIVES.en[adj]!)} ${NOUNS.en[noun]} (${i})`, de: `${ADJECTIVES.de[adj]} ${NOUNS.de[noun]} (${i})`, fr: `${cap(NOUNS.fr[noun]!)} ${ADJECTIVES.fr[adj]} (${i})` };
    const date = BASE_TIME + i * 2 * DAY;
    const header = (l: Lang) => ({
      title: titles[l],
      date: isoDate(date),
      taxonomy: { category: [CATEGORIES[i % 4]], tag: [TAGS[i % 8], TAGS[(i * 3 + 1) % 8]].filter((t, k, a) => a.indexOf(t) === k) },
      ...(i % 23 === 0 ? { published: false } : {}),
    });
    const entries: [string | null, Variant][] = [];
    if (i % 17 === 0) entries.push([null, { header: header('en'), content: body('en', titles.en, i) }]);
    else entries.push(['en', { header: header('en'), content: body('en', titles.en, i) }]);
    if (i % 3 === 0) entries.push(['de', { header: header('de'), content: body('de', titles.de, i) }]);
    if (i % 5 === 0) entries.push(['fr', { header: header('fr'), content: body('fr', titles.fr, i) }]);
    const media: [string, Buffer, Record<string, unknown>?][] =
      i % 10 === 0 ? [['cover.png', solidPng(32, 16 + (i % 16), [i % 256, 120, 200]), { alt: `Cover of post ${i}`, tags: [TAGS[i % 8]!, 'cover'] }]] : [];
    w.page(`02.blog/${slug}`, 'item', variants(entries), date + (i % 5) * 3_600_000, media);
  }

  // no slug below the top level may be one of the API's own GET sub-resources (media, languages,
  // compare): GET /pages/docs/media would be the media list of /docs, never the page, so a demo
  // chapter called "media" was a page no client could read
  const chapters = ['getting-started', 'installation', 'configuration', 'content', 'themes', 'plugins', 'images', 'multilanguage', 'deployment', 'troubleshooting'];
  const topics = ['overview', 'requirements', 'quick-start', 'concepts', 'examples', 'options', 'reference', 'tips', 'faq', 'limits', 'upgrading', 'glossary'];
  const docsTime = BASE_TIME - 200 * DAY;
  w.page('03.docs', 'docs', tri({ en: 'Documentation', de: 'Dokumentation', fr: 'Documentation' }, { taxonomy: { category: ['docs'] } }, 3), docsTime);
  chapters.forEach((ch, c) => {
    const n = c + 1;
    const chTitle = cap(ch.replace(/-/g, ' '));
    const langs: Lang[] = n % 2 === 1 ? ['en', 'de', 'fr'] : ['en', 'de'];
    const chDir = `03.docs/${String(n).padStart(2, '0')}.${ch}`;
    w.page(chDir, 'chapter', tri({ en: chTitle, de: `Kapitel ${n}`, fr: `Chapitre ${n}` }, { chapter: n, taxonomy: { category: ['docs'] } }, n, langs), docsTime + n * DAY);
    topics.forEach((t, k) => {
      const j = k + 1;
      const title = `${chTitle}: ${cap(t.replace(/-/g, ' '))}`;
      const tl: Lang[] = ['en'];
      if (j % 2 === 0) tl.push('de');
      if (j % 3 === 0) tl.push('fr');
      w.page(
        `${chDir}/${String(j).padStart(2, '0')}.${t}`,
        'default',
        tri({ en: title, de: `${title} (DE)`, fr: `${title} (FR)` }, { taxonomy: { category: ['docs'], tag: [TAGS[(c + k) % 8]] } }, n * 13 + j, tl),
        docsTime + n * DAY + j * 3_600_000,
      );
    });
  });

  const aboutTime = BASE_TIME + 10 * DAY;
  w.page('04.about', 'default', tri({ en: 'About', de: 'Über', fr: 'À propos' }, {}, 4), aboutTime);
  w.page('04.about/01.über-uns', 'default', tri({ en: 'About us', de: 'Über uns', fr: 'Qui sommes-nous' }, {}, 5), aboutTime);
  w.page('04.about/02.our team', 'default', tri({ en: 'Our team', de: 'Unser Team', fr: 'Notre équipe' }, {}, 6, ['en', 'de']), aboutTime, [
    ['team.png', solidPng(48, 48, [90, 160, 90]), { alt: 'The team', tags: ['team'] }],
  ]);
  w.page('04.about/03.history', 'default', tri({ en: 'History', de: 'Geschichte', fr: 'Histoire' }, {}, 7, ['en']), aboutTime);
  w.page('04.about/04.press', 'default', tri({ en: 'Press', de: 'Presse', fr: 'Presse' }, { routable: false, visible: false }, 8, ['en', 'fr']), aboutTime);

  w.page(
    '05.contact',
    'form',
    tri({ en: 'Contact', de: 'Kontakt', fr: 'Contact' }, { form: { name: 'contact', fields: [{ name: 'email', type: 'email' }, { name: 'message', type: 'textarea' }] } }, 9),
    aboutTime,
  );

  // untyped base files only: the same file stands in for every language
  w.page('legal', 'default', variants([[null, { header: { title: 'Legal' }, content: body('en', 'Legal', 10) }]]), aboutTime);
  for (const [k, name] of ['imprint', 'privacy', 'terms'].entries()) {
    w.page(`legal/${name}`, 'default', variants([[null, { header: { title: cap(name) }, content: body('en', cap(name), 11 + k) }]]), aboutTime);
  }

  const archiveTime = BASE_TIME - 400 * DAY;
  w.page('archive', 'default', tri({ en: 'Archive', de: 'Archiv', fr: 'Archives' }, { visible: false }, 14, ['en']), archiveTime);
  for (let i = 1; i <= 16; i++) {
    const title = `Archived note ${i}`;
    w.page(
      `archive/note-${String(i).padStart(2, '0')}`,
      'item',
      variants([['en', { header: { title, date: isoDate(archiveTime + i * DAY), taxonomy: { category: ['news'], tag: ['archive'] } }, content: body('en', title, 20 + i) }]]),
      archiveTime + i * DAY,
    );
  }
}

function single(w: Writer): void {
  const one = (title: string, header: Record<string, unknown> = {}, n = 0) => variants([[null, { header: { title, ...header }, content: body('en', title, n) }]]);
  w.page('01.home', 'default', one('Home', { taxonomy: { category: ['news'] } }, 1), BASE_TIME, [['hero.png', solidPng(64, 32, [230, 120, 40]), { alt: 'Sunset', tags: ['sunset'] }]]);
  w.page('02.blog', 'blog', one('Blog', { content: { items: '@self.children', order: { by: 'date', dir: 'desc' } } }, 2), BASE_TIME);
  for (let i = 1; i <= 3; i++) {
    w.page(`02.blog/post-${i}`, 'item', one(`Post ${i}`, { date: isoDate(BASE_TIME + i * DAY), taxonomy: { category: ['news'], tag: [TAGS[i]] } }, i), BASE_TIME + i * DAY);
  }
  w.page('03.about', 'default', one('About', {}, 4), BASE_TIME);
  w.page('04.contact', 'form', one('Contact', { form: { name: 'contact' } }, 5), BASE_TIME);
}

function generated(w: Writer, total: number): void {
  const multi = w.langs.length > 0;
  let s = 0;
  while (w.pages < total) {
    s++;
    const section = `${String(s).padStart(3, '0')}.section-${s}`;
    const v = (title: string, n: number) => {
      const entries: [string | null, Variant][] = [];
      const first = w.langs[0] ?? null;
      entries.push([multi ? first : null, { header: { title }, content: `# ${title}\n\nGenerated page ${n}.\n` }]);
      if (multi && w.langs[1] && n % 3 === 0) entries.push([w.langs[1], { header: { title: `${title} (${w.langs[1]})` }, content: `# ${title}\n\nSeite ${n}.\n` }]);
      return variants(entries);
    };
    w.page(section, 'default', v(`Section ${s}`, w.pages), null);
    for (let j = 1; j <= 99 && w.pages < total; j++) {
      w.page(`${section}/${String(j).padStart(3, '0')}.page-${s}-${j}`, 'default', v(`Page ${s}.${j}`, w.pages), null);
    }
  }
}
