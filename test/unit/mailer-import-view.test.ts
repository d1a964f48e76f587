/** The import wizard's pure parts: the mapping (one column per field, one field per column) and the counts in words. */
import { describe, expect, test } from 'vitest';
import * as v from 'valibot';
import { ImportMapping, type ImportProgress, type MailerImport } from '../../electron/contract';
import { assign, detectedWords, displaced, fieldOf, mappingFromPreview, mappingNotes, mappingProblems, sameMapping, toInput } from '../../renderer/views/mailer/imports/import-mapping';
import { countLines, dryRunSummary, outcomeOf, progressFraction, progressWords, reasonLines, reasonWords, runSummary, written } from '../../renderer/views/mailer/imports/dry-run';

const columns = [
  { index: 0, header: 'Email address', field: 'email' as const },
  { index: 1, header: 'First name', field: 'first_name' as const },
  { index: 2, header: 'Last name', field: 'last_name' as const },
  { index: 3, header: 'Tags', field: null },
  { index: 4, header: 'Status', field: 'status' as const },
  { index: 5, header: '', field: null },
  { index: 6, header: 'Note', field: null },
  { index: 7, header: 'Note', field: null },
];

const counts = { new: 930, updated: 41, invalid: 3, duplicates: 2, suppressed: 4, unsubscribed: 12, skipped: 8 };

describe('import mapping', () => {
  test('the site’s first mapping is read from its columns', () => {
    const map = mappingFromPreview({ columns });
    expect(map).toEqual({ email: 0, first_name: 1, last_name: 2, status: 4 });
    expect(fieldOf(map, 0)).toBe('email');
    expect(fieldOf(map, 3)).toBeNull();
  });

  test('one field per column and one column per field: a field taken elsewhere moves, and that column is no longer read', () => {
    const map = mappingFromPreview({ columns });
    const tagged = assign(map, 3, 'tags');
    expect(tagged).toEqual({ ...map, tags: 3 });
    // the column's own field is let go
    expect(assign(tagged, 3, 'language')).toEqual({ ...map, language: 3 });
    // a field another column holds moves here
    expect(displaced(map, 6, 'email')).toBe(0);
    const moved = assign(map, 6, 'email');
    expect(moved.email).toBe(6);
    expect(fieldOf(moved, 0)).toBeNull();
    expect(displaced(map, 0, 'email')).toBeNull();
    expect(displaced(map, 6, null)).toBeNull();
    // not imported
    expect(assign(map, 1, null)).toEqual({ email: 0, last_name: 2, status: 4 });
    // the map given is left as it was
    expect(map).toEqual({ email: 0, first_name: 1, last_name: 2, status: 4 });
    expect(sameMapping(map, mappingFromPreview({ columns }))).toBe(true);
    expect(sameMapping(map, moved)).toBe(false);
  });

  test('sent by heading where it names one column, else by place; the contract takes it', () => {
    const map = { email: 0, name: 5, tags: 6, status: 4 } as const;
    const input = toInput(map, columns);
    expect(input).toEqual({ email: 'Email address', name: 5, tags: 6, status: 'Status' });
    expect(v.is(ImportMapping, input)).toBe(true);
    // a heading that is a number is sent by place (the site would read the number as one)
    expect(toInput({ email: 0 }, [{ index: 0, header: '2' }])).toEqual({ email: 0 });
  });

  test('the address is the one field an import needs; notes say how names, statuses and tags are read', () => {
    expect(mappingProblems({ name: 1 })).toEqual({ email: expect.stringMatching(/email addresses/) });
    expect(mappingProblems({ email: 0 })).toEqual({});
    expect(mappingNotes({ email: 0 })).toEqual([]);
    expect(mappingNotes({ email: 0, first_name: 1 })).toEqual(['First and last names are joined into the name.']);
    expect(mappingNotes({ email: 0, name: 2, last_name: 1 })[0]).toMatch(/Name column is used/);
    expect(mappingNotes({ email: 0, status: 1, tags: 2 })).toHaveLength(2);
  });

  test('where the first mapping came from, in words', () => {
    expect(detectedWords({ preset: { key: 'emailoctopus', label: 'EmailOctopus contacts export' }, mappingSource: 'preset' })).toMatch(/^Detected: EmailOctopus contacts export\./);
    expect(detectedWords({ preset: null, mappingSource: 'headings' })).toMatch(/matched by their headings/);
    expect(detectedWords({ preset: null, mappingSource: 'given' })).toMatch(/as you chose/);
  });
});

