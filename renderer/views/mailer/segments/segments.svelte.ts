/**
 * A site's segments and the one being edited (docs/mailer-audience.md, "Segments").
 *
 * `SegmentsState`: the saved segments with their cached counts and when they were taken, and the
 * vocabulary that drives the builder — each the site's answer, or Sitedesk's copy with its time
 * while the site is away.
 *
 * `SegmentDraft`: a segment being edited (a new one, or a saved one's copy): its name,
 * description, the list it is limited to and its definition as a tree (segment-tree.ts). While it
 * is edited the site counts it (`mailer.previewSegment`), a moment after the last change, and only
 * the answer to the latest question is shown (a slower earlier one arriving late is dropped). The
 * site's complaints about the definition (`definition.any.1`, `nested_groups_unsupported`) land on
 * the rows they name. Save makes or changes the segment, sending only what changed.
 */
import {
  asSegmentDefinition,
  type MailerBase,
  type MailerSegment,
  type SegmentDelete,
  type SegmentGroup,
  type SegmentPreview,
  type SegmentVocabulary,
} from '../../../../electron/contract/index';
import { invoke } from '../../../lib/client';
import { AppError } from '../../../lib/errors';
import { FormAction } from '../../../lib/form-action.svelte';
import { emptyGroup, fromDefinition, newCondition, nodeAtPath, problems, toDefinition, type GroupNode } from './segment-tree';

/** How long after the last change the site is asked to count (ms). */
export const PREVIEW_DELAY = 400;

export class SegmentsState {
  readonly siteId: string;
  segments = $state.raw<MailerSegment[] | null>(null);
  vocabulary = $state.raw<SegmentVocabulary | null>(null);
  segmentsCopiedAt = $state<string | null>(null);
  vocabularyCopiedAt = $state<string | null>(null);
  error = $state.raw<AppError | null>(null);
  loading = $state(false);

  constructor(siteId: string) {
    this.siteId = siteId;
  }

  get copiedAt(): string | null {
    return this.segmentsCopiedAt ?? this.vocabularyCopiedAt;
  }

  async load(): Promise<void> {
    this.loading = true;
    try {
      const [segs, vocab] = await Promise.all([invoke('mailer.segments', { siteId: this.siteId }), invoke('mailer.vocabulary', { siteId: this.siteId })]);
      this.segments = [...segs.segments].sort((a, b) => a.name.localeCompare(b.name));
      this.segmentsCopiedAt = segs.copiedAt;
      this.vocabulary = vocab.vocabulary;
      this.vocabularyCopiedAt = vocab.copiedAt;
      this.error = null;
    } catch (err) {
      this.error = AppError.from(err);
    } finally {
      this.loading = false;
    }
  }

  byId(id: number | null): MailerSegment | null {
    return id === null ? null : (this.segments?.find((s) => s.id === id) ?? null);
  }

  put(segment: MailerSegment): void {
    this.segments = [...(this.segments ?? []).filter((s) => s.id !== segment.id), segment].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Deletes a segment, or answers the site's refusal in its words (campaigns use it). */
  async remove(id: number): Promise<SegmentDelete> {
    const r = await invoke('mailer.deleteSegment', { siteId: this.siteId, id });
    if (r.outcome === 'deleted') this.segments = (this.segments ?? []).filter((s) => s.id !== id);
    return r;
  }

  /** The lists a segment can be limited to (the vocabulary's options for "On list"). */
  get lists(): { value: number; label: string }[] {
    const field = this.vocabulary?.fields.find((f) => f.type === 'list' || f.key === 'list');
    return (field?.options ?? []).filter((o): o is { value: number; label: string } => typeof o.value === 'number');
  }
}

export type DraftField = 'name' | 'description' | 'listId';

/**
 * A definition in one canonical spelling (containers in one order, empty ones and empty values
 * left out), to tell a change from none whatever the site's spelling of the same definition.
 */
export function definitionKey(d: SegmentGroup): string {
  const canon = (g: SegmentGroup): unknown[] =>
    (['all', 'any', 'none'] as const).map((c) => (g[c] ?? []).map((x) => ('field' in x ? [x.field, x.op, x.value === undefined || x.value === null ? null : x.value] : canon(x))));
  return JSON.stringify(canon(d));
}

export class SegmentDraft {
  readonly siteId: string;
  readonly base: MailerBase;
  readonly vocabulary: SegmentVocabulary;
  /** The saved segment this edits; null for a new one. */
  saved = $state.raw<MailerSegment | null>(null);
  name = $state('');
  description = $state('');
  listId = $state<number | null>(null);
  tree = $state.raw<GroupNode>(emptyGroup());
  /** The site's count of the definition as it was last asked. */
  preview = $state.raw<SegmentPreview | null>(null);
  previewError = $state.raw<AppError | null>(null);
  /** A question is waiting to be asked or answered. */
  previewing = $state(false);
  /** What is wrong with a row (the site's words, or the save's own check), by the row's id. */
  rowErrors = $state.raw<Record<string, string>>({});
  readonly action = new FormAction<DraftField>({ fields: { name: 'name', description: 'description', listId: 'listId' }, rateLimit: 'retry', disposeWith: 'owner' });
  #timer: ReturnType<typeof setTimeout> | null = null;
  #seq = 0;
  #savedKey = '';

