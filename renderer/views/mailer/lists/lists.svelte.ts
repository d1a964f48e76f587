/**
 * A site's mailing lists and tags (docs/mailer-audience.md, "Lists and tags"), read as the Host
 * answers them (the site's, or Sitedesk's copy with its time while the site is away), and kept in
 * step with what each write answers. The list dialog's form is a `ListForm`: a new list's code
 * (never changed afterwards), its name, description, double opt-in, public, default, position and
 * From; an edit sends only what changed. Lists are never deleted (the site refuses it); tags are,
 * from everybody.
 */
import type { ChannelInput, MailerList, MailerTag } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';

/** Lists in the site's order: by position, then by id. */
export const byPosition = (a: MailerList, b: MailerList): number => a.position - b.position || a.id - b.id;

export class MailerListsState {
  readonly siteId: string;
  lists = $state.raw<MailerList[] | null>(null);
  tags = $state.raw<MailerTag[] | null>(null);
  /** Sitedesk's copy's time when the site did not answer; null for the site's own answer. */
  listsCopiedAt = $state<string | null>(null);
  tagsCopiedAt = $state<string | null>(null);
  listsError = $state.raw<AppError | null>(null);
  tagsError = $state.raw<AppError | null>(null);
  loading = $state(false);

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  /** Either was read from the copy (the site is away). */
  get fromCopy(): boolean {
    return this.listsCopiedAt !== null || this.tagsCopiedAt !== null;
  }

  /** The default list (where an add naming none goes). */
  get defaultList(): MailerList | null {
    return this.lists?.find((l) => l.isDefault) ?? null;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      await Promise.all([this.loadLists(), this.loadTags()]);
    } finally {
      this.loading = false;
    }
  }

  async loadLists(): Promise<void> {
    try {
      const r = await invoke('mailer.lists', { siteId: this.siteId });
      this.lists = [...r.lists].sort(byPosition);
      this.listsCopiedAt = r.copiedAt;
      this.listsError = null;
    } catch (err) {
      this.listsError = AppError.from(err);
    }
  }

  async loadTags(): Promise<void> {
    try {
      const r = await invoke('mailer.tags', { siteId: this.siteId });
      this.tags = [...r.tags].sort((a, b) => a.code.localeCompare(b.code));
      this.tagsCopiedAt = r.copiedAt;
      this.tagsError = null;
    } catch (err) {
      this.tagsError = AppError.from(err);
    }
  }

  /** A list as the site has it now (made or changed); a new default clears the others, as on the site. */
  putList(list: MailerList): void {
    const others = (this.lists ?? []).filter((l) => l.id !== list.id).map((l) => (list.isDefault && l.isDefault ? { ...l, isDefault: false } : l));
    this.lists = [...others, list].sort(byPosition);
  }

  putTag(tag: MailerTag): void {
    this.tags = [...(this.tags ?? []).filter((t) => t.id !== tag.id), tag].sort((a, b) => a.code.localeCompare(b.code));
  }

  /**
   * Makes a tag from what was typed, or answers the one there (the site normalises codes:
   * "Early Access" and "early_access" are one tag).
   */
  async createTag(label: string): Promise<{ tag: MailerTag; created: boolean }> {
    const r = await invoke('mailer.createTag', { siteId: this.siteId, label });
    this.putTag(r.tag);
    return r;
  }

  /** Deletes a tag from everybody; answers how many carried it. */
  async deleteTag(tag: MailerTag): Promise<number> {
    const r = await invoke('mailer.deleteTag', { siteId: this.siteId, id: tag.id });
    this.tags = (this.tags ?? []).filter((t) => t.id !== tag.id);
    return r.removedFrom;
  }
}

/** An edit's changes (a new list's fields but its code and name). */
export type ListChanges = ChannelInput<'mailer.updateList'>['changes'];

export type ListField = 'code' | 'name' | 'description' | 'doubleOptIn' | 'public' | 'isDefault' | 'position' | 'fromName' | 'fromEmail';

