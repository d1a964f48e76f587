/**
 * The add/edit site form's state (SiteForm): the values typed, the per-field errors, saving and
 * the connection test. The contract's schema checks the obvious mistakes before anything is sent;
 * the Host's per-field messages land under the fields; nothing typed is lost on error. The dialog
 * and its fields (SiteForm, SiteAuthFields) only render it.
 */
import type * as v from 'valibot';
import {
  DEFAULT_PREFIX,
  SiteDraft,
  plainHttpToAnotherComputer,
  type AuthMode,
  type ConnectionReport,
  type Site,
  type SiteKind,
} from '../../../electron/contract/index';
import { AppError } from '../../lib/errors';
import type { SiteFormRequest } from '../../lib/ui.svelte';
import { FormAction } from '../../lib/form-action.svelte';
import { sites } from '../../state/sites.svelte';

export type FieldName = 'name' | 'kind' | 'baseUrl' | 'environment' | 'authMode' | 'apiKey' | 'allowPlainHttp';
const FIELD_NAMES: readonly FieldName[] = ['name', 'kind', 'baseUrl', 'environment', 'authMode', 'apiKey', 'allowPlainHttp'];

/** Said under the address until plain HTTP is chosen (the Host refuses it with the same reason). */
export const PLAIN_HTTP_NEEDS_CHOICE = 'Plain http:// to another computer needs “Allow plain HTTP for this site”, or use https://.';

/** The origin (scheme, host, port) of an address as typed; null while it is not one. */
function originOf(address: string): string | null {
  try {
    return new URL(address.trim()).origin;
  } catch {
    return null;
  }
}

export class SiteFormState {
  editing = $state<Site | null>(null);

  name = $state('');
  kind = $state<SiteKind>('cms');
  baseUrl = $state('');
  environment = $state('');
  authMode = $state<AuthMode>('password');
  apiKey = $state('');
  forgetKey = $state(false);
  allowPlainHttp = $state(false);

  /** Saving: busy, the form's alert and the messages under the fields (the connection test's go under the fields too). */
  readonly #action = new FormAction<FieldName>({ fields: FIELD_NAMES });
  get errors(): Partial<Record<FieldName, string>> {
    return this.#action.fields;
  }
  get formError(): string | null {
    return this.#action.error;
  }
  get saving(): boolean {
    return this.#action.busy;
  }

  testing = $state(false);
  report = $state<ConnectionReport | null>(null);
  testError = $state<string | null>(null);

  readonly placeholder = $derived(`https://example.com${DEFAULT_PREFIX[this.kind]}`);
  /**
   * The edit takes the site to another origin or kind: the Host drops its stored key and sign-in
   * (they were given for the old one), so the form says they will be asked again.
   */
  readonly secretsDropped = $derived.by(() => {
    const site = this.editing;
    if (!site) return false;
    const origin = originOf(this.baseUrl);
    return site.kind !== this.kind || (origin !== null && origin !== originOf(site.baseUrl));
  });
  /** A key is stored and stays with the site (not on another origin or kind). */
  readonly storedKey = $derived(this.editing?.hasApiKey === true && !this.secretsDropped);
  /** The address is plain http:// to another computer: the warning and the choice are shown. */
  readonly plainHttp = $derived(plainHttpToAnotherComputer(this.baseUrl));
  /** The address has no path at all: the API prefix is probably missing. */
  readonly missingPrefix = $derived.by(() => {
    try {
      const url = new URL(this.baseUrl.trim());
      return (url.protocol === 'http:' || url.protocol === 'https:') && (url.pathname === '/' || url.pathname === '');
    } catch {
      return false;
    }
  });

  /** `onInvalid` is called when fields were marked invalid (the dialog moves focus to the first). */
  constructor(private readonly onInvalid: () => void = () => {}) {}

  /** Fills the form for a request; false when the site to edit is gone. */
  reset(request: SiteFormRequest): boolean {
    const site = request.mode === 'edit' ? (sites.byId(request.id) ?? null) : null;
    if (request.mode === 'edit' && !site) return false;
    this.editing = site;
    this.name = site?.name ?? '';
    this.kind = site?.kind ?? 'cms';
    this.baseUrl = (request.mode === 'edit' ? request.prefill?.baseUrl : undefined) ?? site?.baseUrl ?? '';
    this.environment = site?.environment ?? '';
    this.authMode = site?.authMode ?? 'password';
    this.apiKey = '';
    this.forgetKey = false;
    this.allowPlainHttp = site?.allowPlainHttp ?? false;
    this.#action.reset();
    this.testing = false;
    this.report = null;
    this.testError = null;
    return true;
  }

