/**
 * The state of one page editor, without the DOM: the page as the site has it (`saved`, the baseline
 * with the ETag If-Match needs), the working copy (content, header, template, slug, order), what is
 * dirty, and the draft that keeps every edit on this computer until it is on the site. Save, move,
 * delete and the conflict actions (take the site's copy, keep mine as a copy) live here, so the
 * "never lose a word" logic is tested without a browser (test/unit/page-editor.test.ts).
 *
 * Unsent text has one home in the renderer: this module. Text an editor had not saved when it went
 * away (its tab closed, another page chosen) is left in `leftBehind` and offered back by the next
 * session of the same page and language; everything else is the Host's draft.
 *
 * Save (with the move it may carry) runs through the session's own FormAction (`action`): busy, the
 * form's alert, the messages under the fields and a rate limit's countdown are that class's, as in
 * every other form; a conflict is taken over to open the conflict choice. The session stops it.
 *
 *   const ed = new EditorSession({ siteId, route, lang, canWrite: () => pages.canWrite, lookups: pages });
 *   const stop = ed.start();     // loads the page, keeps drafts, follows pushes made elsewhere
 *   ed.content = '…'; await ed.save();
 */
import { untrack } from 'svelte';
import type { DraftDetail, DraftInfo, Header, Page, PageBlueprint, PageLanguages, PageMediaItem, SaveOutcome } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { toasts } from '../../lib/app.svelte';
import { FormAction } from '../../lib/form-action.svelte';
import { sync } from '../../state/sync.svelte';
import { headerPath, setAt } from './header-form';
import { same } from '../../../electron/common/merge';
import { parentOf, slugOf } from '../../../electron/common/route';
import { unsavedEdits } from './unsaved.svelte';

/** Text an editor went away from without saving, offered back by the next editor of that page. */
export interface LeftBehind {
  /** The ETag the text was based on: saving it later conflicts if the page changed meanwhile. */
  baseEtag: string | null;
  title: string;
  content: string;
  header: Header;
  template: string;
  at: number;
}

const leftBehind = new Map<string, LeftBehind>();
const stashKey = (siteId: string, route: string, lang: string | null | undefined) => `${siteId}\u0000${route}\u0000${lang ?? ''}`;

/** How long typing pauses before the text is kept on this computer. */
export const PERSIST_DELAY_MS = 600;
/** How often text a full disk refused is offered again (the Host answers at once while it is still full). */
export const FULL_DISK_RETRY_MS = 3000;

/**
 * What the editor looks up on the site, the same for every page of it: the site's Pages state
 * (which mounts the editor) keeps them, so every editor of the site shares one read.
 */
export interface SiteLookups {
  /** The signed-in account may write pages. */
  readonly canWrite: boolean;
  /** Why it may not (a demo account's rule, or the permission), when the site's state says. */
  readonly writeBlocked?: string | null;
  loadTemplates(): Promise<{ type: string; label: string }[]>;
  loadTaxonomy(): Promise<Record<string, string[]>>;
}

export interface EditorSessionOptions {
  siteId: string;
  route: string;
  lang?: string | undefined;
  /** The signed-in account may write pages (read when it matters: the session may change). */
  canWrite: () => boolean;
  /** The site's lookups, read once per site and shared by its editors (the site's Pages state). */
  lookups: SiteLookups;
  /** A refused save named fields: the view shows the one that comes first. */
  onAttention?: (field: string) => void;
  onSaved?: (page: Page) => void;
  onMoved?: (route: string) => void;
}

const truthy = (v: unknown) => v === true || v === 1 || v === '1' || v === 'true';
const langInput = (l: string | undefined) => (l ? { lang: l } : {});
// a JSON copy, not $state.snapshot: the snapshot sets keys by assignment, and a site's `__proto__`
// key would become the copy's prototype instead of a field (contract/header.ts)
const clone = (h: Header): Header => JSON.parse(JSON.stringify(h)) as Header;

export class EditorSession {
  readonly siteId: string;
  readonly #opts: EditorSessionOptions;

