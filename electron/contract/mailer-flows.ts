/**
 * The mailer's automations, "flows" on the site (document 2, "Automations"; docs/mailer-automations.md,
 * the written design of what it leaves "not shown"): a trigger and a line of steps — waits, sends,
 * tag changes, conditions — each enrolled person walks through. The recipes a draft is written
 * from, the list with where its people are, one flow with its steps and a page of its people, an
 * edit that saves the steps whole (a step sent back with its id keeps its people), the run state's
 * moves (activate, pause, resume), a delete, and enrolling or taking out one person. Like every
 * mailer write, each is sent now or refused: nothing is queued.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { MailerId, PageNumber, PerPage, TagText, type UnreadableRow } from './mailer-common';

export const FLOW_STATUSES = ['draft', 'active', 'paused'] as const;
export type FlowStatus = (typeof FLOW_STATUSES)[number];

export const FLOW_STATUS_WORDS: Record<FlowStatus, string> = { draft: 'Draft', active: 'Running', paused: 'Paused' };

export const FLOW_TRIGGERS = ['subscribed', 'confirmed', 'tag_added'] as const;
export type FlowTrigger = (typeof FLOW_TRIGGERS)[number];

export const FLOW_TRIGGER_WORDS: Record<FlowTrigger, string> = {
  subscribed: 'Someone subscribes',
  confirmed: 'Someone confirms their address',
  tag_added: 'A tag is added to someone',
};

export const FLOW_MOVES = ['activate', 'pause', 'resume'] as const;
export type FlowMove = (typeof FLOW_MOVES)[number];

/** The moves a state allows (docs/mailer-automations.md, "Flow states"), for a site that does not say them. */
export const FLOW_MOVES_OF: Record<FlowStatus, readonly FlowMove[]> = { draft: ['activate'], active: ['pause'], paused: ['resume'] };

export const ENROLMENT_STATUSES = ['active', 'waiting', 'done', 'exited'] as const;
export type EnrolmentStatus = (typeof ENROLMENT_STATUSES)[number];

export const ENROLMENT_STATUS_WORDS: Record<EnrolmentStatus, string> = { active: 'On a step', waiting: 'Waiting', done: 'Went through', exited: 'Taken out' };

export const FLOW_STEP_TYPES = ['wait', 'send', 'tag', 'condition'] as const;
export type FlowStepType = (typeof FLOW_STEP_TYPES)[number];

/** A flow holds at most this many steps; a wait lasts at most a year (the site's bounds). */
export const FLOW_STEPS_MAX = 50;
export const FLOW_WAIT_MAX_MINUTES = 525_600;

/**
 * One step as the site keeps it; `id` null for a step not saved yet (the site numbers it). A send
 * mails a template (read when the step runs, so its edits reach later sends) or its own subject
 * and text; a condition passes on, or takes the person out (`exit`) or passes over `skip` steps.
 */
export type FlowStep =
  | { id: number | null; type: 'wait'; minutes: number }
  | { id: number | null; type: 'send'; templateId: number | null; subject: string | null; bodyMd: string | null; layout: 'store' | 'plain' }
  | { id: number | null; type: 'tag'; action: 'add' | 'remove'; tag: string }
  | { id: number | null; type: 'condition'; check: 'has_tag' | 'lacks_tag' | 'on_list'; tag: string | null; listId: number | null; otherwise: 'exit' | 'skip'; skip: number };

/** A saved step with how many people stand on it now. */
export type SavedFlowStep = FlowStep & { id: number; people: number };

export interface FlowPeople {
  active: number;
  waiting: number;
  done: number;
  exited: number;
  /** active + waiting: who is in it now. */
  inFlow: number;
  total: number;
}