  setKind(next: SiteKind): void {
    if (next === this.kind) return;
    // keep the address in step with the kind while it still carries the other kind's default prefix
    const previous = DEFAULT_PREFIX[this.kind];
    const url = this.baseUrl.trim().replace(/\/+$/, '');
    if (url.endsWith(previous)) this.baseUrl = url.slice(0, -previous.length) + DEFAULT_PREFIX[next];
    this.kind = next;
    this.report = null;
    this.testError = null;
    this.clearError('kind');
  }

  setAuthMode(next: AuthMode): void {
    this.authMode = next;
    this.clearError('authMode');
  }

  addPrefix(): void {
    this.baseUrl = this.baseUrl.trim().replace(/\/+$/, '') + DEFAULT_PREFIX[this.kind];
    this.report = null;
  }

  /** The address was edited: its error and an earlier test's report no longer hold. */
  addressEdited(): void {
    this.clearError('baseUrl');
    this.report = null;
  }

  useSuggested(url: string): void {
    this.baseUrl = url;
    this.addressEdited();
  }

  clearError(field: FieldName): void {
    this.#action.clearField(field);
  }

  /** The values as the contract wants them. */
  draft(): v.InferInput<typeof SiteDraft> {
    const env = this.environment.trim();
    const value: v.InferInput<typeof SiteDraft> = {
      name: this.name,
      kind: this.kind,
      baseUrl: this.baseUrl,
      environment: this.kind === 'cms' && env !== '' ? env : null,
      authMode: this.authMode,
    };
    if (this.plainHttp && this.allowPlainHttp) value.allowPlainHttp = true;
    if (this.authMode === 'apikey') {
      if (this.editing && this.storedKey && this.forgetKey) value.apiKey = '';
      else if (this.apiKey !== '') value.apiKey = this.apiKey;
    }
    return value;
  }

  /** The contract's checks and the plain-HTTP choice, before anything is sent; false with the fields marked. */
  #checkLocally(): boolean {
    let ok = this.#action.check(SiteDraft, this.draft());
    if (this.plainHttp && !this.allowPlainHttp && this.#action.fields.allowPlainHttp === undefined) {
      this.#action.setField('allowPlainHttp', PLAIN_HTTP_NEEDS_CHOICE);
      ok = false;
    }
    if (!ok) this.onInvalid();
    return ok;
  }

  setAllowPlainHttp(next: boolean): void {
    this.allowPlainHttp = next;
    this.clearError('allowPlainHttp');
  }

  /**
   * Adds or updates the site; `done` gets the saved site at once, in the same step as the save
   * (the workspace opens a new site before anything renders in between). When the Host refuses,
   * the form says why.
   */
  async save(done: (site: Site, added: boolean) => void): Promise<void> {
    if (this.saving) return;
    this.#action.reset();
    if (!this.#checkLocally()) return;
    const editing = this.editing;
    const outcome = await this.#action.attempt(async () => {
      const site = editing ? await sites.update({ id: editing.id, ...this.draft() }) : await sites.add(this.draft());
      done(site, editing === null);
      return site;
    });
    if (outcome && !outcome.ok && outcome.error.hasFields) this.onInvalid();
  }

  /** Tests the address as typed (kind, base URL, environment) without saving anything. */
  async test(): Promise<void> {
    if (this.testing) return;
    this.testError = null;
    this.report = null;
    for (const f of ['baseUrl', 'kind', 'environment'] as const) this.clearError(f);
    if (this.baseUrl.trim() === '') {
      this.#action.setField('baseUrl', 'Enter the address of the site.');
      this.onInvalid();
      return;
    }
    this.testing = true;
    const env = this.environment.trim();
    const target = {
      kind: this.kind,
      baseUrl: this.baseUrl,
      environment: this.kind === 'cms' && env !== '' ? env : null,
      ...(this.plainHttp && this.allowPlainHttp ? { allowPlainHttp: true } : {}),
    };
    try {
      this.report = await sites.testTarget(target, this.editing?.id ?? null);
    } catch (err) {
      // the Host's field messages go under the fields, the rest is the test's own line
      const error = AppError.from(err);
      const alert = this.#action.error;
      this.#action.error = null;
      this.#action.show(error);
      this.testError = this.#action.error;
      this.#action.error = alert;
      if (error.hasFields) this.onInvalid();
    } finally {
      this.testing = false;
    }
  }
}
