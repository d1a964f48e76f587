/**
 * A campaign's email as its readers get it (docs/mailer-campaigns.md, "Preview and test"): the
 * Markdown body through marked (the library the app's editor previews with), in the `store`
 * layout (the site's branded frame: its name above, the footer with why they get it and the
 * unsubscribe link) or `plain` (the body alone, as a personal letter); the preheader as the hidden
 * first line inboxes show beside the subject; a text part; the body's links, as the click counts
 * and the clicks the worker makes know them. Pure.
 */
import { Marked, type Token } from 'marked';

// an instance of our own: nothing else shares its options
const md = new Marked({ gfm: true, breaks: false, async: false });

export interface EmailContent {
  subject: string | null;
  preheader: string | null;
  body_md: string | null;
  layout: 'store' | 'plain';
}

export interface RenderedEmail {
  subject: string;
  preheader: string | null;
  layout: 'store' | 'plain';
  html: string;
  text: string;
  links: string[];
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The links of a Markdown body (inline, reference and bare addresses), each once, in order. */
export function linksOf(bodyMd: string | null): string[] {
  if (!bodyMd) return [];
  const out: string[] = [];
  md.walkTokens(md.lexer(bodyMd), (t: Token) => {
    if (t.type === 'link' && /^https?:\/\//i.test(t.href) && !out.includes(t.href)) out.push(t.href);
  });
  return out;
}

/** The merge tag the real plugin fills per reader; a preview shows it unfilled. */
export const UNSUBSCRIBE_TAG = '{{ unsubscribe_url }}';

export function renderEmail(c: EmailContent, site: { name: string }): RenderedEmail {
  const body = md.parse(c.body_md ?? '', { async: false });
  const subject = c.subject ?? '';
  const hidden = c.preheader ? `<div style="display:none;max-height:0;overflow:hidden">${escapeHtml(c.preheader)}</div>\n` : '';
  const inner =
    c.layout === 'store'
      ? `<table role="presentation" width="100%" style="max-width:600px;margin:0 auto;font-family:sans-serif">
<tr><td style="padding:16px 24px;background:#1f2937;color:#fff;font-weight:bold">${escapeHtml(site.name)}</td></tr>
<tr><td style="padding:24px">
${body}</td></tr>
<tr><td style="padding:16px 24px;font-size:12px;color:#6b7280">You get this email because you subscribed at ${escapeHtml(site.name)}. <a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a></td></tr>
</table>`
      : `<div style="font-family:sans-serif;max-width:600px">
${body}<p style="font-size:12px;color:#6b7280"><a href="${UNSUBSCRIBE_TAG}">Unsubscribe</a></p>
</div>`;
  const html = `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body>
${hidden}${inner}
</body></html>
`;
  const text = `${(c.body_md ?? '').trim()}\n\n--\n${c.layout === 'store' ? `${site.name}\n` : ''}Unsubscribe: ${UNSUBSCRIBE_TAG}\n`;
  return { subject, preheader: c.preheader, layout: c.layout, html, text, links: linksOf(c.body_md) };
}
