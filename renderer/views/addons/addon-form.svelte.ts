/**
 * A plugin's form (its admin page of the blueprint type, or one of its settings panels): the
 * blueprint read from the site (blueprints.pluginPage), the data its endpoint answers, the working
 * copy the person edits, the blueprint's own rules, and Save (the whole form, as the plugin's
 * endpoint takes it). The renderer names the page or panel only; the Host finds its endpoints.
 * The site's 422 lands at the fields (form-errors.ts), the rest in the form's alert.
 */
import type { BlueprintField } from '../../../electron/contract/index';
import { invoke } from '../../lib/client';
import { AppError } from '../../lib/errors';
import { FormAction } from '../../lib/form-action.svelte';
import { fieldsOf, formTree, type FormNode } from '../../components/blueprint-form/form-tree';
import { checkForm } from '../../components/blueprint-form/form-validate';
import { withValue, type FormValues } from '../../components/blueprint-form/form-values';
import { placeErrors } from './form-errors';

export interface AddonFormAddress {
  siteId: string;
  plugin: string;
  kind: 'page' | 'settingsPanel';
  /** The page's id (the plugin's) or the panel's. */
  id: string;
  /** Its blueprint: a page of the plugin's. */
  blueprint: string;
}

export class AddonFormState {
  readonly at: AddonFormAddress;
  fields = $state.raw<BlueprintField[]>([]);
  /** What the site holds (as last read or saved). */
  saved = $state.raw<FormValues>({});
  values = $state.raw<FormValues>({});
  loading = $state(true);
  loadError = $state<string | null>(null);
  /** The rules broken, and the site's refusals, by field. */
  errors = $state<Record<string, string>>({});
  /** Refusals no field shows. */
  alert = $state<string | null>(null);
  readonly tree: FormNode[] = $derived(formTree(this.fields));
  readonly changed: boolean = $derived(JSON.stringify(this.values) !== JSON.stringify(this.saved));
  readonly save = new FormAction({ rateLimit: 'wait', disposeWith: 'owner' });

  constructor(at: AddonFormAddress) {
    this.at = at;
  }

  async load(): Promise<void> {
    this.loading = true;
    this.loadError = null;
    const { siteId, plugin, kind, id, blueprint } = this.at;
    try {
      const [form, data] = await Promise.all([invoke('blueprints.pluginPage', { siteId, plugin, pageId: blueprint }), invoke('addons.pageData', { siteId, plugin, kind, id })]);
      this.fields = form.fields;
      this.saved = data.values;
      this.values = data.values;
      this.errors = {};
      this.alert = null;
    } catch (err) {
      this.loadError = AppError.from(err).message;
    } finally {
      this.loading = false;
    }
  }

  set(name: string, value: unknown): void {
    this.values = withValue(this.values, name.split('.'), value);
    if (this.errors[name]) {
      const next = { ...this.errors };
      delete next[name];
      this.errors = next;
    }
  }

  /** Sends the form; true when the site took it. */
  async commit(): Promise<boolean> {
    const broken = checkForm(this.tree, this.values);
    this.alert = null;
    if (Object.keys(broken).length) {
      this.errors = broken;
      return false;
    }
    const { siteId, plugin, kind, id } = this.at;
    const result = await this.save.run(
      () => invoke('addons.savePageData', { siteId, plugin, kind, id, values: this.values }),
      (err) => {
        if (!err.fields) return false;
        const placed = placeErrors(
          fieldsOf(this.tree).map((n) => n.field.name),
          err.fields,
        );
        this.errors = placed.fields;
        this.alert = [err.message, ...placed.rest].join(' ');
        return true;
      },
    );
    if (!result) return false;
    this.saved = result.values;
    this.values = result.values;
    this.errors = {};
    return true;
  }

  dispose(): void {
    this.save.dispose();
  }
}
