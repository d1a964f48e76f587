/**
 * What every form and action button shares: one run at a time (busy meanwhile), the contract's
 * schema checked before anything is sent, the Host's per-field messages under their fields and
 * the rest in the form's alert, and the site's rate limit handled one of three ways:
 *   'message'  the 429's words in the alert, like any other failure;
 *   'wait'     a countdown from its Retry-After (the submit stays disabled); nothing is re-sent;
 *   'retry'    the countdown, then the same call ONE more time; refused again, the countdown runs
 *              once more and the person decides. Nothing is ever re-sent in a loop.
 *
 * Fields: by default a message stays under its dotted input path (`name`, `photoUrls.1`); with a
 * list of names (or a map from the Host's name) a message goes under the field its path ends in,
 * and the messages no field shows go to the alert. `alertWithFields`: a refusal's own message goes
 * to the alert as well (a form whose alert says what the fields below it are about).
 *
 * Who stops it (`disposeWith`): 'component' (the default) ties the countdown and a pending retry to
 * the component being initialised, so construct it during component init; 'owner' registers
 * nothing, for a state class that lives outside a component and stops it itself with `dispose()`.
 */
import * as v from 'valibot';
import { tick } from 'svelte';
import { fieldErrors } from '../../electron/common/field-errors';
import { AppError } from './errors';
import { Countdown } from './countdown.svelte';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };
export type RateLimitPolicy = 'message' | 'wait' | 'retry';

export interface FormActionOptions<F extends string> {
  /** The form's fields: their names, or the Host's field name (last path segment) → the form's field. */
  fields?: readonly F[] | Readonly<Record<string, F>>;
  /** What a 429 does; 'message' unless said. */
  rateLimit?: RateLimitPolicy;
  /** A refusal with fields also shows its own message in the alert (false unless said). */
  alertWithFields?: boolean;
  /** 'component' (default): stops with the component being initialised; 'owner': its owner calls `dispose()`. */
  disposeWith?: 'component' | 'owner';
}

export class FormAction<F extends string = string> {
  busy = $state(false);
  /** The message for the form's alert (not tied to a field). */
  error = $state<string | null>(null);
  fields = $state<Partial<Record<F, string>>>({});
  /** Waiting out a 429 before the one automatic retry. */
  retrying = $state(false);
  /** The site's own words about the 429 while it holds the form back. */
  limitMessage = $state<string | null>(null);
  /** Seconds of the current rate-limit wait as it started (announced once, not every second). */
  waitFor = $state(0);
  /** A wait without a retry ran out: the person may try again (until the next run). */
  waited = $state(false);
  readonly wait: Countdown;
  readonly #fieldOf: ((name: string) => F | undefined) | null;
  readonly #rateLimit: RateLimitPolicy;
  readonly #alertWithFields: boolean;
  #resume: ((go: boolean) => void) | null = null;

