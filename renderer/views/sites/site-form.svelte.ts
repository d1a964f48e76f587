/**
 * The add/edit site form's state (SiteForm): the values typed, the per-field errors, saving and
 * the connection test. The contract's schema checks the obvious mistakes before anything is sent;
 * the Host's per-field messages land under the fields; nothing typed is lost on error. The dialog
 * and its fields (SiteForm, SiteAuthFields) only render it.
 */
import * as v from 'valibot';
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

/** Field name of an error path such as `baseUrl` or `target.baseUrl`. */
function fieldOf(path: string): FieldName | null {
  const last = path.split('.').pop() ?? '';
  return (FIELD_NAMES as readonly string[]).includes(last) ? (last as FieldName) : null;
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

  errors = $state<Partial<Record<FieldName, string>>>({});
  formError = $state<string | null>(null);
  saving = $state(false);

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
    this.errors = {};
    this.formError = null;
    this.saving = false;
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
    if (this.errors[field]) {
      const { [field]: _removed, ...rest } = this.errors;
      this.errors = rest;
    }
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

  /** Puts each message under its field; returns the messages that belong to no field. */
  #showFieldErrors(fields: Record<string, string>): string[] {
    const next: Partial<Record<FieldName, string>> = {};
    const loose: string[] = [];
    for (const [path, message] of Object.entries(fields)) {
      const field = fieldOf(path);
      if (field) next[field] ??= message;
      else loose.push(message);
    }
    this.errors = next;
    this.onInvalid();
    return loose;
  }

  /** The Host's refusal as field errors where it names fields, else one sentence. */
  #failure(err: unknown): string | null {
    const error = AppError.from(err);
    if (!(error.fields && error.hasFields)) return error.message;
    const loose = this.#showFieldErrors(error.fields);
    return loose.length > 0 ? loose.join(' ') : null;
  }

  #checkLocally(): boolean {
    const result = v.safeParse(SiteDraft, this.draft());
    const fields: Record<string, string> = {};
    if (!result.success) {
      const nested = v.flatten<typeof SiteDraft>(result.issues).nested ?? {};
      for (const [path, messages] of Object.entries(nested)) if (messages?.[0]) fields[path] = messages[0];
    }
    if (this.plainHttp && !this.allowPlainHttp) fields.allowPlainHttp ??= PLAIN_HTTP_NEEDS_CHOICE;
    if (Object.keys(fields).length === 0) return true;
    this.#showFieldErrors(fields);
    return false;
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
    this.formError = null;
    this.errors = {};
    if (!this.#checkLocally()) return;
    this.saving = true;
    try {
      if (this.editing) done(await sites.update({ id: this.editing.id, ...this.draft() }), false);
      else done(await sites.add(this.draft()), true);
    } catch (err) {
      this.formError = this.#failure(err);
    } finally {
      this.saving = false;
    }
  }

  /** Tests the address as typed (kind, base URL, environment) without saving anything. */
  async test(): Promise<void> {
    if (this.testing) return;
    this.testError = null;
    this.report = null;
    for (const f of ['baseUrl', 'kind', 'environment'] as const) this.clearError(f);
    if (this.baseUrl.trim() === '') {
      this.errors = { ...this.errors, baseUrl: 'Enter the address of the site.' };
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
      this.testError = this.#failure(err);
    } finally {
      this.testing = false;
    }
  }
}
