/**
 * The admin's translation strings: the dictionary `GET /translations/{lang}` serves (public), and
 * the server-side translation of labels that are translation keys (`PLUGIN_TEAM_NOTES.MENU`),
 * after getgrav/grav-plugin-api:classes/Api/Controllers/SystemController.php translations() and
 * Controllers/TranslatesAdminLabels.php translateLabel(). Document 1 names the route without a
 * shape, so both flavours answer as the real service (recording 65):
 *
 *   {lang, dir, count, checksum, strings}
 *
 *   - `lang` is coerced to its BCP 47 form (`en` → `en-US`, `de` → `de-DE`); a code that is not
 *     shaped like one (`e`, `en_US_x`) falls back to the site's default language;
 *   - the requested language's strings, without keys only a disabled plugin ships and without a
 *     flat `<key>` that an `ICU.<key>` shadows, then every key it lacks backfilled from `en-US`
 *     (a key and its `ICU.` twin count as one);
 *   - `?prefix=PLUGIN_X` keeps the keys under `plugin_x.` (any case);
 *   - `checksum` is the MD5 of PHP's json_encode of `strings` (slashes and non-ASCII escaped), and
 *     an empty dictionary is PHP's empty array `[]`, as recorded.
 *
 * Labels are translated ICU-first along the caller's language chain (its own language, the
 * primary subtag, English); a key nothing translates is humanised from its last segment.
 * Pure functions: no I/O.
 */
import { createHash } from 'node:crypto';

type Dict = Record<string, string>;

/** Where each string comes from: admin2's own (`ICU.`), the plugins' language files, per locale. */
interface Source {
  /** the plugin that ships it (a disabled one's keys are stripped), absent for admin2 itself */
  plugin?: string;
  strings: Partial<Record<string, Dict>>;
}

const SOURCES: Source[] = [
  {
    strings: {
      'en-US': {
        'ICU.ADMIN_NEXT.ENABLED': 'Enabled',
        'ICU.ADMIN_NEXT.DISABLED': 'Disabled',
        'ICU.ADMIN_NEXT.USERS.STATUS': 'Status',
        'ICU.ADMIN_NEXT.SAVE': 'Save',
        'ICU.ADMIN_NEXT.CACHE_CLEAR_BUTTON.LABEL': 'Cache',
      },
      'de-DE': {
        'ICU.ADMIN_NEXT.ENABLED': 'Aktiviert',
        'ICU.ADMIN_NEXT.DISABLED': 'Deaktiviert',
        'ICU.ADMIN_NEXT.USERS.STATUS': 'Status',
        'ICU.ADMIN_NEXT.SAVE': 'Speichern',
      },
      'fr-FR': { 'ICU.ADMIN_NEXT.ENABLED': 'Activé', 'ICU.ADMIN_NEXT.DISABLED': 'Désactivé', 'ICU.ADMIN_NEXT.SAVE': 'Enregistrer' },
    },
  },
  {
    // the classic admin's flat keys some blueprints still name; ADMIN_NEXT.ENABLED is shadowed by its ICU twin
    plugin: 'admin',
    strings: {
      'en-US': { 'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE': 'Email has to be a valid email address', 'ADMIN_NEXT.ENABLED': 'Enabled (classic)' },
      'de-DE': { 'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE': 'E-Mail muss eine gültige E-Mail-Adresse sein' },
    },
  },
  {
    plugin: 'team-notes',
    strings: {
      'en-US': {
        'PLUGIN_TEAM_NOTES.MENU_LABEL': 'Team notes',
        'PLUGIN_TEAM_NOTES.QUICK_NOTE': 'Quick note',
        'PLUGIN_TEAM_NOTES.UNPIN_ALL': 'Unpin all notes',
        'PLUGIN_TEAM_NOTES.PAGE_NOTES': 'Notes on this page',
        'PLUGIN_TEAM_NOTES.CHAT': 'Team chat',
      },
      'de-DE': {
        'PLUGIN_TEAM_NOTES.MENU_LABEL': 'Team-Notizen',
        'PLUGIN_TEAM_NOTES.QUICK_NOTE': 'Schnellnotiz',
        'PLUGIN_TEAM_NOTES.UNPIN_ALL': 'Alle Notizen lösen',
        'PLUGIN_TEAM_NOTES.PAGE_NOTES': 'Notizen zu dieser Seite',
        'PLUGIN_TEAM_NOTES.CHAT': 'Team-Chat',
      },
      // partly translated: the rest is backfilled from English
      'fr-FR': { 'PLUGIN_TEAM_NOTES.MENU_LABEL': 'Notes d’équipe' },
    },
  },
  {
    plugin: 'site-health',
    strings: {
      'en-US': {
        'PLUGIN_SITE_HEALTH.TITLE': 'Site health',
        'PLUGIN_SITE_HEALTH.RUN_CHECKS': 'Run health checks',
        'PLUGIN_SITE_HEALTH.SETTINGS': 'Health checks',
        'PLUGIN_SITE_HEALTH.UPTIME': 'Uptime',
      },
      'de-DE': {
        'PLUGIN_SITE_HEALTH.TITLE': 'Website-Zustand',
        'PLUGIN_SITE_HEALTH.RUN_CHECKS': 'Zustand prüfen',
        'PLUGIN_SITE_HEALTH.SETTINGS': 'Zustandsprüfungen',
        'PLUGIN_SITE_HEALTH.UPTIME': 'Verfügbarkeit',
      },
    },
  },
  {
    // installed but disabled on the demo site: its strings are not served while it is off
    plugin: 'problems',
    strings: { 'en-US': { 'PLUGIN_PROBLEMS.TITLE': 'Grav Potential Problems' } },
  },
];

