/**
 * One site's Webhooks area: the hooks (the copy with its time while the site is away), the one
 * chosen, its deliveries read page by page and shown newest first, failed first or failed only, a
 * test sent and its delivery (a receiver's failure too), on and off, delete. The create and edit
 * dialog's form is a `WebhookForm`: the address, the event picker (every event, or a choice), a
 * secret; a create's full secret held for the dialog only; an edit's conflict with the site's hook
 * and what changed there, applied again on top of it or the site's taken.
 */
import {
  UPGRADE_EVENTS,
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookTest,
} from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { FormAction } from '../../lib/form-action.svelte';

/** What each event means, in words (the core upgrade under either name). */
export const EVENT_WORDS: Record<WebhookEvent, string> = {
  'page.created': 'A page is created',
  'page.updated': 'A page is saved',
  'page.deleted': 'A page is deleted',
  'page.moved': 'A page is moved',
  'page.translated': 'A page is translated',
  'pages.reordered': 'Pages are reordered',
  'media.uploaded': 'A file is uploaded to a page',
  'media.deleted': 'A file is deleted from a page',
  'user.created': 'An account is created',
  'user.updated': 'An account is changed',
  'user.deleted': 'An account is deleted',
  'config.updated': 'Settings are changed',
  'gpm.installed': 'A package is installed',
  'gpm.removed': 'A package is removed',
  'cms.upgraded': 'The CMS core is upgraded',
  'grav.upgraded': 'The CMS core is upgraded',
};

/** The picker's groups; the core upgrade is one choice, sent under the name the hook has (else the document's). */
export const EVENT_GROUPS: { label: string; events: WebhookEvent[] }[] = [
  { label: 'Pages', events: ['page.created', 'page.updated', 'page.deleted', 'page.moved', 'page.translated', 'pages.reordered'] },
  { label: 'Page media', events: ['media.uploaded', 'media.deleted'] },
  { label: 'Accounts', events: ['user.created', 'user.updated', 'user.deleted'] },
  { label: 'Site', events: ['config.updated', 'gpm.installed', 'gpm.removed', 'cms.upgraded'] },
];

const isUpgrade = (e: string) => UPGRADE_EVENTS.includes(e as WebhookEvent);

/** An event in words; a name Sitedesk does not know as the site wrote it; a test delivery's as such. */
export function eventWords(e: string): string {
  if (e === '*') return 'Every event';
  if (e === 'test' || e === 'webhook.test') return 'Test';
  return (EVENT_WORDS as Record<string, string>)[e] ?? e;
}

/** A hook's events said short: "Every event", one event's words, or "3 events". */
export function eventsSummary(events: readonly string[]): string {
  if (events.includes('*')) return 'Every event';
  if (events.length === 1) return eventWords(events[0]!);
  return `${events.length} events`;
}

export type DeliveryOrder = 'newest' | 'failed-first' | 'failed-only';

/** The deliveries as the person asked to see them: the site's order (newest first), failed ones first, or only those. */
export function orderDeliveries(items: readonly WebhookDelivery[], order: DeliveryOrder): WebhookDelivery[] {
  if (order === 'failed-only') return items.filter((d) => !d.success);
  if (order === 'failed-first') return [...items.filter((d) => !d.success), ...items.filter((d) => d.success)];
  return [...items];
}

/** What the receiver did with a delivery: its HTTP status, or that it gave none (and why, when the site says). */
export function receiverAnswer(d: WebhookDelivery): string {
  if (d.statusCode && d.statusCode > 0) return `the receiver answered HTTP ${d.statusCode}`;
  return `the receiver gave no answer${d.error ? ` (${d.error.replace(/\.$/, '')})` : ''}`;
}

/** A delivery's outcome in words: the receiver's status, or why there was none. */
export function deliveryOutcome(d: WebhookDelivery): string {
  if (d.statusCode && d.statusCode > 0) return `${d.success ? 'Delivered' : 'Refused'}: the receiver answered HTTP ${d.statusCode}`;
  if (d.success) return 'Delivered';
  return `Not delivered: ${d.error ?? 'the receiver gave no answer'}`;
}

export interface FieldChange {
  field: 'address' | 'events' | 'on or off' | 'secret';
  before: string;
  after: string;
}

