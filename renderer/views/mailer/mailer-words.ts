/**
 * The Mailer area's words, shared by its sections: a person's standing on a list, their consent
 * history, their sends, a bulk action and what it did, what an edit kept off, a filter said in
 * words, and why a write cannot be made now. Pure (no state, no calls), so it is unit-tested and
 * every section says the same thing the same way. The contract's own words (STATUS_WORDS,
 * SOURCE_WORDS, ADD_OUTCOME_WORDS, SUPPRESSION_REASON_WORDS) are used as they are.
 */
import {
  mailerBlockedReason,
  SOURCE_WORDS,
  STATUS_WORDS,
  SUPPRESSION_REASON_WORDS,
  type BulkAction,
  type BulkProgress,
  type ConsentEntry,
  type Me,
  type MailerList,
  type MailerPlugin,
  type MailerTag,
  type MembershipStatus,
  type SubscriberFilter,
  type SubscriberRow,
} from '../../../electron/contract/index';

/** "1 person", "2,000 people": a count with its noun. */
export function countOf(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
export const people = (n: number) => countOf(n, 'person', 'people');

/** A person's standing on one list, in words. */
export const MEMBERSHIP_WORDS: Record<MembershipStatus, string> = {
  pending: 'Waiting to confirm',
  subscribed: 'Subscribed',
  unsubscribed: 'Left',
};

/** Who took someone off a list. */
export function leftByWords(leftBy: string | null): string | null {
  if (leftBy === 'self') return 'left by their own hand';
  if (leftBy === 'site') return 'taken off by the site';
  return null;
}

/** How someone left (the consent's `left_via`). */
export const LEFT_VIA_WORDS: Record<string, string> = {
  link: 'the unsubscribe link in an email',
  list_unsubscribe: 'their mail app’s unsubscribe button',
  preferences: 'the preference centre',
  complaint: 'a spam complaint',
  bounce: 'a bounce',
  site: 'the site',
};

/** One change of the consent history, as a timeline's heading. */
export const CONSENT_ACTION_WORDS: Record<string, string> = {
  signed_up: 'Signed up',
  confirmed: 'Confirmed by email',
  confirmed_by_site: 'Confirmed by the site',
  invited: 'Invited (a confirmation email was sent)',
  added: 'Added as already agreed',
  imported: 'Imported',
  imported_pending: 'Imported, waiting to confirm',
  left: 'Left',
  taken_off: 'Taken off by the site',
  came_back: 'Came back',
  put_back: 'Put back by the site',
  automation_added: 'Added by an automation',
};

/** The tone of a timeline entry: joining, leaving, or neither. */
export function consentTone(action: string): 'join' | 'leave' | 'other' {
  if (['signed_up', 'confirmed', 'confirmed_by_site', 'added', 'imported', 'came_back', 'put_back', 'automation_added'].includes(action)) return 'join';
  if (['left', 'taken_off'].includes(action)) return 'leave';
  return 'other';
}

const BY_WORDS: Record<string, string> = { self: 'by them', site: 'by the site', import: 'by an import', automation: 'by an automation' };

/** A consent entry in words: its heading and the facts under it (list, who, how, the note). */
export function consentEntryWords(e: ConsentEntry): { title: string; facts: string[]; note: string | null } {
  const title = CONSENT_ACTION_WORDS[e.action] ?? e.action.replaceAll('_', ' ');
  const facts: string[] = [];
  if (e.listName) facts.push(`List: ${e.listName}`);
  const by = e.by ? (BY_WORDS[e.by] ?? `by ${e.by}`) : null;
  if (by) facts.push(e.admin ? `${by} (${e.admin})` : by);
  else if (e.admin) facts.push(`by ${e.admin}`);
  if (e.via) facts.push(`through ${LEFT_VIA_WORDS[e.via] ?? e.via}`);
  if (e.ip) facts.push(`from ${e.ip}`);
  return { title, facts, note: e.note && e.note.trim() ? e.note : null };
}

export const SEND_STATUS_WORDS: Record<string, string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  bounced: 'Bounced',
  failed: 'Failed',
};

