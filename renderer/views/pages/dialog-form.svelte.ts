/**
 * What the page dialogs share: one submit at a time, the Host's per-field messages under their
 * fields (its field names mapped onto the dialog's), the rest in the dialog's alert.
 */
import { tick } from 'svelte';
import { AppError } from '../../lib/errors';

export class DialogForm<F extends string> {
  busy = $state(false);
  error = $state<string | null>(null);
  fields = $state<Partial<Record<F, string>>>({});
  readonly #map: Record<string, F>;

  /** `map`: Host field name (last segment of its dotted path) → this form's field. */
  constructor(map: Record<string, F>) {
    this.#map = map;
  }

  reset(): void {
    this.busy = false;
    this.error = null;
    this.fields = {};
  }

  clear(field: F): void {
    if (this.fields[field] === undefined) return;
    const next = { ...this.fields };
    delete next[field];
    this.fields = next;
  }

  setField(field: F, message: string): void {
    this.fields = { ...this.fields, [field]: message };
  }

  /** Runs `call`; on failure shows the error and answers null. */
  async run<T>(call: () => Promise<T>): Promise<T | null> {
    if (this.busy) return null;
    this.busy = true;
    this.error = null;
    this.fields = {};
    try {
      return await call();
    } catch (err) {
      this.show(AppError.from(err));
      return null;
    } finally {
      this.busy = false;
    }
  }

  show(error: AppError): void {
    const next: Partial<Record<F, string>> = {};
    const loose: string[] = [];
    for (const [path, message] of Object.entries(error.fields ?? {})) {
      const name = this.#map[path.split('.').pop() ?? path];
      if (name) next[name] ??= message;
      else loose.push(message);
    }
    this.fields = next;
    if (!error.hasFields) this.error = error.message;
    else if (loose.length) this.error = loose.join(' ');
  }

  get hasErrors(): boolean {
    return this.error !== null || Object.keys(this.fields).length > 0;
  }
}

/** After a failed submit: focus the first field in error, else the alert. */
export async function focusFirstProblem(root: HTMLElement | null): Promise<void> {
  await tick();
  const el = root?.querySelector<HTMLElement>('[aria-invalid="true"]') ?? root?.querySelector<HTMLElement>('[data-form-alert]');
  el?.focus();
}