/** What changed from one reading of a hook to another, in words (an edit's conflict says it). */
export function hookChanges(before: Webhook, after: Webhook): FieldChange[] {
  const out: FieldChange[] = [];
  if (before.url !== after.url) out.push({ field: 'address', before: before.url, after: after.url });
  const a = [...before.events].sort().join(',');
  const b = [...after.events].sort().join(',');
  if (a !== b) out.push({ field: 'events', before: before.events.map(eventWords).join(', '), after: after.events.map(eventWords).join(', ') });
  if (before.enabled !== after.enabled) out.push({ field: 'on or off', before: before.enabled ? 'On' : 'Off', after: after.enabled ? 'On' : 'Off' });
  if ((before.secret ?? '') !== (after.secret ?? '')) out.push({ field: 'secret', before: before.secret ?? '—', after: after.secret ?? '—' });
  return out;
}

/** An edit said in words ("address: https://…", "events: A page is saved", "a new secret"). */
export function describeChanges(c: WebhookChangesInput): string[] {
  const out: string[] = [];
  if (c.url !== undefined) out.push(`address: ${c.url}`);
  if (c.events !== undefined) out.push(`events: ${c.events.map(eventWords).join(', ')}`);
  if (c.enabled !== undefined) out.push(c.enabled ? 'turned on' : 'turned off');
  if (c.secret !== undefined) out.push('a new secret');
  return out;
}

const sameEvents = (a: readonly string[], b: readonly string[]) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

export type FormField = 'url' | 'events' | 'secret' | 'enabled';

/** An edit: only the fields the person changed. */
export interface WebhookChangesInput {
  url?: string;
  events?: ('*' | WebhookEvent)[];
  secret?: string;
  enabled?: boolean;
}

/** The create and edit dialog's form. */
export class WebhookForm {
  readonly mode: 'create' | 'edit';
  readonly siteId: string;
  url = $state('');
  every = $state(true);
  /** The chosen events (the core upgrade as `cms.upgraded` unless the hook has the other name). */
  chosen = $state<WebhookEvent[]>([]);
  secret = $state('');
  enabled = $state(true);
  /** The hook as read when the edit opened (or re-read after a conflict). */
  base = $state.raw<Webhook | null>(null);
  etag = $state<string | null>(null);
  loading = $state(false);
  loadError = $state<string | null>(null);
  /** The hook changed on the site since it was read: the site's, its ETag, and what changed. */
  conflict = $state.raw<{ theirs: Webhook; etag: string | null; changed: FieldChange[]; mine: WebhookChangesInput } | null>(null);
  /** A create's answer: its full secret, shown in this dialog once. */
  created = $state.raw<WebhookCreated | null>(null);
  /** A saved edit's note (the site kept its own secret). */
  note = $state<string | null>(null);
  readonly action = new FormAction<FormField>({ fields: { url: 'url', events: 'events', secret: 'secret', enabled: 'enabled' }, disposeWith: 'owner' });
  #upgradeName: WebhookEvent = 'cms.upgraded';

  constructor(siteId: string, mode: 'create' | 'edit') {
    this.siteId = siteId;
    this.mode = mode;
    if (mode === 'create') this.chosen = ['page.created', 'page.updated', 'page.deleted'];
  }

