/**
 * What every sign-in form shares: one submit at a time (a spinner meanwhile), the contract's
 * schema checked before anything is sent, the Host's per-field messages under their fields and
 * the rest in the form's alert, and a countdown while the site is rate-limiting (the submit
 * button stays disabled until it reaches 0; nothing is re-sent on its own).
 *
 * Construct during component init (the countdown stops with the component).
 */
import * as v from 'valibot';
import { tick } from 'svelte';
import { AppError } from '../../lib/errors';
import { useCountdown, type Countdown } from '../../lib/countdown.svelte';

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };

export class Submission<F extends string> {
  busy = $state(false);
  /** The message for the form's alert (not tied to a field). */
  error = $state<string | null>(null);
  fields = $state<Partial<Record<F, string>>>({});
  /** True once a rate-limit wait has run out, until the next submit ("you can try again now"). */
  waited = $state(false);
  /** Seconds of the current rate-limit wait as it started (announced once). */
  waitFor = $state(0);
  readonly wait: Countdown;
  readonly #names: readonly F[];

  constructor(fieldNames: readonly F[]) {
    this.#names = fieldNames;
    this.wait = useCountdown({ onDone: () => (this.waited = true) });
  }

  /** Submitting is not possible right now (working, or waiting out a rate limit). */
  get blocked(): boolean {
    return this.busy || this.wait.active;
  }

  clearField(field: F): void {
    if (this.fields[field] === undefined) return;
    const next = { ...this.fields };
    delete next[field];
    this.fields = next;
  }

  /** Checks `input` against a contract schema; false (with field messages) when it does not pass. */
  check(schema: v.GenericSchema, input: unknown): boolean {
    const result = v.safeParse(schema, input);
    if (result.success) return true;
    const nested = v.flatten(result.issues).nested ?? {};
    const fields: Record<string, string> = {};
    for (const [path, messages] of Object.entries(nested)) if (messages?.[0]) fields[path] = messages[0];
    this.error = null;
    this.#showFields(fields);
    return false;
  }

  /** Runs the call unless blocked. On failure the error is shown (fields, alert or countdown). */
  async run<T>(call: () => Promise<T>): Promise<Outcome<T> | null> {
    if (this.blocked) return null;
    this.busy = true;
    this.error = null;
    this.fields = {};
    this.waited = false;
    try {
      return { ok: true, value: await call() };
    } catch (err) {
      const error = AppError.from(err);
      this.show(error);
      return { ok: false, error };
    } finally {
      this.busy = false;
    }
  }

  /** Shows an error the way the form should: a countdown for 429, fields under fields, else the alert. */
  show(error: AppError): void {
    if (error.code === 'rate_limited') {
      this.waitFor = error.retryAfter ?? 60;
      this.wait.start(this.waitFor);
      return;
    }
    const loose = error.fields ? this.#showFields(error.fields) : [];
    if (!error.hasFields || loose.length > 0) this.error = loose.length > 0 && error.hasFields ? loose.join(' ') : error.message;
  }

  /** Puts messages under the known fields; returns the ones that belong to none. */
  #showFields(fields: Record<string, string>): string[] {
    const next: Partial<Record<F, string>> = {};
    const loose: string[] = [];
    for (const [path, message] of Object.entries(fields)) {
      const name = path.split('.').pop() as F;
      if (this.#names.includes(name)) next[name] ??= message;
      else loose.push(message);
    }
    this.fields = next;
    return loose;
  }
}

/** After a failure: focus the first field in error, else the form's alert. */
export async function focusProblem(root: HTMLElement | null): Promise<void> {
  await tick();
  const target =
    root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('[data-form-alert]') ?? null;
  target?.focus();
  if (target instanceof HTMLInputElement) target.select();
}

/** The pane that last held focus (null: outside any pane), kept even after its element went away. */
let lastPane: Element | null = null;
if (typeof document !== 'undefined') {
  document.addEventListener('focusin', (e) => {
    lastPane = e.target instanceof Element ? e.target.closest('.pane') : null;
  });
}

/**
 * Focuses `el` when a new step appears in place of the one the person was working in: focus is
 * already in the same pane, or it was there until the previous step went away. Never steals focus
 * from elsewhere (the rail, the other pane, a dialog) and never on its own at start-up.
 */
export function focusIfIdle(el: HTMLElement | null): void {
  if (!el) return;
  const pane = el.closest('.pane');
  const active = document.activeElement;
  const inPane = active !== null && active !== document.body && active.closest('.pane') === pane;
  const leftByPane = (active === null || active === document.body) && lastPane !== null && lastPane === pane;
  if ((inPane || leftByPane) && !document.querySelector('[role="dialog"], [role="alertdialog"]')) el.focus();
}
