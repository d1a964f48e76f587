/**
 * The mailer's automations over real HTTP, spec flavour (document 2 "Automations";
 * docs/mailer-automations.md): recipes, a draft from one or from scratch, the steps checked and
 * saved whole (a step sent back with its id keeps its people), activate / pause / resume, enrol
 * and exit, the worker moving people through waits and sends on the sandbox's clock into the
 * outbox, a trigger enrolling newcomers, the people by step and paged, delete refused with people
 * inside unless forced, view reads and manage writes. The real flavour has no flow routes.
 * Times are checked against the enrolment's own time (the clock runs on in real time).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startCmsSandbox, type CmsSandbox } from '../sandbox/cms/server';
import { SandboxClient, type Json } from '../sandbox/cms/test-client';
import { data, expectCode, mailerAccount } from '../support/mailer';

describe('spec flavour', () => {
  let sb: CmsSandbox;
  let api: SandboxClient;
  let subscribed: number[];

  const outbox = (subscriberId: number) =>
    sb.mailer.store.prep("SELECT subject, at, flow_id FROM messages WHERE kind = 'automation' AND subscriber_id = ? ORDER BY id").all(subscriberId) as { subject: string; at: number; flow_id: number }[];
  const send = (subject: string) => ({ type: 'send', subject, body_md: `Body of ${subject}` });
  const flow = async (body: Json) => data(await api.post('/mailer/flows', { name: 'Test flow', trigger: 'tag_added', trigger_json: { tag: 'never-added' }, ...body }), 201);
  let next = 0;
  const person = () => subscribed[next++]!;

  beforeAll(async () => {
    sb = await startCmsSandbox({ flavor: 'spec', content: 'empty', mailer: { subscribers: 400 } });
    api = new SandboxClient(sb);
    // people who are in no flow yet (the seeded welcome series holds the last month's newcomers)
    subscribed = sb.mailer.store.db
      .prepare("SELECT id FROM subscribers s WHERE status = 'subscribed' AND suppressed = 0 AND NOT EXISTS (SELECT 1 FROM enrolments e WHERE e.subscriber_id = s.id) ORDER BY id LIMIT 40")
      .pluck()
      .all() as number[];
    expect(subscribed.length).toBe(40);
  });
  afterAll(() => sb?.close());

  test('recipes; a draft from one, with its steps numbered; unknown recipe 404; only name, list_id, segment_id over it', async () => {
    const recipes = data(await api.get('/mailer/flows/recipes'));
    expect(recipes.map((r: Json) => r.key)).toEqual(['welcome', 're-engagement', 'confirmed-thanks']);
    expect(recipes[1]).toMatchObject({ trigger: 'tag_added', trigger_json: { tag: 'quiet' }, allow_reentry: true });
    const r = await api.post('/mailer/flows/recipes/welcome', { name: 'Our welcome', list_id: 1 });
    const f = data(r, 201);
    expect(r.headers.get('location')).toMatch(new RegExp(`/mailer/flows/${f.id}$`));
    expect(f).toMatchObject({ name: 'Our welcome', status: 'draft', trigger: 'subscribed', list_id: 1, recipe: 'welcome', actions: ['activate'], people: { in_flow: 0, total: 0 } });
    expect(f.steps.map((s: Json) => [s.id, s.type, s.people])).toEqual([[1, 'send', 0], [2, 'wait', 0], [3, 'send', 0], [4, 'tag', 0]]);
    expectCode(await api.post('/mailer/flows/recipes/nope', {}), 404, 'unknown_recipe');
    expectCode(await api.post('/mailer/flows/recipes/welcome', { steps: [] }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/flows/recipes/welcome', { list_id: 999 }), 422, 'unknown_list');
  });

  test('the seeded welcome series: paused, its people by step and status, paged (at most 200), filtered', async () => {
    const all = data(await api.get('/mailer/flows'));
    const seeded = all.find((f: Json) => f.id === 1);
    expect(seeded).toMatchObject({ name: 'Welcome series', status: 'paused', actions: ['resume'], step_count: 4 });
    const db = sb.mailer.store.db;
    const count = (status: string) => (db.prepare('SELECT count(*) AS n FROM enrolments WHERE flow_id = 1 AND status = ?').get(status) as { n: number }).n;
    expect(seeded.people).toMatchObject({ waiting: count('waiting'), done: count('done') });
    expect(seeded.people.total).toBeGreaterThan(0);
    const r = await api.get('/mailer/flows/1?per_page=500');
    expect(r.status).toBe(200);
    expect(r.body.meta).toMatchObject({ per_page: 200, total: seeded.people.total });
    const one = r.body.data;
    expect(one.steps.find((s: Json) => s.type === 'wait').people).toBe(count('waiting'));
    expect(one.enrolments.length).toBe(Math.min(200, seeded.people.total));
    const waiting = await api.get('/mailer/flows/1?status=waiting&per_page=2&page=1');
    expect(waiting.body.meta.total).toBe(count('waiting'));
    for (const e of waiting.body.data.enrolments) expect(e).toMatchObject({ status: 'waiting', step_id: 2 });
    expect((await api.get('/mailer/flows/1?step_id=2')).body.meta.total).toBe(count('waiting'));
    expectCode(await api.get('/mailer/flows/1?status=gone'), 422, 'filter_invalid');
    expectCode(await api.get('/mailer/flows/1?step_id=77'), 422, 'filter_invalid');
    expectCode(await api.get('/mailer/flows/999'), 404, 'not_found');
  });

  test('steps checked whole, refusals naming the step; trigger and fields checked', async () => {
    const bad = async (steps: unknown, code = 'invalid_field') => expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'subscribed', steps }), 422, code).errors[0].field;
    expect(await bad([{ type: 'wait', minutes: 0 }])).toBe('steps[0].minutes');
    expect(await bad([send('a'), { type: 'jump' }])).toBe('steps[1].type');
    expect(await bad([{ type: 'send', subject: 'only a subject' }])).toBe('steps[0].body_md');
    expect(await bad([{ type: 'send', template_id: 999 }], 'unknown_template')).toBe('steps[0].template_id');
    expect(await bad([{ type: 'send', template_id: 1, subject: 'both' }])).toBe('steps[0].template_id');
    expect(await bad([{ type: 'tag', action: 'toggle', tag: 'x' }])).toBe('steps[0].action');
    expect(await bad([{ type: 'condition', check: 'has_tag', tag: 'x', otherwise: 'skip', skip: 1 }])).toBe('steps[0].skip');
    expect(await bad([{ type: 'condition', check: 'on_list', list_id: 999 }], 'unknown_list')).toBe('steps[0].list_id');
    expect(await bad([{ id: 1, type: 'wait', minutes: 5 }], 'unknown_step')).toBe('steps[0].id');
    expect(await bad('not a list')).toBe('steps');
    expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'tag_added' }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'opened' }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'subscribed', trigger_json: { tag: 'a' } }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/flows', { trigger: 'subscribed' }), 422, 'invalid_field');
    expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'subscribed', status: 'active' }), 422, 'field_read_only');
    expectCode(await api.post('/mailer/flows', { name: 'x', trigger: 'subscribed', segment_id: 999 }), 422, 'unknown_segment');
    const f = await flow({ steps: [send('a'), { type: 'wait', minutes: 10 }] });
    expect(f.trigger_json).toEqual({ tag: 'never-added' });
    expectCode(await api.patch(`/mailer/flows/${f.id}`, { steps: [{ id: 1, ...send('a') }, { id: 1, type: 'wait', minutes: 5 }] }), 422, 'duplicate_step');
  });

  test('run state: activate needs steps and mailable templates; pause, resume; wrong moves 409 with the moves it can make', async () => {
    const empty = await flow({});
    expect(expectCode(await api.post(`/mailer/flows/${empty.id}/activate`), 409, 'flow_not_ready').detail).toMatch(/no steps/);
    const tpl = data(await api.post('/mailer/templates', { name: 'Flow letter', subject: 'From a template', body_md: 'Hi' }), 201);
    const f = await flow({ steps: [{ type: 'send', template_id: tpl.id }] });
    data(await api.patch(`/mailer/templates/${tpl.id}`, { is_active: false }));
    expect(expectCode(await api.post(`/mailer/flows/${f.id}/activate`), 409, 'flow_not_ready').detail).toMatch(/switched off/);
    data(await api.patch(`/mailer/templates/${tpl.id}`, { is_active: true }));
    expect(expectCode(await api.post(`/mailer/flows/${f.id}/pause`), 409, 'flow_state')).toMatchObject({ flow_status: 'draft', actions: ['activate'] });
    const on = data(await api.post(`/mailer/flows/${f.id}/activate`));
    expect(on).toMatchObject({ status: 'active', actions: ['pause'] });
    expect(on.activated_at).toBeGreaterThan(0);
    expectCode(await api.post(`/mailer/flows/${f.id}/activate`), 409, 'flow_state');
    expect(data(await api.post(`/mailer/flows/${f.id}/pause`))).toMatchObject({ status: 'paused', actions: ['resume'] });
    expect(expectCode(await api.post(`/mailer/flows/${f.id}/activate`), 409, 'flow_state').detail).toMatch(/resume/);
    expect(data(await api.post(`/mailer/flows/${f.id}/resume`))).toMatchObject({ status: 'active' });
    // the template's letter, as the step's person gets it
    const who = person();
    data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: who }), 201);
    expect(outbox(who).map((m) => m.subject)).toEqual(['From a template']);
  });

  test('enrol: sends on the clock through waits, tags, conditions; the message times are the steps’, not the worker’s', async () => {
    const f = await flow({
      steps: [
        send('First'),
        { type: 'wait', minutes: 60 },
        { type: 'tag', action: 'add', tag: 'flowed' },
        { type: 'condition', check: 'has_tag', tag: 'vip', otherwise: 'skip', skip: 1 },
        send('For VIPs'),
        send('Last'),
      ],
    });
    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: subscribed[0] }), 409, 'flow_state');
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    const plain = person();
    const vip = person();
    const store = sb.mailer.store;
    store.addTag(vip, store.ensureTag('vip', null, sb.mailer.nowSec()).tag.id);
    const e1 = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: plain }), 201);
    const e2 = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: vip }), 201);
    expect(e1).toMatchObject({ flow_id: f.id, subscriber_id: plain, status: 'waiting', step_id: f.steps[1].id, due_at: e1.entered_at + 3600 });
    expect(outbox(plain)).toEqual([{ subject: 'First', at: e1.entered_at, flow_id: f.id }]);
    const mid = data(await api.get(`/mailer/flows/${f.id}`));
    expect(mid.people).toMatchObject({ waiting: 2, in_flow: 2 });
    expect(mid.on_steps[1]).toEqual({ step_id: f.steps[1].id, type: 'wait', people: 2 });

    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: plain }), 409, 'already_enrolled');
    sb.clock.advance(2 * 3600_000);
    const after = data(await api.get(`/mailer/flows/${f.id}?status=done`));
    expect(after.people).toMatchObject({ done: 2, in_flow: 0 });
    expect(outbox(plain)).toEqual([
      { subject: 'First', at: e1.entered_at, flow_id: f.id },
      { subject: 'Last', at: e1.entered_at + 3600, flow_id: f.id },
    ]);
    expect(outbox(vip).map((m) => [m.subject, m.at - e2.entered_at])).toEqual([['First', 0], ['For VIPs', 3600], ['Last', 3600]]);
    const flowed = store.tagByCode('flowed')!;
    expect(store.hasTag(plain, flowed.id) && store.hasTag(vip, flowed.id)).toBe(true);
    expect(after.enrolments.find((e: Json) => e.subscriber_id === plain)).toMatchObject({ status: 'done', step_id: null, left_at: e1.entered_at + 3600 });
    expect(after.messages_sent).toBe(5);
    // through it once; re-entry is the flow's choice
    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: plain }), 409, 'no_reentry');
    data(await api.patch(`/mailer/flows/${f.id}`, { allow_reentry: true }));
    expect(data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: plain }), 201).status).toBe('waiting');
    // who cannot be mailed is not enrolled, and who stops being mailable leaves at the next send
    const gone = person();
    data(await api.post(`/mailer/subscribers/${gone}/unsubscribe`));
    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: gone }), 409, 'not_mailable');
    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: 99_999 }), 422, 'unknown_subscriber');
    expectCode(await api.post(`/mailer/flows/${f.id}/enrol`, {}), 422, 'invalid_field');
    const leaver = person();
    const e3 = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: leaver }), 201);
    data(await api.post(`/mailer/subscribers/${leaver}/unsubscribe`));
    sb.clock.advance(2 * 3600_000);
    const left = data(await api.get(`/mailer/flows/${f.id}?status=exited`)).enrolments.find((e: Json) => e.id === e3.id);
    expect(left).toMatchObject({ status: 'exited', exit_reason: 'not_mailable' });
    expect(outbox(leaver).map((m) => m.subject)).toEqual(['First']);
  });

  test('a condition that fails with otherwise exit takes the person out', async () => {
    const f = await flow({ steps: [{ type: 'condition', check: 'lacks_tag', tag: 'vip' }, send('Not for VIPs')] });
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    const vip = sb.mailer.store.db.prepare("SELECT st.subscriber_id FROM subscriber_tags st JOIN tags t ON t.id = st.tag_id WHERE t.code = 'vip' LIMIT 1").pluck().get() as number;
    const e = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: vip }), 201);
    expect(e).toMatchObject({ status: 'exited', exit_reason: 'condition', left_at: e.entered_at });
    const other = person();
    expect(data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: other }), 201)).toMatchObject({ status: 'done' });
    expect(outbox(other).map((m) => m.subject)).toEqual(['Not for VIPs']);
  });

  test('steps saved whole: a step sent back with its id keeps its people; a step left out hands them on, or they are done', async () => {
    const f = await flow({ steps: [{ type: 'wait', minutes: 600 }, { type: 'wait', minutes: 600 }, send('After')] });
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    const who = person();
    const e = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: who }), 201);
    const [w1, w2, s3] = f.steps.map((s: Json) => s.id);
    expect(e).toMatchObject({ status: 'waiting', step_id: w1 });
    // reordered, a new step first, the wait kept by its id
    const edited = data(await api.patch(`/mailer/flows/${f.id}`, { steps: [{ type: 'tag', action: 'add', tag: 'edited' }, { id: w1, type: 'wait', minutes: 600 }, { id: w2, type: 'wait', minutes: 600 }, { id: s3, ...send('After') }] }));
    expect(edited.steps.map((s: Json) => [s.id, s.people])).toEqual([[4, 0], [w1, 1], [w2, 0], [s3, 0]]);
    // its wait left out: the person goes on to the next kept step from now (its wait begins)
    const moved = data(await api.patch(`/mailer/flows/${f.id}`, { steps: [{ id: w2, type: 'wait', minutes: 600 }, { id: s3, ...send('After') }] }));
    expect(moved.steps.map((s: Json) => [s.id, s.people])).toEqual([[w2, 1], [s3, 0]]);
    const row = sb.mailer.store.prep('SELECT status, step_id FROM enrolments WHERE id = ?').get(e.id);
    expect(row).toEqual({ status: 'waiting', step_id: w2 });
    // every step left out: done
    const none = data(await api.patch(`/mailer/flows/${f.id}`, { steps: [{ type: 'wait', minutes: 5 }] }));
    expect(none.people).toMatchObject({ done: 1, in_flow: 0 });
    expect(outbox(who)).toEqual([]);
  });

  test('pause holds everybody; resume moves what fell due at the resume’s time', async () => {
    const f = await flow({ steps: [{ type: 'wait', minutes: 30 }, send('After the wait')] });
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    const who = person();
    const e = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: who }), 201);
    data(await api.post(`/mailer/flows/${f.id}/pause`));
    sb.clock.advance(3600_000);
    expect(data(await api.get(`/mailer/flows/${f.id}`)).people).toMatchObject({ waiting: 1 });
    expect(outbox(who)).toEqual([]);
    // a paused flow still takes people in; they stay on the first step
    const held = person();
    expect(data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: held }), 201)).toMatchObject({ status: 'active', step_id: f.steps[0].id });
    const resumed = data(await api.post(`/mailer/flows/${f.id}/resume`));
    const mail = outbox(who);
    expect(mail.map((m) => m.subject)).toEqual(['After the wait']);
    expect(mail[0]!.at).toBe(resumed.resumed_at);
    expect(mail[0]!.at).toBeGreaterThanOrEqual(e.due_at);
    expect(sb.mailer.store.prep('SELECT status, due_at FROM enrolments WHERE flow_id = ? AND subscriber_id = ?').get(f.id, held)).toEqual({ status: 'waiting', due_at: resumed.resumed_at + 1800 });
  });

  test('exit one person; delete refused with people inside, forced removes them', async () => {
    const f = await flow({ steps: [{ type: 'wait', minutes: 600 }, send('Never')] });
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    const a = data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: person() }), 201);
    data(await api.post(`/mailer/flows/${f.id}/enrol`, { subscriber_id: person() }), 201);
    const out = data(await api.post(`/mailer/flows/${f.id}/enrolments/${a.id}/exit`));
    expect(out).toMatchObject({ id: a.id, status: 'exited', exit_reason: 'manual', step_id: null });
    expectCode(await api.post(`/mailer/flows/${f.id}/enrolments/${a.id}/exit`), 409, 'enrolment_over');
    expectCode(await api.post(`/mailer/flows/1/enrolments/${a.id}/exit`), 404, 'not_found');
    expectCode(await api.post(`/mailer/flows/${f.id}/enrolments/abc/exit`), 404, 'not_found');
    expect(expectCode(await api.delete(`/mailer/flows/${f.id}`), 409, 'flow_has_people')).toMatchObject({ people: 1 });
    expectCode(await api.delete(`/mailer/flows/${f.id}?force=yes`), 422, 'filter_invalid');
    expect((await api.delete(`/mailer/flows/${f.id}?force=1`)).status).toBe(204);
    expect((sb.mailer.store.prep('SELECT count(*) AS n FROM enrolments WHERE flow_id = ?').get(f.id) as { n: number }).n).toBe(0);
    expectCode(await api.get(`/mailer/flows/${f.id}`), 404, 'not_found');
    // nobody inside: deleted without force
    const quiet = await flow({ steps: [send('x')] });
    expect((await api.delete(`/mailer/flows/${quiet.id}`)).status).toBe(204);
  });

  test('a subscribed trigger enrols who joins its list after it was turned on, and only them', async () => {
    const f = data(await api.post('/mailer/flows', { name: 'Joiners', trigger: 'subscribed', list_id: 1, steps: [send('Hello joiner')] }), 201);
    data(await api.post(`/mailer/flows/${f.id}/activate`));
    expect(data(await api.get(`/mailer/flows/${f.id}`)).people.total).toBe(0);
    const added = data(await api.post('/mailer/subscribers', { email: 'joiner@example.com', name: 'Joiner', list_id: 1, mode: 'subscribed', note: 'Asked at the desk' }), 201);
    const after = data(await api.get(`/mailer/flows/${f.id}`));
    expect(after.people).toMatchObject({ done: 1, total: 1 });
    expect(after.enrolments[0]).toMatchObject({ subscriber_id: added.subscriber?.id ?? added.id, status: 'done' });
    expect(outbox(after.enrolments[0].subscriber_id).map((m) => m.subject)).toEqual(['Hello joiner']);
    // once: asked again, nobody more
    sb.clock.advance(60_000);
    expect(data(await api.get(`/mailer/flows/${f.id}`)).people.total).toBe(1);
  });

  test('view reads, manage writes; without the plugin permission 403', async () => {
    const viewer = await mailerAccount(api, 'flow-viewer', ['view']);
    const nobody = await mailerAccount(api, 'flow-nobody', []);
    expect((await viewer.get('/mailer/flows')).status).toBe(200);
    expect((await viewer.get('/mailer/flows/recipes')).status).toBe(200);
    expect((await viewer.get('/mailer/flows/1')).status).toBe(200);
    expectCode(await nobody.get('/mailer/flows'), 403);
    expectCode(await nobody.get('/mailer/flows/1'), 403);
    expectCode(await viewer.post('/mailer/flows', { name: 'x', trigger: 'subscribed' }), 403);
    expectCode(await viewer.post('/mailer/flows/recipes/welcome', {}), 403);
    expectCode(await viewer.patch('/mailer/flows/1', { name: 'x' }), 403);
    expectCode(await viewer.delete('/mailer/flows/1?force=1'), 403);
    for (const move of ['activate', 'pause', 'resume']) expectCode(await viewer.post(`/mailer/flows/1/${move}`), 403);
    expectCode(await viewer.post('/mailer/flows/1/enrol', { subscriber_id: 1 }), 403);
    expectCode(await viewer.post('/mailer/flows/1/enrolments/1/exit'), 403);
    expect(data(await api.get('/mailer/flows/1')).status).toBe('paused');
  });
});

describe('real flavour', () => {
  test('no flow routes: 404', async () => {
    const sb = await startCmsSandbox({ flavor: 'real', content: 'empty', mailer: { subscribers: 50 } });
    try {
      const api = new SandboxClient(sb);
      expect((await api.get('/mailroom/flows')).status).toBe(404);
      expect((await api.get('/mailer/flows')).status).toBe(404);
    } finally {
      sb.close();
    }
  });
});
