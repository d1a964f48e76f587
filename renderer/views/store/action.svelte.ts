/**
 * What every store form and button shares: one run at a time, field messages under their fields
 * (the contract's dotted input paths: `name`, `photoUrls.1`, `users.2.email`), the rest in the
 * form's alert, and the store's rate limit handled once, politely: a 429 counts down from its
 * Retry-After and then sends the same call ONE more time. Should that be refused as well, the
 * countdown runs again and the person decides; nothing is ever re-sent in a loop.
 *
 * Construct during component init (the countdown stops with the component).
 */
import * as v from 'valibot';
import { tick } from 'svelte';
import { AppError } from '../../lib/errors';
import { useCountdown, type Countdown } from '../../lib/countdown.svelte';

/** valibot issues → `{dotted.path: message}`, the first message per path (as the Host's boundary does). */
export function issueFields(issues: readonly v.BaseIssue<unknown>[], prefix = ''): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path?.map((p) => String(p.key)).join('.') ?? '';
    const key = prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
    fields[key || '_'] ??= issue.message;
  }
  return fields;
}

export class StoreAction {
  busy = $state(false);
  /** The message not tied to a field. */
  error = $state<string | null>(null);
  /** Dotted input path → message. */
  fields = $state<Record<string, string>>({});
  /** Waiting out a 429 before the one automatic retry. */
  retrying = $state(false);
  /** The store's own words about the 429. */
  limitMessage = $state<string | null>(null);
  /** Seconds of the current wait as it started (announced once, not every second). */
  waitFor = $state(0);
  /** A wait without a retry ran out: the person may try again. */
  waited = $state(false);
  readonly wait: Countdown;
  #resume: ((go: boolean) => void) | null = null;

  constructor() {
    this.wait = useCountdown({
      onDone: () => {
        if (this.#resume) this.#wake(true);
        else this.waited = true;
      },
    });
    // a view that goes away mid-wait leaves its retry unsent
    $effect(() => () => this.#wake(false));
  }

  /** Working, or waiting out a rate limit: a new run would be refused. */
  get blocked(): boolean {
    return this.busy || this.wait.active;
  }

  get limited(): boolean {
    return this.wait.active;
  }

  reset(): void {
    this.error = null;
    this.fields = {};
    this.waited = false;
    this.limitMessage = null;
  }

  clearField(path: string): void {
    if (!(path in this.fields)) return;
    const next = { ...this.fields };
    delete next[path];
    this.fields = next;
  }

  /** Field messages found before anything is sent (the contract's schema, or the form's own checks). */
  showFields(fields: Record<string, string>, message: string | null = null): void {
    this.reset();
    this.fields = fields;
    this.error = message;
  }

  /** Checks `input` against a contract schema; false (fields shown) when it does not pass. */
  check(schema: v.GenericSchema, input: unknown, prefix = ''): boolean {
    const result = v.safeParse(schema, input);
    if (result.success) return true;
    this.showFields(issueFields(result.issues, prefix));
    return false;
  }

  /** Stops a pending retry (nothing is sent). */
  cancel(): void {
    if (!this.#resume) return;
    this.wait.stop();
    this.#wake(false);
  }

  /**
   * Runs `call` unless blocked; answers its value, or null after a failure (shown). A 429 waits
   * and tries once more; `onError` sees other failures first (true: handled, show nothing).
   */
  async run<T>(call: () => Promise<T>, onError?: (err: AppError) => boolean): Promise<T | null> {
    if (this.blocked) return null;
    this.reset();
    this.busy = true;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const value = await call();
          this.limitMessage = null;
          return value;
        } catch (err) {
          const e = AppError.from(err);
          if (e.code !== 'rate_limited') {
            if (!onError?.(e)) this.show(e);
            return null;
          }
          this.limitMessage = e.message;
          this.waitFor = Math.max(1, Math.ceil(e.retryAfter ?? 60));
          if (attempt > 0) {
            // the one retry was refused too: count down, then it is the person's call
            this.wait.start(this.waitFor);
            return null;
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

  /** Shows a failure: field messages under their fields (by dotted path), the rest in the alert. */
  show(error: AppError): void {
    this.fields = { ...(error.fields ?? {}) };
    if (!error.hasFields) this.error = error.message;
  }

  #wake(go: boolean) {
    const resume = this.#resume;
    this.#resume = null;
    resume?.(go);
  }
}

/** After a failure: focus the first field in error, else the alert. */
export async function focusProblem(root: HTMLElement | null): Promise<void> {
  await tick();
  const el = root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('[data-form-alert]');
  el?.focus();
}

/** Messages among `fields` that no field of the form shows (`shown` paths, or prefixes ending in '.'). */
export function looseMessages(fields: Record<string, string>, shown: readonly string[]): string[] {
  return Object.entries(fields)
    .filter(([path]) => !shown.some((s) => (s.endsWith('.') ? path.startsWith(s) : path === s)))
    .map(([, m]) => m);
}
