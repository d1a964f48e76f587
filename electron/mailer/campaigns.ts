/**
 * The mailer's campaigns (contract/mailer-campaigns.ts) through the site's base: the table (its
 * first unfiltered page kept as a copy with its time, read while the site is away), one campaign,
 * the audience before one is made, a draft made, the moves and a delete. A move is sent now or
 * refused, never queued: mail goes out only by a person's action while the site answers. A move
 * whose answer was lost and is asked again meets the state it made (409 `campaign_state`): the
 * campaign is read and, standing where that move leads, answered as done.
 */
import { AppError, isAppError, mayHaveArrived } from '../base/app-error';
import { createdOnce, UncertainWrites } from '../base/uncertain';
import type { Transport } from '../api/transport';
import { cmsMailerCampaigns } from '../api/cms/mailer-campaigns';
import { gone as goneOf, goneAlready, routeMissing } from './base';
import type { MailerOverview, MailerTemplate, CampaignAudience, CampaignPage, CampaignStatus, ChannelParsed, MailerBase, MailerCampaign } from '../contract';

export interface CampaignDeps {
  t: (siteId: string) => Transport;
  reading: <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => Promise<T>;
  writing: <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) => Promise<T>;
  copied: <T>(siteId: string, key: string, call: (t: Transport, b: MailerBase) => Promise<T>) => Promise<{ value: T; copiedAt: string | null }>;
  /** Changes a kept copy as a write's answer says. */
  keepCopy: <T>(siteId: string, key: string, change: (value: T) => T) => void;
  /** A record in the kept list that holds it (replaced, or added in `order`). */
  keepInList: <T extends { id: number }>(siteId: string, key: string, item: T, order?: (a: T, b: T) => number) => void;
  now?: () => number;
}

const TABLE_KEY = 'mailer:campaigns';
const OVERVIEW_KEY = 'mailer:overview';
const TEMPLATES_KEY = 'mailer:templates';

/**
 * Where each move leads, as a refusal of the same move again finds it: a start refused is one
 * already sending (a start at a time is never refused by a scheduled campaign: it is scheduled
 * again), a resume one sending or scheduled again; both may have finished since.
 */
const LEADS_TO: Record<'start' | 'pause' | 'resume' | 'cancel', readonly CampaignStatus[]> = {
  start: ['sending', 'sent'],
  pause: ['paused'],
  resume: ['sending', 'scheduled', 'sent'],
  cancel: ['canceled'],
};

const REFUSED: Record<'start' | 'pause' | 'resume' | 'cancel', string> = {
  start: 'The campaign was not started',
  pause: 'The campaign was not paused',
  resume: 'The campaign was not resumed',
  cancel: 'The campaign was not canceled',
};

type Table = Omit<CampaignPage, 'copiedAt'>;

/** A site whose plugin has no campaign routes (a 404 no plugin sent), said as such. */
const noCampaigns = (err: unknown): never => {
  if (routeMissing(err)) throw new AppError({ code: 'not_found', status: 404, reason: 'no_campaigns', message: 'This site’s mailing plugin has no campaigns to read or send (it answers no …/campaigns route).' }, { cause: err });
  throw err;
};