  constructor(options: FormActionOptions<F> = {}) {
    const known = options.fields;
    if (!known) this.#fieldOf = null;
    else if (Array.isArray(known)) this.#fieldOf = (name) => ((known as readonly string[]).includes(name) ? (name as F) : undefined);
    else {
      const map = known as Readonly<Record<string, F>>;
      this.#fieldOf = (name) => (Object.hasOwn(map, name) ? map[name] : undefined);
    }
    this.#rateLimit = options.rateLimit ?? 'message';
    this.#alertWithFields = options.alertWithFields ?? false;
    this.wait = new Countdown({
      onDone: () => {
        if (this.#resume) this.#wake(true);
        else this.waited = true;
      },
    });
    // a view that goes away mid-wait stops its countdown and leaves its retry unsent
    if ((options.disposeWith ?? 'component') === 'component') $effect(() => () => this.dispose());
  }

  /** Working, or waiting out a rate limit: a new run would be refused. */
  get blocked(): boolean {
    return this.busy || this.wait.active;
  }

  get limited(): boolean {
    return this.wait.active;
  }

  get hasErrors(): boolean {
    return this.error !== null || Object.keys(this.fields).length > 0;
  }

  reset(): void {
    this.error = null;
    this.fields = {};
    this.waited = false;
    this.limitMessage = null;
  }

  clearField(field: F): void {
    if (this.fields[field] === undefined) return;
    const next = { ...this.fields };
    delete next[field];
    this.fields = next;
  }

  setField(field: F, message: string): void {
    this.fields = { ...this.fields, [field]: message };
  }

  /** Field messages found before anything is sent (the form's own checks). */
  showFields(fields: Record<string, string>, message: string | null = null): void {
    this.reset();
    this.#place(fields);
    this.error = message;
  }

  /**
   * Checks `input` against a contract schema; false (fields shown) when it does not pass.
   * `prefix`: a path prefix to drop (the schema wraps the form's input, e.g. `user.`).
   */
  check(schema: v.GenericSchema, input: unknown, prefix = ''): boolean {
    const result = v.safeParse(schema, input);
    if (result.success) return true;
    // no prototype: an input key named constructor or toString is a field like any other
    const fields = Object.create(null) as Record<string, string>;
    for (const [path, message] of Object.entries(fieldErrors(result.issues))) {
      fields[prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path] ??= message;
    }
    this.reset();
    // a message of the input as a whole has no field of a named form to go under: the schema is the form's
    this.#place(this.#fieldOf ? Object.fromEntries(Object.entries(fields).filter(([path]) => path !== '_')) : fields);
    return false;
  }

  /** Stops a pending retry (nothing is sent). */
  cancel(): void {
    if (!this.#resume) return;
    this.wait.stop();
    this.#wake(false);
  }

  /** Stops the countdown and drops a pending retry; the component's end does this by itself (unless `disposeWith: 'owner'`). */
  dispose(): void {
    this.wait.stop();
    this.#wake(false);
  }

  /**
   * Runs `call` unless blocked; answers its value, or null after a failure (shown). `onError`
   * sees a failure other than a rate limit first (true: handled, show nothing).
   */
  async run<T>(call: () => Promise<T>, onError?: (err: AppError) => boolean): Promise<T | null> {
    const outcome = await this.attempt(call, onError);
    return outcome?.ok ? outcome.value : null;
  }

  /** As `run`, answering what happened: the value or the error (null: blocked, or a retry dropped). */
  async attempt<T>(call: () => Promise<T>, onError?: (err: AppError) => boolean): Promise<Outcome<T> | null> {
    if (this.blocked) return null;
    this.reset();
    this.busy = true;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const value = await call();
          this.limitMessage = null;
          return { ok: true, value };
        } catch (err) {
          const error = AppError.from(err);
          if (error.code !== 'rate_limited' || this.#rateLimit === 'message') {
            if (!onError?.(error)) this.show(error);
            return { ok: false, error };
          }
          this.limitMessage = error.message;
          this.waitFor = Math.max(1, Math.ceil(error.retryAfter ?? 60));
          if (this.#rateLimit === 'wait' || attempt > 0) {
            // no retry (or the one retry was refused too): count down, then it is the person's call
            this.wait.start(this.waitFor);
            return { ok: false, error };
          }
          this.retrying = true;
          const go = await new Promise<boolean>((resolve) => {
            this.#resume = resolve;
            this.wait.start(this.waitFor);
          });
          this.retrying = false;
          if (!go) {
            this.limitMessage = null;
            return null;
          }
        }
      }
    } finally {
      this.busy = false;
    }
  }

  /** Shows an error the way the form should: a countdown for a held-back 429, fields under fields, else the alert. */
  show(error: AppError): void {
    if (error.code === 'rate_limited' && this.#rateLimit !== 'message') {
      this.waitFor = Math.max(1, Math.ceil(error.retryAfter ?? 60));
      this.wait.start(this.waitFor);
      return;
    }
    const loose = this.#place(error.fields ?? {});
    if (!error.hasFields) this.error = error.message;
    else if (this.#alertWithFields) this.error = [error.message, ...loose].join(' ');
    else if (loose.length > 0) this.error = loose.join(' ');
  }

  /** Puts messages under the form's fields; returns the ones that belong to none. */
  #place(fields: Record<string, string>): string[] {
    if (!this.#fieldOf) {
      this.fields = { ...fields } as Partial<Record<F, string>>;
      return [];
    }
    const next: Partial<Record<F, string>> = {};
    const loose: string[] = [];
    for (const [path, message] of Object.entries(fields)) {
      const name = this.#fieldOf(path.split('.').pop() ?? path);
      if (name) next[name] ??= message;
      else loose.push(message);
    }
    this.fields = next;
    return loose;
  }

  #wake(go: boolean) {
    const resume = this.#resume;
    this.#resume = null;
    resume?.(go);
  }
}

/** After a failure: focus the first field in error, else the form's alert; `select`: a text field's text selected too. */
export async function focusProblem(root: HTMLElement | null, select = false): Promise<void> {
  await tick();
  const target =
    root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('[data-form-alert]') ?? null;
  target?.focus();
  if (select && target instanceof HTMLInputElement) target.select();
}

/** Messages among `fields` that no field of the form shows (`shown` paths, or prefixes ending in '.'). */
export function looseMessages(fields: Partial<Record<string, string>>, shown: readonly string[]): string[] {
  return Object.entries(fields)
    .filter(([path]) => !shown.some((s) => (s.endsWith('.') ? path.startsWith(s) : path === s)))
    .flatMap(([, m]) => (m === undefined ? [] : [m]));
}