  /** The route and language shown (a move or a language switch changes them). */
  current = $state<{ route: string; lang: string | undefined }>({ route: '', lang: undefined });
  loading = $state(true);
  loadError = $state<AppError | null>(null);
  /** The last plain read (or save answer): the baseline, with the ETag If-Match needs. */
  saved = $state<Page | null>(null);
  languages = $state<PageLanguages | null>(null);
  /** The site's lookups the header form needs (the site's, shared by its editors; see `lookups`). */
  templates = $state<{ type: string; label: string }[]>([]);
  taxonomy = $state<Record<string, string[]>>({});
  blueprint = $state<PageBlueprint | null>(null);
  blueprintError = $state<string | null>(null);
  readonly #blueprints = new Map<string, PageBlueprint>();
  /** The page's media as the Media tab last listed them (uploads and deletes there count too). */
  media = $state<PageMediaItem[] | null>(null);

  // the working copy
  content = $state('');
  header = $state<Header>({});
  template = $state('default');
  slug = $state('');
  order = $state('');

  /**
   * Save's run: busy, the alert (the Host's message over the fields it names), the messages under
   * the fields by their dotted paths (`title`, `header.date`), a 429's countdown with Save held back.
   */
  readonly action = new FormAction({ rateLimit: 'wait', alertWithFields: true, disposeWith: 'owner' });
  /** The header panel shows the raw YAML (kept while the panel is away during a load). */
  yamlMode = $state(false);
  /** The header's raw YAML does not parse (the header panel says where): Save waits for it. */
  headerInvalid = $state(false);
  /** Bumped whenever the header is replaced from outside the header panel (a load, a save's answer). */
  headerRevision = $state(0);
  /** Bumped whenever the site's copy was read anew: the site's preview follows it. */
  siteRevision = $state(0);

  /** Text left behind by an earlier editor is back (when it was typed). */
  restoredAt = $state<number | null>(null);
  lastSavedAt = $state<number | null>(null);
  /** The local draft: the text kept on this computer until it is on the site. */
  localDraft = $state<DraftInfo | null>(null);
  persistError = $state<string | null>(null);
  /** The disk was full: the text is offered again every few seconds until it is kept. */
  persistRetrying = $state(false);
  /** The last Save could not reach the site: the draft waits for the next sync. */
  waitingForSite = $state<string | null>(null);
  /** The draft came from an earlier session: said so, with a way to drop it. */
  draftRestored = $state(false);

  conflictOpen = $state(false);
  /** The merge view has the draft: what becomes of it is its answer, not something to look up. */
  merging = $state(false);
  conflictBusy = $state<'reload' | 'copy' | null>(null);
  conflictError = $state<string | null>(null);

  /** What the local draft holds, to tell "kept here" from "typed since". */
  #persistedKey = $state<string | null>(null);
  /** The text a Save left queued (the site did not answer): leaving it is what the user chose. */
  #queuedKey = $state<string | null>(null);
  #persistTimer: ReturnType<typeof setTimeout> | null = null;
  /** A keep-it-here on its way: a Save waits for it, so it cannot land after the Save's push. */
  #inflight: Promise<void> | null = null;

  constructor(opts: EditorSessionOptions) {
    this.#opts = opts;
    this.siteId = opts.siteId;
    this.current = { route: opts.route, lang: opts.lang };
  }

  get canWrite(): boolean {
    return this.#opts.canWrite();
  }