  constructor(siteId: string, base: MailerBase, vocabulary: SegmentVocabulary, segment: MailerSegment | null) {
    this.siteId = siteId;
    this.base = base;
    this.vocabulary = vocabulary;
    if (segment) this.#take(segment);
    else {
      const first = newCondition(vocabulary);
      this.tree = { ...emptyGroup(), all: first.field ? [first] : [] };
      this.#savedKey = definitionKey(this.definition);
    }
  }

  #take(s: MailerSegment): void {
    this.saved = s;
    this.name = s.name;
    this.description = s.description ?? '';
    this.listId = s.listId;
    this.tree = fromDefinition(s.definition);
    this.#savedKey = definitionKey(s.definition);
  }

  get definition(): SegmentGroup {
    return toDefinition(this.tree).definition;
  }

  /** What differs from the saved segment; for a new one, whether anything was done to it yet. */
  get dirty(): boolean {
    const s = this.saved;
    if (!s) return this.name.trim() !== '' || this.description.trim() !== '' || this.listId !== null || definitionKey(this.definition) !== this.#savedKey;
    return this.name.trim() !== s.name || (this.description.trim() || null) !== s.description || this.listId !== s.listId || definitionKey(this.definition) !== this.#savedKey;
  }

  /** A new tree from an edit: counted again shortly. */
  edit(tree: GroupNode): void {
    if (tree === this.tree) return;
    this.tree = tree;
    if (Object.keys(this.rowErrors).length) this.rowErrors = {};
    this.schedule();
  }

  setList(id: number | null): void {
    if (id === this.listId) return;
    this.listId = id;
    this.action.clearField('listId');
    this.schedule();
  }

  /** Asks the site to count a moment after the last change. */
  schedule(delay = PREVIEW_DELAY): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.previewing = true;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.count();
    }, delay);
  }

  /** Asks the site to count the definition as it is now; an answer to an older question is dropped. */
  async count(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const seq = ++this.#seq;
    const { definition, paths } = toDefinition(this.tree);
    const input = asSegmentDefinition(definition);
    this.previewing = true;
    if (!input) {
      this.previewError = new AppError({ code: 'invalid_input', message: 'This definition is deeper or longer than a site takes (4 levels of groups, 100 conditions).' });
      this.previewing = false;
      return;
    }
    try {
      const r = await invoke('mailer.previewSegment', { siteId: this.siteId, definition: input, listId: this.listId });
      if (seq !== this.#seq) return;
      this.preview = r;
      this.previewError = null;
    } catch (err) {
      if (seq !== this.#seq) return;
      const e = AppError.from(err);
      this.previewError = e;
      this.rowErrors = this.#rowsOf(e, paths);
    } finally {
      if (seq === this.#seq && !this.#timer) this.previewing = false;
    }
  }

  /** A refusal's field messages on the rows they name (`definition.any.1.value` → that row). */
  #rowsOf(e: AppError, paths: Map<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, message] of Object.entries(e.fields ?? {})) {
      const id = nodeAtPath(paths, path);
      if (id) out[id] ??= message;
    }
    return out;
  }

  /** Saves (makes or changes) the segment; answers it as the site has it now, or null (the form and the rows say why). */
  async save(): Promise<MailerSegment | null> {
    const found = problems(this.tree, this.vocabulary);
    const name = this.name.trim();
    if (found.length || !name) {
      this.rowErrors = Object.fromEntries(found.map((p) => [p.id, p.message]));
      const rows = found.length ? `${found.length === 1 ? 'One condition needs' : `${found.length} conditions need`} a look before the segment can be saved.` : null;
      this.action.showFields(name ? {} : { name: 'Give the segment a name.' }, rows);
      if (found.some((p) => p.id === this.tree.id)) this.action.error = 'Add at least one condition before saving.';
      return null;
    }
    const s = this.saved;
    const prefix = s ? 'changes.definition' : 'definition';
    const { definition, paths } = toDefinition(this.tree, prefix);
    const input = asSegmentDefinition(definition);
    if (!input) {
      this.action.showFields({}, 'This definition is deeper or longer than a site takes (4 levels of groups, 100 conditions).');
      return null;
    }
    const description = this.description.trim() || null;
    const onError = (e: AppError) => {
      const rows = this.#rowsOf(e, paths);
      if (Object.keys(rows).length) this.rowErrors = rows;
      return false;
    };
    let answer: { segment: MailerSegment } | null;
    if (!s) {
      answer = await this.action.run(() => invoke('mailer.createSegment', { siteId: this.siteId, name, ...(description ? { description } : {}), listId: this.listId, definition: input }), onError);
    } else {
      const changes: { name?: string; description?: string | null; listId?: number | null; definition?: typeof input } = {};
      if (name !== s.name) changes.name = name;
      if (description !== s.description) changes.description = description;
      if (this.listId !== s.listId) changes.listId = this.listId;
      if (definitionKey(definition) !== this.#savedKey) changes.definition = input;
      if (Object.keys(changes).length === 0) return s;
      answer = await this.action.run(() => invoke('mailer.updateSegment', { siteId: this.siteId, id: s.id, changes }), onError);
    }
    if (!answer) return null;
    // the site's spelling from now on (it may have tidied a value: "DE" is "de")
    this.#take(answer.segment);
    this.rowErrors = {};
    return answer.segment;
  }

  /** The saved segment counted now by the site. */
  async recount(): Promise<MailerSegment | null> {
    const s = this.saved;
    if (!s) return null;
    const r = await this.action.run(() => invoke('mailer.recountSegment', { siteId: this.siteId, id: s.id }));
    if (!r) return null;
    this.saved = r.segment;
    return r.segment;
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#seq++;
    this.action.dispose();
  }
}
