/**
 * The automations' API client (electron/api/cms/mailer-flows.ts) over replies shaped as the
 * sandbox's spec flavour sends them (docs/mailer-automations.md): steps read into the contract's
 * spelling and sent back in the site's; a record without `actions` given its state's moves; a
 * step of a type the app does not know refused as an answer it cannot read, naming the field and
 * never a value; refusals of `steps[2].minutes` under the input's `changes.steps.2.minutes`; and
 * the pure rules the screen and the Host share (which saves and moves mail people).
 */
import { describe, expect, test } from 'vitest';
import { cmsMailerFlows, flowBody, flowField, stepBody } from '../../electron/api/cms/mailer-flows';
import { addsMail, flowMails, type FlowStep } from '../../electron/contract';
import { reply, transport, type Answer } from './support/recorded-replies';

const T0 = 1_700_000_000;
const flow = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  name: 'Welcome',
  status: 'active',
  trigger: 'tag_added',
  trigger_json: { tag: 'vip' },
  list_id: null,
  segment_id: 2,
  allow_reentry: 1,
  recipe: null,
  steps: [
    { id: 1, type: 'wait', minutes: '90', people: 3 },
    { id: 2, type: 'send', template_id: null, subject: 'Hi', body_md: 'Hello', layout: 'plain', people: 0 },
    { id: 4, type: 'condition', check: 'on_list', tag: null, list_id: 5, otherwise: 'skip', skip: 1, people: 0 },
    { id: 5, type: 'tag', action: 'remove', tag: 'new', people: 1 },
  ],
  people: { active: 1, waiting: 3, done: 10, exited: 2 },
  messages_sent: '12',
  created_at: T0,
  updated_at: String(T0 + 60),
  activated_at: T0,
  paused_at: null,
  resumed_at: null,
  ...extra,
});
const problem = (status: number, code: string, detail: string, errors?: { field: string; message: string }[]): Answer => ({
  status,
  body: { status, title: 'Unprocessable Entity', detail, code, ...(errors ? { errors } : {}) },
});

describe('reading', () => {
  test('a flow: steps in the contract’s spelling with their people, counts made whole, moves from its state when not said, epoch seconds made ISO', async () => {
    const { t, seen } = transport(() => reply({ data: { ...flow(), enrolments: [{ id: 3, flow_id: 7, subscriber_id: 9, email: 'a@example.com', name: 'A', status: 'waiting', step_id: 1, due_at: T0 + 5400, entered_at: T0, left_at: null, exit_reason: null }] }, meta: { pagination: { page: 1, per_page: 50, total: 1 } } }));
    const r = await cmsMailerFlows.flow(t, 'mailer', 7, { page: 1, perPage: 50, stepId: 1 });
    expect(seen[0]!.path).toBe('/mailer/flows/7?step_id=1&page=1&per_page=50');
    expect(r.flow).toMatchObject({ id: 7, status: 'active', triggerTag: 'vip', segmentId: 2, allowReentry: true, stepCount: 4, messagesSent: 12, actions: ['pause'] });
    expect(r.flow.people).toEqual({ active: 1, waiting: 3, done: 10, exited: 2, inFlow: 4, total: 16 });
    expect(r.flow.steps![0]).toEqual({ id: 1, type: 'wait', minutes: 90, people: 3 });
    expect(r.flow.steps![2]).toEqual({ id: 4, type: 'condition', check: 'on_list', tag: null, listId: 5, otherwise: 'skip', skip: 1, people: 0 });
    expect(r.flow.onSteps).toEqual([
      { stepId: 1, type: 'wait', people: 3 },
      { stepId: 2, type: 'send', people: 0 },
      { stepId: 4, type: 'condition', people: 0 },
      { stepId: 5, type: 'tag', people: 1 },
    ]);
    expect(r.flow.updatedAt).toBe(new Date((T0 + 60) * 1000).toISOString());
    expect(r.enrolments).toMatchObject({ total: 1, next: null, unreadable: [] });
    expect(r.enrolments.items[0]).toMatchObject({ subscriberId: 9, status: 'waiting', stepId: 1, dueAt: new Date((T0 + 5400) * 1000).toISOString() });
  });

  test('what cannot be read: a step of an unknown type is a clear bad answer naming the field; an enrolment without its state is set aside without its address', async () => {
    const odd = transport(() => reply({ data: flow({ steps: [{ id: 1, type: 'webhook', url: 'https://x.example' }] }) }));
    const err = await cmsMailerFlows.flow(odd.t, 'mailer', 7, { page: 1, perPage: 50 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'bad_response' });
    expect((err as Error).message).toMatch(/steps\.0\.type/);
    expect((err as Error).message).not.toContain('x.example');

    const rows = transport(() => reply({ data: { ...flow(), enrolments: [{ id: 3, flow_id: 7, subscriber_id: 9, email: 'secret@example.com', status: 'lost' }] }, meta: { total: 1, page: 1, per_page: 50 } }));
    const r = await cmsMailerFlows.flow(rows.t, 'mailer', 7, { page: 1, perPage: 50 });
    expect(r.enrolments.items).toEqual([]);
    expect(r.enrolments.unreadable).toEqual([{ position: 0, problem: 'status: missing or not what the site sends' }]);
    expect(JSON.stringify(r.enrolments)).not.toContain('secret');

    const list = transport(() => reply({ data: [flow({ steps: undefined, step_count: 2, on_steps: [{ step_id: 1, type: 'send', people: 0 }] }), { id: 'x' }] }));
    const bad = await cmsMailerFlows.flows(list.t, 'mailer').catch((e: unknown) => e);
    expect((bad as Error).message).toMatch(/data\.1\.status/);
  });
});

