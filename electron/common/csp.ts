/**
 * The renderer's Content Security Policy, one builder for Electron's app:// responses and browser
 * mode's, and the rule for which images may load: only from the configured sites' origins (a
 * page's HTML, a media URL or a pet photo elsewhere would be a read receipt and leak the reader's
 * address; review L3). Scripts stay strict; inline styles are allowed (popovers position with
 * `style`). Pure, so both are unit-tested.
 */

/**
 * The origin of an http(s) address (`https://example.com:8443`, lower case, default port dropped),
 * or null. Read from the text (this layer runs without URL's types): an address with user info
 * gives null, so it never passes for a site's origin.
 */
export function originOf(url: string): string | null {
  const m = /^(https?):\/\/([^/?#\\]*)/i.exec(url.trim());
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  const authority = m[2]!.toLowerCase();
  if (authority === '' || authority.includes('@')) return null;
  const port = /:(\d+)$/.exec(authority);
  const host = port && !authority.endsWith(']') ? authority.slice(0, -port[0].length) : authority;
  if (host === '' || !/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/.test(host)) return null;
  const defaultPort = scheme === 'https' ? '443' : '80';
  return port && port[1] !== defaultPort ? `${scheme}://${host}:${Number(port[1])}` : `${scheme}://${host}`;
}

/** The origin of each site's base URL, once each; addresses that do not parse are left out. */
export function siteOrigins(sites: readonly { baseUrl: string }[]): string[] {
  const out = new Set<string>();
  for (const s of sites) {
    const o = originOf(s.baseUrl);
    if (o) out.add(o);
  }
  return [...out];
}

/** An image or media request may go to `url`: it is on one of the sites' origins. */
export function imageAllowed(url: string, origins: ReadonlySet<string> | readonly string[]): boolean {
  const origin = originOf(url);
  if (origin === null) return false;
  return Array.isArray(origins) ? origins.includes(origin) : (origins as ReadonlySet<string>).has(origin);
}

export interface CspOptions {
  /**
   * Where images may come from besides the app itself and data: URLs: the sites' origins; or
   * 'any-http' where another layer narrows them as sites change (Electron filters each image
   * request against the current sites, which a document's fixed policy cannot follow).
   */
  images: readonly string[] | 'any-http';
  /** Extra sources for connect-src (browser mode's bridge socket). */
  connect?: readonly string[];
  /** blob: images (browser mode's upload previews). */
  blobImages?: boolean;
}

export function contentSecurityPolicy(o: CspOptions): string {
  const img = ["'self'", 'data:', ...(o.blobImages ? ['blob:'] : []), ...(o.images === 'any-http' ? ['https:', 'http:'] : o.images)];
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    `media-src 'self' ${o.images === 'any-http' ? 'https: http:' : o.images.join(' ')}`.trimEnd(),
    ['connect-src', "'self'", ...(o.connect ?? [])].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The page a site's plugin script runs in (renderer/public/plugin-frame.html), loaded in a sandboxed iframe. */
export const PLUGIN_FRAME_PATH = '/plugin-frame.html';

/**
 * The jail's policy: its own inline scripts run (the plugin's code is the only script there), and
 * nothing may leave or come in — no fetch or socket, no images or media but data:, no fonts,
 * frames, forms, workers or base URL. What the script may see of the site comes through the app's
 * message API. The sandbox attribute (scripts only) gives it an opaque origin on top of this.
 */
export const PLUGIN_FRAME_CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  'media-src data:',
  "connect-src 'none'",
  "font-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "object-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
].join('; ');
