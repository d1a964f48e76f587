/**
 * A site's mailer campaigns through the Host against the CMS sandbox (docs/mailer-campaigns.md):
 * the table with every state's count (its first page kept for reading while the site is away),
 * the audience counted before a campaign is made, a draft made, scheduled at a time that starts
 * on the sandbox's clock, paused, resumed, canceled and deleted, each only as the state allows and
 * refused in the site's words otherwise; a start whose answer was lost, asked again, answered as
 * done; and a site whose plugin has no campaign routes said as such (the real flavour has none yet).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { withHost, type DemoHost } from '../support/demo-host';
import { UNHURRIED } from '../support/limits';

describe('spec flavour', () => {
  let fx: DemoHost;
  const siteId = () => fx.site.id;
  const store = () => fx.cms.mailer.store;

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'spec', ...UNHURRIED, mailer: { subscribers: 800 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('the table: newest first with every state’s count over the whole table, a status filter; the first page kept for reading offline', async () => {
    const all = await fx.call('mailer.campaigns', { siteId: siteId() });
    expect(all.items.map((c) => c.name)).toEqual(['Winter preview', 'VIP evening', 'Autumn news', 'Summer events', 'Product update 3.2', 'Spring news']);
    expect(all.statusCounts).toEqual({ draft: 1, scheduled: 1, sending: 0, paused: 0, stopped: 0, canceled: 0, sent: 4 });
    expect(all).toMatchObject({ total: 6, page: 1, copiedAt: null, unreadable: [] });
    const sent = all.items.find((c) => c.status === 'sent')!;
    expect(sent.nextMoves).toEqual([]);
    expect(sent.counters.sent).toBeGreaterThan(0);
    expect(sent.rates.open).toBeGreaterThan(0);
    expect(sent.sentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const draft = all.items.find((c) => c.status === 'draft')!;
    expect(draft.nextMoves).toEqual(['edit', 'delete', 'start', 'schedule']);
    const onlySent = await fx.call('mailer.campaigns', { siteId: siteId(), status: 'sent' });
    expect(onlySent.items.map((c) => c.status)).toEqual(['sent', 'sent', 'sent', 'sent']);

    // the site away: the kept first page, with its time
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const kept = await fx.call('mailer.campaigns', { siteId: siteId() });
      expect(kept.copiedAt).toMatch(/^\d{4}-/);
      expect(kept.items).toHaveLength(6);
      // a move is never kept for later: refused now
      const err = await fx.fails('mailer.moveCampaign', { siteId: siteId(), id: draft.id, move: 'start' });
      expect(err.message).toMatch(/The campaign was not started/);
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('the audience before a campaign is made: who can be mailed on those lists, and who is left out', async () => {
    const lists = (await fx.call('mailer.lists', { siteId: siteId() })).lists;
    const first = lists[0]!;
    const one = await fx.call('mailer.campaignAudience', { siteId: siteId(), listIds: [first.id] });
    const any = await fx.call('mailer.campaignAudience', { siteId: siteId(), listIds: [] });
    expect(one.count).toBeGreaterThan(0);
    expect(any.count).toBeGreaterThanOrEqual(one.count);
    // the site's own count, by a query of its tables
    const n = store()
      .prep("SELECT count(DISTINCT s.id) AS n FROM subscribers s JOIN memberships m ON m.subscriber_id = s.id WHERE m.list_id = ? AND m.status = 'subscribed' AND s.status = 'subscribed' AND s.suppressed = 0")
      .get(first.id) as { n: number };
    expect(one.count).toBe(n.n);
    const err = await fx.fails('mailer.campaignAudience', { siteId: siteId(), listIds: [9999] });
    expect(err.status).toBe(422);
  });

  test('a draft made, scheduled, started on the moved clock, paused, resumed, canceled, deleted — each move only as the state allows', async () => {
    const lists = (await fx.call('mailer.lists', { siteId: siteId() })).lists;
    const made = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'December news', subject: 'What is new', listIds: [lists[0]!.id] });
    expect(made.campaign).toMatchObject({ name: 'December news', status: 'draft', subject: 'What is new', listIds: [lists[0]!.id], missing: ['body_md'] });
    // not ready: start refused with what it needs, in the site's words
    const notReady = await fx.fails('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start' });
    expect(notReady.reason).toBe('campaign_not_ready');
    expect(notReady.message).toMatch(/body/i);
    // a draft cannot be paused: the site says why
    const paused = await fx.fails('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'pause' });
    expect(paused.reason).toBe('campaign_state');
    expect(paused.message).toMatch(/draft/);

    // written whole: a second draft with its body (edits are the editor's; not yet)
    const ready = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'December news', subject: 'What is new', bodyMd: '# Hello', listIds: [lists[0]!.id] });
    expect(ready.campaign.missing).toEqual([]);
    await fx.call('mailer.deleteCampaign', { siteId: siteId(), id: made.campaign.id });
    made.campaign = ready.campaign;
    const at = new Date(fx.cms.clock.now() + 3_600_000).toISOString();
    const scheduled = await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start', scheduledAt: at });
    expect(scheduled.campaign.status).toBe('scheduled');
    expect(Date.parse(scheduled.campaign.scheduledAt!)).toBe(Math.floor(Date.parse(at) / 1000) * 1000);
    const past = await fx.fails('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start', scheduledAt: new Date(fx.cms.clock.now() - 60_000).toISOString() });
    expect(past.fields).toHaveProperty('scheduledAt');

    expect((await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'pause' })).campaign.status).toBe('paused');
    // resumed while its time is ahead: scheduled again
    expect((await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'resume' })).campaign.status).toBe('scheduled');
    fx.cms.clock.advance(3_601_000);
    const started = await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id });
    expect(['sending', 'sent']).toContain(started.campaign.status);
    expect(started.campaign.startedAt).not.toBeNull();

    expect((await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'cancel' })).campaign.status).toBe('canceled');
    expect((await fx.call('mailer.deleteCampaign', { siteId: siteId(), id: made.campaign.id })).id).toBe(made.campaign.id);
    const gone = await fx.fails('mailer.campaign', { siteId: siteId(), id: made.campaign.id });
    expect(gone.message).toMatch(/no campaign of that id/);
    // deleting it again is no error: it is gone either way
    expect((await fx.call('mailer.deleteCampaign', { siteId: siteId(), id: made.campaign.id })).id).toBe(made.campaign.id);
  });

  test('written and previewed: an edit saves what changed, the preview renders saved and unsaved text, a test copy goes out; once sent, its sends by outcome, links and timeline', async () => {
    const lists = (await fx.call('mailer.lists', { siteId: siteId() })).lists;
    const made = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'Written here', listIds: [lists[1]!.id] });
    const edited = await fx.call('mailer.updateCampaign', {
      siteId: siteId(),
      id: made.campaign.id,
      changes: { subject: 'Autumn at the fair', preheader: 'Three new stalls', bodyMd: '# Hello\n\nSee [the stalls](https://fair.example/stalls).', layout: 'plain', trackClicks: true },
    });
    expect(edited.campaign).toMatchObject({ subject: 'Autumn at the fair', preheader: 'Three new stalls', bodyMd: expect.stringContaining('# Hello'), layout: 'plain', missing: [] });
    // a refused field is under the input's own name
    const bad = await fx.fails('mailer.updateCampaign', { siteId: siteId(), id: made.campaign.id, changes: { fromEmail: 'nobody' } });
    expect(Object.keys(bad.fields ?? {})).toEqual(['changes.fromEmail']);

    const saved = await fx.call('mailer.previewCampaign', { siteId: siteId(), id: made.campaign.id });
    expect(saved).toMatchObject({ subject: 'Autumn at the fair', layout: 'plain', missing: [] });
    expect(saved.html).toContain('<h1');
    expect(saved.html).toContain('https://fair.example/stalls');
    const unsaved = await fx.call('mailer.previewCampaign', { siteId: siteId(), id: made.campaign.id, draft: { bodyMd: '## Changed *here*', subject: 'Not saved' } });
    expect(unsaved.subject).toBe('Not saved');
    expect(unsaved.html).toContain('<em>here</em>');
    // nothing of the unsaved text was kept
    expect((await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign.subject).toBe('Autumn at the fair');

    const outbox = () => store().prep("SELECT count(*) AS n FROM messages WHERE kind = 'campaign_test' AND campaign_id = ?").get(made.campaign.id) as { n: number };
    const test1 = await fx.call('mailer.testCampaign', { siteId: siteId(), id: made.campaign.id, email: 'tester@fair.example' });
    expect(test1.subject).toMatch(/Autumn at the fair/);
    expect(outbox().n).toBe(1);
    expect((await fx.fails('mailer.testCampaign', { siteId: siteId(), id: made.campaign.id, email: 'no-address' })).fields).toHaveProperty('email');

    // sent, on the moved clock
    await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start' });
    for (let i = 0; i < 20 && (await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign.status !== 'sent'; i++) fx.cms.clock.advance(60_000);
    const sent = (await fx.call('mailer.campaign', { siteId: siteId(), id: made.campaign.id })).campaign;
    expect(sent.status).toBe('sent');
    // an edit now: refused in the site's words
    expect((await fx.fails('mailer.updateCampaign', { siteId: siteId(), id: made.campaign.id, changes: { subject: 'Too late' } })).reason).toBe('campaign_state');
    fx.cms.clock.advance(6 * 3_600_000);

    const sends = await fx.call('mailer.campaignSends', { siteId: siteId(), id: made.campaign.id, perPage: 20 });
    expect(sends.total).toBe(sent.counters.sent);
    expect(sends.items[0]).toMatchObject({ id: expect.any(Number), email: expect.stringContaining('@'), sentAt: expect.any(String) });
    const counts = sends.statusCounts!;
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(sends.total);
    const failed = await fx.call('mailer.campaignSends', { siteId: siteId(), id: made.campaign.id, status: 'failed' });
    expect(failed.items.every((x) => x.status === 'failed')).toBe(true);
    expect(failed.total).toBe(counts.failed ?? 0);

    const links = await fx.call('mailer.campaignLinks', { siteId: siteId(), id: made.campaign.id });
    expect(links.links.map((l) => l.url)).toContain('https://fair.example/stalls');
    expect(links.links.find((l) => l.url === 'https://fair.example/stalls')!.inBody).toBe(true);

    const timeline = await fx.call('mailer.campaignTimeline', { siteId: siteId(), id: made.campaign.id });
    expect(timeline.startedAt).not.toBeNull();
    expect(timeline.hours.length).toBeGreaterThan(0);
    expect(timeline.hours.length).toBeLessThanOrEqual(48);
    expect(timeline.hours.reduce((a, h) => a + h.sent, 0)).toBe(sent.counters.sent);

    // failed sends tried again: each its next attempt; nothing failed is left untried
    const retried = await fx.call('mailer.retryFailed', { siteId: siteId(), id: made.campaign.id });
    expect(retried.retried).toBe(counts.failed ?? 0);
    expect(retried.sent).toBe(retried.retried - retried.skipped);
    expect(retried.campaign?.counters.sent).toBe(sent.counters.sent);

    // somebody who joins the list afterwards: caught up once, and a second catch-up finds nobody
    expect((await fx.call('mailer.campaignCatchUp', { siteId: siteId(), id: made.campaign.id })).count).toBe(0);
    await fx.call('mailer.add', { siteId: siteId(), email: 'late.comer@fair.example', listId: lists[1]!.id, mode: 'subscribed', note: 'Signed up at the stall' });
    const late = await fx.call('mailer.campaignCatchUp', { siteId: siteId(), id: made.campaign.id });
    expect(late).toMatchObject({ count: 1, canSend: true, since: expect.any(String) });
    const caught = await fx.call('mailer.sendCatchUp', { siteId: siteId(), id: made.campaign.id });
    expect(caught.sent).toBe(1);
    expect((await fx.call('mailer.sendCatchUp', { siteId: siteId(), id: made.campaign.id })).sent).toBe(0);
    // a draft has nobody to catch up: refused in the site's words
    const draft = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'Not out yet' });
    expect((await fx.fails('mailer.campaignCatchUp', { siteId: siteId(), id: draft.campaign.id })).reason).toBe('campaign_state');
  });

  test('the overview: counts, a month’s growth day by day, recent campaigns, alerts saying what to do; kept for reading while the site is away', async () => {
    const o = await fx.call('mailer.overview', { siteId: siteId() });
    expect(o.copiedAt).toBeNull();
    expect(o.subscribers.total).toBe(store().count({}));
    expect(o.subscribers.total).toBe(o.subscribers.pending + o.subscribers.subscribed + o.subscribers.unsubscribed + o.subscribers.bounced + o.subscribers.complained);
    expect(o.campaigns.total).toBe((await fx.call('mailer.campaigns', { siteId: siteId() })).total);
    expect(o.growth.series).toHaveLength(30);
    expect(o.growth.net).toBe(o.growth.joined - o.growth.left);
    expect(o.growth.series.at(-1)!.day < new Date(fx.cms.clock.now()).toISOString()).toBe(true);
    expect(o.recent.length).toBeGreaterThan(0);
    expect(o.recent.length).toBeLessThanOrEqual(5);
    // the seed's scheduled campaign has no subject or text: said, with what to do
    const notReady = o.alerts.find((a) => a.code === 'campaign_not_ready');
    expect(notReady).toMatchObject({ severity: 'error', title: expect.any(String), detail: expect.stringMatching(/\w/), campaignId: expect.any(Number) });
    const week = await fx.call('mailer.overview', { siteId: siteId(), days: 7 });
    expect(week.growth.series).toHaveLength(7);
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const kept = await fx.call('mailer.overview', { siteId: siteId() });
      expect(kept.copiedAt).toMatch(/^\d{4}-/);
      expect(kept.subscribers.total).toBe(o.subscribers.total);
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('templates: listed by name with the switched-off one said, made, changed, previewed, a campaign written from one keeps its copy after it is deleted', async () => {
    const list = await fx.call('mailer.templates', { siteId: siteId() });
    expect(list.copiedAt).toBeNull();
    expect(list.templates.map((x) => x.name)).toEqual([...list.templates.map((x) => x.name)].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(list.templates.some((x) => !x.isActive)).toBe(true);
    const made = await fx.call('mailer.createTemplate', { siteId: siteId(), name: 'Spring sale', subject: 'Spring is here', bodyMd: '# Sale\n\nAll week.', layout: 'plain' });
    expect(made.template).toMatchObject({ name: 'Spring sale', subject: 'Spring is here', layout: 'plain', isActive: true, campaigns: 0, missing: [] });
    const changed = await fx.call('mailer.updateTemplate', { siteId: siteId(), id: made.template.id, changes: { preheader: 'Ten percent off' } });
    expect(changed.template.preheader).toBe('Ten percent off');
    const preview = await fx.call('mailer.previewTemplate', { siteId: siteId(), id: made.template.id, draft: { bodyMd: '## Changed' } });
    expect(preview.html).toContain('<h2');
    const campaign = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'From the template', templateId: made.template.id });
    expect(campaign.campaign).toMatchObject({ subject: 'Spring is here', preheader: 'Ten percent off', bodyMd: '# Sale\n\nAll week.', layout: 'plain' });
    await fx.call('mailer.deleteTemplate', { siteId: siteId(), id: made.template.id });
    expect((await fx.call('mailer.campaign', { siteId: siteId(), id: campaign.campaign.id })).campaign.bodyMd).toBe('# Sale\n\nAll week.');
    expect((await fx.call('mailer.templates', { siteId: siteId() })).templates.some((x) => x.id === made.template.id)).toBe(false);
    expect((await fx.fails('mailer.createCampaign', { siteId: siteId(), name: 'From nothing', templateId: 9999 })).reason).toBe('unknown_template');
  });

  test('a start asked again after its answer was lost answers the campaign it started, not a refusal', async () => {
    const made = await fx.call('mailer.createCampaign', { siteId: siteId(), name: 'Once only', subject: 'Hi', bodyMd: 'Hello', listIds: [1] });
    const first = await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start' });
    expect(['sending', 'sent']).toContain(first.campaign.status);
    const again = await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'start' });
    expect(again.campaign.id).toBe(made.campaign.id);
    expect(['sending', 'sent']).toContain(again.campaign.status);
    // a cancel asked twice: the second finds it canceled and answers so
    expect((await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'cancel' })).campaign.status).toBe('canceled');
    expect((await fx.call('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'cancel' })).campaign.status).toBe('canceled');
    // a resume of a canceled one is refused: that is not where a resume leads
    expect((await fx.fails('mailer.moveCampaign', { siteId: siteId(), id: made.campaign.id, move: 'resume' })).reason).toBe('campaign_state');
  });
});

describe('real flavour', () => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'real', ...UNHURRIED, mailer: { subscribers: 200 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('a plugin without campaign routes: said as such, not as a missing plugin', async () => {
    const err = await fx.fails('mailer.campaigns', { siteId: fx.site.id });
    expect(err.reason).toBe('no_campaigns');
    expect(err.message).toMatch(/no campaigns/);
    expect((await fx.fails('mailer.overview', { siteId: fx.site.id })).reason).toBe('no_campaigns');
    // the audience still answers
    expect((await fx.call('mailer.lists', { siteId: fx.site.id })).lists.length).toBeGreaterThan(0);
  });
});
