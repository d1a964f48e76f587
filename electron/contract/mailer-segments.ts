/**
 * The mailer's segments (docs/mailer-audience.md, "Segments"): the site's vocabulary of fields,
 * operators and options that drives a condition builder; a definition of conditions under `all`,
 * `any` and `none`, with groups of the same shape inside (document 2's sites nest them up to 4
 * deep; Mailroom takes the flat document only and says so: `nested_groups_unsupported`); a preview
 * count and sample while a definition is edited (incomplete conditions left out and counted); saved
 * segments with their cached counts and when they were taken, a recount, and a delete the site
 * refuses while a draft or scheduled campaign uses the segment.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { MailerId } from './mailer-common';

/** What input an operator takes. */
export type OperatorValue = 'list' | 'tag' | 'enum' | 'date' | 'days' | 'text' | 'campaign' | 'number' | 'none';

export interface SegmentVocabulary {
  groups: { key: string; label: string }[];
  fields: {
    key: string;
    label: string;
    /** A group's key (Subscriber, Engagement). */
    group: string;
    type: string;
    operators: { key: string; label: string; value: OperatorValue | string }[];
    /** The values to choose from (lists, tags, campaigns, statuses, sources). */
    options: { value: number | string; label: string }[] | null;
  }[];
}

/** A condition: `value` is a list, tag or campaign id, a status or source, epoch seconds (`date`), days, or text; none for `is_set`/`is_empty`. */
export interface SegmentCondition {
  field: string;
  op: string;
  value?: number | string | null;
}

/**
 * A person matches when every item of `all` matches, at least one of `any` (when it has items) and
 * none of `none`. An item is a condition or a group of the same shape.
 */
export interface SegmentGroup {
  all?: (SegmentCondition | SegmentGroup)[];
  any?: (SegmentCondition | SegmentGroup)[];
  none?: (SegmentCondition | SegmentGroup)[];
}

/** How deep groups nest (the definition itself is the first level). */
export const SEGMENT_DEPTH = 4;
/** Conditions in one definition at most (the site's limit; the Host refuses more under `definition`). */
export const SEGMENT_CONDITIONS_MAX = 100;

export const SegmentConditionSchema = v.strictObject({
  field: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,63}$/, 'Not a field of the vocabulary.')),
  op: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_]{0,31}$/, 'Not an operator of the vocabulary.')),
  /** Left empty while being edited: the preview leaves it out (and counts it); saving refuses it. */
  value: v.optional(v.union([v.pipe(v.number(), v.integer('A whole number.'), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER)), v.pipe(v.string(), v.maxLength(200, 'At most 200 characters.')), v.null()])),
});

const items = <T extends v.GenericSchema>(item: T) => v.optional(v.pipe(v.array(item), v.maxLength(SEGMENT_CONDITIONS_MAX, `At most ${SEGMENT_CONDITIONS_MAX} conditions.`)));
const groupOf = <T extends v.GenericSchema>(item: T) => v.strictObject({ all: items(item), any: items(item), none: items(item) });

/** Written out level by level (a recursive schema could not be bounded): conditions inside groups inside groups, 4 levels at most. */
const Level1 = groupOf(SegmentConditionSchema);
const Level2 = groupOf(v.union([SegmentConditionSchema, Level1]));
const Level3 = groupOf(v.union([SegmentConditionSchema, Level2]));
export const SegmentDefinition = groupOf(v.union([SegmentConditionSchema, Level3]));

/** A definition as the channels take it: the same shape as SegmentGroup, nested at most SEGMENT_DEPTH deep. */
export type SegmentDefinitionInput = v.InferInput<typeof SegmentDefinition>;

/**
 * A group a builder made (any depth) as a channel's input: itself when it nests at most
 * SEGMENT_DEPTH deep and its conditions are of the schema's shape, else null (say so before sending).
 */
export const asSegmentDefinition = (g: SegmentGroup): SegmentDefinitionInput | null => (v.is(SegmentDefinition, g) ? g : null);

/** Conditions in a definition, groups included. */
export function conditionCount(g: SegmentGroup): number {
  let n = 0;
  for (const list of [g.all, g.any, g.none]) for (const item of list ?? []) n += 'field' in item ? 1 : conditionCount(item as SegmentGroup);
  return n;
}

/** Whether a definition has a group inside (a site of Mailroom's flat document refuses it). */
export const hasNestedGroups = (g: SegmentGroup): boolean => [g.all, g.any, g.none].some((list) => (list ?? []).some((item) => !('field' in item)));

export interface MailerSegment {
  id: number;
  name: string;
  description: string | null;
  /** null: everybody subscribed to any list. */
  listId: number | null;
  definition: SegmentGroup;
  /** Who matches and can be mailed; null until counted. */
  count: number | null;
  /** Who matches but cannot be mailed (suppressed, not subscribed). */
  leftOut: number | null;
  /** When the count was taken (the site recounts old ones itself). */
  countedAt: string | null;
  /** Draft or scheduled campaigns pointing at it. */
  campaigns: number;
  createdAt: string | null;
  updatedAt: string | null;
}

export interface SegmentPreview {
  count: number;
  leftOut: number;
  /** The newest ten who count. */
  sample: { id: number; email: string; name: string }[];
  /** Conditions left out because their value is not filled in yet. */
  ignored: number;
}

/** A delete: done, or refused while campaigns use the segment (`message` is the site's words, naming them; `campaigns` how many, when the site says). */
export type SegmentDelete = { outcome: 'deleted'; id: number } | { outcome: 'in_use'; message: string; campaigns: number | null };

const Name = v.pipe(v.string(), v.trim(), v.nonEmpty('Give the segment a name.'), v.maxLength(120, 'At most 120 characters.'));
const Description = v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(1000, 'At most 1000 characters.')));

export const mailerSegmentChannels = {
  /** The fields, operators and options a condition builder offers; kept as a copy. */
  'mailer.vocabulary': channel<{ vocabulary: SegmentVocabulary; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** Counts a definition without saving it: who matches, who is left out, a sample, and the conditions left out as incomplete. */
  'mailer.previewSegment': channel<SegmentPreview>()(v.strictObject({ siteId: SiteId, definition: SegmentDefinition, listId: v.optional(v.nullable(MailerId)) })),
  /** Every segment with its cached count and when it was taken; kept as a copy. */
  'mailer.segments': channel<{ segments: MailerSegment[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  'mailer.segment': channel<{ segment: MailerSegment; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** Saves a new segment (its count follows when the site counts it). */
  'mailer.createSegment': channel<{ segment: MailerSegment }>()(v.strictObject({ siteId: SiteId, name: Name, description: v.optional(Description), listId: v.optional(v.nullable(MailerId)), definition: SegmentDefinition })),
  /** Changes a segment; a new definition or list clears its count. */
  'mailer.updateSegment': channel<{ segment: MailerSegment }>()(
    v.strictObject({
      siteId: SiteId,
      id: MailerId,
      changes: v.strictObject({ name: v.optional(Name), description: v.optional(Description), listId: v.optional(v.nullable(MailerId)), definition: v.optional(SegmentDefinition) }),
    }),
  ),
  /** Deletes a segment, or answers why the site will not (campaigns use it). */
  'mailer.deleteSegment': channel<SegmentDelete>()(v.strictObject({ siteId: SiteId, id: MailerId })),
  /** Counts a saved segment now. */
  'mailer.recountSegment': channel<{ segment: MailerSegment }>()(v.strictObject({ siteId: SiteId, id: MailerId })),
};