const FALLBACK = 'en-US';

const ALIASES: Record<string, string> = {
  en: 'en-US', ar: 'ar-SA', cs: 'cs-CZ', de: 'de-DE', es: 'es-ES', 'es-mx': 'es-MX', fi: 'fi-FI', fr: 'fr-FR', 'fr-ca': 'fr-CA', he: 'he-IL', it: 'it-IT',
  nl: 'nl-NL', pt: 'pt-PT', ru: 'ru-RU', sv: 'sv-SE', uk: 'uk-UA', 'zh-hans': 'zh-Hans', 'zh-hant': 'zh-Hant',
};

const RTL = new Set(['ar', 'fa', 'he', 'ur', 'yi', 'ps', 'dv', 'ku']);

/** A raw code in its BCP 47 form (`en` → `en-US`, `pt-br` → `pt-BR`); anything else as it came. */
export function normalizeLang(code: string): string {
  const key = code.trim().replace(/_/g, '-').toLowerCase();
  if (ALIASES[key]) return ALIASES[key]!;
  const m = /^([a-z]{2,3})-([a-z0-9]{2,4})$/i.exec(code);
  if (m) return `${m[1]!.toLowerCase()}-${m[2]!.length === 4 ? m[2]!.charAt(0).toUpperCase() + m[2]!.slice(1).toLowerCase() : m[2]!.toUpperCase()}`;
  return code;
}

const primary = (code: string) => code.split('-')[0]!.toLowerCase();

/** One language's strings: its sources' (a disabled plugin's left out), flat keys an ICU key shadows dropped. */
function dictionary(lang: string, enabled: (plugin: string) => boolean): Dict {
  const out: Dict = {};
  for (const s of SOURCES) {
    if (s.plugin && s.plugin !== 'admin' && !enabled(s.plugin)) continue;
    Object.assign(out, s.strings[lang] ?? {});
  }
  for (const key of Object.keys(out)) if (!key.startsWith('ICU.') && `ICU.${key}` in out) delete out[key];
  return out;
}

/** The body of GET /translations/{lang}. `siteDefault` stands in for a code not shaped like one. */
export function translationsFor(raw: string, prefix: string | null, siteDefault: string, enabled: (plugin: string) => boolean): Record<string, unknown> {
  const lang = normalizeLang(/^[a-zA-Z]{2,3}(-[a-zA-Z]{2,4})?$/.test(raw) ? raw : siteDefault || FALLBACK);
  let strings = dictionary(lang, enabled);
  if (lang !== FALLBACK) {
    for (const [key, value] of Object.entries(dictionary(FALLBACK, enabled))) {
      const twin = key.startsWith('ICU.') ? key.slice(4) : `ICU.${key}`;
      if (!(key in strings) && !(twin in strings)) strings[key] = value;
    }
  }
  if (prefix) {
    const p = `${prefix.toLowerCase()}.`;
    strings = Object.fromEntries(Object.entries(strings).filter(([k]) => k.toLowerCase().startsWith(p)));
  }
  const count = Object.keys(strings).length;
  return { lang, dir: RTL.has(primary(lang)) ? 'rtl' : 'ltr', count, checksum: createHash('md5').update(phpJson(count ? strings : [])).digest('hex'), strings: count ? strings : [] };
}

/** PHP's json_encode with its default flags: `/` as `\/`, every character past ASCII as `\uXXXX`. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, '\\/')
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The languages a label is looked up in, best first: the caller's, its primary subtag, English (each with its region form). */
export function languageChain(lang: string | null | undefined): string[] {
  const chain: string[] = [];
  for (const code of [lang || 'en', primary(lang || 'en'), 'en']) {
    for (const c of [code, normalizeLang(code)]) if (!chain.includes(c)) chain.push(c);
  }
  return chain;
}

/**
 * A label as the caller reads it: a key-like label (upper case with a dot) translated along
 * `chain` (ICU first, then the flat key, then `PLUGIN_API.<last>`); a raw key nothing translates
 * humanised from its last segment; plain text as it is.
 */
export function translateLabel(label: string, chain: string[], enabled: (plugin: string) => boolean): string {
  if (label.includes('.') && label.toUpperCase() === label) {
    const dicts = chain.map((l) => dictionary(l, enabled));
    const find = (key: string) => dicts.find((d) => key in d)?.[key];
    const hit = find(`ICU.${label}`) ?? (label.startsWith('PLUGIN_ADMIN.') ? find(`ICU.ADMIN_NEXT.${label.slice('PLUGIN_ADMIN.'.length)}`) : undefined) ?? find(label) ?? find(`PLUGIN_API.${label.slice(label.lastIndexOf('.') + 1)}`);
    if (hit !== undefined) return hit;
  }
  if (label.toUpperCase() === label && label.includes('_')) {
    const last = label.split('.').pop()!.replace(/^ACCESS_(?:ADMIN_|SITE_)?/, '');
    return last.toLowerCase().replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
  }
  return label;
}
