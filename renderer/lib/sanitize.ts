/**
 * HTML that comes from a site (rendered pages, previews) is sanitised before it is shown
 * (docs/architecture.md, "Security"). One DOMPurify instance of our own, so its hooks touch nothing else:
 *
 * - no scripts, no event handlers, no frames, objects, forms or styles, no `javascript:` URLs;
 * - relative `src`/`href` are made absolute against the site (the app's own origin is not the site's);
 * - links open outside the app (`target="_blank"`, `rel="noopener noreferrer"`; Electron's window-open
 *   handler sends http(s) to the system browser and refuses the rest).
 *
 *   sanitizeSiteHtml(page.contentHtml, site.baseUrl)   → a string safe for {@html}
 */
import DOMPurify from 'dompurify';

const purify = DOMPurify(window);

/** What the hooks resolve relative URLs against during one `sanitizeSiteHtml` call. */
let currentBase: string | null = null;

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
    if (abs === null) node.removeAttribute(attr);
    else node.setAttribute(attr, abs);
  }
  // srcset would need per-candidate rewriting; the plain src is enough for a preview
  node.removeAttribute('srcset');
  if (node.tagName === 'A' && node.hasAttribute('href') && !node.getAttribute('href')!.startsWith('#')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  if (node.tagName === 'IMG') {
    node.setAttribute('loading', 'lazy');
    node.setAttribute('referrerpolicy', 'no-referrer');
  }
});

const CONFIG = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'form', 'input', 'button', 'textarea', 'select', 'option', 'link', 'meta', 'base', 'template', 'noscript'],
  FORBID_ATTR: ['style', 'srcdoc', 'formaction', 'action', 'ping'],
  ADD_ATTR: ['target'],
  ALLOW_DATA_ATTR: false,
};

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
