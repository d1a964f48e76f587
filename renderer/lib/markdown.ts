/**
 * Markdown rendered here, for the editor's live preview of text that is not on the site yet. The
 * site's own rendering (shortcodes, Twig, its plugins) stays the authority for the saved page; the
 * result goes through SafeHtml like anything that came from a site.
 */
import { Marked } from 'marked';

// an instance of our own: nothing else in the app shares its options
const md = new Marked({ gfm: true, breaks: false, async: false });

export function renderMarkdown(text: string): string {
  return md.parse(text, { async: false });
}
