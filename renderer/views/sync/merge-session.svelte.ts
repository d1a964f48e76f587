/**
 * The state of one merge, without the DOM: the conflicted draft, the person's choices (per text
 * hunk: Mine, Theirs, Both, Base; per header field: Mine or Theirs; each clean change kept or
 * undone), and the result they make. The result follows the choices until it is edited by hand;
 * then new choices wait until the person starts again from them. Resolving saves the result as the
 * draft over the site's copy and sends it; the view shows what came of it. Tested in
 * test/unit/merge-session.test.ts.
 *
 *   const m = new MergeSession(draftId);
 *   await m.load();
 *   m.chooseHunk(0, 'theirs');   // m.result follows
 *   const outcome = await m.resolve();
 */
import { SvelteSet } from 'svelte/reactivity';
import type { DraftDetail, MergeHunk, SaveOutcome } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { toasts } from '../../lib/app.svelte';
import { chosen, fieldKey, headerToSend, isTitlePath, resolvedHeader, resolvedText, resolvedTitle, type FieldChoice, type HunkChoice, type Merge } from './resolution';

/** Unchanged runs longer than this are folded to their first and last lines. */
const FOLD = 8;
const EDGE = 3;

/** What came of Resolve: settled (pushed or queued, a toast said which), changed again on the site, or not saved. */
export type ResolveOutcome = 'settled' | 'changed_again' | 'not_saved';

/** What a resolution's push came to, as every kind of draft says it. */
export interface MergeOutcomeShape {
  outcome: 'pushed' | 'queued' | 'conflicted' | 'rejected' | 'signed_out';
  problem?: { message: string };
}

/**
 * Where a conflicted draft comes from and goes back to: a page's (the default), or a campaign's or
 * template's, given as page text (its name as the title, its fields as the header).
 */
export interface MergeSource<O extends MergeOutcomeShape> {
  get(): Promise<DraftDetail>;
  /** Saves the resolution as the draft over the site's copy and pushes it. */
  resolve(r: { title: string; content: string; header: Record<string, unknown> }): Promise<O>;
  /** The result's title field, and what is said when it is empty. */
  titleLabel: string;
  titleMissing: string;
  /** A field's name as the person knows it (null: the header field's keys), and what its fields are called together. */
  fieldWords(path: readonly string[]): string | null;
  fieldsNoun: string;
  /** The thing resolved, in the toasts. */
  what(d: DraftDetail): string;
}

export const pageSource = (draftId: number): MergeSource<SaveOutcome> => ({
  get: () => invoke('drafts.get', { draftId }),
  resolve: (r) => invoke('drafts.resolve', { draftId, ...r }),
  titleLabel: 'Title',
  titleMissing: 'A page needs a title.',
  fieldWords: (path) => (isTitlePath(path) ? 'Title' : null),
  fieldsNoun: 'Header fields',
  what: (d) => d.route,
});

export class MergeSession<O extends MergeOutcomeShape = SaveOutcome> {
  readonly draftId: number;
  readonly source: MergeSource<O>;
  detail = $state.raw<DraftDetail | null>(null);
  loading = $state(true);
  loadError = $state<AppError | null>(null);
  hunkChoices = $state<HunkChoice[]>([]);
  /** Per conflicting header field, by `fieldKey(path)`. */
  fieldChoices = $state<Record<string, FieldChoice>>({});
  /** Clean changes the person undid: text hunks by index, header fields by `fieldKey(path)` (their base goes back). */
  readonly undoneHunks = new SvelteSet<number>();
  readonly undoneFields = new SvelteSet<string>();
  /** Unchanged runs opened in full. */
  expanded = $state<Record<number, boolean>>({});
  /** The result's text, and the text the choices last put there (they differ once edited by hand). */
  result = $state('');
  applied = $state('');
  title = $state('');
  titleApplied = $state('');
  busy = $state(false);
  error = $state<string | null>(null);
  /** What the last resolution came to, once it settled (on the site, or kept here). */
  settled = $state.raw<O | null>(null);
  /** Said inside the view (the page changed again while merging). */
  note = $state<string | null>(null);