describe('dry run and progress in words', () => {
  test('every count with its words, what is written first; nothing missing', () => {
    const lines = countLines(counts);
    expect(lines.map((l) => l.key)).toEqual(['new', 'updated', 'unsubscribed', 'suppressed', 'skipped', 'duplicates', 'invalid']);
    expect(lines.reduce((s, l) => s + l.count, 0)).toBe(1000);
    expect(lines.every((l) => l.label && l.hint)).toBe(true);
    expect(written(counts)).toBe(983);
  });

  test('one sentence: what would be written of how many rows, and what not', () => {
    expect(dryRunSummary({ ...counts, rows: 1000 })).toBe('983 of 1,000 rows would be written (930 new people, 41 updated, 12 addresses suppressed); 17 would not.');
    expect(dryRunSummary({ new: 1, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0, rows: 1 })).toBe('1 of 1 row would be written (1 new person).');
    expect(dryRunSummary({ new: 0, updated: 0, invalid: 2, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0, rows: 2 })).toBe('0 of 2 rows would be written; 2 would not.');
    expect(dryRunSummary({ new: 0, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0, rows: 0 })).toMatch(/no rows/);
  });

  test('reasons in words, most first; an unknown one readable', () => {
    expect(reasonLines({ duplicate: 2, pending_at_source: 6, left_themselves: 2, invalid_address: 0 })).toEqual([
      { key: 'pending_at_source', words: 'never confirmed at the other tool', count: 6 },
      { key: 'duplicate', words: 'again in the file', count: 2 },
      { key: 'left_themselves', words: 'left this list themselves', count: 2 },
    ]);
    expect(reasonWords('some_new_reason')).toBe('some new reason');
  });

  test('a row’s outcome in words with its tone', () => {
    expect(outcomeOf('new')).toEqual({ label: 'New', tone: 'good' });
    expect(outcomeOf('unsubscribe').label).toMatch(/left at the other tool/);
    expect(outcomeOf('invalid').tone).toBe('warn');
    expect(outcomeOf('later_kind').label).toBe('later kind');
  });

  test('a run’s progress: sending, waiting, importing with rows, finished or failed; how far along', () => {
    const run = (o: Partial<MailerImport>): MailerImport => ({
      id: 1, fileName: 'a.csv', status: 'running', listId: null, tag: null, basis: null, asConfirmed: true, preset: null, mapping: {}, rowsTotal: 200, rowsDone: 50, progress: 0.25,
      counts: { new: 40, updated: 10, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0 }, reasons: {}, createdBy: null, queuedAt: null, startedAt: null, finishedAt: null, error: null, ...o,
    });
    const p = (o: Partial<ImportProgress>): ImportProgress => ({ siteId: 's', jobId: 'j', phase: 'uploading', sent: 0, total: 0, import: null, ...o });
    expect(progressWords(p({ sent: 512 * 1024, total: 2 * 1024 * 1024 }))).toBe('Sending the file: 512 KB of 2.0 MB');
    expect(progressFraction(p({ sent: 1, total: 2 }))).toBeCloseTo(0.05);
    expect(progressWords(p({ phase: 'queued' }))).toMatch(/Waiting for the site’s worker/);
    expect(progressWords(p({ phase: 'running', import: run({}) }))).toBe('Importing: 50 of 200 rows');
    expect(progressFraction(p({ phase: 'running', import: run({}) }))).toBeCloseTo(0.325);
    expect(progressWords(p({ phase: 'finished', import: run({ rowsDone: 200, status: 'finished' }) }))).toBe('Finished: 200 rows read.');
    expect(progressFraction(p({ phase: 'finished' }))).toBe(1);
    expect(progressWords(p({ phase: 'failed', import: run({ error: 'The worker stopped.' }) }))).toBe('The import failed: The worker stopped.');
    expect(progressWords(p({ phase: 'lost' }))).toMatch(/stopped following/);
    expect(progressFraction(p({ phase: 'lost' }))).toBeNull();
    expect(runSummary(run({}))).toBe('40 new, 10 updated');
    expect(runSummary(run({ counts: { new: 0, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0 } }))).toBe('Nothing written');
  });
});

