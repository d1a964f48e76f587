/**
 * The mailer sandbox's CSV (test/sandbox/cms/mailer/csv.ts): the incremental reader gives the same
 * records however the text is cut into chunks (every cut point of a file with quotes, doubled
 * quotes, line breaks inside quotes, CRLF, a byte order mark and blank lines), numbers records by
 * the line they start on, reads the separator from the header line; the file reader streams a
 * file; the writer quotes and defuses formulas.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { csvCell, csvLine, CsvReader, detectDelimiter, parseCsv, readCsvFile, type CsvFileInfo, type CsvRecord } from '../sandbox/cms/mailer/csv';

const FILE = '\ufeffemail,name,note\r\n"ada@example.com","Lovelace, Ada","said ""hi""\r\nthen left"\r\n\r\nbob@example.com,Bob,\n"",,x\n';
const EXPECTED: CsvRecord[] = [
  { line: 1, cells: ['email', 'name', 'note'] },
  { line: 2, cells: ['ada@example.com', 'Lovelace, Ada', 'said "hi"\r\nthen left'] },
  { line: 5, cells: ['bob@example.com', 'Bob', ''] },
  { line: 6, cells: ['', '', 'x'] },
];

describe('the reader', () => {
  test('quotes, doubled quotes, line breaks inside quotes, CRLF and LF, a byte order mark, blank lines; line numbers', () => {
    expect(parseCsv(FILE)).toEqual(EXPECTED);
  });

  test('the same records wherever the text is cut, in two or in single characters', () => {
    for (let cut = 0; cut <= FILE.length; cut++) {
      const r = new CsvReader(',');
      expect([...r.push(FILE.slice(0, cut)), ...r.push(FILE.slice(cut)), ...r.end()], `cut at ${cut}`).toEqual(EXPECTED);
    }
    const r = new CsvReader(',');
    const out: CsvRecord[] = [];
    for (const ch of FILE) out.push(...r.push(ch));
    expect([...out, ...r.end()]).toEqual(EXPECTED);
  });

  test('a last row without a line break; a quote left open ends the field at the end of the text', () => {
    expect(parseCsv('a,b\n1,2')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1', '2'] },
    ]);
    expect(parseCsv('a\n"open')).toEqual([
      { line: 1, cells: ['a'] },
      { line: 2, cells: ['open'] },
    ]);
    expect(parseCsv('a\r\r\nb')).toEqual([
      { line: 1, cells: ['a'] },
      { line: 3, cells: ['b'] },
    ]);
  });

  test('the separator from the header line: the most used of comma, semicolon and tab outside quotes', () => {
    expect(detectDelimiter('EMAIL;FIRSTNAME;LASTNAME')).toBe(';');
    expect(detectDelimiter('Email address\tFirst name\tTags')).toBe('\t');
    expect(detectDelimiter('"a;b;c",d,e')).toBe(',');
    expect(detectDelimiter('email')).toBe(',');
    expect(parseCsv('a;b\n"1;2";3')).toEqual([
      { line: 1, cells: ['a', 'b'] },
      { line: 2, cells: ['1;2', '3'] },
    ]);
  });

  test('a file streamed from disk: the same records, the separator and the byte order mark reported', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailer-csv-'));
    try {
      const path = join(dir, 'a.csv');
      writeFileSync(path, FILE);
      const info: Partial<CsvFileInfo> = {};
      const got: CsvRecord[] = [];
      for await (const rec of readCsvFile(path, info)) got.push(rec);
      expect(got).toEqual(EXPECTED);
      expect(info).toEqual({ delimiter: ',', bom: true });
      // longer than one 64 KB read, with a multi-byte character across the cut
      const big = 'e;n\n' + Array.from({ length: 5000 }, (_, i) => `p${i}@example.com;Zoë ${i}`).join('\n');
      writeFileSync(path, big);
      const info2: Partial<CsvFileInfo> = {};
      let n = 0;
      let last: CsvRecord | null = null;
      for await (const rec of readCsvFile(path, info2)) {
        n++;
        last = rec;
      }
      expect(n).toBe(5001);
      expect(last).toEqual({ line: 5001, cells: ['p4999@example.com', 'Zoë 4999'] });
      expect(info2).toEqual({ delimiter: ';', bom: false });
      writeFileSync(path, '');
      const none: CsvRecord[] = [];
      for await (const rec of readCsvFile(path)) none.push(rec);
      expect(none).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the writer', () => {
  test('quotes a cell holding a comma, a quote or a line break; ends a record with CRLF', () => {
    expect(csvLine(['plain', 'with, comma', 'with "quote"', 'two\nlines', ''])).toBe('plain,"with, comma","with ""quote""","two\nlines",\r\n');
  });

  test('defuses a cell that a spreadsheet would run as a formula', () => {
    for (const t of ['=1+1', '+49 30 1234', '-x', '@SUM(A1)', '\tx', '\rx']) expect(csvCell(t)).toBe(`'${t}`);
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
  });
});
