/**
 * The mailer's automations (contract/mailer-flows.ts) through the site's base: the list kept as
 * a copy with its time (read while the site is away), the recipes, one flow with a page of its
 * people, a draft made from scratch or from a recipe, an edit (steps saved whole), the run state's
 * moves, a delete, and enrolling or taking out one person. Every write is sent now or refused,
 * never queued.
 *
 * Mail: the site asks only `manage` for every write (document 2's table), though activating or
 * resuming a flow with a send step, enrolling someone into one, or adding a send to a running one
 * puts mail into inboxes; the app holds those to `send` as well, as it does a campaign's start
 * (`mayMail`, before anything is sent).
 *
 * Lost answers: a create asked again finds the draft it made (same name, newer than the newest
 * before); an edit asked again that finds the flow as it asked answers it; a move asked again that
 * meets the state it leads to answers done; an enrol or an exit asked again that the site finds
 * done already (`already_enrolled`, `no_reentry`, `enrolment_over`) answers `earlier`; a delete
 * that finds nothing is done.
 */
import { AppError, isAppError, mayHaveArrived } from '../base/app-error';
import { createdOnce, UncertainWrites } from '../base/uncertain';
import type { Transport } from '../api/transport';
import { cmsMailerFlows, flowBody } from '../api/cms/mailer-flows';
import { gone as goneOf, goneAlready, routeMissing } from './base';
import { addsMail, flowMails, type ChannelParsed, type EnrolmentStatus, type FlowMove, type FlowStatus, type FlowStep, type MailerBase, type MailerFlow } from '../contract';

export interface FlowDeps {
  t: (siteId: string) => Transport;
  reading: <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => Promise<T>;
  writing: <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) => Promise<T>;
  copied: <T>(siteId: string, key: string, call: (t: Transport, b: MailerBase) => Promise<T>) => Promise<{ value: T; copiedAt: string | null }>;
  keepCopy: <T>(siteId: string, key: string, change: (value: T) => T) => void;
  /** Refuses (throws) when the account may not put mail into inboxes on this site. */
  mayMail: (siteId: string, b: MailerBase) => Promise<void>;
  now?: () => number;
}

const LIST_KEY = 'mailer:flows';
type Kept = { flows: MailerFlow[]; statusCounts: Record<FlowStatus, number> | null };

const LEADS_TO: Record<FlowMove, FlowStatus> = { activate: 'active', pause: 'paused', resume: 'active' };
const REFUSED: Record<FlowMove, string> = {
  activate: 'The automation was not turned on',
  pause: 'The automation was not paused',
  resume: 'The automation was not resumed',
};

/** A site whose plugin has no automation routes (a 404 no plugin sent), said as such. */
const noFlows = (err: unknown): never => {
  if (routeMissing(err)) throw new AppError({ code: 'not_found', status: 404, reason: 'no_flows', message: 'This site’s mailing plugin has no automations (it answers no …/flows route).' }, { cause: err });
  throw err;
};

/** A step's fields but its id and people, keys sorted (the site's order and the input's may differ). */
const content = (s: FlowStep): string => {
  const o = s as unknown as Record<string, unknown>;
  return JSON.stringify(Object.keys(o).filter((k) => k !== 'id' && k !== 'people').sort().map((k) => [k, o[k]]));
};
/** The line asked, in order: a step given with its id is that step, a new one any step with its fields. */
const sameSteps = (have: readonly FlowStep[], asked: readonly FlowStep[]) => have.length === asked.length && have.every((s, k) => (asked[k]!.id === null || asked[k]!.id === s.id) && content(s) === content(asked[k]!));

/** Whether a flow holds every change asked (a lost edit's answer, found). */
function holds(f: MailerFlow, changes: ChannelParsed<'mailer.updateFlow'>['changes']): boolean {
  if (changes.name !== undefined && f.name !== changes.name) return false;
  if (changes.trigger !== undefined && f.trigger !== changes.trigger) return false;
  if (changes.triggerTag !== undefined && (f.triggerTag ?? null) !== (changes.triggerTag || null)) return false;
  if (changes.listId !== undefined && f.listId !== changes.listId) return false;
  if (changes.segmentId !== undefined && f.segmentId !== changes.segmentId) return false;
  if (changes.allowReentry !== undefined && f.allowReentry !== changes.allowReentry) return false;
  if (changes.steps !== undefined) {
    if (!sameSteps(f.steps ?? [], changes.steps)) return false;
  }
  return true;
}

/** A tag as the site keeps it (lower case, spaces as hyphens, letters, digits and hyphens only). */
const tagCode = (x: string) =>
  x
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^\p{L}\p{N}-]+/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');

