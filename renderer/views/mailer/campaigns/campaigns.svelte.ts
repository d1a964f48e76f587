/**
 * A site's mailer campaigns (contract/mailer-campaigns.ts; docs/mailer-campaigns.md): the table
 * newest first with every state's count (read from Sitedesk's copy while the site is away, for
 * reading only), kept in step with what each move answers; the new campaign's form with the
 * audience counted as its lists change; and which moves the account and the state allow, with the
 * reason when not. Mail goes out only by a person's move while the site answers: nothing is queued.
 */
import {
  mailerBlockedReason,
  type CampaignAudience,
  type CampaignMove,
  type CampaignStatus,
  type MailerCampaign,
  type MailerPlugin,
  type Me,
} from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';
import { AWAY_WORDS } from '../lists/write-gate';

const PER_PAGE = 50;

export class CampaignsState {
  readonly siteId: string;
  status = $state<CampaignStatus | null>(null);
  items = $state.raw<MailerCampaign[] | null>(null);
  statusCounts = $state.raw<Record<CampaignStatus, number> | null>(null);
  total = $state(0);
  next = $state<number | null>(null);
  copiedAt = $state<string | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);
  /** The campaign whose page is open (null: the table), kept as the site last answered it. */
  opened = $state.raw<MailerCampaign | null>(null);
  #asked = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** The first page of the table (of the state chosen). */
  async load(): Promise<void> {
    const asked = ++this.#asked;
    this.loading = true;
    try {
      const r = await invoke('mailer.campaigns', { siteId: this.siteId, ...(this.status ? { status: this.status } : {}), page: 1, perPage: PER_PAGE });
      if (asked !== this.#asked) return;
      this.items = r.items;
      this.statusCounts = r.statusCounts ?? this.statusCounts;
      this.total = r.total;
      this.next = r.next;
      this.copiedAt = r.copiedAt;
      this.error = null;
    } catch (err) {
      if (asked === this.#asked) this.error = AppError.from(err);
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
  }

  /** The next page, after those shown. */
  async more(): Promise<void> {
    const page = this.next;
    if (page === null || this.loading) return;
    const asked = this.#asked;
    this.loading = true;
    try {
      const r = await invoke('mailer.campaigns', { siteId: this.siteId, ...(this.status ? { status: this.status } : {}), page, perPage: PER_PAGE });
      if (asked !== this.#asked) return;
      const seen = new Set((this.items ?? []).map((c) => c.id));
      this.items = [...(this.items ?? []), ...r.items.filter((c) => !seen.has(c.id))];
      this.next = r.next;
      this.error = null;
    } catch (err) {
      if (asked === this.#asked) this.error = AppError.from(err);
    } finally {
      if (asked === this.#asked) this.loading = false;
    }
  }

  filter(status: CampaignStatus | null): void {
    this.status = status;
    void this.load();
  }

  /** A campaign as the site has it now: its row replaced, the counts moved with its state, its page when open. */
  put(c: MailerCampaign): void {
    if (this.opened?.id === c.id) this.opened = c;
    const before = (this.items ?? []).find((x) => x.id === c.id);
    if (this.statusCounts && before && before.status !== c.status) {
      this.statusCounts = { ...this.statusCounts, [before.status]: Math.max(0, this.statusCounts[before.status] - 1), [c.status]: this.statusCounts[c.status] + 1 };
    }
    if (!before) {
      if (this.statusCounts) this.statusCounts = { ...this.statusCounts, [c.status]: this.statusCounts[c.status] + 1 };
      if (!this.status || this.status === c.status) this.items = [c, ...(this.items ?? [])];
      this.total += 1;
      return;
    }
    this.items = (this.items ?? []).flatMap((x) => (x.id !== c.id ? [x] : !this.status || this.status === c.status ? [c] : []));
  }

  drop(c: MailerCampaign): void {
    if (this.opened?.id === c.id) this.opened = null;
    this.items = (this.items ?? []).filter((x) => x.id !== c.id);
    if (this.statusCounts) this.statusCounts = { ...this.statusCounts, [c.status]: Math.max(0, this.statusCounts[c.status] - 1) };
    this.total = Math.max(0, this.total - 1);
  }

  /** Sends a move; answers the campaign as the site has it after it. */
  async move(c: MailerCampaign, move: 'start' | 'pause' | 'resume' | 'cancel', scheduledAt?: string): Promise<MailerCampaign> {
    const r = await invoke('mailer.moveCampaign', { siteId: this.siteId, id: c.id, move, ...(scheduledAt ? { scheduledAt } : {}) });
    this.put(r.campaign);
    return r.campaign;
  }

  async remove(c: MailerCampaign): Promise<void> {
    await invoke('mailer.deleteCampaign', { siteId: this.siteId, id: c.id });
    this.drop(c);
  }
}

/** The words of each move a person makes. */
export const MOVE_WORDS: Record<Exclude<CampaignMove, 'edit'>, string> = {
  start: 'Send now…',
  schedule: 'Schedule…',
  pause: 'Pause',
  resume: 'Resume…',
  cancel: 'Cancel…',
  delete: 'Delete…',
};

const DONE_WORDS: Record<CampaignMove, string> = { edit: 'edited', delete: 'deleted', start: 'sent now', schedule: 'scheduled', pause: 'paused', resume: 'resumed', cancel: 'canceled' };
const STATE_WORDS: Record<CampaignStatus, string> = {
  draft: 'it is a draft',
  scheduled: 'it is scheduled',
  sending: 'it is sending',
  paused: 'it is paused',
  stopped: 'the sender stopped it',
  canceled: 'it was canceled',
  sent: 'it has been sent',
};

/** Why the state does not allow a move, in words. */
export const stateWhy = (c: MailerCampaign, move: CampaignMove): string => `It cannot be ${DONE_WORDS[move]}: ${STATE_WORDS[c.status]}.`;

/**
 * Why this account may not make a move now, or null: start, schedule and resume put mail into
 * inboxes (`send` with `manage`), the others change the campaign (`manage`); the site not
 * answering refuses every move (none is queued).
 */
export function moveBlocked(me: Me | null, plugin: MailerPlugin, move: CampaignMove, away: boolean): string | null {
  const sends = move === 'start' || move === 'schedule' || move === 'resume';
  const refused = me ? (mailerBlockedReason(me, 'manage', plugin.base) ?? (sends ? mailerBlockedReason(me, 'send', plugin.base) : null)) : null;
  return refused ?? (away ? AWAY_WORDS : null);
}

/** Who a campaign goes to, in words. */
export function audienceWords(a: CampaignAudience): string {
  const people = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'person' : 'people'}`;
  return a.leftOut > 0 ? `${people(a.count)} (${a.leftOut.toLocaleString()} more match but cannot be mailed: unsubscribed or suppressed)` : people(a.count);
}

export type NewCampaignField = 'name' | 'subject' | 'listIds';

/** The new campaign's form: a name, a subject, its lists, and the audience counted as they change. */
export class NewCampaignForm {
  readonly siteId: string;
  name = $state('');
  subject = $state('');
  listIds = $state<number[]>([]);
  /** The template it starts from (null: blank). */
  templateId = $state<number | null>(null);
  audience = $state.raw<CampaignAudience | null>(null);
  audienceError = $state<string | null>(null);
  counting = $state(false);
  readonly action = new FormAction<NewCampaignField>({ fields: ['name', 'subject', 'listIds'], alertWithFields: true, rateLimit: 'retry', disposeWith: 'owner' });
  #asked = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** Counts who the lists chosen reach (none chosen: anyone on any list). */
  async count(): Promise<void> {
    const asked = ++this.#asked;
    this.counting = true;
    try {
      const a = await invoke('mailer.campaignAudience', { siteId: this.siteId, listIds: this.listIds });
      if (asked !== this.#asked) return;
      this.audience = a;
      this.audienceError = null;
    } catch (err) {
      if (asked === this.#asked) this.audienceError = AppError.from(err).message;
    } finally {
      if (asked === this.#asked) this.counting = false;
    }
  }

  toggle(listId: number, on: boolean): void {
    this.listIds = on ? [...new Set([...this.listIds, listId])] : this.listIds.filter((x) => x !== listId);
    this.action.clearField('listIds');
    void this.count();
  }

  /** Makes the draft; answers it, or null (the form says why). */
  async submit(): Promise<MailerCampaign | null> {
    if (this.name.trim() === '') {
      this.action.showFields({ name: 'Give the campaign a name: it is how you find it again (people do not see it).' });
      return null;
    }
    const r = await this.action.run(() =>
      invoke('mailer.createCampaign', { siteId: this.siteId, name: this.name.trim(), ...(this.subject.trim() ? { subject: this.subject.trim() } : {}), listIds: this.listIds, ...(this.templateId !== null ? { templateId: this.templateId } : {}) }),
    );
    return r?.campaign ?? null;
  }

  dispose(): void {
    this.action.dispose();
  }
}

/** A `datetime-local` value (the person's own time zone) as UTC ISO text, or null when it is not one. */
export function localToIso(local: string): string | null {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(local)) return null;
  const t = new Date(local).getTime();
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}

/** An hour from now, on the hour, as a `datetime-local` value. */
export function inAnHour(now = Date.now()): string {
  const d = new Date(now + 3_600_000);
  d.setMinutes(0, 0, 0);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:00`;
}
