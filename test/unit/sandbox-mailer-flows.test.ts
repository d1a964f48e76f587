/**
 * The CMS sandbox's automations (test/sandbox/cms/mailer/flows.ts; docs/mailer-automations.md):
 * the steps checked whole, new ids from the flow's sequence, where people go when steps are saved
 * whole, what a flow needs before it runs and the moves of each state; and the worker's step over
 * a store on a clock that only moves when told: waits end at their start plus their minutes, each
 * message has its step's time, and the run is the same whether the worker looks every minute or once.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { Clock } from '../sandbox/clock';
import {
  checkSteps,
  enrol,
  flowActions,
  flowById,
  insertFlow,
  MAX_STEPS,
  moveFlow,
  movesOnSave,
  notReady,
  numberSteps,
  stepFlows,
  type StepKnown,
} from '../sandbox/cms/mailer/flows';
import { MailerWorld } from '../sandbox/cms/mailer/world';
import { tempDir } from '../support/tmp';

const known: StepKnown = { templates: new Map([[1, true], [2, false]]), lists: new Set([1, 2]) };
const field = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return (e as { extra?: { errors?: { field: string }[] }; body?: { errors?: { field: string }[] } }).extra?.errors?.[0]?.field ?? JSON.stringify(e);
  }
  return 'accepted';
};

describe('steps', () => {
  test('each type checked; defaults filled; tags normalised', () => {
    const steps = checkSteps(
      [
        { type: 'wait', minutes: 90 },
        { type: 'send', subject: ' Hi ', body_md: 'Hello' },
        { type: 'send', template_id: 1 },
        { type: 'tag', action: 'add', tag: 'New Tag' },
        { type: 'condition', check: 'has_tag', tag: 'vip', otherwise: 'skip', skip: 1 },
        { type: 'condition', check: 'on_list', list_id: 2 },
      ],
      new Set(),
      known,
    );
    expect(steps).toEqual([
      { id: null, type: 'wait', minutes: 90 },
      { id: null, type: 'send', template_id: null, subject: 'Hi', body_md: 'Hello', layout: 'store' },
      { id: null, type: 'send', template_id: 1, subject: null, body_md: null, layout: 'store' },
      { id: null, type: 'tag', action: 'add', tag: 'new-tag' },
      { id: null, type: 'condition', check: 'has_tag', tag: 'vip', list_id: null, otherwise: 'skip', skip: 1 },
      { id: null, type: 'condition', check: 'on_list', tag: null, list_id: 2, otherwise: 'exit', skip: 0 },
    ]);
  });

  test('refusals name the step and field', () => {
    const at = (steps: unknown, existing: number[] = []) => field(() => checkSteps(steps, new Set(existing), known));
    expect(at([{ type: 'wait', minutes: 1.5 }])).toBe('steps[0].minutes');
    expect(at([{ type: 'wait', minutes: 366 * 24 * 60 }])).toBe('steps[0].minutes');
    expect(at([{ type: 'send', template_id: 3 }])).toBe('steps[0].template_id');
    expect(at([{ type: 'send', subject: 'x', body_md: 'y', layout: 'fancy' }])).toBe('steps[0].layout');
    expect(at([{ type: 'tag', action: 'add', tag: '  ' }])).toBe('steps[0].tag');
    expect(at([{ type: 'condition', check: 'opened' }])).toBe('steps[0].check');
    expect(at([{ type: 'condition', check: 'lacks_tag', tag: 'a', otherwise: 'skip', skip: 2 }, { type: 'wait', minutes: 1 }])).toBe('steps[0].skip');
    expect(at([{ type: 'condition', check: 'lacks_tag', tag: 'a', otherwise: 'jump' }])).toBe('steps[0].otherwise');
    expect(at([{ id: 4, type: 'wait', minutes: 1 }], [3])).toBe('steps[0].id');
    expect(at([{ id: 3, type: 'wait', minutes: 1 }, { id: 3, type: 'wait', minutes: 2 }], [3])).toBe('steps[1].id');
    expect(at(Array.from({ length: MAX_STEPS + 1 }, () => ({ type: 'wait', minutes: 1 })))).toBe('steps');
    expect(at([null])).toBe('steps[0]');
    expect(at([{ id: 3, type: 'wait', minutes: 1 }], [3])).toBe('accepted');
  });

  test('new ids from the flow’s sequence; ids sent back kept', () => {
    const { steps, seq } = numberSteps(checkSteps([{ id: 2, type: 'wait', minutes: 1 }, { type: 'wait', minutes: 2 }, { type: 'wait', minutes: 3 }], new Set([2]), known), 5);
    expect(steps.map((s) => s.id)).toEqual([2, 6, 7]);
    expect(seq).toBe(7);
  });

  test('saved whole: the people of a step left out go to the next old step that stays, or are done', () => {
    expect([...movesOnSave([1, 2, 3, 4], [4, 1, 9])]).toEqual([[2, 4], [3, 4]]);
    expect([...movesOnSave([1, 2, 3], [1])]).toEqual([[2, null], [3, null]]);
    expect([...movesOnSave([1, 2], [1, 2, 3])]).toEqual([]);
    expect([...movesOnSave([1, 2], [])]).toEqual([[1, null], [2, null]]);
  });

  test('ready to run: steps, and templates that are there and switched on; the moves of each state', () => {
    expect(notReady([], known.templates)).toMatch(/no steps/);
    expect(notReady([{ id: 1, type: 'send', template_id: 2, subject: null, body_md: null, layout: 'store' }], known.templates)).toMatch(/switched off/);
    expect(notReady([{ id: 1, type: 'send', template_id: 7, subject: null, body_md: null, layout: 'store' }], known.templates)).toMatch(/deleted/);
    expect(notReady([{ id: 1, type: 'wait', minutes: 1 }], known.templates)).toBeNull();
    expect(flowActions('draft')).toEqual(['activate']);
    expect(flowActions('active')).toEqual(['pause']);
    expect(flowActions('paused')).toEqual(['resume']);
  });
});

class StillClock extends Clock {
  at = 1_800_000_000_000;
  override now(): number {
    return this.at;
  }
}

describe('the worker’s step', () => {
  const dirs: { remove(): void }[] = [];
  const worlds: MailerWorld[] = [];
  afterEach(() => {
    for (const w of worlds.splice(0)) w.close();
    for (const d of dirs.splice(0)) d.remove();
  });

  const world = () => {
    const dir = tempDir();
    dirs.push(dir);
    const clock = new StillClock();
    // the timer stays idle: the test is the worker
    const w = new MailerWorld('spec', clock, dir.path, { subscribers: 300, worker: false });
    worlds.push(w);
    return { w, clock, store: w.store };
  };
  const sec = (c: StillClock) => Math.floor(c.at / 1000);
  const ctx = (w: MailerWorld) => ({ store: w.store, known: w.knownIds(), siteName: w.siteName });
  const people = (w: MailerWorld, n: number) =>
    w.store.db.prepare("SELECT id FROM subscribers s WHERE status = 'subscribed' AND suppressed = 0 AND NOT EXISTS (SELECT 1 FROM enrolments e WHERE e.subscriber_id = s.id) ORDER BY id LIMIT ?").pluck().all(n) as number[];
  const flowOf = (w: MailerWorld, now: number) => {
    const steps = checkSteps(
      [
        { type: 'send', subject: 'One', body_md: 'a' },
        { type: 'wait', minutes: 60 },
        { type: 'send', subject: 'Two', body_md: 'b' },
        { type: 'wait', minutes: 24 * 60 },
        { type: 'tag', action: 'add', tag: 'finished' },
        { type: 'send', subject: 'Three', body_md: 'c' },
      ],
      new Set(),
      known,
    );
    const id = insertFlow(w.store, { name: 'Series', trigger: 'tag_added', trigger_json: { tag: 'x' }, steps }, now);
    moveFlow(w.store, flowById(w.store, id)!, 'activate', now);
    return flowById(w.store, id)!;
  };
  const outbox = (w: MailerWorld) => w.store.prep("SELECT subscriber_id, subject, at FROM messages WHERE kind = 'automation' ORDER BY subscriber_id, at, id").all() as { subscriber_id: number; subject: string; at: number }[];

  test('waits end at their start plus their minutes; each message has its step’s time', () => {
    const { w, clock, store } = world();
    const t0 = sec(clock);
    const f = flowOf(w, t0);
    const [a, b] = people(w, 2);
    enrol(store, f, a!, t0);
    clock.at += 600_000;
    enrol(store, f, b!, t0 + 600);
    stepFlows(ctx(w), sec(clock));
    expect(outbox(w)).toEqual([
      { subscriber_id: a, subject: 'One', at: t0 },
      { subscriber_id: b, subject: 'One', at: t0 + 600 },
    ]);
    clock.at += 3 * 86_400_000;
    stepFlows(ctx(w), sec(clock));
    const day = 86_400;
    expect(outbox(w).map((m) => [m.subscriber_id, m.subject, m.at])).toEqual([
      [a, 'One', t0],
      [a, 'Two', t0 + 3600],
      [a, 'Three', t0 + 3600 + day],
      [b, 'One', t0 + 600],
      [b, 'Two', t0 + 600 + 3600],
      [b, 'Three', t0 + 600 + 3600 + day],
    ]);
    const rows = store.prep('SELECT status, left_at FROM enrolments WHERE flow_id = ? ORDER BY id').all(f.id);
    expect(rows).toEqual([{ status: 'done', left_at: t0 + 3600 + day }, { status: 'done', left_at: t0 + 600 + 3600 + day }]);
    expect(store.hasTag(a!, store.tagByCode('finished')!.id)).toBe(true);
  });

  test('the same run whether the worker looks every minute or once; nobody mailed twice', () => {
    const run = (everyMinute: boolean) => {
      const { w, clock, store } = world();
      const t0 = sec(clock);
      const f = flowOf(w, t0);
      people(w, 20).forEach((id, k) => enrol(store, f, id, t0 + k * 97));
      const end = clock.at + 2 * 86_400_000;
      if (everyMinute) for (; clock.at < end; clock.at += 60_000) stepFlows(ctx(w), sec(clock));
      clock.at = end;
      stepFlows(ctx(w), sec(clock));
      const out = outbox(w).map((m) => ({ ...m, at: m.at - t0 }));
      w.close();
      return out;
    };
    const once = run(false);
    expect(once).toHaveLength(60);
    expect(run(true)).toEqual(once);
  });

  test('a paused flow holds everybody; after resume what fell due goes at the resume’s time', () => {
    const { w, clock, store } = world();
    const t0 = sec(clock);
    const f = flowOf(w, t0);
    const [a] = people(w, 1);
    enrol(store, f, a!, t0);
    stepFlows(ctx(w), t0);
    moveFlow(store, flowById(store, f.id)!, 'pause', t0 + 60);
    clock.at += 5 * 3600_000;
    stepFlows(ctx(w), sec(clock));
    expect(outbox(w).map((m) => m.subject)).toEqual(['One']);
    const resumedAt = sec(clock);
    moveFlow(store, flowById(store, f.id)!, 'resume', resumedAt);
    stepFlows(ctx(w), resumedAt);
    expect(outbox(w).map((m) => [m.subject, m.at])).toEqual([['One', t0], ['Two', resumedAt]]);
    expect(store.prep('SELECT status, due_at FROM enrolments WHERE subscriber_id = ? AND flow_id = ?').get(a, f.id)).toEqual({ status: 'waiting', due_at: resumedAt + 86_400 });
  });
});
