/**
 * What a cell of the translation matrix says about one page in one language:
 *
 *   translated  the page has its own `{template}.{lang}.md`
 *   base        no file of its own, but the untyped `{template}.md` stands in for it
 *   missing     nothing the site would show in that language
 */
import { setField, type TranslationRow } from '../../../electron/contract/index';

export type CellState = 'translated' | 'base' | 'missing';

export const CELL_LABEL: Record<CellState, string> = {
  translated: 'translated',
  base: 'base only',
  missing: 'missing',
};

export function cellState(row: TranslationRow, lang: string): CellState {
  if (row.explicit.includes(lang)) return 'translated';
  if (row.hasDefaultFile && row.translated.includes(lang)) return 'base';
  return 'missing';
}

/** The row after a language got its own file (translate, adopt). */
export function withLanguage(row: TranslationRow, lang: string, adopted = false): TranslationRow {
  return {
    ...row,
    explicit: row.explicit.includes(lang) ? row.explicit : [...row.explicit, lang],
    translated: row.translated.includes(lang) ? row.translated : [...row.translated, lang],
    untranslated: row.untranslated.filter((l) => l !== lang),
    hasDefaultFile: adopted ? false : row.hasDefaultFile,
  };
}

/** Per language: how many pages have their own file, the base file only, nothing. */
export function languageCounts(rows: readonly TranslationRow[], languages: readonly string[]): Record<string, Record<CellState, number>> {
  const out: Record<string, Record<CellState, number>> = {};
  // a language code is the site's text: set as a field even when it reads `__proto__`
  for (const l of languages) setField(out, l, { translated: 0, base: 0, missing: 0 });
  for (const row of rows) for (const l of languages) out[l]![cellState(row, l)]++;
  return out;
}