/** A step as the site keeps it: tags as codes, a send's or a condition's unused fields empty (so a lost edit's answer can be recognised). */
function normalised(s: FlowStep): FlowStep {
  if (s.type === 'tag') return { ...s, tag: tagCode(s.tag) };
  if (s.type === 'condition') {
    const skip = s.otherwise === 'skip' ? s.skip : 0;
    return s.check === 'on_list' ? { ...s, tag: null, skip } : { ...s, tag: tagCode(s.tag ?? ''), listId: null, skip };
  }
  if (s.type === 'send') return s.templateId !== null ? { ...s, subject: null, bodyMd: null } : { ...s, subject: s.subject?.trim() ?? null };
  return s;
}

export function mailerFlows(deps: FlowDeps) {
  const t = deps.t;
  const reading = <T>(siteId: string, call: (b: MailerBase) => Promise<T>) => deps.reading(siteId, call).catch(noFlows);
  const writing = <T>(siteId: string, refused: string, call: (b: MailerBase, transport: Transport) => Promise<T>) => deps.writing(siteId, refused, call).catch(noFlows);
  const gone = goneOf('automation');

  const lostCreates = new UncertainWrites<{ newest: number }>(deps.now);
  const lostEdits = new UncertainWrites<true>(deps.now);
  const lostPeople = new UncertainWrites<true>(deps.now);

  const one = (siteId: string, b: MailerBase, id: number) => cmsMailerFlows.flow(t(siteId), b, id, { page: 1, perPage: 1 }).then((r) => r.flow);

  /** The kept list with this flow as the site now says it (added at the top when new). */
  const keep = (siteId: string, f: MailerFlow) =>
    deps.keepCopy<Kept>(siteId, LIST_KEY, (k) => {
      const before = k.flows.find((x) => x.id === f.id);
      const row = { ...f, steps: null };
      const counts = k.statusCounts ? { ...k.statusCounts } : null;
      if (counts) {
        if (before) counts[before.status] = Math.max(0, counts[before.status] - 1);
        counts[f.status] += 1;
      }
      return { flows: before ? k.flows.map((x) => (x.id === f.id ? row : x)) : [row, ...k.flows], statusCounts: counts };
    });

  /** Makes a draft; a lost answer's retry finds the one it made instead of a second. */
  async function created(siteId: string, key: string, name: string | null, make: (b: MailerBase, transport: Transport) => Promise<MailerFlow>): Promise<{ flow: MailerFlow }> {
    const list = () => reading(siteId, (b) => cmsMailerFlows.flows(t(siteId), b));
    const flow = await createdOnce(lostCreates, key, {
      // the newest there is now, so one a lost answer made can be told apart later (not known: no such lookup)
      snapshot: () => list().then((r) => ({ newest: r.flows.reduce((m, f) => Math.max(m, f.id), 0) }), () => null),
      find: async ({ newest }) => {
        const row = (await list()).flows.find((f) => f.id > newest && (name === null || f.name === name));
        // the list has no steps: the flow itself
        return row ? reading(siteId, (b) => one(siteId, b, row.id)) : undefined;
      },
      make: () => writing(siteId, 'No automation was made', make),
    });
    keep(siteId, flow);
    return { flow };
  }

  return {
    async list(siteId: string): Promise<{ flows: MailerFlow[]; statusCounts: Record<FlowStatus, number> | null; copiedAt: string | null }> {
      const { value, copiedAt } = await deps.copied<Kept>(siteId, LIST_KEY, (transport, b) => cmsMailerFlows.flows(transport, b)).catch(noFlows);
      return { ...value, copiedAt };
    },

    async recipes(siteId: string) {
      return { recipes: await reading(siteId, (b) => cmsMailerFlows.recipes(t(siteId), b)) };
    },

    async one(siteId: string, id: number, status: EnrolmentStatus | undefined, stepId: number | undefined, page: number, perPage: number) {
      const r = await reading(siteId, (b) => cmsMailerFlows.flow(t(siteId), b, id, { status, stepId, page, perPage })).catch(gone);
      keep(siteId, r.flow);
      return r;
    },

    create(input: ChannelParsed<'mailer.createFlow'>): Promise<{ flow: MailerFlow }> {
      const { siteId, ...fields } = input;
      const body = flowBody({ ...fields, ...(fields.steps ? { steps: fields.steps.map(normalised) } : {}) });
      return created(siteId, `${siteId}\nflow\n${fields.name}`, fields.name, (b, transport) => cmsMailerFlows.create(transport, b, body));
    },

    async fromRecipe(input: ChannelParsed<'mailer.flowFromRecipe'>): Promise<{ flow: MailerFlow }> {
      const { siteId, recipe, name, listId, segmentId } = input;
      const body: Record<string, unknown> = { ...(name ? { name } : {}), ...(listId !== undefined ? { list_id: listId } : {}), ...(segmentId !== undefined ? { segment_id: segmentId } : {}) };
      // without a name the draft takes the recipe's: found again by its recipe and its newness
      const found = await created(siteId, `${siteId}\nrecipe\n${recipe}\n${name ?? ''}`, name ?? null, (b, transport) => cmsMailerFlows.fromRecipe(transport, b, recipe, body));
      return found;
    },

    async update(input: ChannelParsed<'mailer.updateFlow'>): Promise<{ flow: MailerFlow }> {
      const { siteId, id } = input;
      const changes = { ...input.changes, ...(input.changes.steps ? { steps: input.changes.steps.map(normalised) } : {}) };
      const key = `${siteId}\nedit\n${id}\n${JSON.stringify(changes)}`;
      const earlier = lostEdits.get(key) !== undefined;
      return writing(siteId, 'The automation was not changed', async (b, transport) => {
        const now = changes.steps || earlier ? await one(siteId, b, id).catch(gone) : null;
        if (now && earlier && holds(now, changes)) {
          lostEdits.forget(key);
          keep(siteId, now);
          return { flow: now };
        }
        if (now && changes.steps && now.status === 'active' && addsMail(now.steps, changes.steps)) await deps.mayMail(siteId, b);
        try {
          const flow = await cmsMailerFlows.update(transport, b, id, flowBody(changes)).catch(gone);
          lostEdits.forget(key);
          keep(siteId, flow);
          return { flow };
        } catch (err) {
          if (mayHaveArrived(err)) lostEdits.remember(key, true);
          throw err;
        }
      });
    },

    async move(input: ChannelParsed<'mailer.moveFlow'>): Promise<{ flow: MailerFlow }> {
      const { siteId, id, move } = input;
      try {
        const flow = await writing(siteId, REFUSED[move], async (b, transport) => {
          if (move !== 'pause' && flowMails((await one(siteId, b, id).catch(gone)).steps)) await deps.mayMail(siteId, b);
          return cmsMailerFlows.move(transport, b, id, move);
        });
        keep(siteId, flow);
        return { flow };
      } catch (err) {
        if (!(isAppError(err) && err.info.reason === 'flow_state')) throw gone(err);
        // the state it is in may be the one this move makes (an answer lost, or someone else did it)
        const now = await reading(siteId, (b) => one(siteId, b, id)).catch(() => null);
        if (!now || now.status !== LEADS_TO[move]) throw err;
        keep(siteId, now);
        return { flow: now };
      }
    },

    async remove(siteId: string, id: number, force: boolean | undefined): Promise<{ id: number }> {
      await writing(siteId, 'The automation was not deleted', (b, transport) => cmsMailerFlows.remove(transport, b, id, force === true).catch(goneAlready));
      deps.keepCopy<Kept>(siteId, LIST_KEY, (k) => {
        const before = k.flows.find((x) => x.id === id);
        const counts = k.statusCounts && before ? { ...k.statusCounts, [before.status]: Math.max(0, k.statusCounts[before.status] - 1) } : k.statusCounts;
        return { flows: k.flows.filter((x) => x.id !== id), statusCounts: counts };
      });
      return { id };
    },

    async enrol(siteId: string, id: number, subscriberId: number) {
      const key = `${siteId}\nenrol\n${id}\n${subscriberId}`;
      const earlier = lostPeople.get(key) !== undefined;
      try {
        const enrolment = await writing(siteId, 'Nobody was enrolled', async (b, transport) => {
          if (flowMails((await one(siteId, b, id).catch(gone)).steps)) await deps.mayMail(siteId, b);
          return cmsMailerFlows.enrol(transport, b, id, subscriberId).catch(gone);
        });
        lostPeople.forget(key);
        return { enrolment, earlier: false };
      } catch (err) {
        if (mayHaveArrived(err)) lostPeople.remember(key, true);
        if (!(earlier && isAppError(err) && (err.info.reason === 'already_enrolled' || err.info.reason === 'no_reentry'))) throw err;
        lostPeople.forget(key);
        return { enrolment: null, earlier: true };
      }
    },

    async exit(siteId: string, id: number, enrolmentId: number) {
      const key = `${siteId}\nexit\n${id}\n${enrolmentId}`;
      const earlier = lostPeople.get(key) !== undefined;
      try {
        const enrolment = await writing(siteId, 'Nobody was taken out', (b, transport) => cmsMailerFlows.exit(transport, b, id, enrolmentId));
        lostPeople.forget(key);
        return { enrolment, earlier: false };
      } catch (err) {
        if (mayHaveArrived(err)) lostPeople.remember(key, true);
        if (!(earlier && isAppError(err) && err.info.reason === 'enrolment_over')) throw gone(err);
        lostPeople.forget(key);
        return { enrolment: null, earlier: true };
      }
    },
  };
}
