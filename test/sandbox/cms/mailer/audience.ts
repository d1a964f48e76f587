/**
 * The audience's rules (docs/mailer-audience.md, "Subscribers", "Bulk", "Suppressions and
 * erasure"): adding a person with its four outcomes, the edit rules, unsubscribe, resubscribe and
 * confirm, bulk actions over ids, a filter or pasted addresses, suppressions and erasure. Every
 * refusal is a problem whose detail says what the caller can do, and none names an address.
 */
import { normaliseEmail, normaliseTag } from './presets';
import { emailHash, maskEmail } from './schema';
import type { MailerStore, MemberStatus, RawList, RawMembership, RawSubscriber, Source, SubscriberFilters } from './store';
import { invalid, notFound, refuse, subscriberSummary } from './wire';

export type Outcome = 'added' | 'invited' | 'already_on' | 'already_invited';
export type Mode = 'invite' | 'subscribed';

export interface Actor {
  /** the account acting for the site, kept in the consent history */
  username: string;
}

export const BULK_IDS_MAX = 500;
export const BULK_ADDRESSES_MAX = 1000;
export const BULK_BATCH = 500;

const SUPPRESSED_DETAIL = 'This address is on the suppression list (or bounced or complained), so it is never mailed. Remove the suppression first, as its own decision, if they asked to hear from you again.';
const LEFT_LIST_DETAIL = 'They left this list themselves. Only a resubscribe with a note saying how they asked puts them back.';
const LEFT_ALL_DETAIL = 'They left every list themselves. Only a resubscribe with a note saying how they asked puts them back.';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Audience {
  constructor(
    readonly store: MailerStore,
    private readonly nowSec: () => number,
    private readonly siteName: string,
  ) {}

  private get now(): number {
    return this.nowSec();
  }

  isBlocked(s: RawSubscriber): boolean {
    return s.suppressed === 1 || s.status === 'bounced' || s.status === 'complained';
  }

  /** Someone who left every list by their own hand. */
  leftAllThemselves(s: RawSubscriber): boolean {
    return s.status === 'unsubscribed' && s.left_by === 'self';
  }

  listOrDefault(listId: unknown, field = 'list_id'): RawList {
    if (listId === undefined || listId === null || listId === '') {
      const d = this.store.defaultList();
      if (!d) throw refuse(409, 'no_lists', 'The site has no list yet: make one first.');
      return d;
    }
    return this.listById(listId, field);
  }

  listById(listId: unknown, field = 'list_id'): RawList {
    const id = typeof listId === 'string' && /^\d+$/.test(listId) ? Number(listId) : listId;
    if (typeof id !== 'number' || !Number.isInteger(id)) throw invalid(field, `${field} must be a list id.`, 'unknown_list');
    const l = this.store.list(id);
    if (!l) throw invalid(field, `${field}: there is no list ${id}; GET lists names them.`, 'unknown_list');
    return l;
  }

  /** The mode in effect: as sent, else the list decides (invite where it asks people to confirm); `subscribed` needs the note. */
  modeOf(list: RawList, mode: unknown, note: unknown): { mode: Mode; note: string | null } {
    if (mode !== undefined && mode !== null && mode !== 'invite' && mode !== 'subscribed') throw invalid('mode', 'mode must be invite (they confirm by email) or subscribed (they already agreed, with a note saying where).', 'invalid_mode');
    const m: Mode = (mode as Mode | null | undefined) ?? (list.double_opt_in ? 'invite' : 'subscribed');
    if (note !== undefined && note !== null && typeof note !== 'string') throw invalid('note', 'note must be text.');
    const n = typeof note === 'string' && note.trim() ? note.trim().slice(0, 1000) : null;
    if (m === 'subscribed' && !n) {
      throw invalid('note', mode === undefined || mode === null ? `This list does not ask people to confirm, so they are added as already agreed: send a note saying where they agreed (a form, an email, a conversation), or mode invite.` : 'Adding somebody as subscribed needs a note saying where they agreed (a form, an email, a conversation).', 'note_required');
    }
    return { mode: m, note: n };
  }

  private joinList(s: RawSubscriber, list: RawList, mode: Mode, note: string | null, actor: Actor | null, via: { by: string; action?: string }): Outcome {
    const now = this.now;
    this.store.setMembership({ subscriber_id: s.id, list_id: list.id, status: mode === 'invite' ? 'pending' : 'subscribed', since: now, left_by: null, left_via: null });
    this.store.logConsent({ subscriber_id: s.id, at: now, action: via.action ?? (mode === 'invite' ? 'invited' : 'added'), list_id: list.id, by: via.by, admin: actor?.username ?? null, note });
    if (mode === 'invite') this.store.logMessage(s.id, s.email, 'confirmation', `Please confirm your email address for ${this.siteName}`, now);
    this.store.refreshStatus(s.id, now);
    return mode === 'invite' ? 'invited' : 'added';
  }

  private applyTags(subscriberId: number, codes: string[]): void {
    for (const code of codes) this.store.addTag(subscriberId, this.store.ensureTag(code, null, this.now).tag.id);
  }

  /** Tag codes from a body field: a list of texts, each normalised. */
  tagCodes(value: unknown, field = 'tags'): string[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value) || !value.every((t) => typeof t === 'string')) throw invalid(field, `${field} must be a list of tag codes.`);
    const out = new Set<string>();
    value.forEach((t, i) => {
      const code = normaliseTag(t);
      if (!code) throw invalid(`${field}.${i}`, `${field}.${i} has no letters or digits to make a tag code of.`);
      out.add(code);
    });
    return [...out];
  }

  /** POST /subscribers */
  add(body: Record<string, unknown>, actor: Actor) {
    const email = normaliseEmail(body.email);
    if (!email) throw invalid('email', body.email === undefined || body.email === '' ? 'email is required.' : 'email is not an email address.', 'invalid_email');
    if (body.name !== undefined && body.name !== null && typeof body.name !== 'string') throw invalid('name', 'name must be text.');
    if (body.language !== undefined && body.language !== null && (typeof body.language !== 'string' || body.language.length > 35)) throw invalid('language', 'language must be a language code.');
    const list = this.listOrDefault(body.list_id);
    const { mode, note } = this.modeOf(list, body.mode, body.note);
    const tags = this.tagCodes(body.tags);
    return this.store.tx(() => {
      const hash = emailHash(email);
      const existing = this.store.byEmail(email);
      if (this.store.suppression(hash) || (existing && this.isBlocked(existing))) throw refuse(409, 'suppressed', SUPPRESSED_DETAIL);
      if (existing) {
        if (this.leftAllThemselves(existing)) throw refuse(409, 'left_themselves', LEFT_ALL_DETAIL);
        const m = this.store.membership(existing.id, list.id);
        if (m?.status === 'subscribed') return { status: 200, outcome: 'already_on' as Outcome, subscriber: existing, list, created: false };
        if (m?.status === 'pending') return { status: 200, outcome: 'already_invited' as Outcome, subscriber: existing, list, created: false };
        if (m?.status === 'unsubscribed' && m.left_by === 'self') throw refuse(409, 'left_themselves', LEFT_LIST_DETAIL);
        const outcome = this.joinList(existing, list, mode, note, actor, { by: 'site' });
        this.applyTags(existing.id, tags);
        return { status: 200, outcome, subscriber: existing, list, created: false };
      }
      const now = this.now;
      const id = this.store.insertSubscriber({
        email,
        name: typeof body.name === 'string' ? body.name.trim().slice(0, 190) : '',
        status: mode === 'invite' ? 'pending' : 'subscribed',
        source: 'admin',
        source_ref: null,
        language: typeof body.language === 'string' && body.language.trim() ? body.language.trim() : null,
        import_id: null,
        created_at: now,
        updated_at: now,
        consent_at: mode === 'subscribed' ? now : null,
        consent_ip: null,
        consent_basis: note,
        confirmed_at: null,
        unsubscribed_at: null,
        left_by: null,
        left_via: null,
      });
      const s = this.store.subscriber(id)!;
      const outcome = this.joinList(s, list, mode, note, actor, { by: 'site' });
      this.applyTags(id, tags);
      return { status: 201, outcome, subscriber: s, list, created: true };
    });
  }

  /** The add's answer: a person this call created in full; anybody else by id only (never echo what the caller did not know). */
  addAnswer(r: ReturnType<Audience['add']>) {
    const m = this.store.membership(r.subscriber.id, r.list.id);
    return {
      outcome: r.outcome,
      subscriber_id: r.subscriber.id,
      list_id: r.list.id,
      list_status: m?.status ?? null,
      ...(r.created ? { subscriber: subscriberSummary(this.store, r.subscriber.id) } : {}),
    };
  }

  need(id: number): RawSubscriber {
    const s = this.store.subscriber(id);
    if (!s) throw notFound('subscriber');
    return s;
  }

  /** PATCH /subscribers/{id} */
  patch(id: number, body: Record<string, unknown>, actor: Actor) {
    const s = this.need(id);
    if (body.email !== undefined && normaliseEmail(body.email) !== s.email) {
      throw invalid('email', 'The address cannot change: it is the key every consent record, suppression and send hangs off. Add the new address and delete the old one.', 'address_immutable');
    }
    const patch: Partial<RawSubscriber> = {};
    if (body.name !== undefined) {
      if (typeof body.name !== 'string') throw invalid('name', 'name must be text.');
      patch.name = body.name.trim().slice(0, 190);
    }
    if (body.language !== undefined) {
      if (body.language !== null && (typeof body.language !== 'string' || body.language.length > 35)) throw invalid('language', 'language must be a language code, or null to clear it.');
      patch.language = typeof body.language === 'string' && body.language.trim() ? body.language.trim() : null;
    }
    let wanted: Set<number> | null = null;
    if (body.lists !== undefined) {
      if (!Array.isArray(body.lists)) throw invalid('lists', 'lists must be the list ids they should stay on.');
      wanted = new Set(body.lists.map((l, i) => this.listById(l, `lists.${i}`).id));
    }
    const tags = body.tags === undefined ? null : this.tagCodes(body.tags);
    const keptOff: { list_id: number; reason: 'left_themselves' | 'not_held' }[] = [];
    this.store.tx(() => {
      const now = this.now;
      this.store.updateSubscriber(id, patch, now);
      if (wanted) {
        const held = this.store.memberships(id);
        for (const m of held) {
          if ((m.status === 'pending' || m.status === 'subscribed') && !wanted.has(m.list_id)) {
            this.store.setMembership({ ...m, status: 'unsubscribed', since: m.since, left_by: 'site', left_via: 'site' });
            this.store.logConsent({ subscriber_id: id, at: now, action: 'taken_off', list_id: m.list_id, by: 'site', admin: actor.username, via: 'site' });
          }
        }
        for (const listId of wanted) {
          const m = held.find((x) => x.list_id === listId);
          if (m && m.status !== 'unsubscribed') continue;
          keptOff.push({ list_id: listId, reason: m?.left_by === 'self' ? 'left_themselves' : 'not_held' });
        }
        this.store.refreshStatus(id, now);
      }
      if (tags) {
        const ids = new Set(tags.map((code) => this.store.ensureTag(code, null, now).tag.id));
        for (const t of this.store.tagsOf([id]).get(id) ?? []) if (!ids.has(t.id)) this.store.removeTag(id, t.id);
        for (const t of ids) this.store.addTag(id, t);
      }
      if (wanted || tags) this.store.updateSubscriber(id, { updated_at: now }, now);
    });
    return { ...subscriberSummary(this.store, id)!, kept_off: keptOff };
  }

  /** Off every list they hold, done by the site. */
  unsubscribe(id: number, actor: Actor | null): boolean {
    const s = this.need(id);
    return this.store.tx(() => {
      const now = this.now;
      let changed = false;
      for (const m of this.store.memberships(id)) {
        if (m.status === 'unsubscribed') continue;
        this.store.setMembership({ ...m, status: 'unsubscribed', left_by: 'site', left_via: 'site' });
        this.store.logConsent({ subscriber_id: id, at: now, action: 'taken_off', list_id: m.list_id, by: 'site', admin: actor?.username ?? null, via: 'site' });
        changed = true;
      }
      if (s.status === 'subscribed' || s.status === 'pending') {
        this.store.updateSubscriber(id, { status: 'unsubscribed', unsubscribed_at: now, left_by: 'site', left_via: 'site' }, now);
        changed = true;
      }
      return changed;
    });
  }

  /** Back on a list they left (or every one), with a note saying how they asked. */
  resubscribe(id: number, body: Record<string, unknown>, actor: Actor): boolean {
    const s = this.need(id);
    if (typeof body.note !== 'string' || !body.note.trim()) throw invalid('note', 'Putting somebody back needs a note saying how they asked (the email, call or conversation, and when).', 'note_required');
    const note = body.note.trim().slice(0, 1000);
    const list = body.list_id === undefined || body.list_id === null ? null : this.listById(body.list_id);
    if (this.isBlocked(s)) throw refuse(409, 'suppressed', SUPPRESSED_DETAIL);
    const left = this.store.memberships(id).filter((m) => m.status === 'unsubscribed' && (!list || m.list_id === list.id));
    if (!left.length) {
      throw refuse(409, 'not_left', list ? 'They are not off this list: only a list they left can be put back. To add them to a new list, add them (which asks how they agreed).' : 'They are not off any list they were on. To add them to a new list, add them (which asks how they agreed).');
    }
    this.store.tx(() => {
      const now = this.now;
      for (const m of left) {
        this.store.setMembership({ ...m, status: 'subscribed', since: now, left_by: null, left_via: null });
        this.store.logConsent({ subscriber_id: id, at: now, action: 'put_back', list_id: m.list_id, by: 'site', admin: actor.username, note });
      }
      this.store.refreshStatus(id, now);
    });
    return true;
  }

  /** Confirms somebody waiting, by hand. */
  confirm(id: number, actor: Actor | null): boolean {
    const s = this.need(id);
    if (this.isBlocked(s)) throw refuse(409, 'suppressed', SUPPRESSED_DETAIL);
    if (s.status !== 'pending') throw refuse(409, 'not_pending', 'Only somebody waiting to confirm can be confirmed by hand.');
    this.store.tx(() => {
      const now = this.now;
      for (const m of this.store.memberships(id)) {
        if (m.status !== 'pending') continue;
        this.store.setMembership({ ...m, status: 'subscribed' });
        this.store.logConsent({ subscriber_id: id, at: now, action: 'confirmed_by_site', list_id: m.list_id, by: 'site', admin: actor?.username ?? null });
      }
      this.store.updateSubscriber(id, { confirmed_at: now, consent_at: s.consent_at ?? now }, now);
      this.store.refreshStatus(id, now);
    });
    return true;
  }

  /** DELETE /subscribers/{id}: the person and what hangs off them; a suppression stays. */
  remove(id: number): void {
    const s = this.need(id);
    this.store.tx(() => this.store.removeSubscriber(s, false));
  }

  // ---- bulk

  /** POST /subscribers/bulk */
  bulk(body: Record<string, unknown>, actor: Actor, o: { actions: readonly string[]; parseFilter: (f: unknown) => SubscriberFilters }) {
    const action = body.action;
    if (typeof action !== 'string' || !o.actions.includes(action)) throw invalid('action', `action must be one of ${o.actions.join(', ')}.`, 'unknown_action');
    const given = (['ids', 'filter', 'addresses'] as const).filter((k) => body[k] !== undefined && body[k] !== null);
    if (given.length !== 1) throw refuse(422, 'bulk_target', 'Name who with exactly one of ids, filter or addresses.', { errors: [{ field: 'ids', message: 'exactly one of ids, filter, addresses' }] });
    const target = given[0]!;

    // what the action needs, checked before anybody is touched
    let list: RawList | null = null;
    let mode: { mode: Mode; note: string | null } | null = null;
    let tagId: number | null = null;
    let tagCode: string | null = null;
    if (action === 'add_to_list' || action === 'remove_from_list') {
      if (body.list_id === undefined || body.list_id === null) throw invalid('list_id', `${action} needs list_id.`, 'unknown_list');
      list = this.listById(body.list_id);
    }
    if (action === 'add_to_list') mode = this.modeOf(list!, body.mode, body.note);
    if (action === 'add_tag') {
      if (typeof body.tag !== 'string' || !normaliseTag(body.tag)) throw invalid('tag', 'add_tag needs tag: a tag code or label (made if it is new).', 'unknown_tag');
      tagCode = normaliseTag(body.tag);
    }
    if (action === 'remove_tag') {
      const t = typeof body.tag_id === 'number' ? this.store.tag(body.tag_id) : null;
      if (!t) throw invalid('tag_id', 'remove_tag needs tag_id, the id of a tag the site has.', 'unknown_tag');
      tagId = t.id;
    }
    if (target === 'addresses' && action !== 'add_to_list') throw refuse(422, 'bulk_target', 'addresses are for add_to_list only; name people already here by ids or filter.', { errors: [{ field: 'addresses', message: 'add_to_list only' }] });

    const done: Record<string, number> = {};
    const skipped: Record<string, number> = {};
    const bump = (rec: Record<string, number>, key: string) => (rec[key] = (rec[key] ?? 0) + 1);

    const act = (s: RawSubscriber | null) => {
      if (!s) return bump(skipped, 'gone');
      switch (action) {
        case 'add_to_list': {
          if (this.isBlocked(s)) return bump(skipped, 'suppressed');
          if (this.leftAllThemselves(s)) return bump(skipped, 'left_every_list');
          const m = this.store.membership(s.id, list!.id);
          if (m?.status === 'subscribed') return bump(skipped, 'already_on');
          if (m?.status === 'pending') return bump(skipped, 'already_invited');
          if (m?.status === 'unsubscribed' && m.left_by === 'self') return bump(skipped, 'left_this_list');
          return bump(done, this.joinList(s, list!, mode!.mode, mode!.note, actor, { by: 'site' }));
        }
        case 'remove_from_list': {
          const m = this.store.membership(s.id, list!.id);
          if (!m || m.status === 'unsubscribed') return bump(skipped, 'not_on_list');
          const now = this.now;
          this.store.setMembership({ ...m, status: 'unsubscribed', left_by: 'site', left_via: 'site' });
          this.store.logConsent({ subscriber_id: s.id, at: now, action: 'taken_off', list_id: m.list_id, by: 'site', admin: actor.username, via: 'site' });
          this.store.refreshStatus(s.id, now);
          return bump(done, 'removed');
        }
        case 'add_tag': {
          const id = tagId ?? (tagId = this.store.ensureTag(tagCode!, typeof body.tag === 'string' ? body.tag.trim() : null, this.now).tag.id);
          return this.store.addTag(s.id, id) ? bump(done, 'tagged') : bump(skipped, 'already_tagged');
        }
        case 'remove_tag':
          return this.store.removeTag(s.id, tagId!) ? bump(done, 'untagged') : bump(skipped, 'without_tag');
        case 'unsubscribe':
          if (s.status !== 'subscribed' && s.status !== 'pending' && !this.store.memberships(s.id).some((m) => m.status !== 'unsubscribed')) return bump(skipped, 'already_off');
          this.unsubscribe(s.id, actor);
          return bump(done, 'unsubscribed');
        case 'delete':
          this.store.removeSubscriber(s, false);
          return bump(done, 'deleted');
        case 'confirm':
          if (s.status !== 'pending') return bump(skipped, 'not_pending');
          if (this.isBlocked(s)) return bump(skipped, 'suppressed');
          this.confirm(s.id, actor);
          return bump(done, 'confirmed');
      }
    };

    const answer = (processed: number, extra: { finished: boolean; next: number | null; max_id: number | null; total: number | null; remaining: number }) => ({ action, target, processed, done, skipped, ...extra });

    if (target === 'ids') {
      const list_ = body.ids;
      if (!Array.isArray(list_) || !list_.every((x) => Number.isInteger(x))) throw invalid('ids', 'ids must be a list of subscriber ids.', 'bulk_target');
      if (list_.length > BULK_IDS_MAX) throw invalid('ids', `At most ${BULK_IDS_MAX} ids at a time; for more, name them by filter.`, 'bulk_too_many');
      const unique = [...new Set(list_ as number[])];
      this.store.tx(() => unique.forEach((id) => act(this.store.subscriber(id))));
      return answer(unique.length, { finished: true, next: null, max_id: null, total: unique.length, remaining: 0 });
    }

    if (target === 'addresses') {
      if (typeof body.addresses !== 'string') throw invalid('addresses', 'addresses must be text: one address per line, or separated by commas, each optionally with a name.', 'bulk_target');
      const items = parseAddresses(body.addresses);
      if (items.length > BULK_ADDRESSES_MAX) throw invalid('addresses', `At most ${BULK_ADDRESSES_MAX} addresses at a time.`, 'bulk_too_many');
      this.store.tx(() => {
        for (const item of items) {
          if (!item.email) {
            bump(skipped, 'not_an_address');
            continue;
          }
          // an address pasted twice: the second finds them added by the first (already_on)
          let s = this.store.byEmail(item.email);
          if (!s && this.store.suppression(emailHash(item.email))) {
            bump(skipped, 'suppressed');
            continue;
          }
          if (!s) {
            const now = this.now;
            const id = this.store.insertSubscriber({
              email: item.email,
              name: item.name,
              status: mode!.mode === 'invite' ? 'pending' : 'subscribed',
              source: 'admin',
              source_ref: null,
              language: null,
              import_id: null,
              created_at: now,
              updated_at: now,
              consent_at: mode!.mode === 'subscribed' ? now : null,
              consent_ip: null,
              consent_basis: mode!.note,
              confirmed_at: null,
              unsubscribed_at: null,
              left_by: null,
              left_via: null,
            });
            s = this.store.subscriber(id)!;
          }
          act(s);
        }
      });
      return answer(items.length, { finished: true, next: null, max_id: null, total: items.length, remaining: 0 });
    }

    // a filter, walked by id up to the newest id at the walk's first call
    const filter = o.parseFilter(body.filter);
    const empty = Object.values(filter).every((v) => v === undefined);
    if (empty && (action === 'unsubscribe' || action === 'delete') && body.all !== true) {
      throw refuse(422, 'all_required', `The filter sets nothing, so it names everybody: send all: true to ${action === 'delete' ? 'delete' : 'unsubscribe'} everybody.`, { errors: [{ field: 'all', message: 'true to mean everybody' }] });
    }
    const after = body.after === undefined || body.after === null ? 0 : body.after;
    if (!Number.isInteger(after) || (after as number) < 0) throw invalid('after', "after must be the previous answer's next.");
    const first = body.max_id === undefined || body.max_id === null;
    const maxId = first ? this.store.maxId() : body.max_id;
    if (!Number.isInteger(maxId)) throw invalid('max_id', "max_id must be the first answer's max_id.");
    const total = first ? this.store.count({ ...filter, max_id: maxId as number }) : null;
    const batch = this.store.idsMatching({ ...filter, after: after as number, max_id: maxId as number }, BULK_BATCH);
    this.store.tx(() => batch.forEach((id) => act(this.store.subscriber(id))));
    const last = batch.length ? batch[batch.length - 1]! : (after as number);
    const remaining = this.store.count({ ...filter, after: last, max_id: maxId as number });
    return answer(batch.length, { finished: remaining === 0, next: remaining === 0 ? null : last, max_id: maxId as number, total, remaining });
  }

  // ---- what people and the mail provider do (the sandbox's controls; no API route does these)

  /**
   * A person's own act or a provider report: `signup` (a form, by address), `confirm` (the link in
   * the confirmation email), `leave` (one list, by the link in an email), `leave_all` (every list),
   * `bounce` (a hard bounce), `complaint` (the spam button).
   */
  act(body: Record<string, unknown>): { subscriber_id: number; status: string } {
    const action = body.action;
    const now = this.now;
    if (action === 'signup') {
      const email = normaliseEmail(body.email);
      if (!email) throw invalid('email', 'signup needs email.');
      const list = this.listOrDefault(body.list_id);
      const ip = typeof body.ip === 'string' ? body.ip : '198.51.100.7';
      return this.store.tx(() => {
        let s = this.store.byEmail(email);
        if (!s) {
          const id = this.store.insertSubscriber({ email, name: typeof body.name === 'string' ? body.name : '', status: 'pending', source: 'form', source_ref: typeof body.source_ref === 'string' ? body.source_ref : null, language: null, import_id: null, created_at: now, updated_at: now, consent_at: now, consent_ip: ip, consent_basis: null, confirmed_at: null, unsubscribed_at: null, left_by: null, left_via: null });
          s = this.store.subscriber(id)!;
        }
        const status = list.double_opt_in ? 'pending' : 'subscribed';
        this.store.setMembership({ subscriber_id: s.id, list_id: list.id, status, since: now, left_by: null, left_via: null });
        this.store.logConsent({ subscriber_id: s.id, at: now, action: 'signed_up', list_id: list.id, by: 'self', ip });
        if (status === 'pending') this.store.logMessage(s.id, email, 'confirmation', `Please confirm your email address for ${this.siteName}`, now);
        return { subscriber_id: s.id, status: this.store.refreshStatus(s.id, now) };
      });
    }
    const id = typeof body.subscriber_id === 'number' ? body.subscriber_id : -1;
    const s = this.need(id);
    return this.store.tx(() => {
      const ms = this.store.memberships(id);
      const leave = (m: RawMembership, by: 'self' | 'site', via: string) => {
        if (m.status === 'unsubscribed') return;
        this.store.setMembership({ ...m, status: 'unsubscribed', left_by: by, left_via: via });
        this.store.logConsent({ subscriber_id: id, at: now, action: by === 'self' ? 'left' : 'taken_off', list_id: m.list_id, by, via, ip: by === 'self' ? s.consent_ip : null });
      };
      switch (action) {
        case 'confirm':
          for (const m of ms) {
            if (m.status !== 'pending') continue;
            this.store.setMembership({ ...m, status: 'subscribed' });
            this.store.logConsent({ subscriber_id: id, at: now, action: 'confirmed', list_id: m.list_id, by: 'self', ip: s.consent_ip });
          }
          this.store.updateSubscriber(id, { confirmed_at: now, consent_at: s.consent_at ?? now }, now);
          break;
        case 'leave': {
          const list = this.listById(body.list_id);
          const m = ms.find((x) => x.list_id === list.id);
          if (!m) throw invalid('list_id', 'They are not on this list.');
          leave(m, 'self', typeof body.via === 'string' ? body.via : 'link');
          break;
        }
        case 'leave_all':
          for (const m of ms) leave(m, 'self', typeof body.via === 'string' ? body.via : 'link');
          this.store.refreshStatus(id, now);
          this.store.updateSubscriber(id, { status: 'unsubscribed', unsubscribed_at: now, left_by: 'self', left_via: typeof body.via === 'string' ? body.via : 'link' }, now);
          return { subscriber_id: id, status: 'unsubscribed' };
        case 'bounce':
        case 'complaint': {
          const bounce = action === 'bounce';
          for (const m of ms) leave(m, bounce ? 'site' : 'self', bounce ? 'bounce' : 'complaint');
          this.store.updateSubscriber(id, { status: bounce ? 'bounced' : 'complained', unsubscribed_at: now, left_by: bounce ? 'site' : 'self', left_via: bounce ? 'bounce' : 'complaint' }, now);
          if (!this.store.suppression(s.email_hash)) this.store.prep('INSERT INTO suppressions (hash, reason, note, email_masked, erased, created_at) VALUES (?, ?, NULL, ?, 0, ?)').run(s.email_hash, bounce ? 'hard_bounce' : 'complaint', maskEmail(s.email), now);
          this.store.prep('UPDATE subscribers SET suppressed = 1 WHERE id = ?').run(id);
          this.store.prep('INSERT INTO events (subscriber_id, email_hash, type, at) VALUES (?, ?, ?, ?)').run(id, s.email_hash, action, now);
          return { subscriber_id: id, status: bounce ? 'bounced' : 'complained' };
        }
        default:
          throw invalid('action', 'action must be signup, confirm, leave, leave_all, bounce or complaint.');
      }
      return { subscriber_id: id, status: this.store.refreshStatus(id, now) };
    });
  }

  // ---- suppressions and erasure

  /** POST /erase: forgets one address everywhere but a suppression's hash. */
  erase(email: string): { erased: boolean; counts: Record<string, number> } {
    const hash = emailHash(email);
    const counts = { subscribers: 0, memberships: 0, tags: 0, sends: 0, clicks: 0, suppressions: 0, enrolments: 0, consent: 0, events: 0, messages: 0 };
    this.store.tx(() => {
      const s = this.store.byEmail(email);
      if (s) Object.assign(counts, this.store.removeSubscriber(s, true));
      else {
        counts.events = this.store.prep('DELETE FROM events WHERE email_hash = ?').run(hash).changes;
        counts.messages = this.store.prep('DELETE FROM messages WHERE email = ?').run(email).changes;
      }
      this.store.prep('DELETE FROM import_seen WHERE email = ?').run(email);
      // a suppression stays, its masked hint gone: only the hash is left (counted once, when stripped)
      const sup = this.store.suppression(hash);
      if (sup && !sup.erased) {
        this.store.prep('UPDATE suppressions SET email_masked = NULL, erased = 1 WHERE hash = ?').run(hash);
        counts.suppressions = 1;
      }
    });
    // the write-ahead log still holds the old pages: fold it in and truncate it
    this.store.db.pragma('wal_checkpoint(TRUNCATE)');
    const erased = Object.values(counts).some((n) => n > 0);
    return { erased, counts };
  }
}

/** Pasted addresses: one per line or comma-separated; each `address`, `Name <address>` or `address Name`. */
export function parseAddresses(text: string): { email: string | null; name: string }[] {
  const out: { email: string | null; name: string }[] = [];
  for (const raw of text.split(/[\n,]/)) {
    const item = raw.trim();
    if (!item) continue;
    const angled = /^(.*)<([^>]+)>\s*$/.exec(item);
    if (angled) {
      out.push({ email: normaliseEmail(angled[2]), name: angled[1]!.trim().replace(/^"|"$/g, '') });
      continue;
    }
    const parts = item.split(/\s+/);
    const at = parts.findIndex((p) => p.includes('@'));
    if (at < 0) {
      out.push({ email: null, name: '' });
      continue;
    }
    out.push({ email: normaliseEmail(parts[at]), name: parts.filter((_, i) => i !== at).join(' ') });
  }
  return out;
}

export type { MemberStatus, RawMembership, Source };
export { isObj };
