/**
 * A site's mailer automations (contract/mailer-flows.ts; docs/mailer-automations.md): the list
 * newest first with where each flow's people are (read from Sitedesk's copy while the site is
 * away, for reading only), kept in step with what each write answers; which moves the account,
 * the state and the site allow, with the reason when not; and every step said in words. Mail goes
 * out only by a person's move while the site answers: nothing is queued.
 */
import {
  flowMails,
  mailerBlockedReason,
  type FlowMove,
  type FlowStatus,
  type FlowStep,
  type MailerFlow,
  type MailerList,
  type MailerPlugin,
  type MailerTemplate,
  type Me,
} from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { AWAY_WORDS } from '../lists/write-gate';

export class FlowsState {
  readonly siteId: string;
  flows = $state.raw<MailerFlow[] | null>(null);
  statusCounts = $state.raw<Record<FlowStatus, number> | null>(null);
  copiedAt = $state<string | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);
  /** The automation whose page is open (null: the list). */
  openedId = $state<number | null>(null);
  #asked = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  async load(): Promise<void> {
    const asked = ++this.#asked;
    this.loading = true;
    try {
      const r = await invoke('mailer.flows', { siteId: this.siteId });
      if (asked !== this.#asked) return;
      this.flows = r.flows;
      this.statusCounts = r.statusCounts;
      this.copiedAt = r.copiedAt;
      this.error = null;
    } catch (err) {
      if (asked === this.#asked) this.error = AppError.from(err);
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
  }

  /** A flow as the site has it now: its row replaced (or added at the top), the counts moved with its state. */
  put(f: MailerFlow): void {
    const list = this.flows ?? [];
    const before = list.find((x) => x.id === f.id);
    if (this.statusCounts && before?.status !== f.status) {
      const c = { ...this.statusCounts };
      if (before) c[before.status] = Math.max(0, c[before.status] - 1);
      c[f.status] += 1;
      this.statusCounts = c;
    }
    this.flows = before ? list.map((x) => (x.id === f.id ? f : x)) : [f, ...list];
  }

  drop(id: number): void {
    const before = (this.flows ?? []).find((x) => x.id === id);
    if (this.openedId === id) this.openedId = null;
    this.flows = (this.flows ?? []).filter((x) => x.id !== id);
    if (this.statusCounts && before) this.statusCounts = { ...this.statusCounts, [before.status]: Math.max(0, this.statusCounts[before.status] - 1) };
  }

  async move(f: MailerFlow, move: FlowMove): Promise<MailerFlow> {
    const r = await invoke('mailer.moveFlow', { siteId: this.siteId, id: f.id, move });
    this.put(r.flow);
    return r.flow;
  }

  async remove(f: MailerFlow, force: boolean): Promise<void> {
    await invoke('mailer.deleteFlow', { siteId: this.siteId, id: f.id, ...(force ? { force: true } : {}) });
    this.drop(f.id);
  }
}

export const MOVE_WORDS: Record<FlowMove, string> = { activate: 'Turn on…', pause: 'Pause', resume: 'Resume…' };
export const MOVE_DONE: Record<FlowMove, string> = { activate: 'Automation turned on', pause: 'Automation paused', resume: 'Automation resumed' };

/** Why the account may not change automations now (`manage`), or null; the site away refuses every write. */
export function flowWriteBlocked(me: Me | null, plugin: MailerPlugin, away: boolean): string | null {
  return (me ? mailerBlockedReason(me, 'manage', plugin.base) : null) ?? (away ? AWAY_WORDS : null);
}

/** Why the account may not let a flow's sends mail people (`send` with `manage`), or null; one that sends nothing (`mails` false) needs `manage` alone. */
export function flowMailBlocked(me: Me | null, plugin: MailerPlugin, mails: boolean, away: boolean): string | null {
  const refused = flowWriteBlocked(me, plugin, away);
  if (refused) return refused;
  const send = me && mails ? mailerBlockedReason(me, 'send', plugin.base) : null;
  return send ? `${send.replace(/\.$/, '')}: this automation sends mail.` : null;
}

/** Whether a flow has a send step (the list's rows say only the types of their steps). */
export const flowSends = (f: MailerFlow): boolean => (f.steps ? flowMails(f.steps) : f.onSteps.some((o) => o.type === 'send'));

/** Why a move is not offered or may not be made now, or null. */
export function moveBlocked(me: Me | null, plugin: MailerPlugin, f: MailerFlow, move: FlowMove, away: boolean): string | null {
  if (move === 'pause') return flowWriteBlocked(me, plugin, away);
  if (f.stepCount === 0) return 'It has no steps yet: add at least one first.';
  return flowMailBlocked(me, plugin, flowSends(f), away);
}

const people = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'person' : 'people'}`;
export { people as peopleWords };

/** A length of minutes in words: "2 days", "1 hour 30 minutes". */
export function minutesWords(m: number): string {
  const parts: string[] = [];
  const d = Math.floor(m / 1440);
  const h = Math.floor((m % 1440) / 60);
  const min = m % 60;
  if (d) parts.push(`${d} ${d === 1 ? 'day' : 'days'}`);
  if (h) parts.push(`${h} ${h === 1 ? 'hour' : 'hours'}`);
  if (min || !parts.length) parts.push(`${min} ${min === 1 ? 'minute' : 'minutes'}`);
  return parts.join(' ');
}

export const STEP_TYPE_WORDS: Record<FlowStep['type'], string> = { wait: 'Wait', send: 'Send a letter', tag: 'Change a tag', condition: 'Check a condition' };

/** One step in words, as its card's heading says it. */
export function stepWords(s: FlowStep, templates: readonly MailerTemplate[] | null, lists: readonly MailerList[] | null): string {
  switch (s.type) {
    case 'wait':
      return `Wait ${minutesWords(s.minutes)}`;
    case 'send': {
      if (s.templateId !== null) {
        const t = templates?.find((x) => x.id === s.templateId);
        return `Send the template “${t?.name ?? `#${s.templateId}`}”`;
      }
      return s.subject ? `Send “${s.subject}”` : 'Send a letter (no subject yet)';
    }
    case 'tag':
      return `${s.action === 'add' ? 'Add' : 'Remove'} the tag “${s.tag || '…'}”`;
    case 'condition': {
      const what =
        s.check === 'on_list' ? `on the list “${lists?.find((l) => l.id === s.listId)?.name ?? (s.listId ? `#${s.listId}` : '…')}”` : `${s.check === 'has_tag' ? 'has' : 'lacks'} the tag “${s.tag || '…'}”`;
      const otherwise = s.otherwise === 'exit' ? 'otherwise they leave' : `otherwise skip ${s.skip} ${s.skip === 1 ? 'step' : 'steps'}`;
      return `If ${s.check === 'on_list' ? 'they are ' : 'the person '}${what}, go on; ${otherwise}`;
    }
  }
}

/** The trigger in words, with its tag and its list. */
export function triggerWords(f: Pick<MailerFlow, 'trigger' | 'triggerTag' | 'listId'>, lists: readonly MailerList[] | null): string {
  const list = f.listId ? (lists?.find((l) => l.id === f.listId)?.name ?? `list #${f.listId}`) : null;
  if (f.trigger === 'tag_added') return `The tag “${f.triggerTag ?? '…'}” is added (enrolled by hand: the site does not enrol on tags by itself yet)`;
  if (f.trigger === 'confirmed') return `Someone confirms their address${list ? ` (on ${list})` : ''}`;
  return `Someone subscribes${list ? ` to ${list}` : ' to any list'}`;
}
