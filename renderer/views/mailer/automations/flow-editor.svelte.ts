/**
 * An automation's settings and steps as the person edits them: each step keeps its id (a saved
 * step's people stay on it wherever it moves) or none (new: the site numbers it); steps added,
 * removed and reordered; what differs from the flow as the site last answered (`changes`: only
 * that is sent, the steps whole); the people a save moves on (those on steps left out); and the
 * save, with the site's refusals under the step and field they name (`steps.2.minutes`).
 */
import { addsMail, type FlowChangesInput, type FlowStep, type FlowTrigger, type MailerFlow } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { FormAction } from '../../../lib/form-action.svelte';

/** A step in the editor: its fields, and a key of the editor's own (a new step has no id yet). */
export type EditStep = FlowStep & { key: string };

let keys = 0;
const keyed = (s: FlowStep): EditStep => ({ ...s, key: s.id !== null ? `s${s.id}` : `n${++keys}` });
const plain = ({ key: _k, ...s }: EditStep): FlowStep => {
  const o = { ...s } as FlowStep & { people?: number };
  delete o.people;
  return o;
};

/** A new step of a type, with what it needs filled in as far as can be guessed. */
export function newStep(type: FlowStep['type']): EditStep {
  switch (type) {
    case 'wait':
      return keyed({ id: null, type: 'wait', minutes: 1440 });
    case 'send':
      return keyed({ id: null, type: 'send', templateId: null, subject: '', bodyMd: '', layout: 'store' });
    case 'tag':
      return keyed({ id: null, type: 'tag', action: 'add', tag: '' });
    case 'condition':
      return keyed({ id: null, type: 'condition', check: 'has_tag', tag: '', listId: null, otherwise: 'exit', skip: 0 });
  }
}

export class FlowEditor {
  readonly siteId: string;
  base = $state.raw<MailerFlow>(null as unknown as MailerFlow);
  name = $state('');
  trigger = $state<FlowTrigger>('subscribed');
  triggerTag = $state('');
  listId = $state<number | null>(null);
  segmentId = $state<number | null>(null);
  allowReentry = $state(false);
  steps = $state<EditStep[]>([]);
  readonly action = new FormAction({ alertWithFields: true, rateLimit: 'retry', disposeWith: 'owner' });

  constructor(siteId: string, flow: MailerFlow) {
    this.siteId = siteId;
    this.load(flow);
  }

  /** The flow as the site has it: every field from it. */
  load(f: MailerFlow): void {
    this.base = f;
    this.name = f.name;
    this.trigger = f.trigger;
    this.triggerTag = f.triggerTag ?? '';
    this.listId = f.listId;
    this.segmentId = f.segmentId;
    this.allowReentry = f.allowReentry;
    this.steps = (f.steps ?? []).map((s) => keyed(plain({ ...s, key: '' })));
  }

  /** The line as it would be saved. */
  line(): FlowStep[] {
    return this.steps.map(plain);
  }

  /** Only what differs from the flow as the site last answered; the steps whole when any differ. */
  changes(): FlowChangesInput {
    const b = this.base;
    const out: FlowChangesInput = {};
    if (this.name.trim() !== b.name) out.name = this.name.trim();
    if (this.trigger !== b.trigger) out.trigger = this.trigger;
    const tag = this.trigger === 'tag_added' ? this.triggerTag.trim() || null : null;
    if (tag !== (b.trigger === 'tag_added' ? b.triggerTag : null) || (out.trigger && this.trigger === 'tag_added')) out.triggerTag = tag;
    if (this.listId !== b.listId) out.listId = this.listId;
    if (this.segmentId !== b.segmentId) out.segmentId = this.segmentId;
    if (this.allowReentry !== b.allowReentry) out.allowReentry = this.allowReentry;
    const saved = (b.steps ?? []).map((s) => plain({ ...s, key: '' }));
    if (JSON.stringify(this.line()) !== JSON.stringify(saved)) out.steps = this.line();
    return out;
  }

  get dirty(): boolean {
    return Object.keys(this.changes()).length > 0;
  }

  /** People standing on saved steps the line leaves out: a save moves them on to the next step kept. */
  get movedOn(): number {
    const kept = new Set(this.steps.flatMap((s) => (s.id !== null ? [s.id] : [])));
    return (this.base.steps ?? []).filter((s) => !kept.has(s.id)).reduce((n, s) => n + s.people, 0);
  }

  /** A save of a running flow that brings mail its people would not have had (a new send, a letter changed). */
  get addsMail(): boolean {
    return this.base.status === 'active' && addsMail(this.base.steps, this.line());
  }

  peopleOn(s: EditStep): number {
    return s.id === null ? 0 : (this.base.steps?.find((x) => x.id === s.id)?.people ?? 0);
  }

  add(type: FlowStep['type'], at = this.steps.length): EditStep {
    const s = newStep(type);
    this.steps = [...this.steps.slice(0, at), s, ...this.steps.slice(at)];
    return s;
  }

  remove(key: string): void {
    this.steps = this.steps.filter((s) => s.key !== key);
  }

  /** Moves a step by `by` places (−1 up, +1 down); answers whether it moved. */
  shift(key: string, by: number): boolean {
    const i = this.steps.findIndex((s) => s.key === key);
    const j = i + by;
    if (i < 0 || j < 0 || j >= this.steps.length) return false;
    const next = [...this.steps];
    [next[i], next[j]] = [next[j]!, next[i]!];
    this.steps = next;
    return true;
  }

  /** Changes one step's fields (its type stays). */
  set(key: string, fields: Partial<FlowStep>): void {
    this.steps = this.steps.map((s) => (s.key === key ? ({ ...s, ...fields } as EditStep) : s));
    this.action.clearField(`changes.steps.${this.steps.findIndex((s) => s.key === key)}`);
  }

  /** The site's refusal of a step's field, or of the step, by its place. */
  problem(key: string, field?: string): string | undefined {
    const i = this.steps.findIndex((s) => s.key === key);
    const f = this.action.fields as Record<string, string | undefined>;
    return field ? f[`changes.steps.${i}.${field}`] : (f[`changes.steps.${i}`] ?? f[`changes.steps.${i}.id`] ?? f[`changes.steps.${i}.type`]);
  }

  /** Saves what changed; answers the flow as the site has it, or null (the form says why). */
  async save(): Promise<MailerFlow | null> {
    const changes = this.changes();
    if (changes.name === '') {
      this.action.showFields({ 'changes.name': 'Give the automation a name: it is how you find it again.' });
      return null;
    }
    if (this.trigger === 'tag_added' && !this.triggerTag.trim()) {
      this.action.showFields({ 'changes.triggerTag': 'Say which tag enrols a person.' });
      return null;
    }
    const r = await this.action.run(() => invoke('mailer.updateFlow', { siteId: this.siteId, id: this.base.id, changes }));
    if (!r) return null;
    this.load(r.flow);
    return r.flow;
  }

  dispose(): void {
    this.action.dispose();
  }
}