  constructor(draftId: number, source?: MergeSource<O>) {
    this.draftId = draftId;
    this.source = source ?? (pageSource(draftId) as unknown as MergeSource<O>);
  }

  readonly merge: Merge | null = $derived(this.detail?.state === 'conflicted' ? this.detail.merge : null);
  readonly hunks: MergeHunk[] = $derived(this.merge?.text.hunks ?? []);
  /** Hunk index → its number among the conflicts (1-based), 0 for unchanged runs. */
  readonly conflictNo: number[] = $derived.by(() => {
    let n = 0;
    return this.hunks.map((h) => (h.kind === 'conflict' ? ++n : 0));
  });
  readonly conflictCount: number = $derived(this.conflictNo.reduce((a, b) => Math.max(a, b), 0));
  readonly fromSite: number = $derived(this.hunks.filter((h) => h.kind === 'theirs').length);
  readonly yours: number = $derived(this.hunks.filter((h) => h.kind === 'mine').length);
  readonly fields = $derived(this.merge?.header.conflicts ?? []);
  readonly fieldChanges = $derived(this.merge?.header.changes ?? []);
  readonly generated: string = $derived(this.merge ? resolvedText(this.hunks, this.hunkChoices, this.merge.text.eol, this.undoneHunks) : '');
  readonly handEdited: boolean = $derived(this.result !== this.applied);
  /** Choices changed after a hand edit: they wait until the person starts again from them. */
  readonly choicesWaiting: boolean = $derived(this.handEdited && this.generated !== this.applied);
  readonly chosenTitle: string = $derived(
    this.merge && this.detail ? resolvedTitle(this.merge, this.fieldChoices, this.detail.mine.title, this.undoneFields) : '',
  );
  get titleError(): string | null {
    return this.title.trim() === '' ? this.source.titleMissing : null;
  }
  /** Anything done here that closing would drop (the draft itself is never touched by closing). */
  readonly worked: boolean = $derived(
    this.handEdited ||
      this.title !== this.titleApplied ||
      this.hunkChoices.some((c) => c !== 'mine') ||
      Object.values(this.fieldChoices).some((c) => c !== 'mine') ||
      this.undoneHunks.size > 0 ||
      this.undoneFields.size > 0,
  );

  reset(d: DraftDetail): void {
    this.detail = d;
    const m = d.state === 'conflicted' ? d.merge : null;
    this.hunkChoices = (m?.text.hunks ?? []).filter((h) => h.kind === 'conflict').map(() => 'mine' as const);
    this.fieldChoices = Object.fromEntries((m?.header.conflicts ?? []).map((c) => [fieldKey(c.path), 'mine' as const]));
    this.undoneHunks.clear();
    this.undoneFields.clear();
    this.expanded = {};
    const text = m ? resolvedText(m.text.hunks, this.hunkChoices, m.text.eol) : '';
    this.result = this.applied = text;
    this.title = this.titleApplied = m ? resolvedTitle(m, this.fieldChoices, d.mine.title) : d.mine.title;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.loadError = null;
    try {
      this.reset(await this.source.get());
    } catch (err) {
      this.loadError = AppError.from(err);
    } finally {
      this.loading = false;
    }
  }

  /** A new choice applies to the result unless the result was edited by hand (then it waits). */
  chooseHunk(i: number, choice: HunkChoice): void {
    const following = !this.handEdited;
    this.hunkChoices[i] = choice;
    if (following) this.result = this.applied = this.generated;
  }

  chooseField(path: readonly string[], choice: FieldChoice): void {
    this.fieldChoices[fieldKey(path)] = choice;
    this.#followTitle(path);
  }

  /** The choice made for a conflicting field (mine until one is made). */
  fieldChoice(path: readonly string[]): FieldChoice {
    return chosen(this.fieldChoices, path);
  }

  /** Whether a clean change of a header field is kept (not undone). */
  fieldKept(path: readonly string[]): boolean {
    return !this.undoneFields.has(fieldKey(path));
  }

