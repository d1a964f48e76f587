/**
 * One site's Settings area: its scopes, the scope open now as a form (the site's values and a
 * working copy the person edits), what the copy changed (the diff shown before a save), the
 * blueprint's own rules, the save and the undo of the last one. Only changed leaves are sent, so
 * a masked secret the person did not retype stays the site's.
 */
import type { BlueprintOption, SettingsForm, SettingsLeafChange, SettingsScopeInfo, SettingsScopes } from '../../../electron/contract/index';
import { settingsWriteBlocked, type Me } from '../../../electron/contract/index';
import { leafChanges } from '../../../electron/common/config-changes';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { FormAction } from '../../lib/form-action.svelte';
import { formTree, unresolvedOptions, withResolvedOptions, type FormNode } from '../../components/blueprint-form/form-tree';
import { checkForm } from '../../components/blueprint-form/form-validate';
import type { FormValues } from '../../components/blueprint-form/form-values';
import { withValue } from '../../components/blueprint-form/form-values';

export class SettingsState {
  readonly siteId: string;
  scopes = $state<SettingsScopeInfo[]>([]);
  scopesCopiedAt = $state<string | null>(null);
  scopesError = $state<AppError | null>(null);
  loadingScopes = $state(true);

  scope = $state<string | null>(null);
  form = $state.raw<SettingsForm | null>(null);
  values = $state.raw<FormValues>({});
  formError = $state<AppError | null>(null);
  loadingForm = $state(false);
  /** The rules broken so far, shown once a save was tried or the field was left. */
  shownErrors = $state<Record<string, string>>({});
  /** What the last save here changed (undo writes each `before` back). */
  lastSaved = $state.raw<{ scope: string; changes: SettingsLeafChange[] } | null>(null);
  /** The form's tree, made once per blueprint (not at every read of it). */
  readonly tree: FormNode[] = $derived(this.form ? formTree(this.form.fields) : []);
  /** The leaves the working copy changed against what the site holds. */
  readonly changes: SettingsLeafChange[] = $derived(this.form ? leafChanges(this.form.values, this.values) : []);
  readonly save = new FormAction({ rateLimit: 'wait', disposeWith: 'owner' });
  #seq = 0;

  constructor(siteId: string) {
    this.siteId = siteId;
  }


  /** Why nothing can be saved here now, or null. */
  blockedReason(me: Me | null): string | null {
    if (!this.form || !this.scope) return null;
    if (this.form.copiedAt) return 'The site is not reachable: these are the settings as last read, and they cannot be saved until it answers.';
    return me ? settingsWriteBlocked(me, this.scope) : 'Sign in to change the settings.';
  }

  async loadScopes(): Promise<void> {
    this.loadingScopes = true;
    this.scopesError = null;
    try {
      const r: SettingsScopes = await invoke('settings.scopes', { siteId: this.siteId });
      this.scopes = r.scopes;
      this.scopesCopiedAt = r.copiedAt;
      if (!this.scope && r.scopes[0]) await this.open(r.scopes[0].id);
    } catch (err) {
      this.scopesError = AppError.from(err);
    } finally {
      this.loadingScopes = false;
    }
  }

  async open(scope: string): Promise<void> {
    const mine = ++this.#seq;
    this.scope = scope;
    this.loadingForm = true;
    this.formError = null;
    this.shownErrors = {};
    this.save.reset();
    try {
      const form = await invoke('settings.open', { siteId: this.siteId, scope });
      if (mine !== this.#seq) return;
      this.form = form;
      this.values = form.values;
      void this.#resolveOptions(mine);
    } catch (err) {
      if (mine !== this.#seq) return;
      this.form = null;
      this.formError = AppError.from(err);
    } finally {
      if (mine === this.#seq) this.loadingForm = false;
    }
  }

  /** Fields whose options the site resolves (time zones, page types) become selects once they arrive; a failure leaves a text box. */
  async #resolveOptions(mine: number): Promise<void> {
    const form = this.form;
    if (!form || form.copiedAt) return;
    const callables = unresolvedOptions(form.fields);
    if (!callables.length) return;
    const answers = await Promise.allSettled(callables.map((callable) => invoke('blueprints.options', { siteId: this.siteId, callable })));
    if (mine !== this.#seq || this.form !== form) return;
    const resolved = new Map(callables.flatMap((c, i) => (answers[i]!.status === 'fulfilled' ? [[c, (answers[i] as PromiseFulfilledResult<BlueprintOption[]>).value] as const] : [])));
    if (resolved.size) this.form = { ...form, fields: withResolvedOptions(form.fields, resolved) };
  }

  set(name: string, value: unknown): void {
    this.values = withValue(this.values, name.split('.'), value);
    if (this.shownErrors[name]) {
      const next = { ...this.shownErrors };
      delete next[name];
      this.shownErrors = next;
    }
    this.save.clearField(name);
  }

  /** The blueprint's rules over the working copy; shown at their fields. False when one is broken. */
  check(): boolean {
    const errors = checkForm(this.tree, this.values);
    // a rule broken by a value the person did not touch is the site's business, not this save's
    const touched = new Set(this.changes.map((c) => c.path.join('.')));
    const mine = Object.fromEntries(Object.entries(errors).filter(([name]) => touched.has(name)));
    this.shownErrors = mine;
    return Object.keys(mine).length === 0;
  }

  /** Saves the working copy's changes; answers true when the site took them. */
  async commit(): Promise<boolean> {
    const form = this.form;
    const changes = this.changes;
    if (!form || !this.scope || changes.length === 0 || !this.check()) return false;
    return this.#send(form, changes.map((c) => ({ path: c.path, ...(c.after === undefined ? {} : { value: c.after }) })));
  }

  /** Writes the previous values of the last save back. */
  async undo(): Promise<boolean> {
    const last = this.lastSaved;
    const form = this.form;
    if (!last || !form || last.scope !== this.scope) return false;
    const ok = await this.#send(form, last.changes.map((c) => ({ path: c.path, ...(c.before === undefined ? {} : { value: c.before }) })));
    if (ok) this.lastSaved = null;
    return ok;
  }

  async #send(form: SettingsForm, changes: { path: string[]; value?: unknown }[]): Promise<boolean> {
    const scope = form.scope;
    const saved = await this.save.run(() => invoke('settings.save', { siteId: this.siteId, scope, etag: form.etag, changes }));
    if (!saved) return false;
    this.form = { ...saved.form, fields: form.fields }; // the options resolved for this form stay
    this.values = saved.form.values;
    this.lastSaved = saved.changes.length ? { scope, changes: saved.changes } : null;
    return true;
  }

  dispose(): void {
    this.save.dispose();
  }
}