describe('writing', () => {
  test('steps in the site’s spelling: a new one without its id, a send with a template without its own letter, a condition with only what its check takes', () => {
    expect(stepBody({ id: null, type: 'send', templateId: 3, subject: 'ignored', bodyMd: 'ignored', layout: 'store' })).toEqual({ type: 'send', template_id: 3, layout: 'store' });
    expect(stepBody({ id: 2, type: 'condition', check: 'has_tag', tag: 'vip', listId: 5, otherwise: 'exit', skip: 0 })).toEqual({ id: 2, type: 'condition', check: 'has_tag', tag: 'vip', otherwise: 'exit' });
    expect(flowBody({ trigger: 'tag_added', triggerTag: 'vip', allowReentry: false })).toEqual({ trigger: 'tag_added', trigger_json: { tag: 'vip' }, allow_reentry: false });
    // another trigger takes no tag: said as null so the site drops the old one
    expect(flowBody({ trigger: 'confirmed' })).toEqual({ trigger: 'confirmed', trigger_json: null });
  });

  test('a refusal naming a step by its place is under the input’s own field', async () => {
    expect(flowField('changes.')('steps[2].minutes')).toBe('changes.steps.2.minutes');
    expect(flowField('changes.')('steps[0].template_id')).toBe('changes.steps.0.templateId');
    expect(flowField()('trigger_json')).toBe('triggerTag');
    const { t } = transport(() => problem(422, 'invalid_field', 'steps[1].minutes must be a whole number of minutes from 1 to 525600 (a year).', [{ field: 'steps[1].minutes', message: 'steps[1].minutes must be a whole number…' }]));
    const err = await cmsMailerFlows.update(t, 'mailer', 7, { steps: [] }).catch((e: unknown) => e);
    expect((err as { info: unknown }).info).toMatchObject({ reason: 'invalid_field', fields: { 'changes.steps.1.minutes': expect.any(String) } });
  });
});

describe('what mails people', () => {
  const wait: FlowStep = { id: 1, type: 'wait', minutes: 60 };
  const letter: FlowStep = { id: 2, type: 'send', templateId: null, subject: 'Hi', bodyMd: 'Hello', layout: 'store' };
  test('a line with a send mails; a save mails when it adds a send or changes a letter, not when it moves one or changes a wait', () => {
    expect(flowMails([wait])).toBe(false);
    expect(flowMails([wait, letter])).toBe(true);
    expect(addsMail([wait, letter], [letter, { ...wait, minutes: 90 }])).toBe(false);
    expect(addsMail([wait, letter], [wait, { ...letter, subject: 'Hello again' }])).toBe(true);
    expect(addsMail([wait], [wait, { ...letter, id: null }])).toBe(true);
    expect(addsMail([wait, letter], [wait])).toBe(false);
  });
});
