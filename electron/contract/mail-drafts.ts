/**
 * Campaigns and templates written here and kept until the site has them (docs/architecture.md,
 * "Written offline"): a draft is the person's fields over the record as it was read (its base),
 * saved in SQLite, pushed by the site's sync like a page (now, when the site answers, or by the next
 * push once it is back), merged three ways when the site changed the record meanwhile, and shown in
 * the merge view when both changed the same field or the same lines of the text. A push only edits:
 * nothing is ever started, scheduled or sent from it.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { MailerId } from './mailer-common';
import { CampaignChanges, TemplateChanges, type MailerCampaign, type MailerTemplate } from './mailer-campaigns';
import type { MergeHeader, MergeText, PageTextShape } from './pages';

export const MAIL_DRAFT_KINDS = ['campaign', 'template'] as const;
export type MailDraftKind = (typeof MAIL_DRAFT_KINDS)[number];

/** The fields a draft holds: a campaign's editable fields, or a template's. */
export type MailFields = v.InferOutput<typeof CampaignChanges> & v.InferOutput<typeof TemplateChanges>;

export type MailDraftState = 'pending' | 'conflicted' | 'rejected';

export interface MailDraftInfo {
  id: number;
  siteId: string;
  kind: MailDraftKind;
  /** The record on the site it changes. */
  remoteId: number;
  name: string;
  state: MailDraftState;
  /** Why the site refused it (with the fields it named), or why it cannot go (the campaign went out meanwhile). */
  problem: { message: string; fields?: Record<string, string> } | null;
  attempts: number;
  /** When the next push tries it again after a failure (null: with the next push). */
  nextAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * One draft with what the merge view needs. `base`, `mine` and `theirs` are also given as page
 * text (`name` as the title, the text as the content, the other fields as the header), the shape
 * the merge view reads, with the merge of the fields field by field and of the text by lines.
 */
export interface MailDraftDetail extends MailDraftInfo {
  base: MailFields;
  mine: MailFields;
  theirs: MailFields | null;
  asText: { base: PageTextShape; mine: PageTextShape; theirs: PageTextShape | null };
  merge: { text: MergeText; header: MergeHeader } | null;
}

/** What a submit or a resolution came to: on the site (the record as it has it now), or kept here with the reason. */
export type MailSaveOutcome =
  | { outcome: 'pushed'; campaign: MailerCampaign | null; template: MailerTemplate | null }
  | { outcome: 'queued' | 'conflicted' | 'rejected' | 'signed_out'; draft: MailDraftInfo; problem: { message: string; fields?: Record<string, string> } };

const CAMPAIGN_FIELDS = ['name', 'subject', 'preheader', 'bodyMd', 'layout', 'fromName', 'fromEmail', 'replyTo', 'trackOpens', 'trackClicks', 'subjectB', 'abSamplePercent', 'abWindowMinutes', 'listIds', 'segmentId'] as const;
const TEMPLATE_FIELDS = ['name', 'subject', 'preheader', 'bodyMd', 'layout', 'isActive'] as const;
export const FIELDS_OF: Record<MailDraftKind, readonly (keyof MailFields)[]> = { campaign: CAMPAIGN_FIELDS, template: TEMPLATE_FIELDS };

/** The kind's fields only, an empty text as none (the site keeps null, not ''). */
export function fieldsFor(kind: MailDraftKind, f: MailFields): MailFields {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS_OF[kind]) {
    const v = f[k];
    if (v === undefined) continue;
    out[k] = typeof v === 'string' && v.trim() === '' && k !== 'name' ? null : v;
  }
  return out as MailFields;
}

export const campaignFields = (c: MailerCampaign): MailFields =>
  fieldsFor('campaign', {
    name: c.name,
    subject: c.subject,
    preheader: c.preheader,
    bodyMd: c.bodyMd,
    layout: c.layout ?? 'store',
    fromName: c.fromName,
    fromEmail: c.fromEmail,
    replyTo: c.replyTo,
    trackOpens: c.trackOpens,
    trackClicks: c.trackClicks,
    subjectB: c.subjectB,
    abSamplePercent: c.abSamplePercent,
    abWindowMinutes: c.abWindowMinutes,
    listIds: c.listIds,
    segmentId: c.segmentId,
  });

export const templateFields = (x: MailerTemplate): MailFields =>
  fieldsFor('template', { name: x.name, subject: x.subject, preheader: x.preheader, bodyMd: x.bodyMd, layout: x.layout, isActive: x.isActive });

const DraftId = v.pipe(v.number(), v.integer(), v.minValue(1));
const Kind = v.picklist(MAIL_DRAFT_KINDS);
const Fields = v.strictObject({ ...CampaignChanges.entries, ...TemplateChanges.entries });

export const mailDraftChannels = {
  /** The draft kept here for one campaign or template, if any. */
  'mailDrafts.forRecord': channel<{ draft: MailDraftDetail | null }>()(v.strictObject({ siteId: SiteId, kind: Kind, id: MailerId })),
  /**
   * Save: the fields become the record's draft (over `base`, the record as the editor read it, unless
   * a draft already holds one) and go to the site at once; kept here when the site does not answer.
   */
  'mailDrafts.submit': channel<MailSaveOutcome>()(v.strictObject({ siteId: SiteId, kind: Kind, id: MailerId, fields: Fields, base: Fields })),
  'mailDrafts.list': channel<MailDraftInfo[]>()(v.strictObject({ siteId: SiteId })),
  'mailDrafts.get': channel<MailDraftDetail>()(v.strictObject({ draftId: DraftId })),
  /** Drops a draft: the site's record stands. */
  'mailDrafts.discard': channel<{ id: number }>()(v.strictObject({ draftId: DraftId })),
  /** The merge view's result: the site's record becomes the base, the result is mine, and it is pushed at once. */
  'mailDrafts.resolve': channel<MailSaveOutcome>()(v.strictObject({ draftId: DraftId, fields: Fields })),
};
