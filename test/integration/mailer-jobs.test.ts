/**
 * The mailer's long jobs through the Host against the CMS sandbox (both flavours): bulk actions
 * over everyone matching a filter (counted first, walked by the Host 500 at a time with its
 * progress, stopped between batches), over a selection and over pasted addresses; exports of one
 * person and of the filtered table into files (streamed, progress, a cancel leaves nothing, an
 * existing file only replaced when asked); imports — a CSV from disk previewed with the detected
 * preset, its mapping, first rows and dry run, then run with the upload's and the run's progress
 * as events until it ends, and found in the history.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { BulkProgress, ImportProgress, MailerExportProgress } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { flavors } from '../support/flavors';
import { UNHURRIED } from '../support/limits';
import { until } from '../support/until';

const OCTOPUS = ['Email address,First name,Last name,Tags,Status,Created at', 'ivy.octo@example.com,Ivy,Eight,vip,SUBSCRIBED,2024-07-01T10:00:00Z', 'jo.octo@example.com,Jo,Nine,,UNSUBSCRIBED,2024-07-02T10:00:00Z', 'not-an-address,Kim,Ten,,SUBSCRIBED,2024-07-03T10:00:00Z', 'ivy.octo@example.com,Ivy,Again,,SUBSCRIBED,2024-07-04T10:00:00Z'];

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let fx: DemoHost;
  let out: string;
  const asked: { title: string; name?: string }[] = [];
  const siteId = () => fx.site.id;
  const world = () => fx.cms.mailer;
  const eventsOf = <T>(name: string) => fx.events.filter((e) => e.name === name).map((e) => e.payload as T);

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'sitedesk-mailer-'));
    fx = await withHost({
      sandbox: { flavor, ...UNHURRIED, mailer: { subscribers: 2500, importRate: 0 } },
      host: {
        mailerPollMs: 50,
        // the system's dialogs, as Electron's shell answers them
        chooseSaveFile: async (o) => {
          asked.push({ title: o.title, name: o.defaultName });
          return join(out, o.defaultName);
        },
        chooseOpenFile: async (o) => {
          asked.push({ title: o?.title ?? '' });
          return null;
        },
      },
    });
  });
  afterAll(async () => {
    await fx?.close();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  test('bulk over everyone matching a filter: the count first, then walked 500 at a time with progress, exactly those people', async () => {
    const store = world().store;
    const list = store.listByCode('newsletter')!;
    const filter = { list: list.id, listStatus: 'subscribed' as const };
    const { total } = await fx.call('mailer.count', { siteId: siteId(), filter });
    expect(total).toBe(store.count({ list: list.id, list_status: 'subscribed' }));
    expect(total).toBeGreaterThan(500);
    fx.events.length = 0;
    const r = await fx.call('mailer.bulk', { siteId: siteId(), bulkId: `bulk-tag-${flavor}`, action: 'add_tag', target: { kind: 'filter', filter }, tag: 'Bulk Tagged' });
    expect(r).toMatchObject({ outcome: 'finished', action: 'add_tag', target: 'filter', processed: total, total, done: { tagged: total } });
    const progress = eventsOf<BulkProgress>('mailer.bulkProgress').filter((p) => p.bulkId === `bulk-tag-${flavor}`);
    expect(progress.length).toBe(Math.ceil(total / 500));
    expect(progress.map((p) => p.processed)).toEqual(progress.map((_p, i) => Math.min(total, (i + 1) * 500)));
    expect(progress.every((p) => p.total === total)).toBe(true);
    const tag = store.tagByCode('bulk-tagged')!;
    expect(store.tagCount(tag.id)).toBe(total);
    expect(store.count({ tag: tag.id, list: list.id, list_status: 'subscribed' })).toBe(total);

    // everybody tagged already: skipped by reason, nothing done twice
    const again = await fx.call('mailer.bulk', { siteId: siteId(), bulkId: `bulk-tag2-${flavor}`, action: 'add_tag', target: { kind: 'filter', filter }, tag: 'bulk-tagged' });
    expect(again).toMatchObject({ outcome: 'finished', processed: total, done: {}, skipped: { already_tagged: total } });

    // a filter that sets nothing names everybody: unsubscribing everybody needs `all`
    const all = await fx.fails('mailer.bulk', { siteId: siteId(), bulkId: `bulk-all-${flavor}`, action: 'unsubscribe', target: { kind: 'filter', filter: {} } });
    expect(all).toMatchObject({ code: 'invalid_input', reason: 'all_required', fields: { 'target.all': expect.any(String) } });
    // an action this site does not have (Mailroom's six have no confirm)
    if (real) expect((await fx.fails('mailer.bulk', { siteId: siteId(), bulkId: `bulk-conf-${flavor}`, action: 'confirm', target: { kind: 'ids', ids: [1] } })).reason).toBe('unknown_action');
  });

  test('bulk over a selection and over pasted addresses; stopped between batches, what was done stays done', async () => {
    const store = world().store;
    const ids = store.query({ status: 'subscribed' }, 4, 0).rows.map((r) => r.id);
    const events = store.listByCode('events')!;
    const removed = await fx.call('mailer.bulk', { siteId: siteId(), bulkId: `bulk-ids-${flavor}`, action: 'remove_from_list', target: { kind: 'ids', ids: [...ids, 99_999_999] }, listId: events.id });
    expect(removed.outcome).toBe('finished');
    expect(removed.processed).toBe(5);
    expect(removed.skipped.gone).toBe(1);
    expect((removed.done.removed ?? 0) + (removed.skipped.not_on_list ?? 0)).toBe(4);

    const updates = store.listByCode('product-updates')!;
    const pasted = await fx.call('mailer.bulk', {
      siteId: siteId(),
      bulkId: `bulk-paste-${flavor}`,
      action: 'add_to_list',
      target: { kind: 'addresses', addresses: `Pat Paste <pat.paste-${flavor}@example.test>\nnot an address\nquinn-${flavor}@example.test Quinn` },
      listId: updates.id,
      mode: 'subscribed',
      note: 'Signed the sheet at the fair',
    });
    expect(pasted).toMatchObject({ outcome: 'finished', target: 'addresses', processed: 3, done: { added: 2 }, skipped: { not_an_address: 1 } });
    // never an address in the answer
    expect(JSON.stringify(pasted)).not.toMatch(/@/);

    // stopped after the first batch: the rest is left alone
    const stopId = `bulk-stop-${flavor}`;
    // each batch takes a while, as on a real site: the stop lands between batches, not after the last
    fx.cms.faults.set({ route: `POST /${real ? 'mailroom' : 'mailer'}/subscribers/bulk`, latencyMs: 400 });
    const walking = fx.call('mailer.bulk', { siteId: siteId(), bulkId: stopId, action: 'add_tag', target: { kind: 'filter', filter: {} }, tag: 'stop-test' });
    await until(async () => eventsOf<BulkProgress>('mailer.bulkProgress').some((p) => p.bulkId === stopId), Boolean);
    expect(await fx.call('mailer.cancelBulk', { bulkId: stopId })).toEqual({ cancelled: true });
    const stopped = await walking.finally(() => fx.cms.faults.clear());
    expect(stopped.outcome).toBe('stopped');
    expect(stopped.processed).toBeLessThan(store.count({}));
    expect(store.tagCount(store.tagByCode('stop-test')!.id)).toBe(stopped.done.tagged);
    expect(await fx.call('mailer.cancelBulk', { bulkId: stopId })).toEqual({ cancelled: false });
  });

  test('exports: one person’s data and the filtered table streamed into files with progress; a file there is replaced only when asked; a cancel leaves nothing', async () => {
    const store = world().store;
    const person = store.query({ status: 'subscribed' }, 1, 0).rows[0]!;
    const file = join(out, `person-${flavor}.json`);
    const one = await fx.call('mailer.exportPerson', { siteId: siteId(), id: person.id, exportId: `person-${flavor}-1`, file });
    expect(one).toMatchObject({ outcome: 'written', file, rows: 1 });
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc.profile.email).toBe(person.email);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const there = await fx.fails('mailer.exportPerson', { siteId: siteId(), id: person.id, exportId: `person-${flavor}-2`, file });
    expect(there).toMatchObject({ code: 'conflict', fields: { file: expect.any(String) } });
    expect((await fx.call('mailer.exportPerson', { siteId: siteId(), id: person.id, exportId: `person-${flavor}-3`, file, overwrite: true })).outcome).toBe('written');
    expect((await fx.fails('mailer.exportPerson', { siteId: siteId(), id: person.id, exportId: `person-${flavor}-4`, file: 'relative.json' })).fields).toHaveProperty('file');

    const list = store.listByCode('events')!;
    const csv = join(out, `table-${flavor}.csv`);
    fx.events.length = 0;
    const table = await fx.call('mailer.exportTable', { siteId: siteId(), exportId: `table-${flavor}-1`, filter: { list: list.id }, file: csv });
    const matched = store.count({ list: list.id });
    expect(table).toMatchObject({ outcome: 'written', rows: matched, matched });
    const lines = readFileSync(csv, 'utf8').trimEnd().split(/\r?\n/);
    expect(lines[0]).toBe('\ufeffemail,name,status,lists,tags,source,consent_at,confirmed_at,unsubscribed_at,language');
    expect(lines).toHaveLength(matched + 1);
    const progress = eventsOf<MailerExportProgress>('mailer.exportProgress').filter((p) => p.exportId === `table-${flavor}-1`);
    expect(progress.at(-1)).toMatchObject({ rows: matched, matched, siteId: siteId() });

    // a cancel mid-way leaves no file and no temporary file
    fx.cms.faults.set({ route: `GET /${real ? 'mailroom' : 'mailer'}/subscribers/export`, latencyMs: 1500 });
    const cut = join(out, `cut-${flavor}.csv`);
    const running = fx.call('mailer.exportTable', { siteId: siteId(), exportId: `table-${flavor}-2`, file: cut });
    await until(async () => eventsOf<MailerExportProgress>('mailer.exportProgress').some((p) => p.exportId === `table-${flavor}-2`), Boolean);
    expect(await fx.call('mailer.cancelExport', { exportId: `table-${flavor}-2` })).toEqual({ cancelled: true });
    expect((await running).outcome).toBe('cancelled');
    fx.cms.faults.clear();
    expect(existsSync(cut)).toBe(false);
    expect(readdirSync(out).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  test('imports: a CSV from disk previewed (preset, mapping, first rows, dry run), run with the upload’s and the run’s progress to the end, and in the history', async () => {
    const file = join(out, `contacts-${flavor}.csv`);
    writeFileSync(file, OCTOPUS.join('\n') + '\n');
    const list = world().store.listByCode('product-updates')!;
    fx.events.length = 0;
    const preview = await fx.call('mailer.importPreview', { siteId: siteId(), jobId: `preview-${flavor}-1`, file, listId: list.id });
    expect(preview.preset).toMatchObject({ key: 'emailoctopus' });
    expect(preview.mappingSource).toBe('preset');
    expect(preview.mapping).toMatchObject({ email: 'Email address', first_name: 'First name', last_name: 'Last name', tags: 'Tags', status: 'Status' });
    expect(preview.columns[0]).toEqual({ index: 0, header: 'Email address', field: 'email' });
    expect(preview.file).toMatchObject({ name: `contacts-${flavor}.csv`, rows: 4, delimiter: ',' });
    expect(preview.rows.map((r) => r.outcome)).toEqual(['new', 'unsubscribe', 'invalid', 'duplicate']);
    expect(preview.rows[0]!.values).toMatchObject({ email: 'ivy.octo@example.com', name: 'Ivy Eight', tags: ['vip'], subscribedAt: '2024-07-01T10:00:00.000Z' });
    expect(preview.rows[2]!.reason).toMatch(/not an email address/i);
    expect(preview.dryRun).toMatchObject({ rows: 4, new: 1, unsubscribed: 1, invalid: 1, duplicates: 1 });
    expect(eventsOf<ImportProgress>('mailer.importProgress').filter((p) => p.jobId === `preview-${flavor}-1`).at(-1)).toMatchObject({ phase: 'uploading', sent: expect.any(Number) });
    // nothing written by a preview
    expect(world().store.byEmail('ivy.octo@example.com')).toBeNull();

    // a mapping given wins
    const remapped = await fx.call('mailer.importPreview', { siteId: siteId(), jobId: `preview-${flavor}-2`, file, mapping: { email: 'Email address', name: 1 } });
    expect(remapped.mappingSource).toBe('given');
    expect(remapped.rows[0]!.values.name).toBe('Ivy');
    const bad = await fx.fails('mailer.importPreview', { siteId: siteId(), jobId: `preview-${flavor}-3`, file, mapping: { email: 'No such column' } });
    expect(bad).toMatchObject({ code: 'invalid_input', reason: 'mapping_invalid' });
    expect((await fx.fails('mailer.importPreview', { siteId: siteId(), jobId: `preview-${flavor}-4`, file: join(out, 'missing.csv') })).fields).toHaveProperty('file');

    world().knobs.importRate = 1; // a row a second of the sandbox's clock: the run is seen going
    try {
      const jobId = `run-${flavor}-1`;
      const run = await fx.call('mailer.importRun', { siteId: siteId(), jobId, file, mapping: preview.mapping, listId: list.id, asConfirmed: true, tag: 'From Octopus', basis: 'EmailOctopus signup form' });
      expect(run).toMatchObject({ earlier: false, import: { status: 'queued', fileName: `contacts-${flavor}.csv`, listId: list.id, tag: 'from-octopus', basis: 'EmailOctopus signup form', rowsTotal: 4 } });
      world().knobs.importRate = 0;
      const last = await until(async () => eventsOf<ImportProgress>('mailer.importProgress').filter((p) => p.jobId === jobId).at(-1), (p) => p?.phase === 'finished', 10_000, 20);
      expect(last!.import).toMatchObject({ id: run.import.id, status: 'finished', rowsDone: 4, progress: 1, counts: { new: 1, unsubscribed: 1, invalid: 1, duplicates: 1 } });
      const phases = eventsOf<ImportProgress>('mailer.importProgress').filter((p) => p.jobId === jobId).map((p) => p.phase);
      expect(phases[0]).toBe('uploading');
      expect(phases).toContain('queued');
      expect(phases.at(-1)).toBe('finished');
      const ivy = world().store.byEmail('ivy.octo@example.com')!;
      expect(ivy.source).toBe('import');
      const history = await fx.call('mailer.imports', { siteId: siteId(), perPage: 5 });
      expect(history.items[0]).toMatchObject({ id: run.import.id, status: 'finished', counts: { new: 1 } });
      expect(JSON.stringify(history.items[0])).not.toContain('ivy.octo');
      expect(await fx.call('mailer.import', { siteId: siteId(), id: run.import.id })).toMatchObject({ status: 'finished', finishedAt: expect.any(String) });
    } finally {
      world().knobs.importRate = 0;
    }
    // a site whose job queue is not running refuses a run, in its words
    world().knobs.worker = false;
    try {
      const refused = await fx.fails('mailer.importRun', { siteId: siteId(), jobId: `run-${flavor}-2`, file, mapping: { email: 0 }, listId: null, asConfirmed: false });
      expect(refused).toMatchObject({ reason: 'worker_unavailable', message: expect.stringMatching(/no job queue running/) });
    } finally {
      world().knobs.worker = true;
    }
  });

  test('a write whose answer was lost is never sent twice: the same add, erasure or import again answers what the first did; a bulk action asks first', async () => {
    const b = real ? 'mailroom' : 'mailer';
    const newsletter = world().store.listByCode('newsletter')!;
    const email = `lost-${flavor}@example.test`;
    fx.cms.faults.set({ route: `POST /${b}/subscribers`, dropAfter: true, times: 1 });
    expect((await fx.fails('mailer.add', { siteId: siteId(), email, listId: newsletter.id })).code).toMatch(/network|bad_response/);
    const again = await fx.call('mailer.add', { siteId: siteId(), email, listId: newsletter.id });
    expect(again).toMatchObject({ outcome: 'already_invited', earlier: true });
    // one invitation, one confirmation email
    expect(world().store.consentLog(again.subscriberId).filter((e: { action: string }) => e.action === 'invited')).toHaveLength(1);
    // a third add is an add like any other
    expect((await fx.call('mailer.add', { siteId: siteId(), email, listId: newsletter.id })).earlier).toBe(false);

    fx.cms.faults.set({ route: `POST /${b}/erase`, dropAfter: true, times: 1 });
    await fx.fails('mailer.erase', { siteId: siteId(), email });
    expect(await fx.call('mailer.erase', { siteId: siteId(), email })).toMatchObject({ erased: false, earlier: true });

    const ids = world().store.query({ status: 'subscribed' }, 3, 0).rows.map((r) => r.id);
    const input = { siteId: siteId(), bulkId: `lost-bulk-${flavor}`, action: 'add_tag' as const, target: { kind: 'ids' as const, ids }, tag: 'lost-bulk' };
    fx.cms.faults.set({ route: `POST /${b}/subscribers/bulk`, dropAfter: true, times: 1 });
    await fx.fails('mailer.bulk', input);
    const asked = await fx.fails('mailer.bulk', input);
    expect(asked).toMatchObject({ code: 'conflict', message: expect.stringMatching(/may already have done part of this/) });
    const went = await fx.call('mailer.bulk', { ...input, again: true });
    expect(went).toMatchObject({ outcome: 'finished', processed: 3, skipped: { already_tagged: 3 } });

    const file = join(out, `lost-${flavor}.csv`);
    writeFileSync(file, `email\nlost-import-${flavor}@example.test\n`);
    fx.cms.faults.set({ route: `POST /${b}/imports`, dropAfter: true, times: 1 });
    await fx.fails('mailer.importRun', { siteId: siteId(), jobId: `lost-run-${flavor}`, file, mapping: { email: 'email' }, listId: null, asConfirmed: true });
    const found = await fx.call('mailer.importRun', { siteId: siteId(), jobId: `lost-run-${flavor}`, file, mapping: { email: 'email' }, listId: null, asConfirmed: true });
    expect(found.earlier).toBe(true);
    expect(world().store.imports(1000, 0).rows.filter((i: { file_name: string }) => i.file_name === `lost-${flavor}.csv`)).toHaveLength(1);
    fx.cms.faults.clear();
  });

  test('the system’s dialogs: an export’s file named for what it holds (a person by id, never the address), an import’s file asked for; a run followed again after a reload', async () => {
    expect(await fx.call('mailer.chooseExportFile', { what: 'person', id: 42 })).toEqual({ file: join(out, 'subscriber-42-data.json'), confirmed: true });
    expect(await fx.call('mailer.chooseExportFile', { what: 'table' })).toEqual({ file: join(out, 'subscribers.csv'), confirmed: true });
    expect(await fx.call('mailer.chooseImportFile', {})).toEqual({ cancelled: true });
    expect(asked.map((a) => a.title)).toEqual(['Export this person’s data', 'Export the subscribers', 'Choose a CSV file of subscribers']);

    // a run under way taken up again by another view (its events under the id it gives)
    const file = join(out, `follow-${flavor}.csv`);
    writeFileSync(file, 'email\n' + Array.from({ length: 6 }, (_, i) => `follow-${i}-${flavor}@example.test`).join('\n') + '\n');
    world().knobs.importRate = 1;
    try {
      const run = await fx.call('mailer.importRun', { siteId: siteId(), jobId: `follow-run-${flavor}`, file, mapping: { email: 'email' }, listId: null, asConfirmed: true });
      const again = await fx.call('mailer.import', { siteId: siteId(), id: run.import.id, follow: `follow-view-${flavor}` });
      expect(again.id).toBe(run.import.id);
      world().knobs.importRate = 0;
      const last = await until(async () => eventsOf<ImportProgress>('mailer.importProgress').filter((p) => p.jobId === `follow-view-${flavor}`).at(-1), (p) => p?.phase === 'finished', 10_000, 20);
      expect(last!.import).toMatchObject({ id: run.import.id, rowsDone: 6, counts: { new: 6 } });
    } finally {
      world().knobs.importRate = 0;
    }
  });
});