  // ── derived ─────────────────────────────────────────────────────────────────────────────
  readonly title: string = $derived(
    typeof this.header.title === 'string' ? this.header.title : this.header.title === undefined ? '' : String(this.header.title),
  );
  readonly published: boolean = $derived(this.header.published !== undefined ? truthy(this.header.published) : (this.saved?.published ?? true));
  readonly visible: boolean = $derived(this.header.visible !== undefined ? truthy(this.header.visible) : (this.saved?.visible ?? true));
  readonly savedSlug: string = $derived(this.saved ? this.saved.slug || slugOf(this.current.route) : '');
  readonly savedOrder: string = $derived(this.saved?.order === null || this.saved?.order === undefined ? '' : String(this.saved.order));
  readonly contentDirty: boolean = $derived(
    this.saved !== null &&
      (this.content !== this.saved.content || !same(this.header, this.saved.header) || this.template !== this.saved.template),
  );
  readonly moveDirty: boolean = $derived(this.saved !== null && (this.slug.trim() !== this.savedSlug || this.order.trim() !== this.savedOrder));
  readonly dirty: boolean = $derived(this.contentDirty || this.moveDirty);
  readonly mediaNames: string[] = $derived((this.media ?? this.saved?.media ?? []).map((m) => m.filename));
  readonly heading: string = $derived(this.saved?.title || this.current.route);
  readonly currentLanguage: string | null = $derived(this.saved?.language ?? this.current.lang ?? this.languages?.defaultLanguage ?? null);
  readonly pageLanguages: string[] = $derived(
    this.languages ? Object.keys(this.languages.translated) : this.saved?.language ? [this.saved.language] : [],
  );
  /** The language shown has a file of its own (or is the default one the base file holds): it can be deleted alone. */
  readonly hasOwnFile: boolean = $derived(this.currentLanguage !== null && this.languages !== null && this.currentLanguage in this.languages.translated);
  readonly editKey: string = $derived(JSON.stringify([this.title, this.content, this.header, this.template]));
  readonly keptHere: boolean = $derived(this.localDraft !== null && (!this.contentDirty || this.#persistedKey === this.editKey));
  /** Leaving asks first only about text the user has not saved (a Save that queued it counts). */
  readonly mustAsk: boolean = $derived(this.moveDirty || (this.contentDirty && this.editKey !== this.#queuedKey));
  readonly stateKind: 'opening' | 'saving' | 'conflict' | 'dirty' | 'local' | 'saved' = $derived(
    this.loading
      ? 'opening'
      : this.saving
        ? 'saving'
        : this.localDraft?.state === 'conflicted'
          ? 'conflict'
          : (this.contentDirty && !this.keptHere) || this.moveDirty
            ? 'dirty'
            : this.localDraft
              ? 'local'
              : 'saved',
  );
  readonly stateText: string = $derived(
    {
      opening: 'Opening…',
      saving: 'Saving…',
      conflict: 'Conflicts with the site',
      dirty: 'Unsaved changes',
      local: 'Saved on this computer',
      saved: 'Saved',
    }[this.stateKind],
  );

  get saving(): boolean {
    return this.action.busy;
  }
  get errors(): Partial<Record<string, string>> {
    return this.action.fields;
  }
  /** The form's alert: what went wrong, or the site's words about the rate limit holding Save back. */
  get formError(): string | null {
    return this.action.error ?? this.action.limitMessage;
  }
  /** The rate limit's countdown (Save waits it out). */
  get wait() {
    return this.action.wait;
  }

  // ── life ────────────────────────────────────────────────────────────────────────────────
  /** Opens the page and keeps the draft in step; the returned function stops it (leaving nothing unsent behind). */
  start(): () => void {
    void this.load(this.current.route, this.current.lang);
    void this.#opts.lookups.loadTemplates().then((list) => (this.templates = list));
    void this.#opts.lookups.loadTaxonomy().then((t) => (this.taxonomy = t));
    const stopEffects = $effect.root(() => {
      // the blueprint follows the template select
      $effect(() => {
        const t = this.template;
        if (this.saved) untrack(() => void this.#loadBlueprint(t));
      });
      // every change is kept on this computer shortly after the typing stops
      $effect(() => {
        void this.editKey;
        if (!this.saved || this.loading) return;
        untrack(() => this.#schedulePersist());
      });
      // the draft may go out without this editor (auto-sync, the Changes area)
      $effect(() => {
        void sync.revision(this.siteId);
        untrack(() => void this.followDraft().catch(() => {}));
      });
    });
    return () => {
      stopEffects();
      this.action.dispose();
      this.#leaveBehind();
      if (this.#persistTimer) void this.persist();
    };
  }

  /** Another page or language chosen by the caller: what was typed here is left behind first. */
  open(route: string, lang: string | undefined): void {
    this.#leaveBehind();
    this.current = { route, lang };
    this.languages = null;
    void this.load(route, lang);
  }

  // ── loading ─────────────────────────────────────────────────────────────────────────────
  applyPage(page: Page): void {
    this.saved = page;
    this.media = null;
    this.content = page.content;
    this.header = clone(page.header);
    this.template = page.template;
    this.slug = page.slug || slugOf(page.route);
    this.order = page.order === null ? '' : String(page.order);
    this.action.reset();
    this.headerRevision++;
  }

  async load(r: string, l: string | undefined, opts: { quiet?: boolean } = {}): Promise<void> {
    if (!opts.quiet) this.loading = true;
    this.loadError = null;
    const still = () => r === this.current.route && l === this.current.lang;
    try {
      const { page, draft } = await invoke('pages.open', { siteId: this.siteId, route: r, ...langInput(l) });
      if (!still()) return; // something else was opened meanwhile
      this.applyPage(page);
      this.restoredAt = null;
      this.localDraft = null;
      this.#persistedKey = null;
      this.waitingForSite = null;
      this.#queuedKey = null;
      this.draftRestored = false;
      const key = stashKey(this.siteId, r, l);
      const stashed = leftBehind.get(key) ?? null;
      leftBehind.delete(key);
      if (draft) this.#restoreDraft(draft, page);
      if (stashed) {
        // the text left behind by an editor that went away: offered back, based on what it was based on
        this.content = stashed.content;
        this.header = stashed.header;
        this.template = stashed.template;
        this.headerRevision++;
        if (stashed.baseEtag !== page.etag) this.saved = { ...page, etag: stashed.baseEtag };
        this.restoredAt = stashed.at;
      }
      void this.#loadLanguages(r);
      this.siteRevision++;
    } catch (err) {
      this.loadError = AppError.from(err);
    } finally {
      this.loading = false;
    }
  }

  async #loadLanguages(r: string): Promise<void> {
    try {
      const l = await invoke('translations.languages', { siteId: this.siteId, route: r });
      if (r === this.current.route) this.languages = l;
    } catch {
      this.languages = null; // a single-language site: the switcher shows the page's own language only
    }
  }

  async #loadBlueprint(t: string): Promise<void> {
    this.blueprintError = null;
    const cached = this.#blueprints.get(t);
    if (cached) {
      this.blueprint = cached;
      return;
    }
    try {
      const bp = await invoke('blueprints.page', { siteId: this.siteId, template: t });
      this.#blueprints.set(t, bp);
      if (t === this.template) this.blueprint = bp;
    } catch (err) {
      const e = AppError.from(err);
      this.blueprint = null;
      this.blueprintError = e.code === 'not_found' ? `The site has no blueprint for the template “${t}”.` : e.message;
    }
  }

  /** A draft of this page kept from an earlier session (or made offline) comes back into the editor. */
  #restoreDraft(draft: DraftDetail, page: Page): void {
    const { mine } = draft;
    this.localDraft = draft;
    this.draftRestored = true;
    this.content = mine.content;
    this.header = { ...(mine.header as Header), ...(mine.title !== (page.header.title ?? page.title) ? { title: mine.title } : {}) };
    if (mine.template) this.template = mine.template;
    this.headerRevision++;
    this.#persistedKey = this.editKey; // deriveds read fresh: this is the draft's own text
    if (draft.state === 'rejected' && draft.problem) this.#showRefusal(draft.problem);
  }

  #leaveBehind(): void {
    if (!this.saved || !this.contentDirty) return;
    leftBehind.set(stashKey(this.siteId, this.current.route, this.current.lang), {
      baseEtag: this.saved.etag,
      title: this.title,
      content: this.content,
      header: clone(this.header),
      template: this.template,
      at: Date.now(),
    });
  }

  // ── the local draft ─────────────────────────────────────────────────────────────────────
  #schedulePersist(): void {
    if (this.#persistTimer) clearTimeout(this.#persistTimer);
    this.#persistTimer = setTimeout(() => void this.persist(), PERSIST_DELAY_MS);
  }

  #cancelPersist(): void {
    if (this.#persistTimer) clearTimeout(this.#persistTimer);
    this.#persistTimer = null;
  }

  #draftInput() {
    const base = this.saved!;
    return {
      siteId: this.siteId,
      route: this.current.route,
      ...langInput(this.current.lang),
      title: this.title,
      content: this.content,
      header: clone(this.header),
      ...(this.template !== base.template ? { template: this.template } : {}),
      ...(this.published !== base.published ? { published: this.published } : {}),
      ...(this.visible !== base.visible ? { visible: this.visible } : {}),
    };
  }

  /** Keeps the text on this computer now; a draft that went back to the site's copy is dropped. */
  async persist(): Promise<void> {
    this.#cancelPersist();
    if (!this.saved || !this.canWrite || this.loading) return;
    if (!this.contentDirty) {
      if (this.localDraft && this.localDraft.state === 'pending') await this.#dropDraft();
      return;
    }
    const key = this.editKey;
    if (key === this.#persistedKey && this.localDraft) return;
    try {
      const saving = invoke('drafts.save', this.#draftInput());
      this.#inflight = saving.then(() => undefined, () => undefined);
      this.localDraft = await saving;
      this.#persistedKey = key;
      this.persistError = null;
      this.persistRetrying = false;
    } catch (err) {
      const e = AppError.from(err);
      this.persistError = e.message;
      // a full disk: the text stays here and is kept again, by itself, once the disk has room
      this.persistRetrying = e.code === 'disk_full';
      if (this.persistRetrying && !this.#persistTimer) this.#persistTimer = setTimeout(() => void this.persist(), FULL_DISK_RETRY_MS);
    }
  }

  async #dropDraft(): Promise<void> {
    const d = this.localDraft;
    if (!d) return;
    await invoke('drafts.discard', { draftId: d.id });
    if (this.localDraft?.id === d.id) {
      this.localDraft = null;
      this.#persistedKey = null;
    }
  }

  #forgetDraft(): void {
    this.localDraft = null;
    this.#persistedKey = null;
    this.waitingForSite = null;
    this.#queuedKey = null;
    this.draftRestored = false;
  }

  /**
   * When the site's sync state moves, find out what became of the draft. Pushed → the site's copy is
   * the new baseline (and the text, unless something was typed since); conflicted or refused → the
   * banners say so.
   */
  async followDraft(): Promise<void> {
    const d = this.localDraft;
    if (!d || this.saving || this.merging) return;
    const now = await invoke('drafts.get', { draftId: d.id }).catch((err: unknown) => {
      if (AppError.from(err).code === 'not_found') return null; // gone: it reached the site
      throw err;
    });
    if (this.localDraft?.id !== d.id || this.saving) return;
    if (now) {
      if (now.state !== d.state || now.updatedAt !== d.updatedAt) this.localDraft = now;
      return;
    }
    const untouched = this.#persistedKey === this.editKey;
    const page = await invoke('pages.get', { siteId: this.siteId, route: this.current.route, ...langInput(this.current.lang) });
    if (this.localDraft?.id !== d.id) return;
    this.#forgetDraft();
    if (untouched) this.applyPage(page);
    else this.saved = page; // what was typed since stays, as a change over the site's new copy
    this.lastSavedAt = Date.now();
    this.siteRevision++;
  }

  // ── editing ─────────────────────────────────────────────────────────────────────────────
  /** Sets one header field by its blueprint name (`header.title`, `header.taxonomy.tag`, …). */
  setHeader(name: string, value: unknown): void {
    this.header = setAt(this.header, headerPath(name), value);
    this.clearError(name);
  }

  clearError(name: string): void {
    this.action.clearField(name);
  }

  /** A refusal kept with the draft: its message in the alert, its fields under theirs (the first one brought forward). */
  #showRefusal(problem: { message: string; fields?: Record<string, string> }): void {
    this.action.showFields(problem.fields ?? {}, problem.message);
    this.#attend(problem.fields);
  }

  #attend(fields: Record<string, string> | undefined): void {
    const first = Object.keys(fields ?? {})[0];
    if (first) this.#opts.onAttention?.(first);
  }

  // ── saving ──────────────────────────────────────────────────────────────────────────────
  /** Saves the text (and moves the page when slug or order changed). True when all of it worked. */
  async save(): Promise<boolean> {
    if (this.action.blocked || !this.saved || !this.canWrite) return false;
    if (this.headerInvalid) {
      this.#opts.onAttention?.('header');
      this.action.error = 'The header YAML has an error; fix it before saving.';
      return false;
    }
    if (!this.dirty) return true;
    const outcome = await this.action.attempt(
      async () => {
        if (this.contentDirty || this.localDraft) {
          if (!(await this.#sendText())) return false;
        }
        if (this.moveDirty) await this.#move();
        return true;
      },
      (e) => {
        if (e.code !== 'conflict') return false;
        this.#openConflict();
        return true;
      },
    );
    if (!outcome) return false; // held back by a rate limit's wait
    if (!outcome.ok) {
      this.#attend(outcome.error.fields);
      return false;
    }
    return outcome.value;
  }

  #openConflict(): void {
    this.conflictError = null;
    this.conflictOpen = true;
  }

  /** The text's part of a Save: false when it stopped short of the site (conflict, refusal, signed out). */
  async #sendText(): Promise<boolean> {
    // the site's own rule, checked here: a draft may lack a title, a page on the site may not
    if (this.title.trim() === '') throw new AppError({ code: 'invalid_input', message: 'The page needs attention.', fields: { title: 'A page needs a title.' } });
    const sent = { title: this.title, content: this.content, header: clone(this.header), template: this.template };
    this.#cancelPersist();
    await this.#inflight;
    const outcome = await invoke('drafts.submit', this.#draftInput());
    this.persistError = null;
    return this.#took(outcome, sent);
  }

  /** What a Save came to, as this editor shows it. */
  #took(o: SaveOutcome, sent: { title: string; content: string; header: Header; template: string }): boolean {
    if (o.outcome !== 'pushed') {
      this.localDraft = o.draft;
      this.#persistedKey = JSON.stringify([sent.title, sent.content, sent.header, sent.template]);
    }
    switch (o.outcome) {
      case 'conflicted':
        this.#openConflict();
        return false;
      case 'rejected':
        // the draft keeps the refusal; the form shows it as any refused call's
        throw new AppError({ code: 'invalid_input', message: o.problem.message, ...(o.problem.fields ? { fields: o.problem.fields } : {}) });
      case 'signed_out':
        throw new AppError({ code: 'unauthorized', message: `${o.problem.message} Your text is kept on this computer and goes out after you sign in again.` });
      case 'queued':
        // the site did not answer: the text is safe here and goes out with the next sync
        this.waitingForSite = o.problem.message;
        this.#queuedKey = this.editKey;
        return true;
      case 'pushed':
        break;
    }
    this.#forgetDraft();
    const page = o.page;
    // text typed while the save was on its way stays a change; otherwise take the site's form of it
    const untouched = this.content === sent.content && same(this.header, sent.header) && this.template === sent.template;
    this.saved = page;
    if (untouched) {
      this.content = page.content;
      this.header = clone(page.header);
      this.template = page.template;
      this.headerRevision++;
    }
    this.restoredAt = null;
    this.lastSavedAt = Date.now();
    this.#opts.onSaved?.(page);
    this.siteRevision++;
    return true;
  }

  async #move(): Promise<void> {
    // the parent as the site said it (its structural route), never cut from a public address
    const route = this.current.route;
    const parent = this.saved?.parentRoute ?? parentOf(route);
    const newSlug = this.slug.trim();
    const newOrder = this.order.trim();
    if (newSlug === '' || newSlug.includes('/')) {
      throw new AppError({ code: 'invalid_input', message: 'The slug needs attention.', fields: { slug: 'A slug is one name without slashes.' } });
    }
    if (newOrder !== '' && !/^\d+$/.test(newOrder)) {
      throw new AppError({ code: 'invalid_input', message: 'The order needs attention.', fields: { order: 'The order is a whole number (0 or more), or empty.' } });
    }
    const r = await invoke('pages.move', {
      siteId: this.siteId,
      route,
      parent,
      ...(newSlug !== this.savedSlug ? { slug: newSlug } : {}),
      ...(newOrder !== this.savedOrder && newOrder !== '' ? { order: Number(newOrder) } : {}),
    });
    this.current = { route: r.route, lang: this.current.lang };
    await this.load(r.route, this.current.lang, { quiet: true });
    if (r.queued) toasts.info('The move waits for the site', `${r.route} here now; the site gets it with the next sync.`);
    else toasts.success('Page moved', r.route);
    this.#opts.onMoved?.(r.route);
  }

