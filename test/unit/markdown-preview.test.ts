/** The editor's live preview renders Markdown here (marked, GitHub flavour, one line break is not a break). */
import { expect, test } from 'vitest';
import { renderMarkdown } from '../../renderer/lib/markdown';

test('headings, emphasis, code, lists, tables and task lists the GitHub way', () => {
  const html = renderMarkdown('# Title\n\nSome *soft* and **strong** text with `code`.\n\n- one\n- [x] done\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
  expect(html).toContain('<h1>Title</h1>');
  expect(html).toContain('<em>soft</em>');
  expect(html).toContain('<strong>strong</strong>');
  expect(html).toContain('<code>code</code>');
  expect(html).toMatch(/<li><input (checked="" )?disabled="" type="checkbox"( checked="")?> ?done<\/li>/);
  expect(html).toContain('<table>');
  expect(html).toContain('<td>1</td>');
});

test('a single line break stays inside the paragraph; a URL becomes a link', () => {
  const html = renderMarkdown('first line\nsecond line\n\nsee https://example.test/a');
  expect(html).toContain('<p>first line\nsecond line</p>');
  expect(html).toContain('<a href="https://example.test/a">https://example.test/a</a>');
});

test('answers synchronously, a string every time (the preview never awaits)', () => {
  expect(typeof renderMarkdown('')).toBe('string');
  expect(typeof renderMarkdown('<b>raw</b>')).toBe('string');
});
