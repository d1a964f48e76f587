/**
 * A campaign's text and settings as the person edits them: each field as typed, what differs from
 * the campaign as the site last answered (`changes`: only that is sent), the site's own preview of
 * the unsaved text (asked a moment after typing stops; an older answer never replaces a newer
 * one), and the save. Editing is the site's rule: a draft or a scheduled campaign (`edit` among
 * its next moves); otherwise the editor is read-only and says why.
 */
import { campaignFields, fieldsFor, type CampaignPreview, type MailDraftDetail, type MailDraftInfo, type MailerCampaign, type MailFields } from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';

export type EditorField = 'name' | 'subject' | 'preheader' | 'bodyMd' | 'layout' | 'fromName' | 'fromEmail' | 'replyTo' | 'subjectB' | 'abSamplePercent' | 'abWindowMinutes';

const PREVIEW_AFTER_MS = 400;

/** A whole number typed, undefined when empty, NaN when not one. */
const wholeOf = (s: string): number | undefined => (s.trim() === '' ? undefined : /^\d+$/.test(s.trim()) ? Number(s.trim()) : Number.NaN);

export type SaveResult = { outcome: 'pushed'; campaign: MailerCampaign } | { outcome: 'queued' | 'conflicted' | 'rejected' | 'signed_out'; message: string };

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
  /** The changes kept on this computer and not on the site yet (the site did not answer, refused them, or changed too). */
  kept = $state.raw<MailDraftInfo | null>(null);
  /** The fields as last kept (the site's, or the draft's): what `dirty` compares with. */
  #saved = $state('');
  #asked = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(siteId: string, campaign: MailerCampaign) {
    this.siteId = siteId;
    this.load(campaign);
  }

  /** The campaign as the site has it: every field from it, unless changes of it are kept here (they stay shown). */
  load(c: MailerCampaign): void {
    this.base = c;
    if (this.kept) return;
    this.#show(campaignFields(c));
  }

  /** Changes kept here for this campaign: shown over the site's, and what Save sends. */
  loadDraft(d: MailDraftDetail): void {
    this.kept = d;
    this.#show(d.mine);
  }

  #show(f: MailFields): void {
    this.name = f.name ?? '';
    this.subject = f.subject ?? '';
    this.preheader = f.preheader ?? '';
    this.bodyMd = f.bodyMd ?? '';
    this.layout = f.layout ?? 'store';
    this.fromName = f.fromName ?? '';
    this.fromEmail = f.fromEmail ?? '';
    this.replyTo = f.replyTo ?? '';
    this.trackOpens = f.trackOpens ?? true;
    this.trackClicks = f.trackClicks ?? true;
    this.abOn = (f.subjectB ?? null) !== null;
    this.subjectB = f.subjectB ?? '';
    this.abSamplePercent = String(f.abSamplePercent ?? 20);
    this.abWindowMinutes = String(f.abWindowMinutes ?? 240);
    this.#saved = JSON.stringify(this.fields());
  }

  /** The site allows edits in this state. */
  get editable(): boolean {
    return this.base.nextMoves.includes('edit');
  }

  /** Every field as written (the Host sends only what differs from the site's). */
  fields(): MailFields {
    const b = this.base;
    const txt = (s: string) => (s.trim() === '' ? null : s.trim());
    const pct = wholeOf(this.abSamplePercent);
    const win = wholeOf(this.abWindowMinutes);
    const whole = (n: number | undefined, was: number | null) => (n === undefined || Number.isNaN(n) ? was : n);
    return fieldsFor('campaign', {
      name: this.name.trim(),
      subject: txt(this.subject),
      preheader: txt(this.preheader),
      bodyMd: this.bodyMd === '' ? null : this.bodyMd,
      layout: this.layout,
      fromName: txt(this.fromName),
      fromEmail: txt(this.fromEmail),
      replyTo: txt(this.replyTo),
      trackOpens: this.trackOpens,
      trackClicks: this.trackClicks,
      subjectB: this.abOn ? txt(this.subjectB) : null,
      abSamplePercent: this.abOn ? whole(pct, b.abSamplePercent) : b.abSamplePercent,
      abWindowMinutes: this.abOn ? whole(win, b.abWindowMinutes) : b.abWindowMinutes,
      listIds: b.listIds,
      segmentId: b.segmentId,
    });
  }

  /** Back to the fields as last kept (on the site, or here). */
  undo(): void {
    this.#show(JSON.parse(this.#saved) as MailFields);
  }

  /** Typed since it was last kept (on the site, or here). */
  get dirty(): boolean {
    return JSON.stringify(this.fields()) !== this.#saved;
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

  /**
   * Saves: the fields kept here and sent at once. Answers the campaign as the site has it after,
   * what kept them here (the site away, refusing, or changed too: with its words), or null when
   * the form says why nothing was saved.
   */
  async save(): Promise<SaveResult | null> {
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
    if (!this.dirty && !this.kept) return { outcome: 'pushed', campaign: this.base };
    const fields = this.fields();
    const r = await this.action.run(() => invoke('mailDrafts.submit', { siteId: this.siteId, kind: 'campaign', id: this.base.id, base: campaignFields(this.base), fields }));
    if (!r) return null;
    if (r.outcome === 'pushed') {
      this.kept = null;
      if (r.campaign) this.load(r.campaign);
      else this.#saved = JSON.stringify(fields);
      return { outcome: 'pushed', campaign: r.campaign ?? this.base };
    }
    // kept here: whatever the site said, nothing typed is lost
    this.kept = r.draft;
    this.#saved = JSON.stringify(fields);
    // the site names a field under the input's `changes`: the form places it by its last key
    if (r.outcome === 'rejected' && r.problem.fields) this.action.showFields(r.problem.fields, r.problem.message);
    return { outcome: r.outcome, message: r.problem.message };
  }

  /** Drops the changes kept here: the site's campaign is shown again. */
  async discardKept(): Promise<boolean> {
    const d = this.kept;
    if (!d) return true;
    const r = await this.action.run(() => invoke('mailDrafts.discard', { draftId: d.id }));
    if (!r) return false;
    this.kept = null;
    this.load(this.base);
    return true;
  }

  dispose(): void {
    clearTimeout(this.#timer);
    this.action.dispose();
  }
}