  /** Keeps or undoes a clean change of the text (like a choice: waits while the result is edited by hand). */
  keepHunk(i: number, keep: boolean): void {
    const following = !this.handEdited;
    if (keep) this.undoneHunks.delete(i);
    else this.undoneHunks.add(i);
    if (following) this.result = this.applied = this.generated;
  }

  keepField(path: readonly string[], keep: boolean): void {
    if (keep) this.undoneFields.delete(fieldKey(path));
    else this.undoneFields.add(fieldKey(path));
    this.#followTitle(path);
  }

  // the title field follows its choice until it is typed in
  #followTitle(path: readonly string[]): void {
    if (isTitlePath(path) && this.title === this.titleApplied) this.title = this.titleApplied = this.chosenTitle;
  }

  startAgain(): void {
    this.result = this.applied = this.generated;
  }

  /** Lines of an unchanged run as shown: folded to its edges unless opened. */
  context(index: number, lines: string[]): { head: string[]; hidden: number; tail: string[] } {
    if (lines.length <= FOLD || this.expanded[index]) return { head: lines, hidden: 0, tail: [] };
    const first = index === 0;
    const last = index === this.hunks.length - 1;
    const head = first && !last ? [] : lines.slice(0, EDGE);
    const tail = last && !first ? [] : lines.slice(-EDGE);
    return { head, hidden: lines.length - head.length - tail.length, tail };
  }

  /** The resolution as the draft takes it: the title, the result's text, the header the choices make. */
  resolution(): { title: string; content: string; header: Record<string, unknown> } | null {
    const merge = this.merge;
    const detail = this.detail;
    if (!merge || !detail) return null;
    const title = this.title.trim();
    const merged = resolvedHeader(merge.header.merged, merge.header.conflicts, this.fieldChoices, merge.header.changes, this.undoneFields);
    return { title, content: this.result, header: headerToSend(merged, detail.mine.header, title) };
  }

  /** Saves the resolution as the draft over the site's copy, and sends that page to the site. */
  async resolve(): Promise<ResolveOutcome> {
    const detail = this.detail;
    const resolution = this.resolution();
    if (!detail || !resolution || this.busy || this.titleError) return 'not_saved';
    this.busy = true;
    this.error = null;
    this.note = null;
    let outcome: O;
    try {
      // saved here first, then it is pushed: whatever the push does, nothing is lost
      outcome = await this.source.resolve(resolution);
    } catch (err) {
      this.error = AppError.from(err).message;
      this.busy = false;
      return 'not_saved';
    }
    const route = this.source.what(detail);
    if (outcome.outcome === 'conflicted') {
      // someone changed it again meanwhile: the new differences, with my resolution as mine
      try {
        this.reset(await this.source.get());
      } finally {
        this.busy = false;
      }
      this.note = `${route} changed on the site again while you were merging. Your resolution is now “mine”: choose again for what differs now.`;
      return 'changed_again';
    }
    this.busy = false;
    this.settled = outcome;
    if (outcome.outcome === 'pushed') toasts.success(`Resolved and pushed ${route}`, 'The site has the merged text.');
    else if (outcome.outcome === 'rejected') toasts.show('error', `Resolved ${route}, but the site refused it`, outcome.problem?.message ?? '');
    else toasts.show('info', `Resolved ${route}; it waits to be pushed`, outcome.problem?.message ?? '');
    return 'settled';
  }
}

export const SIDES = ['base', 'mine', 'theirs'] as const;
export const PICKS = ['mine', 'theirs'] as const;
export const sideLabel = { base: 'Base', mine: 'Mine', theirs: 'Theirs' } as const;
export const sideHint = { base: 'what both started from', mine: 'your text', theirs: 'on the site now' } as const;
/** What a clean change is called, and what keeping it means. */
export const changeLabel = (h: { kind: 'mine' | 'theirs'; alsoTheirs?: true }) =>
  h.kind === 'theirs' ? 'From the site' : h.alsoTheirs ? 'Yours and the site’s' : 'Yours';
export const changeHint = (h: { kind: 'mine' | 'theirs'; alsoTheirs?: true }) =>
  h.kind === 'theirs' ? 'changed on the site since your copy; it is in the result' : h.alsoTheirs ? 'the same change on both sides' : 'your change; it is in the result';
