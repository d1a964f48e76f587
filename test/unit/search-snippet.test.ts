/**
 * Search snippets as text: FTS5 cuts them out of the page's Markdown, and the person reads the
 * words, not `# Title` or `**bold**`; the match marks stay where the words are.
 */
import { describe, expect, test } from 'vitest';
import { MARK_CLOSE as C, MARK_OPEN as O, snippetParts } from '../../electron/db/fts-query';
import { plainSnippet } from '../../electron/search/snippet';

describe('a snippet without Markdown syntax', () => {
  test('a heading and the paragraph after it read as one line of text', () => {
    expect(plainSnippet(`# ${O}Quiet${C} garden (140)\n\nThis page was written for the demo site.`)).toBe(`${O}Quiet${C} garden (140) This page was written for the demo site.`);
    expect(plainSnippet('## Heading ##\ntext')).toBe('Heading text');
  });

  test('emphasis, code and strike-through lose their markers; words with underscores keep them', () => {
    expect(plainSnippet(`…an **${O}bold${C}** word, _it_, \`code\`, ~~gone~~ and snake_case`)).toBe(`…an ${O}bold${C} word, it, code, gone and snake_case`);
    expect(plainSnippet(`**${O}Wild${C}** — *orchard*.`)).toBe(`${O}Wild${C} — orchard.`);
  });

  test('lists, quotes, rules, links, images, tables and HTML', () => {
    expect(plainSnippet(`- item one\n- [a ${O}link${C}](https://example.com/x) ![the alt](a.png)`)).toBe(`item one a ${O}link${C} the alt`);
    expect(plainSnippet('> quoted\n\n---\n\n1. first\n2) second\n- [x] done')).toBe('quoted first second done');
    expect(plainSnippet(`| a | b |\n|---|:--:|\n| ${O}c${C} | d |`)).toBe(`a b ${O}c${C} d`);
    expect(plainSnippet('<b>x</b> <br/> y')).toBe('x y');
  });

  test('a snippet cut inside a construct keeps its words', () => {
    expect(plainSnippet('…ing](https://example.com) and more')).toBe('…ing](https://example.com) and more');
    expect(plainSnippet('see [the docs')).toBe('see [the docs');
  });

  test('the marks survive as parts', () => {
    expect(snippetParts(plainSnippet(`# ${O}Garden${C}\n\n**${O}garden${C}** path`))).toEqual([
      { text: 'Garden', match: true },
      { text: ' ', match: false },
      { text: 'garden', match: true },
      { text: ' path', match: false },
    ]);
  });
});
