/**
 * The mailer's imports over real HTTP, both flavours (document 2 "Imports"; docs/mailer-audience.md
 * "Imports"): the preview (columns, the preset detected for other tools' exports, the mapping in
 * effect, the first rows as read with their outcome, a dry run over the whole file with counts of
 * new, updated, invalid, suppressed, duplicates), the run (queued, worked through at the sandbox's
 * pace on its clock, with progress; its counts; every row rule; nobody downgraded; a second run of
 * the same file changing nothing), the history, the refusals, and a 100,000-row file streamed:
 * the upload spooled to disk with at most a chunk held, and the sandbox's memory flat while it is
 * previewed and imported.
 */
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { emailHash } from '../sandbox/cms/mailer/schema';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { read, SandboxClient, type Json, type Reply } from '../sandbox/cms/test-client';
import { flavors } from '../support/flavors';
import { until } from '../support/until';
import { data, expectCode, mailerPaths, pageOf, uploadCsv, type MailerPaths } from '../support/mailer';

/** A multipart upload streamed from a file by a child process: argv url, key, file, fields (JSON); prints {status, body}. */
const UPLOADER = `
const [url, key, file, fieldsJson] = process.argv.slice(1);
const { request } = require('node:http');
const { createReadStream, statSync } = require('node:fs');
const fields = JSON.parse(fieldsJson);
const boundary = '----mailer' + Date.now();
const head = Object.entries(fields).map(([k, v]) => '--' + boundary + '\\r\\nContent-Disposition: form-data; name="' + k + '"\\r\\n\\r\\n' + v + '\\r\\n').join('')
  + '--' + boundary + '\\r\\nContent-Disposition: form-data; name="file"; filename="big.csv"\\r\\nContent-Type: text/csv\\r\\n\\r\\n';
const tail = '\\r\\n--' + boundary + '--\\r\\n';
const req = request(url, { method: 'POST', headers: { 'X-API-Key': key, 'Content-Type': 'multipart/form-data; boundary=' + boundary, 'Content-Length': Buffer.byteLength(head) + statSync(file).size + Buffer.byteLength(tail) } }, (res) => {
  let body = '';
  res.setEncoding('utf8');
  res.on('data', (c) => (body += c));
  res.on('end', () => process.stdout.write(JSON.stringify({ status: res.statusCode, body })));
});
req.write(head);
const s = createReadStream(file);
s.pipe(req, { end: false });
s.on('end', () => req.end(tail));
`;

const MAILCHIMP = [
  'Email Address,First Name,Last Name,MEMBER_RATING,OPTIN_TIME,CONFIRM_TIME,LEID,EUID,TAGS',
  'ada.one@example.com,Ada,One,2,2023-01-05 10:22:01,2023-01-05 10:25:00,101,aa1,"""vip"",""Early Access"""',
  'bo.two@example.com,Bo,Two,3,2023-02-01 08:00:00,,102,aa2,',
];
const LISTMONK = ['uuid,email,name,attributes,status,created_at,updated_at', '0f1e,cy@example.com,Cy Three,"{""city"": ""Riga""}",enabled,2024-03-01 09:00:00,2024-03-01 09:00:00', '0f1f,dee@example.com,Dee,{},blocklisted,2024-03-02,2024-03-02'];
const BREVO = ['EMAIL;FIRSTNAME;LASTNAME;SMS;ADDED_TIME;EMAIL_BLACKLISTED', 'eve@example.com;Eve;Four;;2024-05-05;No', 'fay@example.com;Fay;Five;;2024-05-06;Yes'];
const MAILERLITE = ['Subscriber,Name,Last name,Groups,Subscribed,Status', 'gus@example.com,Gus,Six,"Customers, Webinar",2024-06-01 12:00:00,active', 'hal@example.com,Hal,Seven,,2024-06-02 12:00:00,unconfirmed'];
const OCTOPUS = ['Email address\tFirst name\tLast name\tTags\tStatus\tCreated at', 'ivy@example.com\tIvy\tEight\tvip\tSUBSCRIBED\t2024-07-01T10:00:00Z', 'jo@example.com\tJo\tNine\t\tUNSUBSCRIBED\t2024-07-02T10:00:00Z'];