  /** The events to send: `['*']`, or the chosen ones in the picker's order. */
  get events(): ('*' | WebhookEvent)[] {
    if (this.every) return ['*'];
    const order = EVENT_GROUPS.flatMap((g) => g.events);
    return order.filter((e) => this.chosen.includes(e)).map((e) => (isUpgrade(e) ? this.#upgradeName : e));
  }

  has(e: WebhookEvent): boolean {
    return this.chosen.includes(e);
  }

  toggle(e: WebhookEvent, on: boolean): void {
    this.chosen = on ? [...new Set([...this.chosen, e])] : this.chosen.filter((x) => x !== e);
    this.action.clearField('events');
  }

  #fill(hook: Webhook): void {
    this.url = hook.url;
    this.every = hook.events.includes('*');
    const upgrade = hook.events.find(isUpgrade) as WebhookEvent | undefined;
    if (upgrade) this.#upgradeName = upgrade;
    this.chosen = hook.events.includes('*') ? [] : hook.events.filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e)).map((e) => (isUpgrade(e) ? 'cms.upgraded' : e));
    this.enabled = hook.enabled;
    this.secret = '';
  }

  /** Reads the hook and its ETag for an edit. */
  async open(id: string): Promise<void> {
    this.loading = true;
    this.loadError = null;
    try {
      const r = await invoke('webhooks.get', { siteId: this.siteId, id });
      this.base = r.hook;
      this.etag = r.etag;
      this.#fill(r.hook);
    } catch (err) {
      this.loadError = AppError.from(err).message;
    } finally {
      this.loading = false;
    }
  }

  /** What the edit changes from the hook as read (only those go: a field the site changed meanwhile and the person did not is left as the site has it). */
  get changes(): WebhookChangesInput {
    const base = this.base;
    const out: WebhookChangesInput = {};
    const url = this.url.trim();
    if (!base || url !== base.url) out.url = url;
    if (!base || !sameEvents(this.events, base.events)) out.events = this.events;
    if (this.secret.trim() !== '') out.secret = this.secret.trim();
    if (!base || this.enabled !== base.enabled) out.enabled = this.enabled;
    return out;
  }

  /**
   * Sends the form: a create answers the hook (its secret is then in `created`); an edit answers the
   * saved hook, or null with `conflict` set (or an error shown by the form's action).
   */
  async submit(): Promise<Webhook | null> {
    this.note = null;
    if (!this.every && this.chosen.length === 0) {
      this.action.setField('events', 'Choose at least one event, or every event.');
      return null;
    }
    if (this.mode === 'create') {
      const secret = this.secret.trim();
      const input = { siteId: this.siteId, url: this.url.trim(), events: this.events, enabled: this.enabled, ...(secret ? { secret } : {}) };
      const made = await this.action.run(() => invoke('webhooks.create', input));
      if (!made) return null;
      this.created = made;
      this.secret = '';
      return made.hook;
    }
    const changes = this.changes;
    if (Object.keys(changes).length === 0) {
      this.action.error = 'Nothing was changed.';
      return null;
    }
    return this.#update(changes);
  }

  /** Sends an edit (what the person changed from the hook as they read it) on top of `base` with its ETag. */
  async #update(changes: WebhookChangesInput): Promise<Webhook | null> {
    const base = this.base;
    if (!base) return null;
    const r = await this.action.run(() => invoke('webhooks.update', { siteId: this.siteId, id: base.id, etag: this.etag, changes }));
    if (!r) return null;
    if (r.outcome === 'conflict') {
      this.conflict = { theirs: r.theirs, etag: r.etag, changed: hookChanges(base, r.theirs), mine: changes };
      return null;
    }
    this.base = r.hook;
    this.etag = r.etag;
    this.secret = '';
    if (r.secretIgnored) this.note = 'The site kept its own secret: it does not let a secret be changed. To sign with a new one, delete the webhook and make it again.';
    return r.hook;
  }

  /** After a conflict: the person's edit (only what they changed) on top of the site's hook as it is now. */
  async applyAgain(): Promise<Webhook | null> {
    const c = this.conflict;
    if (!c) return null;
    this.base = c.theirs;
    this.etag = c.etag;
    this.conflict = null;
    return this.#update(c.mine);
  }

  /** After a conflict: the site's hook in the form, the person's edit dropped. */
  takeTheirs(): void {
    const c = this.conflict;
    if (!c) return;
    this.base = c.theirs;
    this.etag = c.etag;
    this.conflict = null;
    this.#fill(c.theirs);
    this.action.reset();
  }

  /** Forgets the secret shown once (the dialog closed). */
  forgetSecret(): void {
    this.created = null;
    this.secret = '';
  }

  dispose(): void {
    this.action.dispose();
    this.forgetSecret();
  }
}

const DELIVERIES_PAGE = 50;

export class WebhooksState {
  readonly siteId: string;
  hooks = $state.raw<Webhook[] | null>(null);
  copiedAt = $state<string | null>(null);
  loading = $state(false);
  error = $state<AppError | null>(null);
  selectedId = $state<string | null>(null);

  /** The chosen hook's deliveries as read so far (the site's order: newest first). */
  deliveries = $state.raw<WebhookDelivery[]>([]);
  deliveriesOf = $state<string | null>(null);
  deliveriesTotal = $state<number | null>(null);
  deliveriesNext = $state<number | null>(null);
  deliveriesLoading = $state(false);
  deliveriesError = $state<AppError | null>(null);
  order = $state<DeliveryOrder>('failed-first');
  #deliveriesSeq = 0;

  /** The last test of a hook, kept while the area is open. */
  tests = $state<Record<string, WebhookTest>>({});
  /** The hook whose test, switch or deletion is under way. */
  busy = $state<{ id: string; what: 'test' | 'toggle' | 'delete' } | null>(null);

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get selected(): Webhook | null {
    return this.hooks?.find((h) => h.id === this.selectedId) ?? null;
  }

  get shownDeliveries(): WebhookDelivery[] {
    return orderDeliveries(this.deliveries, this.order);
  }

