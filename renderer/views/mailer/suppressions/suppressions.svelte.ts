/**
 * A site's suppressions (docs/mailer-audience.md, "Suppressions and erasure"): the addresses
 * never mailed, by reason, a page at a time as the site pages them, newest first. Each row is
 * the site's masked hint (`a***@example.com`), never the address; a row is found again by its
 * hash, the SHA-256 of the lower-cased address, which the app computes itself
 * (`suppressionHash`) when a person removes one by the address they type. What an erasure forgot
 * is said in words here too.
 */
import { suppressionHash } from '../../../../electron/common/email-hash';
import { SUPPRESSION_REASON_WORDS, type EraseCounts, type EraseOutcome, type Suppression, type SuppressionReason } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';

export const PER_PAGE = 50;

export class SuppressionsState {
  readonly siteId: string;
  reason = $state<SuppressionReason | ''>('');
  page = $state(1);
  items = $state.raw<Suppression[] | null>(null);
  total = $state<number | null>(null);
  next = $state<number | null>(null);
  loading = $state(false);
  error = $state.raw<AppError | null>(null);
  #seq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get pages(): number | null {
    return this.total === null ? null : Math.max(1, Math.ceil(this.total / PER_PAGE));
  }

  /** Reads a page (the last asked wins: a slow answer for another page or reason is dropped). */
  async load(page = this.page): Promise<void> {
    const seq = ++this.#seq;
    this.loading = true;
    try {
      const r = await invoke('mailer.suppressions', { siteId: this.siteId, page, perPage: PER_PAGE, ...(this.reason ? { reason: this.reason } : {}) });
      if (seq !== this.#seq) return;
      this.items = r.items;
      this.total = r.total;
      this.next = r.next;
      this.page = r.page;
      this.error = null;
    } catch (err) {
      if (seq === this.#seq) this.error = AppError.from(err);
    } finally {
      if (seq === this.#seq) this.loading = false;
    }
  }

  setReason(reason: SuppressionReason | ''): void {
    if (reason === this.reason) return;
    this.reason = reason;
    this.items = null;
    void this.load(1);
  }

  /** Suppresses an address by hand or as not working; the answer carries the masked hint, never the address. */
  async suppress(email: string, reason: 'manual' | 'invalid', note: string): Promise<{ suppression: Suppression; created: boolean }> {
    const r = await invoke('mailer.suppress', { siteId: this.siteId, email, reason, ...(note.trim() ? { note: note.trim() } : {}) });
    void this.load(1);
    return r;
  }

  /** Removes a suppression by its hash (a row's, or one computed from a typed address). */
  async unsuppress(hash: string): Promise<boolean> {
    const r = await invoke('mailer.unsuppress', { siteId: this.siteId, hash });
    this.items = (this.items ?? []).filter((s) => s.hash !== r.hash);
    if (r.removed && this.total !== null) this.total = Math.max(0, this.total - 1);
    return r.removed;
  }

  /** Forgets an address everywhere on the site and on this computer; the list is read again (an erased suppression keeps only its hash). */
  async erase(email: string): Promise<EraseOutcome> {
    const r = await invoke('mailer.erase', { siteId: this.siteId, email });
    void this.load();
    return r;
  }

  /** Removes the suppression of an address typed here: only its hash goes to the site. */
  unsuppressAddress(email: string): Promise<boolean> {
    return this.unsuppress(suppressionHash(email));
  }
}

export const reasonWords = (reason: string): string => (SUPPRESSION_REASON_WORDS as Record<string, string>)[reason] ?? reason.replaceAll('_', ' ');

const ERASED: { key: keyof EraseCounts; one: string; many: string }[] = [
  { key: 'subscribers', one: 'person', many: 'people' },
  { key: 'memberships', one: 'list membership', many: 'list memberships' },
  { key: 'tags', one: 'tag on them', many: 'tags on them' },
  { key: 'consent', one: 'consent record', many: 'consent records' },
  { key: 'sends', one: 'campaign send', many: 'campaign sends' },
  { key: 'clicks', one: 'click', many: 'clicks' },
  { key: 'enrolments', one: 'place in an automation', many: 'places in automations' },
  { key: 'events', one: 'mail provider report', many: 'mail provider reports' },
  { key: 'messages', one: 'message in the log', many: 'messages in the log' },
  { key: 'suppressions', one: 'suppression stripped to its fingerprint', many: 'suppressions stripped to their fingerprints' },
];

/** What an erasure forgot, in words, the non-zero counts only ("1 person", "2 list memberships"). */
export function erasedLines(counts: EraseCounts): { key: keyof EraseCounts; words: string }[] {
  return ERASED.filter((e) => (counts[e.key] ?? 0) > 0).map((e) => ({ key: e.key, words: `${counts[e.key].toLocaleString('en')} ${counts[e.key] === 1 ? e.one : e.many}` }));
}
