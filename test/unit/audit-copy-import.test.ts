/**
 * An export read into packed batches (electron/audit-copy/import-reader.ts, db/repos/audit-pack.ts),
 * pure: every event once, whatever the chunks and the batch size; each batch oldest first, one
 * millisecond in the order read; a kind and an actor defined once, in the first batch that uses
 * them; rows that cannot be read named by their line, a file cut in the middle of a row too; a
 * file that is no export refused; UTF-8 cut anywhere by a chunk read whole; and what a search
 * part becomes with the kinds' and actors' words (fts.ts withLabels).
 */
import { describe, expect, test } from 'vitest';
import { ImportReader, ImportRefused, Utf8Chunks } from '../../electron/audit-copy/import-reader';
import { ACTOR_WIDTH, AuditPacker, KIND_WIDTH, PACKED_WIDTH, type PackedBatch } from '../../electron/db/repos/audit-pack';
import { matchParts, withLabels } from '../../electron/audit-copy/fts';
import { csvLine } from '../../electron/audit-copy/csv';
import { CSV_COLUMNS } from '../../electron/audit-copy/event-row';

const T = Date.UTC(2026, 10, 24, 12);

/** Events newest first as an export writes them; every fourth pair shares a millisecond. */
function exportRows(n: number): Record<(typeof CSV_COLUMNS)[number], unknown>[] {
  const rows = [];
  for (let i = n - 1; i >= 0; i--) {
    rows.push({
      id: i + 1,
      ts: T + Math.floor(i / 2) * 7 + (i % 4 === 0 ? 0 : i % 2),
      event: ['page.update', 'user.login.failed', 'media.upload'][i % 3],
      severity: i % 3 === 1 ? 'warning' : 'info',
      actor_id: `user${i % 5}`,
      actor_name: `Ana Émile ${i % 5}`,
      actor_roles: i % 5 === 0 ? [] : ['editors'],
      auth_method: 'jwt',
      ip: `198.51.100.${i % 7}`,
      user_agent: i % 2 ? 'curl/8.5.0' : 'Mozilla/5.0 (X11; Linux x86_64)',
      target_type: 'page',
      target_id: `/blog/post-${i}`,
      status: null,
      context: i % 6 === 0 ? { lang: 'en', note: `a "quoted"\nline, ${i}` } : null,
    });
  }
  return rows;
}

const asCsv = (rows: Record<string, unknown>[]) =>
  csvLine([...CSV_COLUMNS]) + rows.map((r) => csvLine(CSV_COLUMNS.map((c) => (r[c] === null ? '' : typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c]))))).join('');
