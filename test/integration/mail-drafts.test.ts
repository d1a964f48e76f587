/**
 * Campaigns and templates written here and pushed by the site's sync (mailer/drafts.ts), through
 * the Host against the CMS sandbox with a real SQLite file: Save while the site answers goes at
 * once; while it does not, the draft is kept, counted in the sync status, and the next push sends
 * it; the site's own changes meanwhile are kept by a three-way merge (fields by field, the text by
 * lines), and the same field or lines changed on both sides wait for the merge view, whose result
 * goes on top of the site's; a campaign that went out meanwhile refuses the draft, kept with the
 * reason until discarded; an edit whose answer was lost is not applied twice.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { campaignFields, templateFields, type MailerCampaign, type MailFields } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { UNHURRIED } from '../support/limits';

describe('drafts of campaigns and templates', () => {
  let fx: DemoHost;
  const siteId = () => fx.site.id;
  const store = () => fx.cms.mailer.store;
  const onSite = (id: number) => {
    const row = store().prep('SELECT name, status, fields FROM campaigns WHERE id = ?').get(id) as { name: string; status: string; fields: string };
    return { name: row.name, status: row.status, ...(JSON.parse(row.fields) as { subject?: string; body_md?: string; preheader?: string }) };
  };
  /** Someone else's edit on the site, behind the app's back. */
  const editOnSite = (id: number, key: 'subject' | 'body_md' | 'preheader', value: string) =>
    store().prep(`UPDATE campaigns SET fields = json_set(fields, '$.${key}', ?), updated_at = updated_at + 1 WHERE id = ?`).run(value, id);
  const patches = (id: number) => fx.cms.requests.list((r) => r.method === 'PATCH' && r.url.split('?')[0]!.endsWith(`/mailer/campaigns/${id}`)).length;
  const pending = async () => (await fx.call('sync.status', {})).find((s) => s.siteId === siteId())!.pending;

  async function made(name: string, bodyMd = 'one\ntwo\nthree'): Promise<MailerCampaign> {
    const lists = (await fx.call('mailer.lists', { siteId: siteId() })).lists;
    return (await fx.call('mailer.createCampaign', { siteId: siteId(), name, subject: 'Hello', bodyMd, listIds: [lists[0]!.id] })).campaign;
  }
  const submit = (c: MailerCampaign, change: Partial<MailFields>, base = campaignFields(c)) =>
    fx.call('mailDrafts.submit', { siteId: siteId(), kind: 'campaign', id: c.id, base, fields: { ...campaignFields(c), ...change } });

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'spec', ...UNHURRIED, recordRequests: true, mailer: { subscribers: 200 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('Save while the site answers: on the site at once, only the fields changed sent, nothing kept here', async () => {
    const c = await made('Online save');
    // a field the editor did not change, changed on the site after the editor read it, stays the site's
    editOnSite(c.id, 'preheader', 'Set on the site');
    const r = await submit(c, { subject: 'Hello again', bodyMd: 'one\ntwo\nthree\nfour' });
    expect(r.outcome).toBe('pushed');
    if (r.outcome !== 'pushed') return;
    expect(r.campaign).toMatchObject({ id: c.id, subject: 'Hello again', bodyMd: 'one\ntwo\nthree\nfour' });
    expect(onSite(c.id)).toMatchObject({ subject: 'Hello again', body_md: 'one\ntwo\nthree\nfour', preheader: 'Set on the site' });
    expect(patches(c.id)).toBe(1);
    expect((await fx.call('mailDrafts.forRecord', { siteId: siteId(), kind: 'campaign', id: c.id })).draft).toBeNull();
  });

  test('written while the site is away: kept and counted; the next push sends it, the site’s own changes meanwhile kept', async () => {
    const c = await made('Train ride', 'line one\nline two\nline three');
    fx.cms.faults.set({ route: '*', drop: true });
    let queued;
    try {
      queued = await submit(c, { bodyMd: 'line one, on a train\nline two\nline three' });
    } finally {
      fx.cms.faults.clear();
    }
    expect(queued.outcome).toBe('queued');
    if (queued.outcome !== 'queued') return;
    expect(queued.problem.message).toMatch(/kept on this computer/);
    expect(onSite(c.id).body_md).toBe('line one\nline two\nline three');
    expect(await pending()).toBeGreaterThanOrEqual(1);
    const kept = (await fx.call('mailDrafts.list', { siteId: siteId() })).find((d) => d.remoteId === c.id)!;
    expect(kept).toMatchObject({ kind: 'campaign', name: 'Train ride', state: 'pending' });
    expect(kept.lastError).toBeTruthy();

    // meanwhile on the site: another subject and the last line
    editOnSite(c.id, 'subject', 'Their subject');
    editOnSite(c.id, 'body_md', 'line one\nline two\nline three, theirs');
    const pushed = await fx.call('sync.push', { siteId: siteId() });
    expect(pushed.pushed).toBeGreaterThanOrEqual(1);
    expect(onSite(c.id)).toMatchObject({ subject: 'Their subject', body_md: 'line one, on a train\nline two\nline three, theirs' });
    expect((await fx.call('mailDrafts.list', { siteId: siteId() })).some((d) => d.remoteId === c.id)).toBe(false);
  });

  test('the same field changed on both sides: the merge view’s choices, then the result on top of the site’s', async () => {
    const c = await made('Both sides');
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      await submit(c, { subject: 'Mine', bodyMd: 'one\nmine\nthree' });
    } finally {
      fx.cms.faults.clear();
    }
    editOnSite(c.id, 'subject', 'Theirs');
    editOnSite(c.id, 'body_md', 'one\ntheirs\nthree');
    await fx.call('sync.push', { siteId: siteId() });
    const d = (await fx.call('mailDrafts.list', { siteId: siteId() })).find((x) => x.remoteId === c.id)!;
    expect(d.state).toBe('conflicted');
    expect(await fx.call('sync.status', {}).then((s) => s.find((x) => x.siteId === siteId())!.conflicted)).toBeGreaterThanOrEqual(1);
    const detail = await fx.call('mailDrafts.get', { draftId: d.id });
    expect(detail.theirs).toMatchObject({ subject: 'Theirs', bodyMd: 'one\ntheirs\nthree' });
    expect(detail.merge!.header.conflicts.map((x) => x.path)).toEqual([['subject']]);
    expect(detail.merge!.text.hunks.some((h) => h.kind === 'conflict')).toBe(true);
    expect(detail.asText.mine).toMatchObject({ title: 'Both sides', content: 'one\nmine\nthree' });
    // the site is left alone until a person chooses
    expect(onSite(c.id).subject).toBe('Theirs');
    // Save over a conflict is refused: it would hide what the site changed
    const over = await fx.fails('mailDrafts.submit', { siteId: siteId(), kind: 'campaign', id: c.id, base: campaignFields(c), fields: { ...campaignFields(c), subject: 'Again' } });
    expect(over.reason).toBe('draft_conflicted');

    const r = await fx.call('mailDrafts.resolve', { draftId: d.id, fields: { ...detail.mine, subject: 'Chosen', bodyMd: 'one\nmine\ntheirs\nthree' } });
    expect(r.outcome).toBe('pushed');
    expect(onSite(c.id)).toMatchObject({ subject: 'Chosen', body_md: 'one\nmine\ntheirs\nthree' });
  });

  test('a campaign that went out meanwhile refuses the draft: kept with the reason, counted, until discarded', async () => {
    const c = await made('Gone out');
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      await submit(c, { subject: 'Too late' });
    } finally {
      fx.cms.faults.clear();
    }
    store().prep("UPDATE campaigns SET status = 'sent', sent_at = created_at + 60 WHERE id = ?").run(c.id);
    const before = patches(c.id);
    await fx.call('sync.push', { siteId: siteId() });
    expect(patches(c.id)).toBe(before);
    const d = (await fx.call('mailDrafts.list', { siteId: siteId() })).find((x) => x.remoteId === c.id)!;
    expect(d.state).toBe('rejected');
    expect(d.problem!.message).toMatch(/sent on the site now: its text cannot change/);
    expect(onSite(c.id).subject).toBe('Hello');
    await fx.call('mailDrafts.discard', { draftId: d.id });
    expect((await fx.call('mailDrafts.list', { siteId: siteId() })).some((x) => x.remoteId === c.id)).toBe(false);
  });

  test('an edit whose answer was lost: kept; the next push finds it on the site and sends nothing again', async () => {
    const c = await made('Lost answer');
    fx.cms.faults.set({ route: `PATCH /mailer/campaigns/${c.id}`, dropAfter: true, times: 1 });
    const r = await submit(c, { subject: 'Arrived' });
    fx.cms.faults.clear();
    expect(r.outcome).toBe('queued');
    expect(onSite(c.id).subject).toBe('Arrived');
    expect(patches(c.id)).toBe(1);
    await fx.call('sync.push', { siteId: siteId() });
    expect(patches(c.id)).toBe(1);
    expect((await fx.call('mailDrafts.forRecord', { siteId: siteId(), kind: 'campaign', id: c.id })).draft).toBeNull();
  });

  test('the site refuses a field: the draft kept with the field’s reason; Save again with it fixed goes', async () => {
    const c = await made('Bad list');
    const r = await submit(c, { listIds: [9999] });
    expect(r.outcome).toBe('rejected');
    if (r.outcome !== 'rejected') return;
    expect(Object.keys(r.problem.fields ?? {})).toEqual(['changes.listIds']);
    expect((await fx.call('mailDrafts.forRecord', { siteId: siteId(), kind: 'campaign', id: c.id })).draft?.state).toBe('rejected');
    const fixed = await submit(c, { listIds: c.listIds, subject: 'Fixed' });
    expect(fixed.outcome).toBe('pushed');
    expect(onSite(c.id).subject).toBe('Fixed');
  });

  test('a template written while the site is away goes with the next push', async () => {
    const made = (await fx.call('mailer.createTemplate', { siteId: siteId(), name: 'Offline template', subject: 'Hi', bodyMd: 'Hello' })).template;
    fx.cms.faults.set({ route: '*', drop: true });
    let queued;
    try {
      queued = await fx.call('mailDrafts.submit', { siteId: siteId(), kind: 'template', id: made.id, base: templateFields(made), fields: { ...templateFields(made), bodyMd: 'Hello from a train' } });
    } finally {
      fx.cms.faults.clear();
    }
    expect(queued.outcome).toBe('queued');
    await fx.call('sync.push', { siteId: siteId() });
    const row = store().prep('SELECT body_md FROM templates WHERE id = ?').get(made.id) as { body_md: string };
    expect(row.body_md).toBe('Hello from a train');
    expect((await fx.call('mailDrafts.list', { siteId: siteId() })).some((d) => d.kind === 'template')).toBe(false);
  });

  test('kept across a restart of the Host: the draft is in the database, and pushed after', async () => {
    const c = await made('Restart');
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      await submit(c, { preheader: 'Before the restart' });
    } finally {
      fx.cms.faults.clear();
    }
    await fx.reopen();
    const kept = (await fx.call('mailDrafts.list', { siteId: siteId() })).find((d) => d.remoteId === c.id);
    expect(kept?.state).toBe('pending');
    await fx.call('sync.push', { siteId: siteId() });
    expect(onSite(c.id).preheader).toBe('Before the restart');
  });
});