describe.each(flavors)('%s flavour', (flavor) => {
  const real = flavor === 'real';
  let sb: CmsSandbox;
  let api: SandboxClient;
  let m: MailerPaths;
  const sql = <T = any>(query: string, ...args: unknown[]) => sb.mailer.store.db.prepare(query).get(...args) as T;
  const count = (query: string, ...args: unknown[]) => sql<{ n: number }>(query, ...args).n;
  const preview = (name: string, lines: string[] | string, fields: Record<string, string> = {}) => uploadCsv(api, m.p('/imports/preview'), name, Array.isArray(lines) ? lines.join('\r\n') + '\r\n' : lines, fields);
  const start = (name: string, lines: string[] | string, fields: Record<string, string>) => uploadCsv(api, m.p('/imports'), name, Array.isArray(lines) ? lines.join('\n') + '\n' : lines, fields);
  const uploads = () => count('SELECT count(*) AS n FROM imports WHERE spool IS NOT NULL');

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor, content: 'empty', mailer: { subscribers: 1500, importRate: 0 } });
    api = new SandboxClient(sb);
    m = mailerPaths(sb);
  });
  afterAll(() => sb?.close());

  describe('preview', () => {
    test('a Mailchimp export: the columns, the preset (spec) or the headings (real), the mapping in effect, the first rows as read', async () => {
      const d = data(await preview('members_export.csv', MAILCHIMP));
      expect(d.file).toEqual({ name: 'members_export.csv', bytes: Buffer.byteLength(MAILCHIMP.join('\r\n') + '\r\n'), rows: 2, delimiter: ',', bom: false });
      expect(d.columns.map((c: Json) => [c.index, c.header, c.field])).toEqual([
        [0, 'Email Address', 'email'],
        [1, 'First Name', 'first_name'],
        [2, 'Last Name', 'last_name'],
        [3, 'MEMBER_RATING', null],
        [4, 'OPTIN_TIME', 'subscribed_at'],
        [5, 'CONFIRM_TIME', null],
        [6, 'LEID', null],
        [7, 'EUID', null],
        [8, 'TAGS', 'tags'],
      ]);
      expect(d.preset).toEqual(real ? null : { key: 'mailchimp', label: 'Mailchimp audience export' });
      expect(d.mapping_source).toBe(real ? 'headings' : 'preset');
      expect(d.mapping).toEqual({ email: 'Email Address', first_name: 'First Name', last_name: 'Last Name', tags: 'TAGS', subscribed_at: 'OPTIN_TIME' });
      expect(d.rows[0]).toEqual({ line: 2, values: { email: 'ada.one@example.com', name: 'Ada One', tags: ['vip', 'early-access'], status: 'subscribed', subscribed_at: Date.UTC(2023, 0, 5, 10, 22, 1) / 1000, language: null }, outcome: 'new', reason: null });
      expect(d.dry_run).toEqual({ rows: 2, new: 2, updated: 0, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0, reasons: {} });
      // the preview keeps nothing: no person, no upload left behind
      expect(count("SELECT count(*) AS n FROM subscribers WHERE email = 'ada.one@example.com'")).toBe(0);
      expect(count('SELECT count(*) AS n FROM import_seen')).toBe(0);
    });

    test('the other tools’ exports: each preset by its headers (the real plugin knows only EmailOctopus), with its status reading', async () => {
      const cases: [string, string[], string, Json][] = [
        ['listmonk', LISTMONK, 'listmonk subscribers export', { email: 'email', name: 'name', status: 'status', subscribed_at: 'created_at' }],
        ['brevo', BREVO, 'Brevo (Sendinblue) contacts export', { email: 'EMAIL', first_name: 'FIRSTNAME', last_name: 'LASTNAME', status: 'EMAIL_BLACKLISTED', subscribed_at: 'ADDED_TIME' }],
        ['mailerlite', MAILERLITE, 'MailerLite subscribers export', { email: 'Subscriber', name: 'Name', last_name: 'Last name', tags: 'Groups', status: 'Status', subscribed_at: 'Subscribed' }],
        ['emailoctopus', OCTOPUS, 'EmailOctopus contacts export', { email: 'Email address', first_name: 'First name', last_name: 'Last name', tags: 'Tags', status: 'Status', subscribed_at: 'Created at' }],
      ];
      for (const [key, lines, label, mapping] of cases) {
        const d = data(await preview(`${key}.csv`, lines));
        if (real && key !== 'emailoctopus') {
          expect(d.preset, key).toBeNull();
          expect(d.mapping_source).toBe('headings');
          continue;
        }
        expect(d.preset, key).toEqual({ key, label });
        expect(d.mapping, key).toEqual(mapping);
        // the second row of each file is an unsubscribed or pending one as that tool writes it
        expect(d.rows[1].outcome, key).toBe(key === 'mailerlite' ? 'skipped' : 'unsubscribe');
      }
      const brevo = data(await preview('brevo.csv', BREVO));
      expect(brevo.file.delimiter).toBe(';');
      const tabs = data(await preview('octopus.csv', OCTOPUS));
      expect(tabs.file.delimiter).toBe('\t');
      expect(tabs.rows[0].values).toMatchObject({ email: 'ivy@example.com', name: 'Ivy Eight', tags: ['vip'], subscribed_at: Date.UTC(2024, 6, 1, 10) / 1000 });
    });

    test('every row rule in the dry run, in order, against the list; the reasons in words for the first rows', async () => {
      const suppressed = sql<Json>("SELECT email FROM subscribers WHERE status = 'bounced' LIMIT 1").email;
      const existing = sql<Json>("SELECT s.email FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND NOT EXISTS (SELECT 1 FROM memberships x WHERE x.subscriber_id = s.id AND x.left_by = 'self') LIMIT 1").email;
      const leftList = sql<Json>("SELECT s.email FROM subscribers s JOIN memberships x ON x.subscriber_id = s.id AND x.list_id = 2 AND x.left_by = 'self' WHERE s.status = 'subscribed' AND s.suppressed = 0 LIMIT 1").email;
      const lines = [
        '\ufeffE-mail;Full name;State;Language',
        'new.one@example.com;New One;;de',
        ';No Address;;',
        'no-at-sign;Bad;;',
        'NEW.ONE@example.com;Twice;;',
        `${existing};Already Here;subscribed;`,
        `${suppressed};Bounced;;`,
        'gone@example.com;Gone;opted out;',
        'wait@example.com;Waiting;unconfirmed;',
        `${leftList};Left;;`,
        '"quoted, name@example.com";"Multi',
        'line";;',
      ];
      const d = data(await preview('mixed.csv', lines, { list_id: '2' }));
      expect(d.file).toMatchObject({ rows: 10, delimiter: ';', bom: true });
      expect(d.preset).toBeNull();
      expect(d.mapping).toEqual({ email: 'E-mail', name: 'Full name', status: 'State', language: 'Language' });
      expect(d.rows.map((r: Json) => [r.line, r.outcome])).toEqual([
        [2, 'new'],
        [3, 'invalid'],
        [4, 'invalid'],
        [5, 'duplicate'],
        [6, 'updated'],
        [7, 'suppressed'],
        [8, 'unsubscribe'],
        [9, 'skipped'],
        [10, 'skipped'],
        [11, 'invalid'],
      ]);
      expect(d.rows[1].reason).toBe('There is no address in this row.');
      expect(d.rows[2].reason).toBe('This is not an email address.');
      expect(d.rows[3].reason).toBe('The same address is earlier in the file.');
      expect(d.rows[7].reason).toBe('They never confirmed at the old tool, so they are not imported.');
      expect(d.rows[8].reason).toBe('They left this list (or every list) themselves, so nothing is written.');
      expect(d.rows[9].values.name).toBe('Multi\r\nline');
      expect(d.dry_run).toEqual({ rows: 10, new: 1, updated: 1, invalid: 3, duplicates: 1, suppressed: 1, unsubscribed: 1, skipped: 2, reasons: { missing_address: 1, invalid_address: 2, duplicate: 1, suppressed: 1, unsubscribed_at_source: 1, pending_at_source: 1, left_themselves: 1 } });
      // without the list, the one who left list 2 is simply already here
      expect(data(await preview('mixed.csv', lines)).dry_run).toMatchObject({ updated: 2, skipped: 1 });
    });

    test('a mapping sent wins: by header or index; a field or column it does not know, or a column twice, is 422 naming it', async () => {
      const lines = ['a,b,c', 'x@example.com,Xena,vip'];
      const d = data(await preview('plain.csv', lines, { mapping: JSON.stringify({ email: 0, name: 'b', tags: 2 }) }));
      expect(d).toMatchObject({ mapping_source: 'given', mapping: { email: 'a', name: 'b', tags: 'c' } });
      expect(d.rows[0].values).toMatchObject({ email: 'x@example.com', name: 'Xena', tags: ['vip'] });
      // the headings name nothing here: every row has no address
      expect(data(await preview('plain.csv', lines)).dry_run).toMatchObject({ invalid: 1, reasons: { missing_address: 1 } });
      expect(expectCode(await preview('plain.csv', lines, { mapping: JSON.stringify({ phone: 'a' }) }), 422, 'mapping_invalid').errors[0].field).toBe('mapping.phone');
      expect(expectCode(await preview('plain.csv', lines, { mapping: JSON.stringify({ email: 'Email' }) }), 422, 'mapping_invalid').detail).toContain('no column headed "Email"');
      expect(expectCode(await preview('plain.csv', lines, { mapping: JSON.stringify({ email: 0, name: 0 }) }), 422, 'mapping_invalid').errors[0].field).toBe('mapping.name');
      expectCode(await preview('plain.csv', lines, { mapping: JSON.stringify({ email: 7 }) }), 422, 'mapping_invalid');
      expectCode(await preview('plain.csv', lines, { mapping: '{not json' }), 422, 'mapping_invalid');
      expectCode(await preview('plain.csv', lines, { list_id: '99' }), 422, 'unknown_list');
    });

    test('no file, an empty file, not multipart: refused saying what to send; nothing left on disk', async () => {
      expectCode(await api.upload(m.p('/imports/preview'), [], { list_id: '1' }), 422, 'file_required');
      expectCode(await preview('empty.csv', ''), 422, 'file_not_csv');
      expectCode(await preview('binary.csv', '\u0000\u0001\u0002'), 422, 'file_not_csv');
      const notMultipart = await api.post(m.p('/imports/preview'), { file: 'x' });
      expectCode(notMultipart, real ? 422 : 400, 'file_required');
      expect(uploads()).toBe(0);
    });
  });

  describe('the run', () => {
    test('queued (202, Location), worked through on the sandbox’s clock with progress, then finished with the dry run’s counts', async () => {
      const lines = ['email,name,tags'];
      for (let i = 0; i < 1000; i++) lines.push(`paced.${i}@example.com,Paced ${i},paced`);
      const dry = data(await preview('paced.csv', lines.join('\n'), { list_id: '2' })).dry_run;
      Object.assign(sb.mailer.knobs, { importRate: 100 });
      try {
        const r = await start('paced.csv', lines, { mapping: JSON.stringify({ email: 'email', name: 'name', tags: 'tags' }), list_id: '2', tag: 'Autumn Import' });
        const queued = data(r, 202);
        expect(r.headers.get('location')).toBe(`${sb.prefix}${m.base}/imports/${queued.id}`);
        expect(queued).toMatchObject({ file_name: 'paced.csv', status: 'queued', list_id: 2, tag: 'autumn-import', basis: 'paced.csv', as_confirmed: true, preset: null, mapping: { email: 'email', name: 'name', tags: 'tags' }, rows_total: 1000, rows_done: 0, progress: 0, created_by: 'admin', queued_at: expect.any(Number), started_at: null, finished_at: null, error: null });
        // three seconds of the sandbox's clock: about 300 rows at 100 a second
        sb.clock.advance(3000);
        const mid = await until(async () => data(await api.get(m.p(`/imports/${queued.id}`))), (x) => x.rows_done >= 300, 5000);
        expect(mid.status).toBe('running');
        expect(mid.rows_done).toBeLessThan(1000);
        expect(mid.progress).toBeCloseTo(mid.rows_done / 1000, 3);
        expect(mid.started_at).toEqual(expect.any(Number));
        sb.clock.advance(10_000);
        const end = await until(async () => data(await api.get(m.p(`/imports/${queued.id}`))), (x) => x.status === 'finished', 10_000);
        expect(end).toMatchObject({ rows_done: 1000, progress: 1, finished_at: expect.any(Number), counts: { new: dry.new, updated: dry.updated, invalid: 0, duplicates: 0, suppressed: 0, unsubscribed: 0, skipped: 0 } });
        expect(pageOf(await api.get(m.p('/subscribers?tag=autumn-import'))).total).toBe(1000);
        expect(uploads()).toBe(0);
      } finally {
        sb.mailer.knobs.importRate = 0;
      }
    });

    test('what each row becomes: source import, the import and its basis, the list, the file’s and the import’s tags; unsubscribed rows suppressed; nobody downgraded; a second run changes nothing', async () => {
      const known = sql<Json>("SELECT s.id, s.email, s.name FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND s.name <> '' AND EXISTS (SELECT 1 FROM memberships x WHERE x.subscriber_id = s.id AND x.list_id = 3 AND x.status = 'subscribed') LIMIT 1");
      const leaving = sql<Json>("SELECT s.id, s.email FROM subscribers s WHERE s.status = 'subscribed' AND s.suppressed = 0 AND s.id <> ? LIMIT 1", known.id);
      const lines = ['Email,First name,Last name,Tags,Status,Joined', `rows.new@example.com,Rhea,New,"vip; Board",subscribed,2024-02-03`, `${known.email},Other,Name,,pending-ish,`, `${leaving.email},,,,unsubscribed,`];
      const mapping = JSON.stringify({ email: 'Email', first_name: 'First name', last_name: 'Last name', tags: 'Tags', status: 'Status', subscribed_at: 'Joined' });
      const r = data(await start('rows.csv', lines, { mapping, list_id: '3', tag: 'winter', basis: 'Signed up on the old site, 2019 to 2024' }), 202);
      await sb.mailer.drain();
      const done = data(await api.get(m.p(`/imports/${r.id}`)));
      expect(done).toMatchObject({ status: 'finished', counts: { new: 1, updated: 1, unsubscribed: 1, invalid: 0, duplicates: 0, suppressed: 0, skipped: 0 }, reasons: { unsubscribed_at_source: 1 } });
      const fresh = sql<Json>("SELECT * FROM subscribers WHERE email = 'rows.new@example.com'");
      expect(fresh).toMatchObject({ name: 'Rhea New', status: 'subscribed', source: 'import', import_id: r.id, consent_basis: 'Signed up on the old site, 2019 to 2024', consent_at: Date.UTC(2024, 1, 3) / 1000 });
      const person = data(await api.get(m.p(`/subscribers/${fresh.id}`)));
      expect(person.lists).toEqual([{ id: 3, code: 'events', name: 'Events', status: 'subscribed', since: expect.any(Number), left_by: null }]);
      expect(person.tags.map((t: Json) => t.code).sort()).toEqual(['board', 'vip', 'winter']);
      expect(person.import).toMatchObject({ id: r.id, file_name: 'rows.csv' });
      expect(person.consent_log[0]).toMatchObject({ action: 'imported', list_id: 3, by: 'import', note: 'Signed up on the old site, 2019 to 2024' });
      // already here: name kept, membership kept as it was, the import's tag added
      expect(sql<Json>('SELECT name, status FROM subscribers WHERE id = ?', known.id)).toEqual({ name: known.name, status: 'subscribed' });
      expect(count("SELECT count(*) AS n FROM subscriber_tags t JOIN tags g ON g.id = t.tag_id WHERE g.code = 'winter' AND t.subscriber_id = ?", known.id)).toBe(1);
      // unsubscribed at the old tool: suppressed here, taken off every list
      expect(sql<Json>('SELECT reason, note FROM suppressions WHERE hash = ?', emailHash(leaving.email))).toEqual({ reason: 'manual', note: 'import: rows.csv' });
      expect(data(await api.get(m.p(`/subscribers/${leaving.id}`)))).toMatchObject({ status: 'unsubscribed', suppressed: true });
      // the same file again: nothing new, nobody changed
      const again = data(await start('rows.csv', lines, { mapping, list_id: '3', tag: 'winter' }), 202);
      await sb.mailer.drain();
      expect(data(await api.get(m.p(`/imports/${again.id}`))).counts).toEqual({ new: 0, updated: 2, invalid: 0, duplicates: 0, suppressed: 1, unsubscribed: 0, skipped: 0 });
      expect(count("SELECT count(*) AS n FROM subscribers WHERE email = 'rows.new@example.com'")).toBe(1);
    });

    test('ask everybody to confirm: waiting on the list, a confirmation each; no list: people only', async () => {
      const r = data(await start('ask.csv', ['email', 'ask.1@example.com', 'ask.2@example.com'], { mapping: '{"email":"email"}', list_id: '1', as_confirmed: 'false' }), 202);
      expect(r.as_confirmed).toBe(false);
      await sb.mailer.drain();
      for (const e of ['ask.1@example.com', 'ask.2@example.com']) {
        const s = sql<Json>('SELECT id, status, consent_at FROM subscribers WHERE email = ?', e);
        expect(s).toMatchObject({ status: 'pending', consent_at: null });
        expect(count("SELECT count(*) AS n FROM memberships WHERE subscriber_id = ? AND list_id = 1 AND status = 'pending'", s.id)).toBe(1);
        expect(count("SELECT count(*) AS n FROM messages WHERE subscriber_id = ? AND kind = 'confirmation'", s.id)).toBe(1);
      }
      data(await start('nolist.csv', ['email', 'nolist@example.com'], { mapping: '{"email":"email"}' }), 202);
      await sb.mailer.drain();
      const s = sql<Json>("SELECT id, status FROM subscribers WHERE email = 'nolist@example.com'");
      expect(s.status).toBe('subscribed');
      expect(count('SELECT count(*) AS n FROM memberships WHERE subscriber_id = ?', s.id)).toBe(0);
      expectCode(await start('x.csv', ['email', 'x@example.com'], { mapping: '{"email":"email"}', as_confirmed: 'perhaps' }), 422);
    });

    test('refused: without a mapping naming the email column; while the site has no worker running (503); nothing left on disk', async () => {
      expectCode(await start('x.csv', ['email', 'x@example.com'], {}), 422, 'mapping_invalid');
      expect(expectCode(await start('x.csv', ['email', 'x@example.com'], { mapping: '{"name":"email"}' }), 422, 'mapping_invalid').errors[0].field).toBe('mapping.email');
      sb.mailer.knobs.worker = false;
      try {
        expect(expectCode(await start('x.csv', ['email', 'x@example.com'], { mapping: '{"email":"email"}' }), 503, 'worker_unavailable').detail).toContain('no job queue running');
      } finally {
        sb.mailer.knobs.worker = true;
      }
      expect(uploads()).toBe(0);
    });

    test('the history: newest first with counts, paged; one run; the seed’s past imports', async () => {
      const r = await api.get(m.p('/imports?per_page=2'));
      const rows = data(r) as Json[];
      expect(rows).toHaveLength(2);
      expect(pageOf(r).total).toBe(count('SELECT count(*) AS n FROM imports'));
      expect(rows[0]!.id).toBeGreaterThan(rows[1]!.id);
      const all = data(await api.get(m.p('/imports?per_page=200'))) as Json[];
      const seeded = all.find((x) => x.file_name === 'old-site-2019-2024.csv')!;
      expect(seeded).toMatchObject({ status: 'finished', preset: 'mailchimp', list_id: 1, progress: 1, counts: { new: count('SELECT count(*) AS n FROM subscribers WHERE import_id = ?', seeded.id) } });
      for (const x of all) expect(JSON.stringify(x)).not.toMatch(/[a-z0-9.]+@[a-z]/i);
      expectCode(await api.get(m.p('/imports/99999')), 404);
    });
  });

  test('a 100,000-row file is streamed: spooled with at most a chunk held, previewed and imported with the sandbox’s memory flat', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mailer-big-'));
    const file = join(dir, 'big.csv');
    const out = createWriteStream(file);
    out.write('Email,First name,Last name,Tags,Notes\n');
    const padding = 'x'.repeat(460);
    for (let i = 0; i < 100_000; i++) {
      if (!out.write(`big.${i}@example.com,Big,Person ${i},"big, batch-${i % 10}",${padding}\n`)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const bytes = statSync(file).size;
    expect(bytes).toBeGreaterThan(50_000_000);

    // the upload is sent by another process, from disk as it is read: what this process holds is the sandbox's
    const post = (path: string, fields: Record<string, string>) =>
      new Promise<Reply>((resolve, reject) => {
        const child = execFile(process.execPath, ['-e', UPLOADER, `${sb.url}${m.p(path)}`, sb.seeded!.adminApiKey!, file, JSON.stringify(fields)], { maxBuffer: 10_000_000 }, (err, stdout) => {
          if (err) return reject(err);
          const { status, body } = JSON.parse(stdout) as { status: number; body: string };
          void read(new Response(body, { status, headers: { 'content-type': 'application/json' } })).then(resolve, reject);
        });
        child.on('error', reject);
      });

    // what the process holds alive (a collection first, so garbage waiting for one is not counted),
    // sampled every 250 ms while the file is uploaded, previewed and imported
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const mem = () => {
      // twice: array buffers let go by the first are released by the second
      gc();
      gc();
      const u = process.memoryUsage();
      return u.heapUsed + u.arrayBuffers;
    };
    const base = mem();
    let peak = base;
    let samples = 0;
    const sampler = setInterval(() => {
      const v = mem();
      peak = Math.max(peak, v);
      samples++;
    }, 250);
    try {
      const mapping = JSON.stringify({ email: 'Email', first_name: 'First name', last_name: 'Last name', tags: 'Tags' });
      const started = performance.now();
      const pv = data(await post('/imports/preview', { mapping, list_id: '2' }));
      const previewMs = performance.now() - started;
      expect(pv.file).toMatchObject({ name: 'big.csv', bytes, rows: 100_000 });
      expect(pv.rows).toHaveLength(20);
      expect(pv.dry_run).toMatchObject({ rows: 100_000, new: 100_000, updated: 0, invalid: 0, duplicates: 0 });

      const q = data(await post('/imports', { mapping, list_id: '2', tag: 'big' }), 202);
      expect(q.rows_total).toBe(100_000);
      const runStarted = performance.now();
      await sb.mailer.drain();
      const runMs = performance.now() - runStarted;
      const done = data(await api.get(m.p(`/imports/${q.id}`)));
      expect(done).toMatchObject({ status: 'finished', rows_done: 100_000, counts: { new: 100_000 } });
      expect(count("SELECT count(*) AS n FROM subscribers WHERE email LIKE 'big.%@example.com'")).toBe(100_000);
      expect(pageOf(await api.get(m.p('/subscribers?tag=big&list=2&list_status=subscribed&per_page=1'))).total).toBe(100_000);

      clearInterval(sampler);
      const grew = peak - base;
      // the reader held at most a network chunk and a boundary at once, never the file
      expect(sb.mailer.peakUploadBuffered).toBeLessThanOrEqual(256 * 1024);
      // and the process never held anything near the file alive: a copy of it would be `bytes` more
      expect(samples).toBeGreaterThan(10);
      expect(grew).toBeLessThan(bytes / 8);
      console.log(`100,000 rows, ${(bytes / 1e6).toFixed(1)} MB: preview ${Math.round(previewMs)} ms, run ${Math.round(runMs)} ms; upload reader held at most ${sb.mailer.peakUploadBuffered} bytes; live heap and buffers grew by at most ${(grew / 1e6).toFixed(1)} MB over ${samples} samples`);
      expect(uploads()).toBe(0);
    } finally {
      clearInterval(sampler);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