  // ── the conflict ────────────────────────────────────────────────────────────────────────
  /** Drops my draft and shows the site's copy. */
  async reloadDiscarding(): Promise<void> {
    await this.#conflictAction('reload', async () => {
      await this.#dropDraft();
      await this.#reload();
      toasts.info('Showing the site’s version', 'Your changes were discarded.');
    });
  }

  /** Saves my text as a new page beside this one (`-copy`, `-copy-2`, …) and shows the site's copy here. */
  async keepAsCopy(): Promise<void> {
    const saved = this.saved;
    if (!saved) return;
    await this.#conflictAction('copy', async () => {
      const created = await invoke('pages.copyAsNew', {
        siteId: this.siteId,
        route: this.current.route,
        ...langInput(this.current.lang),
        title: this.title.trim() || saved.title || slugOf(this.current.route),
        content: this.content,
        header: clone(this.header),
        template: this.template,
      });
      await this.#dropDraft();
      await this.#reload();
      toasts.success('Your version was saved as a copy', created.route);
    });
  }

  async #conflictAction(kind: 'reload' | 'copy', act: () => Promise<void>): Promise<void> {
    this.conflictBusy = kind;
    this.conflictError = null;
    try {
      await act();
      this.conflictOpen = false;
    } catch (err) {
      this.conflictError = AppError.from(err).message;
    } finally {
      this.conflictBusy = null;
    }
  }

  async #reload(): Promise<void> {
    await this.load(this.current.route, this.current.lang, { quiet: true });
    if (this.loadError) throw this.loadError;
  }

  /**
   * The merge view settled the conflict with this outcome. On the site: its copy (the answer
   * carries it) is the page now. Otherwise the resolution is the draft, read back as on opening.
   */
  async merged(o: SaveOutcome): Promise<void> {
    if (o.outcome === 'pushed') {
      this.#forgetDraft();
      this.applyPage(o.page);
      this.lastSavedAt = Date.now();
      this.siteRevision++;
      toasts.success('Merged and saved', this.current.route);
      return;
    }
    await this.load(this.current.route, this.current.lang, { quiet: true });
  }

  // ── discarding, switching, deleting ─────────────────────────────────────────────────────
  /** Back to the site's copy: what was typed and the draft are dropped. */
  async discard(): Promise<void> {
    this.#cancelPersist();
    if (this.saved) this.applyPage(this.saved);
    await this.#dropDraft();
  }

  /** Drops the draft (or the text left behind) that came back, and reads the page again. */
  async discardRestored(): Promise<void> {
    await this.discard();
    void this.load(this.current.route, this.current.lang, { quiet: true });
  }

  async switchLanguage(next: string): Promise<void> {
    this.current = { route: this.current.route, lang: next };
    await this.load(this.current.route, next);
  }

  /** Deletes the language shown (its file only) or the whole page; true when the page is gone. */
  async delete(what: 'page' | 'language'): Promise<boolean> {
    const lang = this.currentLanguage;
    if (what === 'language' && lang) {
      await invoke('pages.delete', { siteId: this.siteId, route: this.current.route, lang });
      toasts.success(`Deleted the ${lang.toUpperCase()} translation`, this.heading);
      const rest = this.pageLanguages.filter((l) => l !== lang);
      this.current = { route: this.current.route, lang: rest[0] };
      if (this.saved) this.applyPage(this.saved); // nothing unsaved remains of a deleted file
      await this.load(this.current.route, this.current.lang);
      return false;
    }
    const r = await invoke('pages.delete', { siteId: this.siteId, route: this.current.route, ...(this.saved?.hasChildren ? { children: true } : {}) });
    if (r.queued) toasts.info('The delete waits for the site', `${this.current.route} is gone here; the site gets it with the next sync.`);
    else toasts.success('Page deleted', this.current.route);
    this.saved = null; // nothing left behind
    return true;
  }
}
