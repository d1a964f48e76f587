/**
 * A site's mailer automations through the Host against the CMS sandbox (docs/mailer-automations.md):
 * the list with where each flow's people are (kept for reading while the site is away), the
 * recipes, a draft written from one, its steps edited and saved whole (a step sent back with its
 * id keeps its people), turned on, a person enrolled and seen on the first step, taken out,
 * paused and resumed, deleted with force when people are inside; the refusals in the site's
 * words under the input's own fields; lost answers of a create, an edit, a move, an enrol and an
 * exit, asked again, answered as done; mail held to `mailer.send` though the site asks only
 * `manage`; and the real flavour's Mailroom, which has no flow routes, said as such.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FlowStep } from '../../electron/contract';
import { withHost, type DemoHost } from '../support/demo-host';
import { UNHURRIED } from '../support/limits';

const ADDRESS = /[^\s@"]+@[^\s@"]+\.[a-z]/i;

describe('spec flavour', () => {
  let fx: DemoHost;
  const siteId = () => fx.site.id;
  const store = () => fx.cms.mailer.store;
  /** Mailable people in no flow yet. */
  const free = (n: number) =>
    store()
      .prep("SELECT id FROM subscribers WHERE status = 'subscribed' AND suppressed = 0 AND id NOT IN (SELECT subscriber_id FROM enrolments) ORDER BY id LIMIT ?")
      .pluck()
      .all(n) as number[];

  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'spec', ...UNHURRIED, mailer: { subscribers: 400 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('the list with where the people are, the recipes; the list kept for reading while the site is away, a write refused then', async () => {
    const all = await fx.call('mailer.flows', { siteId: siteId() });
    expect(all.copiedAt).toBeNull();
    const welcome = all.flows.find((f) => f.name === 'Welcome series')!;
    expect(welcome).toMatchObject({ status: 'paused', trigger: 'subscribed', recipe: 'welcome', steps: null, stepCount: 4, actions: ['resume'] });
    expect(welcome.onSteps.map((s) => s.type)).toEqual(['send', 'wait', 'send', 'tag']);
    expect(welcome.people.total).toBeGreaterThan(0);
    expect(welcome.people.inFlow).toBe(welcome.people.active + welcome.people.waiting);
    expect(welcome.messagesSent).toBe(store().prep("SELECT count(*) FROM messages WHERE kind = 'automation' AND flow_id = ?").pluck().get(welcome.id));
    expect(all.statusCounts).toMatchObject({ paused: 1 });

    const { recipes } = await fx.call('mailer.flowRecipes', { siteId: siteId() });
    expect(recipes.map((r) => r.key)).toEqual(['welcome', 're-engagement', 'confirmed-thanks']);
    const reengage = recipes.find((r) => r.key === 're-engagement')!;
    expect(reengage).toMatchObject({ trigger: 'tag_added', triggerTag: 'quiet', allowReentry: true });
    expect(reengage.steps[2]).toEqual({ id: null, type: 'condition', check: 'has_tag', tag: 'quiet', listId: null, otherwise: 'exit', skip: 0 });

    fx.cms.faults.set({ route: '*', drop: true });
    try {
      const kept = await fx.call('mailer.flows', { siteId: siteId() });
      expect(kept.copiedAt).toMatch(/^\d{4}-/);
      expect(kept.flows.map((f) => f.id)).toEqual(all.flows.map((f) => f.id));
      // a move is never kept for later: refused now
      const err = await fx.fails('mailer.moveFlow', { siteId: siteId(), id: welcome.id, move: 'resume' });
      expect(err.message).toMatch(/The automation was not resumed/);
    } finally {
      fx.cms.faults.clear();
    }
  });

  test('from a recipe to people: a step changed and saved whole, turned on, a person enrolled on the first step, taken out, paused, resumed, deleted with force', async () => {
    const made = await fx.call('mailer.flowFromRecipe', { siteId: siteId(), recipe: 'welcome', name: 'Welcome, shop' });
    const flow = made.flow;
    expect(flow).toMatchObject({ name: 'Welcome, shop', status: 'draft', recipe: 'welcome', actions: ['activate'] });
    expect(flow.steps!.map((s) => s.type)).toEqual(['send', 'wait', 'send', 'tag']);
    // the kept list has it at the top
    fx.cms.faults.set({ route: '*', drop: true });
    try {
      expect((await fx.call('mailer.flows', { siteId: siteId() })).flows[0]!.id).toBe(flow.id);
    } finally {
      fx.cms.faults.clear();
    }

    // a wait of one day instead of two, the tag step moved first, a condition added: saved whole, the ids kept
    const [letter, wait, second, tag] = flow.steps!.map(({ people: _p, ...s }) => s as FlowStep);
    const steps: FlowStep[] = [
      tag!,
      letter!,
      { ...(wait as Extract<FlowStep, { type: 'wait' }>), minutes: 24 * 60 },
      { id: null, type: 'condition', check: 'lacks_tag', tag: 'Left Early', listId: null, otherwise: 'skip', skip: 1 },
      second!,
    ];
    const saved = (await fx.call('mailer.updateFlow', { siteId: siteId(), id: flow.id, changes: { steps } })).flow;
    expect(saved.steps!.map((s) => s.type)).toEqual(['tag', 'send', 'wait', 'condition', 'send']);
    expect(saved.steps!.map((s) => s.id).slice(0, 3)).toEqual([tag!.id, letter!.id, wait!.id]);
    expect(saved.steps![3]).toMatchObject({ check: 'lacks_tag', tag: 'left-early', otherwise: 'skip', skip: 1 });
    expect(saved.steps![2]).toMatchObject({ minutes: 1440 });
    // a refusal names the step by its place, under the input's own field
    const bad = await fx.fails('mailer.updateFlow', { siteId: siteId(), id: flow.id, changes: { steps: [{ id: null, type: 'send', templateId: 9999, subject: null, bodyMd: null, layout: 'store' }] } });
    expect(bad.reason).toBe('unknown_template');
    expect(bad.fields).toHaveProperty(['changes.steps.0.templateId']);

    const on = (await fx.call('mailer.moveFlow', { siteId: siteId(), id: flow.id, move: 'activate' })).flow;
    expect(on).toMatchObject({ status: 'active', actions: ['pause'] });
    expect(on.activatedAt).toMatch(/^\d{4}-/);

    // a person enrolled: the first steps run at once (a tag, the letter), then they wait
    const [person, other] = free(2);
    const enrolled = await fx.call('mailer.enrol', { siteId: siteId(), id: flow.id, subscriberId: person! });
    expect(enrolled.earlier).toBe(false);
    expect(enrolled.enrolment).toMatchObject({ flowId: flow.id, subscriberId: person, status: 'waiting', stepId: wait!.id });
    expect(enrolled.enrolment!.email).toMatch(/@/);
    // on the wait with them: the newcomers the trigger took in since it was turned on
    const read = await fx.call('mailer.flow', { siteId: siteId(), id: flow.id, stepId: wait!.id!, perPage: 200 });
    expect(read.enrolments.items.map((e) => e.subscriberId)).toContain(person);
    expect(read.enrolments.items.every((e) => e.stepId === wait!.id && e.status === 'waiting')).toBe(true);
    expect(read.flow.steps!.find((s) => s.id === wait!.id)!.people).toBe(read.enrolments.total);
    expect(read.flow.messagesSent).toBe(store().prep("SELECT count(*) FROM messages WHERE kind = 'automation' AND flow_id = ?").pluck().get(flow.id));
    // enrolled again: the site's words
    const twice = await fx.fails('mailer.enrol', { siteId: siteId(), id: flow.id, subscriberId: person! });
    expect(twice).toMatchObject({ code: 'conflict', reason: 'already_enrolled' });
    expect(twice.message).not.toMatch(ADDRESS);

    // taken out
    const out = await fx.call('mailer.exitEnrolment', { siteId: siteId(), id: flow.id, enrolmentId: enrolled.enrolment!.id });
    expect(out.enrolment).toMatchObject({ status: 'exited', stepId: null, exitReason: 'manual' });
    expect((await fx.fails('mailer.exitEnrolment', { siteId: siteId(), id: flow.id, enrolmentId: enrolled.enrolment!.id })).reason).toBe('enrolment_over');
    // without re-entry they cannot come back
    expect((await fx.fails('mailer.enrol', { siteId: siteId(), id: flow.id, subscriberId: person! })).reason).toBe('no_reentry');

    // paused: a person enrolled by hand waits on the first step until it resumes
    expect((await fx.call('mailer.moveFlow', { siteId: siteId(), id: flow.id, move: 'pause' })).flow.status).toBe('paused');
    const held = await fx.call('mailer.enrol', { siteId: siteId(), id: flow.id, subscriberId: other! });
    expect(held.enrolment).toMatchObject({ status: 'active', stepId: tag!.id });
    const resumed = (await fx.call('mailer.moveFlow', { siteId: siteId(), id: flow.id, move: 'resume' })).flow;
    expect(resumed.status).toBe('active');
    expect(store().prep('SELECT step_id FROM enrolments WHERE flow_id = ? AND subscriber_id = ?').pluck().get(flow.id, other)).toBe(wait!.id);
    expect(resumed.onSteps.find((s) => s.stepId === wait!.id)!.people).toBe(read.enrolments.total);

    // a step with people left out: they go to the next kept step (here: none kept after the wait → the second letter)
    const kept = (await fx.call('mailer.updateFlow', { siteId: siteId(), id: flow.id, changes: { steps: [tag!, letter!, second!] } })).flow;
    expect(store().prep('SELECT status FROM enrolments WHERE flow_id = ? AND subscriber_id = ?').pluck().get(flow.id, other)).toBe('done');
    expect(kept.people.inFlow).toBe(0);

    // deleted: refused while people are inside, then with force
    const keepOne = (await fx.call('mailer.updateFlow', { siteId: siteId(), id: flow.id, changes: { steps: [{ id: null, type: 'wait', minutes: 60 }] } })).flow;
    await fx.call('mailer.enrol', { siteId: siteId(), id: flow.id, subscriberId: free(1)[0]! });
    expect(keepOne.steps).toHaveLength(1);
    const inside = await fx.fails('mailer.deleteFlow', { siteId: siteId(), id: flow.id });
    expect(inside).toMatchObject({ code: 'conflict', reason: 'flow_has_people' });
    expect(await fx.call('mailer.deleteFlow', { siteId: siteId(), id: flow.id, force: true })).toEqual({ id: flow.id });
    expect(store().prep('SELECT count(*) FROM enrolments WHERE flow_id = ?').pluck().get(flow.id)).toBe(0);
    // gone: said as such, and deleting again is no error
    expect((await fx.fails('mailer.flow', { siteId: siteId(), id: flow.id })).message).toMatch(/no automation of that id/);
    expect(await fx.call('mailer.deleteFlow', { siteId: siteId(), id: flow.id })).toEqual({ id: flow.id });
    expect((await fx.call('mailer.flows', { siteId: siteId() })).flows.some((f) => f.id === flow.id)).toBe(false);
  });

  test('from scratch: fields refused under their names; a draft with no steps cannot be turned on; a tag trigger', async () => {
    const noName = await fx.fails('mailer.createFlow', { siteId: siteId(), name: '  ', trigger: 'subscribed' });
    expect(noName.fields).toHaveProperty('name');
    const noTag = await fx.fails('mailer.createFlow', { siteId: siteId(), name: 'Tagged', trigger: 'tag_added' });
    expect(noTag.fields).toHaveProperty('triggerTag');
    const made = (await fx.call('mailer.createFlow', { siteId: siteId(), name: 'Tagged', trigger: 'tag_added', triggerTag: 'VIP Guests' })).flow;
    expect(made).toMatchObject({ status: 'draft', trigger: 'tag_added', triggerTag: 'vip-guests', steps: [] });
    const empty = await fx.fails('mailer.moveFlow', { siteId: siteId(), id: made.id, move: 'activate' });
    expect(empty.reason).toBe('flow_not_ready');
    expect(empty.message).toMatch(/no steps/);
    // a trigger changed: the tag goes with it
    const changed = (await fx.call('mailer.updateFlow', { siteId: siteId(), id: made.id, changes: { trigger: 'confirmed', allowReentry: true } })).flow;
    expect(changed).toMatchObject({ trigger: 'confirmed', triggerTag: null, allowReentry: true });
    const skip = await fx.fails('mailer.updateFlow', { siteId: siteId(), id: made.id, changes: { steps: [{ id: null, type: 'condition', check: 'has_tag', tag: 'x', listId: null, otherwise: 'skip', skip: 3 }] } });
    expect(skip.fields).toHaveProperty(['changes.steps.0.skip']);
    await fx.call('mailer.deleteFlow', { siteId: siteId(), id: made.id });
  });

  test('lost answers asked again: a create finds its draft, an edit finds itself, a move its state, an enrol and an exit their doing', async () => {
    const route = (r: string) => fx.cms.faults.set({ route: r, dropAfter: true, times: 1 });
    route('POST /mailer/flows/recipes/confirmed-thanks');
    expect((await fx.fails('mailer.flowFromRecipe', { siteId: siteId(), recipe: 'confirmed-thanks', name: 'Thanks once' })).code).not.toBe('internal');
    const found = (await fx.call('mailer.flowFromRecipe', { siteId: siteId(), recipe: 'confirmed-thanks', name: 'Thanks once' })).flow;
    expect(store().prep("SELECT count(*) FROM flows WHERE name = 'Thanks once'").pluck().get()).toBe(1);

    const steps: FlowStep[] = [{ id: null, type: 'wait', minutes: 30 }, ...found.steps!.map(({ people: _p, ...s }) => s as FlowStep)];
    const seq = store().prep('SELECT step_seq FROM flows WHERE id = ?').pluck();
    const before = seq.get(found.id) as number;
    route(`PATCH /mailer/flows/${found.id}`);
    await fx.fails('mailer.updateFlow', { siteId: siteId(), id: found.id, changes: { steps } });
    const edited = (await fx.call('mailer.updateFlow', { siteId: siteId(), id: found.id, changes: { steps } })).flow;
    // the new wait got one id, once: the edit was not sent a second time
    expect(seq.get(found.id)).toBe(before + 1);
    expect(edited.steps!.map((s) => s.type)).toEqual(['wait', 'send', 'tag']);

    route(`POST /mailer/flows/${found.id}/activate`);
    await fx.fails('mailer.moveFlow', { siteId: siteId(), id: found.id, move: 'activate' });
    expect((await fx.call('mailer.moveFlow', { siteId: siteId(), id: found.id, move: 'activate' })).flow.status).toBe('active');

    const person = free(1)[0]!;
    route(`POST /mailer/flows/${found.id}/enrol`);
    await fx.fails('mailer.enrol', { siteId: siteId(), id: found.id, subscriberId: person });
    expect(await fx.call('mailer.enrol', { siteId: siteId(), id: found.id, subscriberId: person })).toEqual({ enrolment: null, earlier: true });
    expect(store().prep('SELECT count(*) FROM enrolments WHERE flow_id = ? AND subscriber_id = ?').pluck().get(found.id, person)).toBe(1);

    const eid = store().prep('SELECT id FROM enrolments WHERE flow_id = ? AND subscriber_id = ?').pluck().get(found.id, person) as number;
    route(`POST /mailer/flows/${found.id}/enrolments/${eid}/exit`);
    await fx.fails('mailer.exitEnrolment', { siteId: siteId(), id: found.id, enrolmentId: eid });
    expect(await fx.call('mailer.exitEnrolment', { siteId: siteId(), id: found.id, enrolmentId: eid })).toEqual({ enrolment: null, earlier: true });
    // without a lost answer, the same refusal stands
    expect((await fx.fails('mailer.exitEnrolment', { siteId: siteId(), id: found.id, enrolmentId: eid })).reason).toBe('enrolment_over');
    await fx.call('mailer.deleteFlow', { siteId: siteId(), id: found.id, force: true });
  });

  test('mail is held to mailer.send: a manage-only account edits and pauses, but may not turn on, resume or enrol into a flow that sends; one that only tags it may', async () => {
    await fx.cms.accounts.create({ username: 'flow-manager', password: 'a-long-password-1', email: 'flow-manager@example.test', access: { api: { access: true }, mailer: { view: true, manage: true } } });
    const apiKey = fx.cms.apiKeys.create({ username: 'flow-manager', name: 'test', scopes: [] }).api_key;
    const manager = await fx.call('sites.add', { name: 'Manager', kind: 'cms', baseUrl: fx.cms.url, environment: null, authMode: 'apikey', apiKey });
    const sends = (await fx.call('mailer.flowFromRecipe', { siteId: manager.id, recipe: 'welcome', name: 'Held' })).flow;
    const refused = await fx.fails('mailer.moveFlow', { siteId: manager.id, id: sends.id, move: 'activate' });
    expect(refused.code).toBe('forbidden');
    expect(refused.message).toMatch(/mailer\.send.*sends mail people/);
    expect(store().prep('SELECT status FROM flows WHERE id = ?').pluck().get(sends.id)).toBe('draft');

    const tags = (await fx.call('mailer.createFlow', { siteId: manager.id, name: 'Tags only', trigger: 'subscribed', steps: [{ id: null, type: 'tag', action: 'add', tag: 'joined' }, { id: null, type: 'wait', minutes: 60 }] })).flow;
    expect((await fx.call('mailer.moveFlow', { siteId: manager.id, id: tags.id, move: 'activate' })).flow.status).toBe('active');
    const person = free(1)[0]!;
    expect((await fx.call('mailer.enrol', { siteId: manager.id, id: tags.id, subscriberId: person })).enrolment!.status).toBe('waiting');
    // a send added to the running flow would mail: refused; the same edit while paused saves
    const withSend: FlowStep[] = [...tags.steps!.map(({ people: _p, ...s }) => s as FlowStep), { id: null, type: 'send', templateId: null, subject: 'Hi', bodyMd: 'Hello', layout: 'plain' }];
    expect((await fx.fails('mailer.updateFlow', { siteId: manager.id, id: tags.id, changes: { steps: withSend } })).message).toMatch(/mailer\.send/);
    expect((await fx.call('mailer.moveFlow', { siteId: manager.id, id: tags.id, move: 'pause' })).flow.status).toBe('paused');
    expect((await fx.call('mailer.updateFlow', { siteId: manager.id, id: tags.id, changes: { steps: withSend } })).flow.steps).toHaveLength(3);
    expect((await fx.fails('mailer.moveFlow', { siteId: manager.id, id: tags.id, move: 'resume' })).message).toMatch(/mailer\.send/);
    expect((await fx.fails('mailer.enrol', { siteId: manager.id, id: tags.id, subscriberId: free(1)[0]! })).message).toMatch(/mailer\.send/);
    for (const id of [sends.id, tags.id]) await fx.call('mailer.deleteFlow', { siteId: siteId(), id, force: true });
    await fx.call('sites.remove', { id: manager.id });
  });
});

describe('real flavour', () => {
  let fx: DemoHost;
  beforeAll(async () => {
    fx = await withHost({ sandbox: { flavor: 'real', ...UNHURRIED, mailer: { subscribers: 100 } } });
  });
  afterAll(async () => {
    await fx?.close();
  });

  test('a plugin without flow routes: said as such, not as a missing plugin', async () => {
    const err = await fx.fails('mailer.flows', { siteId: fx.site.id });
    expect(err.reason).toBe('no_flows');
    expect(err.message).toMatch(/no automations/);
    expect((await fx.fails('mailer.flowRecipes', { siteId: fx.site.id })).reason).toBe('no_flows');
    expect((await fx.call('mailer.lists', { siteId: fx.site.id })).lists.length).toBeGreaterThan(0);
  });
});
