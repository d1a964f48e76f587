/**
 * HTML that comes from a site (rendered pages, previews) is sanitised before it is shown
 * (docs/architecture.md, "Security"). One DOMPurify instance of our own, so its hooks touch nothing else:
 *
 * - no scripts, no event handlers, no frames, objects, forms or styles, no `javascript:` URLs;
 * - relative `src`/`href` are made absolute against the site (the app's own origin is not the site's);
 * - images, video and audio load only from the site's own origin, without a referrer: a page's HTML
 *   cannot make the app fetch from elsewhere (read receipts, the reader's address); links may point anywhere;
 * - links, `<area>` ones too, open outside the app (`target="_blank"`, `rel="noopener noreferrer"`;
 *   Electron's window-open handler sends http(s) to the system browser and refuses the rest);
 * - no `download` (a save dialog from site HTML) and no `background`; `id` and `name` are prefixed
 *   (`user-content-`, SANITIZE_NAMED_PROPS) so they cannot clobber the page's globals, and in-page
 *   links (`#part`) follow their renamed targets.
 *
 *   sanitizeSiteHtml(page.contentHtml, site.baseUrl)   → a string safe for {@html}
 */
import DOMPurify from 'dompurify';

const purify = DOMPurify(window);

/** What the hooks resolve relative URLs against during one `sanitizeSiteHtml` call (the site's origin + '/'). */
let currentBase: string | null = null;

/** Attributes that load something into the page (as opposed to `href`, which a person follows). */
const LOADS = new Set(['src', 'poster']);
/** The prefix SANITIZE_NAMED_PROPS gives ids and names. */
const NAMED_PREFIX = 'user-content-';

const SAFE_SCHEME = /^(https?:|mailto:|tel:|#)/i;

function absolute(value: string): string | null {
  const v = value.trim();
  if (v === '' || v.startsWith('#')) return v;
  try {
    const url = currentBase ? new URL(v, currentBase) : new URL(v);
    return SAFE_SCHEME.test(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

purify.addHook('afterSanitizeAttributes', (node) => {
  if (!(node instanceof Element)) return;
  for (const attr of ['href', 'src', 'poster'] as const) {
    const raw = node.getAttribute(attr);
    if (raw === null) continue;
    const abs = absolute(raw);
    if (abs === null || (LOADS.has(attr) && !sameSite(abs))) node.removeAttribute(attr);
    else node.setAttribute(attr, abs);
  }
  // srcset would need per-candidate rewriting; the plain src is enough for a preview
  node.removeAttribute('srcset');
  const href = node.getAttribute('href');
  if ((node.tagName === 'A' || node.tagName === 'AREA') && href !== null) {
    if (href.startsWith('#')) {
      // the target's id was prefixed (SANITIZE_NAMED_PROPS): the link follows it
      if (href.length > 1 && !href.startsWith(`#${NAMED_PREFIX}`)) node.setAttribute('href', `#${NAMED_PREFIX}${href.slice(1)}`);
    } else {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  }
  if (node.tagName === 'IMG') {
    node.setAttribute('loading', 'lazy');
    node.setAttribute('referrerpolicy', 'no-referrer');
  }
});

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input', 'button', 'textarea', 'select', 'option', 'link', 'meta', 'base', 'template', 'noscript'],
  FORBID_ATTR: ['style', 'srcdoc', 'formaction', 'action', 'ping', 'download', 'background'],
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
  SANITIZE_DOM: true,
  SANITIZE_NAMED_PROPS: true,
};

/** The URL is on the site being shown (its origin), or there is no site to compare with. */
function sameSite(url: string): boolean {
  if (!currentBase) return false;
  try {
    return new URL(url).origin === new URL(currentBase).origin;
  } catch {
    return false;
  }
}

/** The site's origin plus the path of its base URL, used to resolve relative links in its HTML. */
export function siteOrigin(baseUrl: string): string | null {
  try {
    return new URL(baseUrl).origin;
  } catch {
    return null;
  }
}

/** Sanitises HTML a site sent. `baseUrl` is the site's base URL (its origin resolves relative links). */
export function sanitizeSiteHtml(html: string, baseUrl: string | null): string {
  currentBase = baseUrl ? (siteOrigin(baseUrl) ?? null) : null;
  if (currentBase) currentBase += '/';
  try {
    return purify.sanitize(html, CONFIG);
  } finally {
    currentBase = null;
  }
}

/** A site-relative URL (`/user/pages/…`) made absolute against the site's origin; null when it cannot be. */
export function siteUrl(url: string | null | undefined, baseUrl: string): string | null {
  if (!url) return null;
  const origin = siteOrigin(baseUrl);
  try {
    const abs = origin ? new URL(url, origin + '/') : new URL(url);
    return abs.protocol === 'http:' || abs.protocol === 'https:' ? abs.href : null;
  } catch {
    return null;
  }
}

/**
 * The address of an image to show for a site (a media thumbnail, a pet's photo): made absolute
 * against the site, and only when it is on the site's own origin (null otherwise: the app shows
 * its icon instead and never fetches from elsewhere). Shown with `referrerpolicy="no-referrer"`.
 */
export function siteImageUrl(url: string | null | undefined, baseUrl: string): string | null {
  const abs = siteUrl(url, baseUrl);
  const origin = siteOrigin(baseUrl);
  return abs && origin && new URL(abs).origin === origin ? abs : null;
}
