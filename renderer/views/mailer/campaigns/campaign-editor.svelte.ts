/**
 * A campaign's text and settings as the person edits them: each field as typed, what differs from
 * the campaign as the site last answered (`changes`: only that is sent), the site's own preview of
 * the unsaved text (asked a moment after typing stops; an older answer never replaces a newer
 * one), and the save. Editing is the site's rule: a draft or a scheduled campaign (`edit` among
 * its next moves); otherwise the editor is read-only and says why.
 */
import type { CampaignChangesInput, CampaignPreview, MailerCampaign } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';

export type EditorField = 'name' | 'subject' | 'preheader' | 'bodyMd' | 'layout' | 'fromName' | 'fromEmail' | 'replyTo' | 'subjectB' | 'abSamplePercent' | 'abWindowMinutes';

const PREVIEW_AFTER_MS = 400;

/** A whole number typed, undefined when empty, NaN when not one. */
const wholeOf = (s: string): number | undefined => (s.trim() === '' ? undefined : /^\d+$/.test(s.trim()) ? Number(s.trim()) : Number.NaN);

export class CampaignEditor {
  readonly siteId: string;
  base = $state.raw<MailerCampaign>(null as unknown as MailerCampaign);
  name = $state('');
  subject = $state('');
  preheader = $state('');
  bodyMd = $state('');
  layout = $state<'store' | 'plain'>('store');
  fromName = $state('');
  fromEmail = $state('');
  replyTo = $state('');
  trackOpens = $state(true);
  trackClicks = $state(true);
  abOn = $state(false);
  subjectB = $state('');
  abSamplePercent = $state('20');
  abWindowMinutes = $state('240');

  preview = $state.raw<CampaignPreview | null>(null);
  previewError = $state<string | null>(null);
  previewing = $state(false);
  readonly action = new FormAction<EditorField>({
    // the Host names a refused field under the input's `changes` (its last segment is the form's)
    fields: ['name', 'subject', 'preheader', 'bodyMd', 'layout', 'fromName', 'fromEmail', 'replyTo', 'subjectB', 'abSamplePercent', 'abWindowMinutes'],
    alertWithFields: true,
    rateLimit: 'retry',
    disposeWith: 'owner',
  });
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(siteId: string, campaign: MailerCampaign) {
    this.siteId = siteId;
    this.load(campaign);
  }

  /** The campaign as the site has it: every field from it. */
  load(c: MailerCampaign): void {
    this.base = c;
    this.name = c.name;
    this.subject = c.subject ?? '';
    this.preheader = c.preheader ?? '';
    this.bodyMd = c.bodyMd ?? '';
    this.layout = c.layout ?? 'store';
    this.fromName = c.fromName ?? '';
    this.fromEmail = c.fromEmail ?? '';
    this.replyTo = c.replyTo ?? '';
    this.trackOpens = c.trackOpens;
    this.trackClicks = c.trackClicks;
    this.abOn = c.subjectB !== null;
    this.subjectB = c.subjectB ?? '';
    this.abSamplePercent = String(c.abSamplePercent ?? 20);
    this.abWindowMinutes = String(c.abWindowMinutes ?? 240);
  }

  /** The site allows edits in this state. */
  get editable(): boolean {
    return this.base.nextMoves.includes('edit');
  }

  /** What differs from the campaign as read (the only fields sent). */
  changes(): CampaignChangesInput {
    const b = this.base;
    const out: CampaignChangesInput = {};
    const txt = (s: string) => (s.trim() === '' ? null : s.trim());
    if (this.name.trim() !== b.name) out.name = this.name.trim();
    if (txt(this.subject) !== b.subject) out.subject = txt(this.subject);
    if (txt(this.preheader) !== b.preheader) out.preheader = txt(this.preheader);
    if ((this.bodyMd === '' ? null : this.bodyMd) !== b.bodyMd) out.bodyMd = this.bodyMd === '' ? null : this.bodyMd;
    if (this.layout !== (b.layout ?? 'store')) out.layout = this.layout;
    if (txt(this.fromName) !== b.fromName) out.fromName = txt(this.fromName);
    if (txt(this.fromEmail) !== b.fromEmail) out.fromEmail = txt(this.fromEmail);
    if (txt(this.replyTo) !== b.replyTo) out.replyTo = txt(this.replyTo);
    if (this.trackOpens !== b.trackOpens) out.trackOpens = this.trackOpens;
    if (this.trackClicks !== b.trackClicks) out.trackClicks = this.trackClicks;
    const subjectB = this.abOn ? txt(this.subjectB) : null;
    if (subjectB !== b.subjectB) out.subjectB = subjectB;
    if (this.abOn) {
      const pct = wholeOf(this.abSamplePercent);
      const win = wholeOf(this.abWindowMinutes);
      if (pct !== undefined && !Number.isNaN(pct) && pct !== b.abSamplePercent) out.abSamplePercent = pct;
      if (win !== undefined && !Number.isNaN(win) && win !== b.abWindowMinutes) out.abWindowMinutes = win;
    }
    return out;
  }

  get dirty(): boolean {
    return Object.keys(this.changes()).length > 0;
  }

  /** Asks the site for its render of the text as it stands, a moment after the last keystroke. */
  previewSoon(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.renderNow(), PREVIEW_AFTER_MS);
  }

  async renderNow(): Promise<void> {
    clearTimeout(this.#timer);
    const asked = ++this.#asked;
    this.previewing = true;
    const draft = { subject: this.subject.trim() || null, preheader: this.preheader.trim() || null, bodyMd: this.bodyMd === '' ? null : this.bodyMd, layout: this.layout };
    try {
      const p = this.editable ? await invoke('mailer.previewCampaign', { siteId: this.siteId, id: this.base.id, draft }) : await invoke('mailer.previewCampaign', { siteId: this.siteId, id: this.base.id });
      if (asked !== this.#asked) return;
      this.preview = p;
      this.previewError = null;
    } catch (err) {
      if (asked === this.#asked) this.previewError = AppError.from(err).message;
    } finally {
      if (asked === this.#asked) this.previewing = false;
    }
  }

  /** Saves what changed; answers the campaign as the site has it after, or null (the form says why). */
  async save(): Promise<MailerCampaign | null> {
    if (this.name.trim() === '') {
      this.action.showFields({ name: 'Give the campaign a name: it is how you find it again.' });
      return null;
    }
    if (this.abOn) {
      const pct = wholeOf(this.abSamplePercent);
      const win = wholeOf(this.abWindowMinutes);
      const problems: Partial<Record<EditorField, string>> = {};
      if (this.subjectB.trim() === '') problems.subjectB = 'Write the second subject, or turn the test off.';
      if (pct === undefined || Number.isNaN(pct) || pct < 10 || pct > 50) problems.abSamplePercent = 'A whole number from 10 to 50: the share of the audience the two subjects are tried on.';
      if (win === undefined || Number.isNaN(win) || win < 1) problems.abWindowMinutes = 'Whole minutes, at least 1: how long the test runs before the winner goes to the rest.';
      if (Object.keys(problems).length) {
        this.action.showFields(problems);
        return null;
      }
    }
    const changes = this.changes();
    if (!Object.keys(changes).length) return this.base;
    const r = await this.action.run(() => invoke('mailer.updateCampaign', { siteId: this.siteId, id: this.base.id, changes }));
    if (!r) return null;
    this.load(r.campaign);
    return r.campaign;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.action.dispose();
  }
}
