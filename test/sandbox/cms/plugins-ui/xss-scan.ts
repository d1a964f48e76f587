/**
 * The built-in "Grav Security Check" report's scan: every page (in the default language) whose
 * header or content holds something that looks like an XSS vector, with the rules of Grav core's
 * security.yaml defaults (getgrav/grav:system/src/Grav/Common/Security.php detectXss(), our own
 * implementation): event-handler attributes, `xmlns`, the javascript:/data:/… protocols,
 * -moz-binding, inline styles with url()/expression, and dangerous tags (script, iframe, svg …).
 *
 * As the real report does, each item is `{route, field}` where `field` holds the name of the rule
 * that matched (the report iterates the values of core's `{field: rule}` map), one item per
 * matching field; the home page is scanned under its own route, once.
 */
import type { PageFiles } from '../content/page-files';

const PROTOCOLS = ['javascript', 'livescript', 'vbscript', 'mocha', 'feed', 'data'];
const TAGS = ['applet', 'meta', 'xml', 'blink', 'link', 'style', 'script', 'embed', 'object', 'iframe', 'frame', 'frameset', 'ilayer', 'layer', 'bgsound', 'title', 'base', 'isindex', 'svg', 'math'];

const RULES: [string, RegExp][] = [
  ['on_events', /<[^>]*?[\s\x00-\x20"'/]on\s*[a-z]+\s*=/i],
  ['xmlns', /<[^>]*?[\s\x00-\x20"'/]xmlns\s*=/i],
  ['invalid_protocols', new RegExp(`(${PROTOCOLS.join('|')})(:|&#58)\\S`, 'i')],
  ['moz_binding', /-moz-binding[a-z\x00-\x20]*:/],
  ['html_inline_styles', /(<[^>]+[a-z\x00-\x20"'/])(style=[^>]*(url:|x:expression))/i],
  ['dangerous_tags', new RegExp(`</*(${TAGS.join('|')})[^>]*>?`, 'i')],
];

/** The rule a string trips, after decoding what an attacker would encode; null when clean. */
export function detectXss(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  let decoded = value;
  try {
    decoded = decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    /* not URL-encoded */
  }
  decoded = decoded
    .replace(/(&#|\\)[xX]([0-9a-fA-F]+);?/g, (_m, _p, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/&#([0-9]+);?/g, (_m, dec: string) => String.fromCharCode(Number(dec)))
    .replace(/&(lt|gt|quot|apos|colon|amp);/gi, (_m, n: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', amp: '&' })[n.toLowerCase()] ?? _m)
    .replace(/\s/g, ' ');
  const stripped = decoded.replace(/\s/g, '');
  for (const [name, re] of RULES) {
    const candidates = name === 'on_events' || name === 'xmlns' ? [decoded, value] : [decoded, stripped, value];
    if (candidates.some((c) => re.test(c))) return name;
  }
  return null;
}

/** core's detectXssFromArray(): `{dotted.field: rule}` for every string that trips a rule. */
function scanData(data: Record<string, unknown>, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (value && typeof value === 'object') Object.assign(out, scanData(value as Record<string, unknown>, `${prefix}${key}.`));
    const rule = detectXss(value);
    if (rule) out[`${prefix}${key}`] = rule;
  }
  return out;
}

export function securityScan(content: PageFiles): { route: string; field: string }[] {
  const items: { route: string; field: string }[] = [];
  for (const node of content.tree().pages) {
    const resolved = content.resolve(node, null, true);
    if (!resolved) continue;
    const page = content.read(node, resolved.file);
    if (!page.ok) continue;
    for (const rule of Object.values(scanData({ header: page.header, content: page.content }))) items.push({ route: node.route, field: rule });
  }
  return items;
}