export const statusWords = (s: string): string => (STATUS_WORDS as Record<string, string>)[s] ?? s;
export const sourceWords = (s: string): string => (SOURCE_WORDS as Record<string, string>)[s] ?? s;
export const suppressionWords = (r: string): string => (SUPPRESSION_REASON_WORDS as Record<string, string>)[r] ?? r;

/** The tone of a status badge. */
export function statusTone(s: string): 'success' | 'warning' | 'muted' | 'danger' {
  if (s === 'subscribed') return 'success';
  if (s === 'pending') return 'warning';
  if (s === 'bounced' || s === 'complained') return 'danger';
  return 'muted';
}

/** What an edit kept off, with why (the site's `kept_off`). */
export function keptOffWords(reason: string): string {
  if (reason === 'left_themselves') return 'they left it themselves: only a resubscribe with a note saying how they asked puts them back';
  if (reason === 'not_held') return 'they are not on it: an edit only keeps or takes off lists they hold; adding them is an add, which asks how they agreed';
  return reason.replaceAll('_', ' ');
}

/** The lists an edit kept off, one sentence each, naming the list. */
export function keptOffSentences(keptOff: readonly { listId: number; reason: string }[], lists: readonly Pick<MailerList, 'id' | 'name'>[]): string[] {
  return keptOff.map((k) => `${lists.find((l) => l.id === k.listId)?.name ?? `List ${k.listId}`}: not joined — ${keptOffWords(k.reason)}.`);
}

// ── bulk actions ─────────────────────────────────────────────────────────────────────────────

/** Each action's name on a button, and the verb of a finished count. */
export const BULK_ACTION_WORDS: Record<BulkAction, { label: string; running: string }> = {
  add_to_list: { label: 'Add to a list', running: 'Adding to the list' },
  remove_from_list: { label: 'Take off a list', running: 'Taking off the list' },
  add_tag: { label: 'Add a tag', running: 'Tagging' },
  remove_tag: { label: 'Remove a tag', running: 'Removing the tag' },
  unsubscribe: { label: 'Unsubscribe from every list', running: 'Unsubscribing' },
  delete: { label: 'Delete', running: 'Deleting' },
  confirm: { label: 'Confirm by hand', running: 'Confirming' },
};

/** The actions a plugin takes: Mailroom has six (no bulk confirm). */
export function bulkActionsOf(plugin: Pick<MailerPlugin, 'base'>): BulkAction[] {
  const all: BulkAction[] = ['add_tag', 'remove_tag', 'add_to_list', 'remove_from_list', 'unsubscribe', 'confirm', 'delete'];
  return plugin.base === 'mailroom' ? all.filter((a) => a !== 'confirm') : all;
}

export const BULK_DONE_WORDS: Record<string, string> = {
  added: 'added',
  invited: 'invited',
  removed: 'taken off',
  tagged: 'tagged',
  untagged: 'untagged',
  unsubscribed: 'unsubscribed',
  deleted: 'deleted',
  confirmed: 'confirmed',
};

export const BULK_SKIPPED_WORDS: Record<string, string> = {
  suppressed: 'suppressed (never mailed)',
  left_every_list: 'left every list themselves',
  left_this_list: 'left this list themselves',
  already_on: 'already on it',
  already_invited: 'already invited',
  not_on_list: 'not on the list',
  without_tag: 'without the tag',
  already_tagged: 'already tagged',
  already_off: 'already off every list',
  not_pending: 'not waiting to confirm',
  not_an_address: 'not an address',
  gone: 'no longer there',
};

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

/** What a bulk action did so far, in words: "1,204 tagged; 12 left alone: 12 already tagged". */
export function bulkSummary(p: Pick<BulkProgress, 'done' | 'skipped'>): string {
  const done = Object.entries(p.done).filter(([, n]) => n > 0).map(([k, n]) => `${n.toLocaleString('en')} ${BULK_DONE_WORDS[k] ?? k.replaceAll('_', ' ')}`);
  const skippedTotal = sum(p.skipped);
  const skipped = Object.entries(p.skipped).filter(([, n]) => n > 0).map(([k, n]) => `${n.toLocaleString('en')} ${BULK_SKIPPED_WORDS[k] ?? k.replaceAll('_', ' ')}`);
  const parts = [done.length ? done.join(', ') : 'Nothing changed'];
  if (skippedTotal) parts.push(`${skippedTotal.toLocaleString('en')} left alone: ${skipped.join(', ')}`);
  return parts.join('; ');
}

