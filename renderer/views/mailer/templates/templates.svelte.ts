/**
 * A site's campaign templates (contract/mailer-campaigns.ts; docs/mailer-campaigns.md,
 * "Templates"): the list by name (Sitedesk's copy with its time while the site is away, for
 * reading only), kept in step with what each write answers; and the template form, which sends
 * only what changed. A campaign made from a template copies its subject, preheader, text and layout
 * once: later edits of the template change no campaign.
 */
import { templateFields, type ChannelInput, type MailDraftInfo, type MailerTemplate, type MailFields } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';

export class TemplatesState {
  readonly siteId: string;
  templates = $state.raw<MailerTemplate[] | null>(null);
  copiedAt = $state<string | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const r = await invoke('mailer.templates', { siteId: this.siteId });
      this.templates = r.templates;
      this.copiedAt = r.copiedAt;
      this.error = null;
    } catch (err) {
      this.error = AppError.from(err);
    } finally {
      this.loading = false;
    }
  }

  put(t: MailerTemplate): void {
    const others = (this.templates ?? []).filter((x) => x.id !== t.id);
    this.templates = [...others, t].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || a.id - b.id);
  }

  async remove(t: MailerTemplate): Promise<void> {
    await invoke('mailer.deleteTemplate', { siteId: this.siteId, id: t.id });
    this.templates = (this.templates ?? []).filter((x) => x.id !== t.id);
  }
}

type Changes = ChannelInput<'mailer.updateTemplate'>['changes'];
export type TemplateField = 'name' | 'subject' | 'preheader' | 'bodyMd' | 'layout';

/** A new template's form, or an edit of one. */
export class TemplateForm {
  readonly siteId: string;
  readonly base: MailerTemplate | null;
  name = $state('');
  subject = $state('');
  preheader = $state('');
  bodyMd = $state('');
  layout = $state<'store' | 'plain'>('store');
  isActive = $state(true);
  readonly action = new FormAction<TemplateField>({ fields: ['name', 'subject', 'preheader', 'bodyMd', 'layout'], alertWithFields: true, rateLimit: 'retry', disposeWith: 'owner' });

  /** Changes of this template kept on this computer, not on the site yet (shown over the site's). */
  kept = $state.raw<MailDraftInfo | null>(null);

  constructor(siteId: string, base: MailerTemplate | null) {
    this.siteId = siteId;
    this.base = base;
    if (base) this.#show(templateFields(base));
  }

  #show(f: MailFields): void {
    this.name = f.name ?? '';
    this.subject = f.subject ?? '';
    this.preheader = f.preheader ?? '';
    this.bodyMd = f.bodyMd ?? '';
    this.layout = f.layout ?? 'store';
    this.isActive = f.isActive ?? true;
  }

  /** Changes written earlier while the site was away come back into the form. */
  async loadKept(): Promise<void> {
    if (!this.base) return;
    const r = await invoke('mailDrafts.forRecord', { siteId: this.siteId, kind: 'template', id: this.base.id }).catch(() => null);
    if (!r?.draft) return;
    this.kept = r.draft;
    this.#show(r.draft.mine);
  }

  /** What differs from the template as read (a new one's fields given). */
  changes(): Changes {
    const b = this.base;
    const txt = (s: string) => (s.trim() === '' ? null : s.trim());
    const out: Changes = {};
    if (!b || this.name.trim() !== b.name) out.name = this.name.trim();
    if (!b ? txt(this.subject) !== null : txt(this.subject) !== b.subject) out.subject = txt(this.subject);
    if (!b ? txt(this.preheader) !== null : txt(this.preheader) !== b.preheader) out.preheader = txt(this.preheader);
    const body = this.bodyMd === '' ? null : this.bodyMd;
    if (!b ? body !== null : body !== b.bodyMd) out.bodyMd = body;
    if (!b || this.layout !== b.layout) out.layout = this.layout;
    if (!b ? !this.isActive : this.isActive !== b.isActive) out.isActive = this.isActive;
    return out;
  }

  /**
   * Makes the template (the site must answer), or saves an edit: kept here and sent at once, so
   * an edit made while the site is away goes with its next sync. Answers the template as the site
   * has it, what kept the edit here (with the words), or null when the form says why.
   */
  async submit(): Promise<{ template: MailerTemplate } | { kept: 'queued' | 'conflicted' | 'rejected' | 'signed_out'; message: string } | null> {
    if (this.name.trim() === '') {
      this.action.showFields({ name: 'Give the template a name: it is what you pick it by.' });
      return null;
    }
    const changes = this.changes();
    if (!this.base) {
      const r = await this.action.run(() => invoke('mailer.createTemplate', { ...changes, siteId: this.siteId, name: this.name.trim() }));
      return r ? { template: r.template } : null;
    }
    if (!Object.keys(changes).length && !this.kept) return { template: this.base };
    const base = templateFields(this.base);
    const fields = { ...base, ...changes };
    const r = await this.action.run(() => invoke('mailDrafts.submit', { siteId: this.siteId, kind: 'template', id: this.base!.id, base, fields }));
    if (!r) return null;
    if (r.outcome === 'pushed') return { template: r.template ?? this.base };
    this.kept = r.draft;
    if (r.outcome === 'rejected' && r.problem.fields) {
      // the site names a field under the input's `changes`: the form places it by its last key
      this.action.showFields(r.problem.fields, r.problem.message);
      return null;
    }
    return { kept: r.outcome, message: r.problem.message };
  }

  dispose(): void {
    this.action.dispose();
  }
}