export function mailerCampaigns(deps: CampaignDeps) {
  const t = deps.t;
  const reading = <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => deps.reading(siteId, call).catch(noCampaigns);
  const writing = <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) => deps.writing(siteId, refused, call).catch(noCampaigns);

  const lost = new UncertainWrites<{ newest: number }>(deps.now);
  const lostTests = new UncertainWrites<true>(deps.now);
  const lostTemplates = new UncertainWrites<{ before: number[] }>(deps.now);

  /** The kept table's row of this campaign as the site now says it (a campaign not on the kept page stays off it). */
  const keep = (siteId: string, c: MailerCampaign) =>
    deps.keepCopy<Table>(siteId, TABLE_KEY, (table) => (table.items.some((x) => x.id === c.id) ? { ...table, items: table.items.map((x) => (x.id === c.id ? c : x)) } : table));

  const keepTemplate = (siteId: string, x: MailerTemplate) => deps.keepInList(siteId, TEMPLATES_KEY, x, (a, b) => a.name.localeCompare(b.name));

  const gone = goneOf('campaign');
  const goneTemplate = goneOf('template');

  return {
    /** The kept copies told of a record the site answered elsewhere (a draft pushed). */
    keep,
    keepTemplate,

    async list(siteId: string, status: CampaignStatus | undefined, page: number, perPage: number): Promise<CampaignPage> {
      if (!status && page === 1) {
        const { value, copiedAt } = await deps.copied(siteId, TABLE_KEY, (transport, b) => cmsMailerCampaigns.campaigns(transport, b, { page, perPage })).catch(noCampaigns);
        return { ...value, copiedAt };
      }
      const r = await reading(siteId, (b) => cmsMailerCampaigns.campaigns(t(siteId), b, { status, page, perPage }));
      return { ...r, copiedAt: null };
    },

    async one(siteId: string, id: number): Promise<{ campaign: MailerCampaign }> {
      const campaign = await reading(siteId, (b) => cmsMailerCampaigns.campaign(t(siteId), b, id)).catch(gone);
      keep(siteId, campaign);
      return { campaign };
    },

    audience(siteId: string, listIds: number[], segmentId: number | null | undefined): Promise<CampaignAudience> {
      return reading(siteId, (b) => cmsMailerCampaigns.audience(t(siteId), b, { listIds, segmentId: segmentId ?? null }));
    },

    /**
     * Makes a draft. One whose answer was lost may have been made: asked again, a campaign of the
     * same name and subject newer than the newest there was before is that one, answered instead
     * of a second draft.
     */
    async create(input: ChannelParsed<'mailer.createCampaign'>): Promise<{ campaign: MailerCampaign }> {
      const { siteId, name, subject, bodyMd, listIds, segmentId, templateId } = input;
      const body: Record<string, unknown> = { name };
      if (subject) body.subject = subject;
      if (bodyMd) body.body_md = bodyMd;
      if (listIds) body.list_ids = listIds;
      if (segmentId !== undefined) body.segment_id = segmentId;
      if (templateId !== undefined) body.template_id = templateId;
      const key = `${siteId}\ncampaign\n${name}\n${subject ?? ''}`;
      const firstPage = () => reading(siteId, (b) => cmsMailerCampaigns.campaigns(t(siteId), b, { page: 1, perPage: 50 }));
      const campaign = await createdOnce(lost, key, {
        // the newest there is now, so one a lost answer made can be told apart later (not known: no such lookup)
        snapshot: () => firstPage().then((r) => ({ newest: r.items.reduce((m, c) => Math.max(m, c.id), 0) }), () => null),
        find: async ({ newest }) => (await firstPage()).items.find((c) => c.id > newest && c.name === name && (c.subject ?? '') === (subject ?? '')),
        make: async () => {
          const made = await writing(siteId, 'No campaign was made', (b, transport) => cmsMailerCampaigns.create(transport, b, body));
          deps.keepCopy<Table>(siteId, TABLE_KEY, (table) => ({ ...table, items: [made, ...table.items], total: table.total + 1 }));
          return made;
        },
      });
      return { campaign };
    },

    async move(input: ChannelParsed<'mailer.moveCampaign'>): Promise<{ campaign: MailerCampaign }> {
      const { siteId, id, move } = input;
      const scheduledAt = move === 'start' ? (input.scheduledAt ?? null) : null;
      try {
        const campaign = await writing(siteId, REFUSED[move], (b, transport) => cmsMailerCampaigns.move(transport, b, id, move, scheduledAt));
        keep(siteId, campaign);
        return { campaign };
      } catch (err) {
        if (!(isAppError(err) && err.info.reason === 'campaign_state')) throw gone(err);
        // the state it is in may be the one this move makes (an answer lost, or someone else did it)
        const now = await reading(siteId, (b) => cmsMailerCampaigns.campaign(t(siteId), b, id)).catch(() => null);
        if (!now || !LEADS_TO[move].includes(now.status)) throw err;
        keep(siteId, now);
        return { campaign: now };
      }
    },

    async update(input: ChannelParsed<'mailer.updateCampaign'>): Promise<{ campaign: MailerCampaign }> {
      const { siteId, id, changes } = input;
      // an empty text is none: the site keeps null, not ''
      const body = Object.fromEntries(Object.entries(changes).map(([k, val]) => [k, val === '' ? null : val]));
      const campaign = await writing(siteId, 'The campaign was not changed', (b, transport) => cmsMailerCampaigns.update(transport, b, id, body)).catch(gone);
      keep(siteId, campaign);
      return { campaign };
    },

    preview(input: ChannelParsed<'mailer.previewCampaign'>) {
      const { siteId, id, draft } = input;
      return reading(siteId, (b) => cmsMailerCampaigns.preview(t(siteId), b, id, draft ?? null)).catch(gone);
    },

    /**
     * A test copy. It puts mail into an inbox and nothing on the site says whether a lost one
     * arrived: asked again, it is refused saying so, unless the person asks for another (`again`).
     */
    async test(input: ChannelParsed<'mailer.testCampaign'>): Promise<{ subject: string; sentAt: string | null }> {
      const { siteId, id, email, again } = input;
      const key = `${siteId}\ntest\n${id}\n${email.toLowerCase()}`;
      if (lostTests.get(key) && !again) {
        throw new AppError({ code: 'conflict', status: 409, reason: 'may_have_arrived', message: 'The last test copy to that address may already have gone out (its answer was lost): look in that inbox first, or send another.' });
      }
      try {
        const r = await writing(siteId, 'No test copy was sent', (b, transport) => cmsMailerCampaigns.test(transport, b, id, email)).catch(gone);
        lostTests.forget(key);
        return r;
      } catch (err) {
        if (mayHaveArrived(err)) lostTests.remember(key, true);
        throw err;
      }
    },

    sends(siteId: string, id: number, status: string | undefined, page: number, perPage: number) {
      return reading(siteId, (b) => cmsMailerCampaigns.sends(t(siteId), b, id, { status, page, perPage })).catch(gone);
    },

    links(siteId: string, id: number) {
      return reading(siteId, (b) => cmsMailerCampaigns.links(t(siteId), b, id)).catch(gone);
    },

    timeline(siteId: string, id: number) {
      return reading(siteId, (b) => cmsMailerCampaigns.timeline(t(siteId), b, id)).catch(gone);
    },

    /** The overview; the default period's is kept as a copy (read while the site is away, and by the all-sites overview). */
    async overview(siteId: string, days: number | undefined): Promise<MailerOverview> {
      if (days === undefined || days === 30) {
        const { value, copiedAt } = await deps.copied(siteId, OVERVIEW_KEY, (transport, b) => cmsMailerCampaigns.overview(transport, b, undefined)).catch(noCampaigns);
        return { ...value, copiedAt };
      }
      return { ...(await reading(siteId, (b) => cmsMailerCampaigns.overview(t(siteId), b, days))), copiedAt: null };
    },

    // ── templates

    async templates(siteId: string): Promise<{ templates: MailerTemplate[]; copiedAt: string | null }> {
      const { value, copiedAt } = await deps.copied(siteId, TEMPLATES_KEY, (transport, b) => cmsMailerCampaigns.templates(transport, b)).catch(noCampaigns);
      return { templates: value, copiedAt };
    },

    /** Makes a template; one whose answer was lost, asked again, is found by its name among those made since. */
    async createTemplate(input: ChannelParsed<'mailer.createTemplate'>): Promise<{ template: MailerTemplate }> {
      const { siteId, ...fields } = input;
      const key = `${siteId}\ntemplate\n${fields.name}`;
      const all = () => reading(siteId, (b) => cmsMailerCampaigns.templates(t(siteId), b));
      const template = await createdOnce(lostTemplates, key, {
        snapshot: () => all().then((xs) => ({ before: xs.map((x) => x.id) }), () => null),
        find: async ({ before }) => (await all()).find((x) => !before.includes(x.id) && x.name === fields.name),
        make: () => writing(siteId, 'No template was made', (b, transport) => cmsMailerCampaigns.createTemplate(transport, b, fields)),
      });
      keepTemplate(siteId, template);
      return { template };
    },

    async updateTemplate(input: ChannelParsed<'mailer.updateTemplate'>): Promise<{ template: MailerTemplate }> {
      const { siteId, id, changes } = input;
      const template = await writing(siteId, 'The template was not changed', (b, transport) => cmsMailerCampaigns.updateTemplate(transport, b, id, changes)).catch(goneTemplate);
      keepTemplate(siteId, template);
      return { template };
    },

    async deleteTemplate(siteId: string, id: number): Promise<{ id: number }> {
      await writing(siteId, 'The template was not deleted', (b, transport) =>
        cmsMailerCampaigns.deleteTemplate(transport, b, id).catch(goneAlready),
      );
      deps.keepCopy<MailerTemplate[]>(siteId, TEMPLATES_KEY, (all) => all.filter((x) => x.id !== id));
      return { id };
    },

    previewTemplate(input: ChannelParsed<'mailer.previewTemplate'>) {
      const { siteId, id, draft } = input;
      return reading(siteId, (b) => cmsMailerCampaigns.previewTemplate(t(siteId), b, id, draft ?? null)).catch(goneTemplate);
    },

    catchUp(siteId: string, id: number) {
      return reading(siteId, (b) => cmsMailerCampaigns.catchUp(t(siteId), b, id)).catch(gone);
    },

    /** Catch-up mails who joined since; asked again (an answer lost) it finds nobody: nothing is sent twice. */
    async sendCatchUp(siteId: string, id: number) {
      const r = await writing(siteId, 'Nobody was sent the campaign', (b, transport) => cmsMailerCampaigns.resend(transport, b, id, 'catch-up', {})).catch(gone);
      if (r.campaign) keep(siteId, r.campaign);
      return r;
    },

    /**
     * Failed sends tried again. One send asked again after its answer was lost finds it not failed
     * any more (409 `send_not_failed`): answered as done, with the campaign as it stands.
     */
    async retryFailed(siteId: string, id: number, sendId: number | undefined) {
      try {
        const r = await writing(siteId, 'No failed send was tried again', (b, transport) => cmsMailerCampaigns.resend(transport, b, id, 'retry-failed', sendId !== undefined ? { send_id: sendId } : {})).catch(gone);
        if (r.campaign) keep(siteId, r.campaign);
        return r;
      } catch (err) {
        if (!(sendId !== undefined && isAppError(err) && err.info.reason === 'send_not_failed')) throw err;
        const now = await reading(siteId, (b) => cmsMailerCampaigns.campaign(t(siteId), b, id));
        return { sent: 0, delivered: 0, bounced: 0, failed: 0, retried: 0, skipped: 0, campaign: now };
      }
    },

    async remove(siteId: string, id: number): Promise<{ id: number }> {
      await writing(siteId, 'The campaign was not deleted', (b, transport) =>
        cmsMailerCampaigns.remove(transport, b, id).catch(goneAlready),
      );
      deps.keepCopy<Table>(siteId, TABLE_KEY, (table) => ({ ...table, items: table.items.filter((x) => x.id !== id), total: Math.max(0, table.total - (table.items.some((x) => x.id === id) ? 1 : 0)) }));
      return { id };
    },
  };
}
