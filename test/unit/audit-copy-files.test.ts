/**
 * The audit export readers (electron/audit-copy: csv.ts, json-array.ts, event-row.ts), pure: CSV
 * quoting from both writers (RFC doubling as the sandbox and spreadsheets write; PHP's fputcsv with
 * its backslash escape as the real service writes), line breaks inside values, the formula
 * apostrophe taken off exactly once, rows that cannot be read named by their line, and a JSON list
 * read element by element whatever the chunks.
 */
import { describe, expect, test } from 'vitest';
import { CsvReader, csvLine, type CsvRecord } from '../../electron/audit-copy/csv';
import { JsonArrayReader, type JsonElement } from '../../electron/audit-copy/json-array';
import { CSV_COLUMNS, cellOf, csvHeader, eventFromCells, eventFromJson, uncell } from '../../electron/audit-copy/event-row';

/** PHP's fputcsv (ext/standard/file.c php_fputcsv, escape "\\"), written out: a quote right after a backslash is not doubled. */
function phpCsvLine(cells: string[]): string {
  return (
    cells
      .map((cell) => {
        if (!/[,"\\\n\r\t ]/.test(cell)) return cell;
        let out = '"';
        let escaped = false;
        for (const ch of cell) {
          if (ch === '\\') escaped = true;
          else if (!escaped && ch === '"') out += '"';
          else escaped = false;
          out += ch;
        }
        return out + '"';
      })
      .join(',') + '\n'
  );
}

const readAll = (text: string, chunks: number[] = [], accept?: (fields: string[]) => boolean): CsvRecord[] => {
  const r = new CsvReader(accept ? { accept } : {});
  const out: CsvRecord[] = [];
  let at = 0;
  for (const size of chunks) {
    out.push(...r.push(text.slice(at, at + size)));
    at += size;
  }
  out.push(...r.push(text.slice(at)), ...r.end());
  return out;
};

/** Every way of cutting `text` in two, and in single characters. */
function everyCut<T>(text: string, read: (text: string, chunks: number[]) => T): T[] {
  const results: T[] = [];
  for (let i = 0; i <= text.length; i++) results.push(read(text, [i]));
  results.push(read(text, Array<number>(text.length).fill(1)));
  return results;
}

const TRICKY = [
  'plain',
  '',
  'two words',
  'comma, inside',
  'say "hi"',
  '""',
  'line one\nline two',
  'crlf\r\ninside',
  'back\\slash',
  'ends with \\',
  'a\\"b',
  '{"t":"say \\"hi\\"","path":"C:\\\\dir\\\\"}',
  '\\""',
  '"\\"',
  '\\\\"x"',
  'tab\there',
  "'apostrophe",
  '=SUM(A1)',
];

describe('CSV as both writers write it', () => {
  test.each([
    ['RFC 4180 (the sandbox, spreadsheets)', csvLine, TRICKY],
    // PHP's own reader cannot read back a value its writer ended in a backslash (below)
    ["PHP's fputcsv (the real service)", phpCsvLine, TRICKY.filter((t) => !t.endsWith('\\'))],
  ])('%s: every value comes back as written, whatever the chunks', (_name, write, values) => {
    const rows = [values, [...values].reverse(), values.map((t, i) => `${i}:${t}`)];
    const text = rows.map((r) => write(r)).join('');
    const expected = rows;
    const width = (fields: string[]) => fields.length === values.length;
    for (const records of everyCut(text, (t, chunks) => readAll(t, chunks, width))) {
      expect(records.map((r) => r.fields)).toEqual(expected);
      expect(records.every((r) => r.problem === null)).toBe(true);
    }
  });

  test('a file mixing both: each record read the way that gives its columns', () => {
    const rows = [['1', 'a\\"b', 'x'], ['2', 'plain', 'y'], ['3', '{"q":"\\"hi\\""}', 'z']];
    const text = phpCsvLine(rows[0]!) + csvLine(rows[1]!) + csvLine(rows[2]!) + phpCsvLine(rows[2]!);
    expect(readAll(text, [], (f) => f.length === 3).map((r) => r.fields)).toEqual([...rows, rows[2]]);
  });

  test('PHP ending a value in a backslash: read the RFC way when that is the only quirk; with another, reported, never split', () => {
    const three = (f: string[]) => f.length === 3;
    expect(readAll(phpCsvLine(['1', 'ends with \\', 'x']), [], three).map((r) => r.fields)).toEqual([['1', 'ends with \\', 'x']]);
    const both = readAll(phpCsvLine(['1', 'ends with \\', 'a\\"b']) + '2,ok,z\n', [], three);
    expect(both[0]!.problem).not.toBeNull();
    expect(both.at(-1)).toMatchObject({ fields: ['2', 'ok', 'z'], problem: null });
  });

  test('a record starts on its own line: lines inside quoted values are counted', () => {
    const text = 'a,b\n1,"x\ny\nz"\n2,w\r\n\n3,"q"\n';
    const records = readAll(text);
    expect(records.map((r) => [r.line, r.fields])).toEqual([
      [1, ['a', 'b']],
      [2, ['1', 'x\ny\nz']],
      [5, ['2', 'w']],
      [7, ['3', 'q']],
    ]);
  });

  test('a byte order mark, no final line break, an empty last value', () => {
    expect(readAll('\uFEFFa,b\n1,').map((r) => r.fields)).toEqual([['a', 'b'], ['1', '']]);
    expect(readAll('a,b', [1]).map((r) => r.fields)).toEqual([['a', 'b']]);
  });

  test('a quote that is not doubled is flagged, and the rest of the file is read', () => {
    const records = readAll('1,"a"b,c\n2,ok\n');
    expect(records[0]).toMatchObject({ line: 1, problem: expect.stringMatching(/not doubled/) });
    expect(records[1]).toEqual({ line: 2, fields: ['2', 'ok'], problem: null });
  });

  test('a quote that never closes: one record flagged at its line, reading goes on at the next line', () => {
    const r = new CsvReader({ maxRecord: 100 });
    const out = [...r.push('1,ok\n2,"never closes\n'), ...r.push('x'.repeat(150) + '\n3,fine\n'), ...r.end()];
    expect(out[0]!.fields).toEqual(['1', 'ok']);
    expect(out[1]).toMatchObject({ line: 2, problem: expect.stringMatching(/longer than/) });
    expect(out.at(-1)).toEqual({ line: 4, fields: ['3', 'fine'], problem: null });
  });

  test('the file ends inside a quoted value: flagged', () => {
    expect(readAll('1,"open')[0]).toMatchObject({ fields: ['1', 'open'], problem: 'a quoted value never ends' });
  });
});

describe('the formula apostrophe', () => {
  test('the site adds one before = + - @ tab and CR; exactly that one is taken off', () => {
    for (const v of ['=cmd', '+1', '-1', '@SUM', '\tx', '\rx']) {
      expect(cellOf(v)).toBe(`'${v}`);
      expect(uncell(cellOf(v))).toBe(v);
    }
    expect(uncell("''=x")).toBe("''=x"); // not the site's: two apostrophes stay
    expect(uncell("'=x")).toBe('=x');
    expect(uncell("'hello")).toBe("'hello"); // an apostrophe before anything else is the value's
    expect(uncell("'")).toBe("'");
    expect(cellOf("'=x")).toBe("'=x"); // an apostrophe first is no formula start
  });
});

describe('an export row as an event', () => {
  const header = csvHeader([...CSV_COLUMNS]);
  if ('problem' in header) throw new Error(header.problem);
  const row = (over: Partial<Record<(typeof CSV_COLUMNS)[number], string>> = {}) =>
    CSV_COLUMNS.map((c) => over[c] ?? { id: '7', ts: '1795464585000', event: 'page.update', severity: 'info', actor_id: 'admin', actor_name: 'Ada', actor_roles: '["administrators"]', auth_method: 'apikey', ip: '203.0.113.9', user_agent: 'Mozilla/5.0 (X11)', target_type: 'page', target_id: '/blog', status: '', context: '{"lang":"en"}' }[c]);

  test('every column read; arrays and context from JSON; empty is null', () => {
    const r = eventFromCells(row(), header);
    expect(r).toEqual({
      event: { id: 7, ts: 1795464585000, event: 'page.update', severity: 'info', actorId: 'admin', actorName: 'Ada', actorRoles: ['administrators'], authMethod: 'apikey', ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11)', targetType: 'page', targetId: '/blog', status: null, context: { lang: 'en' } },
    });
  });

  test('a value the site defused keeps its formula start; roles comma-joined; {} and [] are no context', () => {
    const r = eventFromCells(row({ actor_name: "'=HYPERLINK(x)", target_id: "'-rf", actor_roles: 'editors, writers', context: '[]' }), header);
    expect('event' in r && r.event).toMatchObject({ actorName: '=HYPERLINK(x)', targetId: '-rf', actorRoles: ['editors', 'writers'], context: null });
  });

  test('rows that cannot be read say why', () => {
    expect(eventFromCells(row({ id: 'x' }), header)).toEqual({ problem: 'id is not a whole number' });
    expect(eventFromCells(row({ id: '' }), header)).toEqual({ problem: 'id is missing' });
    expect(eventFromCells(row({ ts: 'yesterday' }), header)).toEqual({ problem: 'ts is not a time' });
    expect(eventFromCells(row({ event: '' }), header)).toEqual({ problem: 'event is missing' });
    expect(eventFromCells(row({ context: '{broken' }), header)).toEqual({ problem: 'context is not JSON' });
    expect(eventFromCells(row({ context: '"text"' }), header)).toEqual({ problem: 'context is not an object' });
    expect(eventFromCells(row({ user_agent: 'x'.repeat(10_001) }), header)).toEqual({ problem: 'user_agent is longer than 10,000 characters' });
  });

  test('a header without id, ts or event is no audit export; columns in any order', () => {
    expect(csvHeader(['name', 'email'])).toEqual({ problem: expect.stringMatching(/names no id, ts, event column/) });
    const moved = csvHeader(['event', 'ts', 'id', 'extra']);
    expect(moved instanceof Map && eventFromCells(['user.login', '5', '3', 'x'], moved)).toMatchObject({ event: { id: 3, ts: 5, event: 'user.login', severity: 'info', actorRoles: [] } });
  });

  test('a JSON row: both services’ shapes, numbers as text, an ISO time', () => {
    const real = { id: 12, ts: 1795464585123, event: 'page.delete', severity: 'notice', actor_id: 'admin', actor_name: 'Ada', actor_roles: ['administrators'], auth_method: 'session', ip: null, user_agent: 'x', target_type: 'page', target_id: '/a', status: null, context: [] };
    expect(eventFromJson(real)).toMatchObject({ event: { id: 12, context: null, ip: null } });
    expect(eventFromJson({ ...real, id: '12', ts: '2026-11-23T20:09:45Z' })).toMatchObject({ event: { id: 12, ts: Date.parse('2026-11-23T20:09:45Z') } });
    expect(eventFromJson([1])).toEqual({ problem: expect.stringMatching(/not an event/) });
    expect(eventFromJson({ ...real, id: -1 })).toEqual({ problem: 'id is out of range' });
  });
});

const readJson = (text: string, chunks: number[] = []): { elements: JsonElement[]; stop: string | null } => {
  const r = new JsonArrayReader();
  const elements: JsonElement[] = [];
  let at = 0;
  for (const size of chunks) {
    elements.push(...r.push(text.slice(at, at + size)));
    at += size;
  }
  elements.push(...r.push(text.slice(at)), ...r.end());
  return { elements, stop: r.stop?.message ?? null };
};

describe('a JSON list read element by element', () => {
  const events = [
    { id: 2, ts: 20, event: 'page.update', context: { changes: { content: { old: 'a "quoted" \\ line\nnext', new: '[not] {a} list, ok' } } }, actor_roles: ['a', 'b'] },
    { id: 1, ts: 10, event: 'user.login', context: null, actor_roles: [] },
    'not an object',
    42,
  ];

  test.each([
    ['one a line (the sandbox)', `[\n${events.map((e) => JSON.stringify(e)).join(',\n')}\n]`],
    ['pretty-printed (the real service)', JSON.stringify(events, null, 4)],
    ['on one line', JSON.stringify(events)],
  ])('%s: every element, its line, whatever the chunks', (_name, text) => {
    for (const { elements, stop } of everyCut(text, readJson)) {
      expect(stop).toBeNull();
      expect(elements.map((e) => JSON.parse(e.text) as unknown)).toEqual(events);
      expect(elements.map((e) => e.index)).toEqual([0, 1, 2, 3]);
    }
    const lines = text.split('\n');
    for (const e of readJson(text).elements) expect(lines[e.line - 1]).toContain(e.text.split('\n')[0]);
  });

  test('an element that is not JSON is handed on as it is (JSON.parse says so), the rest go on', () => {
    const { elements, stop } = readJson('[\n{"id":1},\n{"id":2,,},\n{"id":3}\n]');
    expect(stop).toBeNull();
    expect(elements.map((e) => [e.line, e.text])).toEqual([
      [2, '{"id":1}'],
      [3, '{"id":2,,}'],
      [4, '{"id":3}'],
    ]);
  });

  test('what is not a list, a list cut short, a stray }', () => {
    expect(readJson('{"data":[]}').stop).toMatch(/not a JSON list/);
    expect(readJson('').stop).toMatch(/empty/);
    const cut = readJson('[\n{"id":1},\n{"id":2');
    expect(cut.elements.map((e) => e.text)).toEqual(['{"id":1}']);
    expect(cut.stop).toMatch(/never closes/);
    expect(readJson('[1,\n2}]').stop).toMatch(/} with no \{ before it, on line 2/);
    expect(readJson('[]').elements).toEqual([]);
    expect(readJson('  [ ]  ').stop).toBeNull();
  });

  test('an element longer than the limit stops the reading with its line', () => {
    const r = new JsonArrayReader(50);
    const got = [...r.push('[{"id":1},\n{"id":"'), ...r.push('x'.repeat(100)), ...r.push('"}]')];
    expect(got.map((e) => e.text)).toEqual(['{"id":1}']);
    expect(r.stop).toMatchObject({ line: 2, message: expect.stringMatching(/longer than/) });
  });
});
