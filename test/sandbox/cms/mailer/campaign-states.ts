/**
 * A campaign's states and the moves between them (document 2, "Mailing plugin campaigns", with
 * what it leaves "not shown" decided in docs/mailer-campaigns.md). Pure: no store, no clock; the
 * routes ask `move()` and either write the next state or answer the refusal it gives.
 */

export const CAMPAIGN_STATES = ['draft', 'scheduled', 'sending', 'paused', 'stopped', 'canceled', 'sent'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

/** What a caller can ask for (`edit` is PATCH, `delete` is DELETE); `due` and `finish` are the worker's. */
export const USER_MOVES = ['edit', 'delete', 'start', 'schedule', 'pause', 'resume', 'cancel'] as const;
export type UserMove = (typeof USER_MOVES)[number];
export type Move = UserMove | 'due' | 'finish' | 'stop';

/** Where each move may start from. */
const FROM: Record<Move, readonly CampaignState[]> = {
  edit: ['draft', 'scheduled'],
  delete: ['draft', 'canceled'],
  // a scheduled campaign can be sent now or given another time
  start: ['draft', 'scheduled'],
  schedule: ['draft', 'scheduled'],
  pause: ['sending', 'scheduled'],
  resume: ['paused', 'stopped'],
  // a draft is deleted, not canceled; sent and canceled are final
  cancel: ['scheduled', 'sending', 'paused', 'stopped'],
  due: ['scheduled'],
  finish: ['sending'],
  // the sender halts a campaign by itself (provider refusing, bounce limit): not a caller's move
  stop: ['sending'],
};

export interface MoveContext {
  /** the campaign's time to go out (epoch seconds), when it has one */
  scheduledAt?: number | null;
  /** the sandbox's clock, epoch seconds */
  now: number;
}

export type MoveAnswer = { ok: true; next: CampaignState | 'removed' } | { ok: false; code: string; reason: string };

const WHY_NOT: Record<CampaignState, string> = {
  draft: 'it is a draft: start or schedule it first',
  scheduled: 'it is scheduled and has not started sending',
  sending: 'it is sending: pause it first',
  paused: 'it is paused: resume or cancel it',
  stopped: 'it was stopped by the sender: resume or cancel it',
  canceled: 'it was canceled for good',
  sent: 'it has been sent',
};

const VERB: Record<Move, string> = {
  edit: 'be edited',
  delete: 'be deleted',
  start: 'be started',
  schedule: 'be scheduled',
  pause: 'be paused',
  resume: 'be resumed',
  cancel: 'be canceled',
  due: 'start on time',
  finish: 'finish',
  stop: 'be stopped',
};

export const isState = (s: string): s is CampaignState => (CAMPAIGN_STATES as readonly string[]).includes(s);

/** The next state of `move` from `state`, or why it is refused (`code` campaign_state). */
export function move(state: CampaignState, m: Move, ctx: MoveContext): MoveAnswer {
  if (!FROM[m].includes(state)) return { ok: false, code: 'campaign_state', reason: `The campaign cannot ${VERB[m]}: ${WHY_NOT[state]}.` };
  switch (m) {
    case 'edit':
      return { ok: true, next: state };
    case 'delete':
      return { ok: true, next: 'removed' };
    case 'start':
    case 'due':
    case 'resume':
      // resume keeps a time still ahead (paused before it went out); otherwise it sends
      if (m === 'resume' && ctx.scheduledAt != null && ctx.scheduledAt > ctx.now) return { ok: true, next: 'scheduled' };
      return { ok: true, next: 'sending' };
    case 'schedule':
      if (ctx.scheduledAt == null || ctx.scheduledAt <= ctx.now) return { ok: false, code: 'scheduled_at_past', reason: 'scheduled_at must be a time ahead (epoch seconds); leave it out to send now.' };
      return { ok: true, next: 'scheduled' };
    case 'pause':
      return { ok: true, next: 'paused' };
    case 'cancel':
      return { ok: true, next: 'canceled' };
    case 'finish':
      return { ok: true, next: 'sent' };
    case 'stop':
      return { ok: true, next: 'stopped' };
  }
}

/** The caller's moves open from `state`: the record's `next_moves`. */
export const nextMoves = (state: CampaignState): UserMove[] => USER_MOVES.filter((m) => FROM[m].includes(state));


/**
 * What a campaign's mail routes may do beside the moves (they send, but change no state): count
 * and send catch-up, retry failed sends. Not in `next_moves`, which lists state changes.
 */
export const SEND_ACTIONS = ['catch_up_count', 'catch_up', 'retry_failed'] as const;
export type SendAction = (typeof SEND_ACTIONS)[number];

const ACTION_FROM: Record<SendAction, readonly CampaignState[]> = {
  catch_up_count: ['sending', 'paused', 'stopped', 'sent'],
  // while it sends, those who joined since are after its run; once sent, they are catch-up's
  catch_up: ['sent'],
  // a paused or stopped campaign was halted by someone or the sender: resume it, then retry
  retry_failed: ['sending', 'sent'],
};

const ACTION_VERB: Record<SendAction, string> = { catch_up_count: 'be caught up', catch_up: 'be caught up', retry_failed: 'retry failed sends' };

const ACTION_WHY_NOT: Record<CampaignState, string> = {
  draft: 'it has not gone out yet',
  scheduled: 'it has not gone out yet',
  sending: 'it is still sending: catch-up is for people who join after it is sent',
  paused: 'it is paused: resume it first',
  stopped: 'it was stopped by the sender: resume it first',
  canceled: 'it was canceled for good',
  sent: 'it has been sent',
};

/** Whether `state` allows `action`, or why not (`code` campaign_state). */
export function allows(state: CampaignState, action: SendAction): { ok: true } | { ok: false; code: 'campaign_state'; reason: string } {
  if (ACTION_FROM[action].includes(state)) return { ok: true };
  const why = action === 'catch_up' && (state === 'paused' || state === 'stopped') ? `${ACTION_WHY_NOT[state]}, and catch up once it is sent` : ACTION_WHY_NOT[state];
  return { ok: false, code: 'campaign_state', reason: `The campaign cannot ${ACTION_VERB[action]}: ${why}.` };
}