  get failedLoaded(): number {
    return this.deliveries.filter((d) => !d.success).length;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const r = await invoke('webhooks.list', { siteId: this.siteId });
      this.hooks = r.hooks;
      this.copiedAt = r.copiedAt;
      this.error = null;
      if (!r.hooks.some((h) => h.id === this.selectedId)) this.selectedId = r.hooks[0]?.id ?? null;
      if (this.selectedId && (this.deliveriesOf !== this.selectedId || !r.copiedAt)) await this.readDeliveries();
    } catch (err) {
      this.error = AppError.from(err);
    } finally {
      this.loading = false;
    }
  }

  async select(id: string): Promise<void> {
    if (id === this.selectedId && this.deliveriesOf === id) return;
    this.selectedId = id;
    await this.readDeliveries();
  }

  /** The chosen hook's deliveries from the first page. */
  async readDeliveries(): Promise<void> {
    this.deliveries = [];
    this.deliveriesOf = this.selectedId;
    this.deliveriesTotal = null;
    this.deliveriesNext = this.selectedId ? 1 : null;
    this.deliveriesError = null;
    await this.moreDeliveries();
  }

  async moreDeliveries(): Promise<void> {
    const id = this.deliveriesOf;
    const page = this.deliveriesNext;
    if (!id || page === null) return;
    const mine = ++this.#deliveriesSeq;
    this.deliveriesLoading = true;
    try {
      const r = await invoke('webhooks.deliveries', { siteId: this.siteId, id, page, perPage: DELIVERIES_PAGE });
      if (mine !== this.#deliveriesSeq) return;
      const known = new Set(this.deliveries.map((d) => d.id));
      this.deliveries = [...this.deliveries, ...r.items.filter((d) => !known.has(d.id))];
      this.deliveriesTotal = r.total;
      this.deliveriesNext = r.next;
      this.deliveriesError = null;
    } catch (err) {
      if (mine === this.#deliveriesSeq) this.deliveriesError = AppError.from(err);
    } finally {
      if (mine === this.#deliveriesSeq) this.deliveriesLoading = false;
    }
  }

  /** A hook the site confirmed (made, saved, read after a test): the list shows it as the site has it. */
  put(hook: Webhook): void {
    const list = this.hooks ?? [];
    this.hooks = list.some((h) => h.id === hook.id) ? list.map((h) => (h.id === hook.id ? hook : h)) : [...list, hook];
  }

  /** A hook just made: listed and chosen (it has no deliveries yet). */
  async added(hook: Webhook): Promise<void> {
    this.put(hook);
    this.selectedId = hook.id;
    await this.readDeliveries();
  }

  /** Turns a hook on or off (no ETag: a switch sets what it shows). Throws the refusal. */
  async toggle(hook: Webhook): Promise<Webhook> {
    this.busy = { id: hook.id, what: 'toggle' };
    try {
      const r = await invoke('webhooks.update', { siteId: this.siteId, id: hook.id, etag: null, changes: { enabled: !hook.enabled } });
      if (r.outcome !== 'saved') throw new AppError({ code: 'conflict', message: 'The site did not take the change.' });
      this.put(r.hook);
      return r.hook;
    } finally {
      this.busy = null;
    }
  }

  /** Has the site send a test now; its delivery joins the list. Throws the refusal. */
  async test(hook: Webhook): Promise<WebhookTest> {
    this.busy = { id: hook.id, what: 'test' };
    try {
      const r = await invoke('webhooks.test', { siteId: this.siteId, id: hook.id });
      this.tests = { ...this.tests, [hook.id]: r };
      if (r.hook) this.put(r.hook);
      if (this.deliveriesOf === hook.id && !this.deliveries.some((d) => d.id === r.delivery.id)) {
        this.deliveries = [r.delivery, ...this.deliveries];
        if (this.deliveriesTotal !== null) this.deliveriesTotal++;
      }
      return r;
    } finally {
      this.busy = null;
    }
  }

  /** Deletes a hook (its delivery history goes with it on the site). Throws the refusal. */
  async remove(hook: Webhook): Promise<void> {
    this.busy = { id: hook.id, what: 'delete' };
    try {
      await invoke('webhooks.delete', { siteId: this.siteId, id: hook.id });
      const list = (this.hooks ?? []).filter((h) => h.id !== hook.id);
      this.hooks = list;
      const { [hook.id]: _gone, ...rest } = this.tests;
      this.tests = rest;
      if (this.selectedId === hook.id) {
        this.selectedId = list[0]?.id ?? null;
        await this.readDeliveries();
      }
    } finally {
      this.busy = null;
    }
  }
}