export interface MailerFlow {
  id: number;
  name: string;
  status: FlowStatus;
  trigger: FlowTrigger;
  /** The tag whose adding enrols a person (`tag_added` only). */
  triggerTag: string | null;
  /** Only people on this list (null: any list), matching this segment (null: everybody). */
  listId: number | null;
  segmentId: number | null;
  /** A person who went through may be enrolled again by hand. */
  allowReentry: boolean;
  /** The recipe it was written from. */
  recipe: string | null;
  /** Its steps in order (null in the list, which says only `stepCount`). */
  steps: SavedFlowStep[] | null;
  stepCount: number;
  /** Where its people are, step by step, in order (the list says it too). */
  onSteps: { stepId: number; type: FlowStepType | string; people: number }[];
  people: FlowPeople;
  /** Its messages in the site's outbox. */
  messagesSent: number;
  /** The moves its state allows now (not the account's permissions, nor readiness). */
  actions: FlowMove[];
  createdAt: string | null;
  updatedAt: string | null;
  activatedAt: string | null;
  pausedAt: string | null;
  resumedAt: string | null;
}

/** A ready-made automation a draft is written from (its steps copied with new ids). */
export interface FlowRecipe {
  key: string;
  name: string;
  description: string;
  trigger: FlowTrigger;
  triggerTag: string | null;
  allowReentry: boolean;
  steps: FlowStep[];
}

/** One person's pass through a flow (their address: the site shows it to whoever may read the subscribers). */
export interface FlowEnrolment {
  id: number;
  flowId: number;
  subscriberId: number;
  email: string;
  name: string;
  status: EnrolmentStatus;
  /** Where they stand (null once out). */
  stepId: number | null;
  /** When their step is done, or their wait ends. */
  dueAt: string | null;
  enteredAt: string | null;
  leftAt: string | null;
  exitReason: 'manual' | 'condition' | 'not_mailable' | string | null;
}

export interface FlowEnrolmentPage {
  items: FlowEnrolment[];
  unreadable: UnreadableRow[];
  total: number;
  page: number;
  perPage: number;
  next: number | null;
}

/** Whether a line of steps mails anybody (a send step). */
export const flowMails = (steps: readonly FlowStep[] | null): boolean => (steps ?? []).some((s) => s.type === 'send');

const sendKey = (s: Extract<FlowStep, { type: 'send' }>) => JSON.stringify([s.templateId, s.subject, s.bodyMd, s.layout]);

/**
 * Whether saving `next` over `saved` brings mail its people would not have had: a send step that
 * is new or whose letter changed (pure). On a running flow that is mailing, as a move is.
 */
export function addsMail(saved: readonly FlowStep[] | null, next: readonly FlowStep[]): boolean {
  const before = new Map((saved ?? []).flatMap((s) => (s.type === 'send' && s.id !== null ? [[s.id, sendKey(s)] as const] : [])));
  return next.some((s) => s.type === 'send' && (s.id === null || before.get(s.id) !== sendKey(s)));
}

// ── inputs

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the automation a name.'), v.maxLength(200, 'At most 200 characters.'));
const StepId = v.nullable(MailerId);
const Minutes = v.pipe(v.number('A whole number of minutes.'), v.integer('A whole number of minutes.'), v.minValue(1, 'At least a minute.'), v.maxValue(FLOW_WAIT_MAX_MINUTES, 'At most a year.'));

export const FlowStepInput = v.variant('type', [
  v.strictObject({ id: StepId, type: v.literal('wait'), minutes: Minutes }),
  v.strictObject({
    id: StepId,
    type: v.literal('send'),
    templateId: v.nullable(MailerId),
    subject: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(998, 'At most 998 characters.'))),
    bodyMd: v.nullable(v.pipe(v.string(), v.maxLength(200_000, 'At most 200,000 characters.'))),
    layout: v.picklist(['store', 'plain']),
  }),
  v.strictObject({ id: StepId, type: v.literal('tag'), action: v.picklist(['add', 'remove']), tag: TagText }),
  v.strictObject({
    id: StepId,
    type: v.literal('condition'),
    check: v.picklist(['has_tag', 'lacks_tag', 'on_list']),
    tag: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(120, 'At most 120 characters.'))),
    listId: v.nullable(MailerId),
    otherwise: v.picklist(['exit', 'skip']),
    skip: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(FLOW_STEPS_MAX)),
  }),
]);