/** The new list's and the edit's form. */
export class ListForm {
  readonly siteId: string;
  /** The list being edited; null for a new one. */
  readonly base: MailerList | null;
  code = $state('');
  name = $state('');
  description = $state('');
  doubleOptIn = $state(true);
  public = $state(false);
  isDefault = $state(false);
  /** As typed: empty for "last" on a new list. */
  position = $state('');
  fromName = $state('');
  fromEmail = $state('');
  readonly action = new FormAction<ListField>({
    fields: ['code', 'name', 'description', 'doubleOptIn', 'public', 'isDefault', 'position', 'fromName', 'fromEmail'],
    alertWithFields: true,
    rateLimit: 'retry',
    disposeWith: 'owner',
  });

  constructor(siteId: string, base: MailerList | null) {
    this.siteId = siteId;
    this.base = base;
    if (base) {
      this.code = base.code;
      this.name = base.name;
      this.description = base.description ?? '';
      this.doubleOptIn = base.doubleOptIn;
      this.public = base.public;
      this.isDefault = base.isDefault;
      this.position = String(base.position);
      this.fromName = base.fromName ?? '';
      this.fromEmail = base.fromEmail ?? '';
    }
  }

  /** The position typed, as a whole number; undefined when empty, NaN when it is not one. */
  #position(): number | undefined {
    const t = this.position.trim();
    if (t === '') return undefined;
    return /^-?\d+$/.test(t) ? Number(t) : Number.NaN;
  }

  /** An edit's changes (only what differs from the list as read); a new list's fields. */
  changes(): ListChanges {
    const b = this.base;
    const out: ListChanges = {};
    const text = (s: string) => s.trim();
    const nullable = (s: string) => (s.trim() === '' ? null : s.trim());
    if (!b || text(this.name) !== b.name) out.name = text(this.name);
    if (!b ? this.description.trim() !== '' : nullable(this.description) !== b.description) out.description = nullable(this.description);
    if (!b || this.doubleOptIn !== b.doubleOptIn) out.doubleOptIn = this.doubleOptIn;
    if (!b || this.public !== b.public) out.public = this.public;
    if (!b ? this.isDefault : this.isDefault !== b.isDefault) out.isDefault = this.isDefault;
    const pos = this.#position();
    if (pos !== undefined && (!b || pos !== b.position)) out.position = pos;
    if (!b ? this.fromName.trim() !== '' : nullable(this.fromName) !== b.fromName) out.fromName = nullable(this.fromName);
    if (!b ? this.fromEmail.trim() !== '' : nullable(this.fromEmail) !== b.fromEmail) out.fromEmail = nullable(this.fromEmail);
    return out;
  }

  /** Sends the form; answers the list as the site has it now, or null (the form says why). */
  async submit(): Promise<MailerList | null> {
    if (Number.isNaN(this.#position())) {
      this.action.showFields({ position: 'A whole number: lists are shown by it, lowest first.' });
      return null;
    }
    if (!this.base && this.code.trim() === '') {
      this.action.showFields({ code: 'Give the list a code: forms, imports and campaigns name it by that.' });
      return null;
    }
    const changes = this.changes();
    const refused = (err: AppError) => {
      // the site's refusals that are about one field go under it, in its words
      if (err.reason === 'list_code_taken') this.action.showFields({ code: err.message });
      else if (err.reason === 'default_list_required') this.action.showFields({ isDefault: err.message });
      else return false;
      return true;
    };
    if (!this.base) {
      const r = await this.action.run(() => invoke('mailer.createList', { ...changes, siteId: this.siteId, code: this.code.trim(), name: this.name.trim() }), refused);
      return r?.list ?? null;
    }
    if (Object.keys(changes).length === 0) return this.base;
    const id = this.base.id;
    const r = await this.action.run(() => invoke('mailer.updateList', { siteId: this.siteId, id, changes }), refused);
    return r?.list ?? null;
  }

  dispose(): void {
    this.action.dispose();
  }
}