// ── the table's filter ───────────────────────────────────────────────────────────────────────

/** A filter without empty fields, and without a standing or reach whose list or campaign is gone. */
export function cleanFilter(f: SubscriberFilter): SubscriberFilter {
  const out: SubscriberFilter = {};
  for (const [k, v] of Object.entries(f) as [keyof SubscriberFilter, unknown][]) {
    if (v === undefined || v === null || v === '') continue;
    if (k === 'q' && typeof v === 'string' && v.trim() === '') continue;
    (out as Record<string, unknown>)[k] = k === 'q' ? String(v).trim() : v;
  }
  if (out.list === undefined) delete out.listStatus;
  if (out.campaignId === undefined) delete out.campaignReceived;
  return out;
}

export interface FilterNames {
  lists: readonly Pick<MailerList, 'id' | 'name'>[];
  tags: readonly Pick<MailerTag, 'id' | 'label'>[];
  campaigns: readonly { value: number | string; label: string }[];
}

const STANDING_WORDS: Record<string, string> = { pending: 'waiting to confirm on', subscribed: 'subscribed to', unsubscribed: 'who left', any: 'on' };

/** A filter said in words ("Subscribed, on Newsletter, tagged VIP, matching “ana”"), or "everybody". */
export function filterWords(f: SubscriberFilter, names: FilterNames): string {
  const parts: string[] = [];
  if (f.status) parts.push(statusWords(f.status).toLowerCase());
  if (f.list !== undefined) {
    const list = names.lists.find((l) => l.id === f.list)?.name ?? `list ${f.list}`;
    parts.push(`${STANDING_WORDS[f.listStatus ?? 'any'] ?? 'on'} ${list}`);
  }
  if (f.tag !== undefined) parts.push(`tagged ${names.tags.find((t) => t.id === f.tag)?.label ?? `#${f.tag}`}`);
  if (f.source) parts.push(`joined by ${sourceWords(f.source).toLowerCase()}`);
  if (f.campaignId !== undefined) {
    const c = names.campaigns.find((x) => Number(x.value) === f.campaignId)?.label ?? `campaign ${f.campaignId}`;
    parts.push(f.campaignReceived === 'no' ? `not sent ${c}` : `sent ${c}`);
  }
  if (f.q) parts.push(`matching “${f.q}”`);
  return parts.length ? `everybody ${parts.join(', ')}` : 'everybody';
}

/** The campaigns a site names, from its segment vocabulary (the options of the field that takes a campaign). */
export function campaignsOf(vocabulary: { fields: { operators: { value: string }[]; options: { value: number | string; label: string }[] | null }[] } | null): { value: number; label: string }[] {
  const field = vocabulary?.fields.find((f) => f.operators.some((o) => o.value === 'campaign') && f.options?.length);
  return (field?.options ?? []).map((o) => ({ value: Number(o.value), label: o.label })).filter((o) => Number.isInteger(o.value) && o.value > 0);
}

// ── what may be done now ─────────────────────────────────────────────────────────────────────

/** The words when the site does not answer: nothing is queued. */
export const AWAY_WORDS = 'The site is not answering: nothing can be changed until it answers (changes to the audience are never kept to send later).';

/**
 * Why the audience cannot be changed now, or null when it can: the account (view only, a demo
 * account), or the site away (the table read from the copy).
 */
export function writeBlockedReason(me: Me | null, plugin: Pick<MailerPlugin, 'permissionPrefix'>, away: boolean): string | null {
  if (!me) return 'Sign in to change the audience.';
  const refused = mailerBlockedReason(me, 'manage', plugin.permissionPrefix);
  if (refused) return refused;
  return away ? AWAY_WORDS : null;
}

/** How a person is named on buttons and in titles: their name, else their address. */
export function personLabel(p: Pick<SubscriberRow, 'name' | 'email'>): string {
  return p.name.trim() || p.email;
}

/** A size in bytes, as the export dialogs say it. */
export function sizeWords(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}

/** A day as the person's locale writes it ("12 Mar 2025"), or a dash. */
export function dayWords(iso: string | null): string {
  if (!iso) return '—';
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : new Date(at).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
