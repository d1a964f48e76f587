import { describe, expect, test } from 'vitest';
import { ftsQuery, MARK_CLOSE, MARK_OPEN, snippetParts } from '../../electron/db/fts-query';

describe('what people type → an FTS5 query that always parses', () => {
  test.each([
    ['lighthouse', '"lighthouse"'],
    ['quiet  harbour', '"quiet" "harbour"'],
    ['AND OR', '"AND" "OR"'],
    ['NEAR(', '"NEAR("'],
    ['title:x', '"title:x"'],
    ['"an exact phrase" more', '"an exact phrase" "more"'],
    ['harb*', '"harb"*'],
    ['h*', '"h"'], // a one-letter prefix would match half the index
    ['say "hi', '"say" "hi"'], // an odd quote is just a character
  ])('%s', (text, match) => {
    expect(ftsQuery(text).match).toBe(match);
  });

  test('an odd quote inside a word splits it, and quotes never reach the query unescaped', () => {
    expect(ftsQuery('a"b').match).toBe('"a b"');
    expect(ftsQuery('x "y').match).toBe('"x" "y"');
  });

  test('nothing searchable: no query at all', () => {
    for (const text of ['"', '""', '*', '^', '-', '()', '🍣', '   ']) expect(ftsQuery(text).match, text).toBeNull();
  });

  test('unicode words are words', () => {
    expect(ftsQuery('東京 Größe café').match).toBe('"東京" "Größe" "café"');
  });
});

describe('snippet markers → parts shown as text', () => {
  test('matches are flagged, the rest kept as is', () => {
    expect(snippetParts(`…the ${MARK_OPEN}harbour${MARK_CLOSE} at <b>dusk</b>`)).toEqual([
      { text: '…the ', match: false },
      { text: 'harbour', match: true },
      { text: ' at <b>dusk</b>', match: false },
    ]);
    expect(snippetParts('')).toEqual([]);
    expect(snippetParts(`${MARK_OPEN}a${MARK_CLOSE}${MARK_OPEN}b${MARK_CLOSE}`)).toEqual([
      { text: 'a', match: true },
      { text: 'b', match: true },
    ]);
  });
});