const asJson = (rows: Record<string, unknown>[]) => `[\n${rows.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;

/** What the batches say, resolved: each event with its kind's and actor's values. */
function unpack(batches: PackedBatch[]) {
  let kinds = new Map<number, unknown[]>();
  let actors = new Map<number, unknown[]>();
  const events: { id: number; ts: number; kind: unknown[]; actor: unknown[]; ip: unknown; target: unknown; context: unknown }[] = [];
  for (const b of batches) {
    if (b.reset) {
      kinds = new Map();
      actors = new Map();
    }
    for (let i = 0; i < b.kinds.length; i += KIND_WIDTH) {
      expect(kinds.has(b.kinds[i] as number)).toBe(false); // defined once
      kinds.set(b.kinds[i] as number, b.kinds.slice(i + 1, i + KIND_WIDTH));
    }
    for (let i = 0; i < b.actors.length; i += ACTOR_WIDTH) {
      expect(actors.has(b.actors[i] as number)).toBe(false);
      actors.set(b.actors[i] as number, b.actors.slice(i + 1, i + ACTOR_WIDTH));
    }
    const ts: number[] = [];
    for (let o = 0; o < b.rows.length; o += PACKED_WIDTH) {
      const r = b.rows.slice(o, o + PACKED_WIDTH);
      ts.push(r[1] as number);
      events.push({ id: r[0] as number, ts: r[1] as number, kind: kinds.get(r[2] as number)!, actor: actors.get(r[3] as number)!, ip: r[4], target: r[5], context: r[7] === null ? null : JSON.parse(r[7] as string) });
    }
    expect(ts).toEqual([...ts].sort((a, c) => a - c)); // oldest first within a batch
  }
  return events;
}

function readText(format: 'csv' | 'json', text: string, chunk: number, batchSize: number) {
  const reader = new ImportReader(format, batchSize);
  const batches: PackedBatch[] = [];
  for (let at = 0; at < text.length; at += chunk) {
    reader.push(text.slice(at, at + chunk));
    for (let b = reader.next(); b; b = reader.next()) batches.push(b);
  }
  reader.end();
  for (let b = reader.next(); b; b = reader.next()) batches.push(b);
  return { batches, counts: reader.counts };
}

const expected = (rows: ReturnType<typeof exportRows>) =>
  rows.map((r) => ({
    id: r.id,
    ts: r.ts,
    kind: [r.event, r.severity, r.target_type],
    actor: [r.actor_id, r.actor_name, (r.actor_roles as string[]).length ? JSON.stringify(r.actor_roles) : '', r.auth_method, r.user_agent],
    ip: r.ip,
    target: r.target_id,
    context: r.context,
  }));

describe('an export read into packed batches', () => {
  const rows = exportRows(97);
  test.each(['csv', 'json'] as const)('%s: every event once, whatever the chunks and the batch size', (format) => {
    const text = format === 'csv' ? asCsv(rows) : asJson(rows);
    const want = expected(rows).sort((a, b) => (a.id as number) - (b.id as number));
    for (const chunk of [1, 7, 100, 4096, text.length]) {
      for (const batchSize of [1, 10, 32, 97, 1000]) {
        const { batches, counts } = readText(format, text, chunk, batchSize);
        expect(counts).toEqual({ read: 97, unreadable: 0, problems: [] });
        expect(batches.map((b) => b.rows.length / PACKED_WIDTH)).toEqual([...Array(Math.floor(97 / batchSize)).fill(batchSize), ...(97 % batchSize ? [97 % batchSize] : [])]);
        expect(unpack(batches).sort((a, b) => a.id - b.id)).toEqual(want);
      }
    }
  });

  test('one millisecond keeps the order the file has it in; the batch is oldest first', () => {
    const same = [
      { ...exportRows(1)[0]!, id: 3, ts: T + 5 },
      { ...exportRows(1)[0]!, id: 9, ts: T + 5 },
      { ...exportRows(1)[0]!, id: 4, ts: T + 1 },
      { ...exportRows(1)[0]!, id: 2, ts: T + 5 },
      { ...exportRows(1)[0]!, id: 1, ts: T },
    ];
    const { batches } = readText('json', asJson(same), 1000, 10);
    expect(unpack(batches).map((e) => e.id)).toEqual([1, 4, 3, 9, 2]);
  });

  test('rows that cannot be read are named by their line; a file cut in the middle of a row says so at that row', () => {
    const text = asCsv(exportRows(6));
    const lines = text.split('\n');
    lines[2] = lines[2]!.replace(/^\d+/, 'x'); // the second event: no id
    const cut = lines.join('\n').slice(0, -25); // the last row cut short
    const { batches, counts } = readText('csv', cut, 64, 2);
    expect(counts.read).toBe(6);
    expect(counts.problems).toEqual([
      { line: 3, problem: 'id is not a whole number' },
      { line: 7, problem: 'a quoted value never ends' }, // cut inside its user agent
    ]);
    expect(unpack(batches).map((e) => e.id).sort()).toEqual([2, 3, 4, 6]);
    // cut between two values: the row has too few
    const two = asCsv(exportRows(2).map((r) => ({ ...r, context: null })));
    const short = readText('csv', two.slice(0, two.lastIndexOf(',')), 64, 2);
    expect(short.counts.problems).toEqual([{ line: 3, problem: '13 values where the first line names 14 columns' }]);
    expect(unpack(short.batches).map((e) => e.id)).toEqual([2]);

    const json = asJson(exportRows(4)).slice(0, -30);
    const j = readText('json', json, 50, 2);
    expect(unpack(j.batches).map((e) => e.id).sort()).toEqual([2, 3, 4]);
    expect(j.counts.problems).toEqual([{ line: 5, problem: expect.stringMatching(/The list never closes: the file ends inside it/) }]);
  });

  test('a file that is no audit export is refused before anything is read', () => {
    expect(() => readText('csv', 'name,email\nA,a@example.com\n', 5, 10)).toThrow(ImportRefused);
    expect(() => readText('csv', 'name,email\nA,a@example.com\n', 5, 10)).toThrow(/names no id, ts, event column/);
    expect(() => readText('json', '{"data": []}', 3, 10)).toThrow(/not a JSON list/);
  });

  test('too many different actors: the packer starts its refs again and the next batch says so', () => {
    const packer = new AuditPacker();
    const add = (i: number) => packer.add({ id: i, ts: T + i, event: 'e', severity: 'info', actorId: null, actorName: `Person ${i}`, roles: null, authMethod: null, ip: null, userAgent: null, targetType: null, targetId: null, status: null, context: null });
    const batches: PackedBatch[] = [];
    for (let i = 0; i < 25_000; i++) {
      add(i);
      if (packer.size === 5_000) batches.push(packer.take());
    }
    expect(batches.map((b) => b.reset)).toEqual([false, false, false, false, true]);
    expect(unpack(batches).map((e) => e.actor[1])).toEqual(Array.from({ length: 25_000 }, (_, i) => `Person ${i}`));
  });
});

describe('bytes to text', () => {
  test('UTF-8 cut anywhere by a chunk is read whole; ASCII as ASCII', () => {
    const text = 'Zoë 😀 naïve — 東京, plain ascii\n'.repeat(3);
    const bytes = Buffer.from(text);
    for (let size = 1; size <= 9; size++) {
      const d = new Utf8Chunks();
      let out = '';
      for (let at = 0; at < bytes.length; at += size) out += d.text(bytes.subarray(at, at + size));
      expect(out + d.end()).toBe(text);
    }
    const d = new Utf8Chunks();
    expect(d.text(Buffer.from([0x61, 0xe2, 0x82])) + d.text(Buffer.from([0xac, 0x62])) + d.end()).toBe('a€b');
    expect(new Utf8Chunks().text(Buffer.from('plain'))).toBe('plain');
  });
});

describe('a search part also finds the kinds and actors whose words it matches', () => {
  test('each part of the expression, ORed with the labels it finds; an address is no label', () => {
    expect(matchParts('"curl" "post 42" "revis"* "zzip203x0x113x7" "say ""hi"""')).toEqual(['"curl"', '"post 42"', '"revis"*', '"zzip203x0x113x7"', '"say ""hi"""']);
    const labels: Record<string, string[]> = { '"curl"': ['zza3', 'zza7'], '"revis"*': ['zzk2'] };
    const asked: string[] = [];
    const out = withLabels('"curl" "post 42" "revis"* "zzip203x0x113x7"', (part) => {
      asked.push(part);
      return labels[part] ?? [];
    });
    expect(out).toBe('("curl" OR "zza3" OR "zza7") "post 42" ("revis"* OR "zzk2") "zzip203x0x113x7"');
    expect(asked).toEqual(['"curl"', '"post 42"', '"revis"*']);
  });
});