const Steps = v.pipe(v.array(FlowStepInput), v.maxLength(FLOW_STEPS_MAX, `At most ${FLOW_STEPS_MAX} steps.`));
const TriggerTag = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(120, 'At most 120 characters.')));

/** What an edit may change (the state is the moves', the people the site's). */
export const FlowChanges = v.strictObject({
  name: v.optional(Name),
  trigger: v.optional(v.picklist(FLOW_TRIGGERS)),
  triggerTag: v.optional(TriggerTag),
  listId: v.optional(v.nullable(MailerId)),
  segmentId: v.optional(v.nullable(MailerId)),
  allowReentry: v.optional(v.boolean()),
  /** The whole new line, in order: a step with its id is that step (its people stay on it). */
  steps: v.optional(Steps),
});
export type FlowChangesInput = v.InferInput<typeof FlowChanges>;

export const mailerFlowChannels = {
  /** Every flow, newest first, with where its people are; kept as a copy for reading while the site is away. */
  'mailer.flows': channel<{ flows: MailerFlow[]; statusCounts: Record<FlowStatus, number> | null; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  'mailer.flowRecipes': channel<{ recipes: FlowRecipe[] }>()(v.strictObject({ siteId: SiteId })),
  /** One flow with its steps and a page of its people, newest first; by state or by the step they stand on. */
  'mailer.flow': channel<{ flow: MailerFlow; enrolments: FlowEnrolmentPage }>()(
    v.strictObject({ siteId: SiteId, id: MailerId, status: v.optional(v.picklist(ENROLMENT_STATUSES)), stepId: v.optional(MailerId), page: PageNumber, perPage: PerPage }),
  ),
  /** Makes a draft from scratch. */
  'mailer.createFlow': channel<{ flow: MailerFlow }>()(
    v.strictObject({ siteId: SiteId, name: Name, trigger: v.picklist(FLOW_TRIGGERS), triggerTag: v.optional(TriggerTag), listId: v.optional(v.nullable(MailerId)), segmentId: v.optional(v.nullable(MailerId)), allowReentry: v.optional(v.boolean()), steps: v.optional(Steps) }),
  ),
  /** Makes a draft from a recipe (its steps copied), under another name when given. */
  'mailer.flowFromRecipe': channel<{ flow: MailerFlow }>()(
    v.strictObject({ siteId: SiteId, recipe: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/, 'Not a recipe.')), name: v.optional(Name), listId: v.optional(v.nullable(MailerId)), segmentId: v.optional(v.nullable(MailerId)) }),
  ),
  /** Changes a flow in any state (only what is given; `steps` whole). */
  'mailer.updateFlow': channel<{ flow: MailerFlow }>()(v.strictObject({ siteId: SiteId, id: MailerId, changes: FlowChanges })),
  /** Turns a flow on, pauses or resumes it: sent at once or refused (the site not answering), never queued. */
  'mailer.moveFlow': channel<{ flow: MailerFlow }>()(v.strictObject({ siteId: SiteId, id: MailerId, move: v.picklist(FLOW_MOVES) })),
  /** Deletes a flow with its enrolments; with people in it only when `force` (they are taken out first). */
  'mailer.deleteFlow': channel<{ id: number }>()(v.strictObject({ siteId: SiteId, id: MailerId, force: v.optional(v.boolean()) })),
  /**
   * Puts one person on the flow's first step. `earlier`: an enrol whose answer was lost had done
   * it (the enrolment is then read again with the flow, not answered here).
   */
  'mailer.enrol': channel<{ enrolment: FlowEnrolment | null; earlier: boolean }>()(v.strictObject({ siteId: SiteId, id: MailerId, subscriberId: MailerId })),
  /** Takes one person out of the flow; `earlier` as for enrol. */
  'mailer.exitEnrolment': channel<{ enrolment: FlowEnrolment | null; earlier: boolean }>()(v.strictObject({ siteId: SiteId, id: MailerId, enrolmentId: MailerId })),
};
