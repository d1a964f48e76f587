/**
 * The events the service fires (spec section 6), recorded instead of dispatched to plugins, so
 * tests can assert what a write fired and in which order: `sandbox.events.list()`,
 * `sandbox.events.list('onApiPageUpdated')`, `sandbox.events.clear()`, or over HTTP
 * `GET|DELETE /__sandbox/events`. Payloads hold plain JSON (a page is `{route, lang, title}`).
 */
import type { Clock } from '../../clock';

export interface RecordedEvent {
  /** 1, 2, 3… in firing order (kept across `clear()`) */
  seq: number;
  /** the event's name in the catalogue, e.g. `onApiPageCreated` */
  name: string;
  data: Record<string, unknown>;
  /** ISO 8601, sandbox time */
  at: string;
}

export class EventLog {
  private events: RecordedEvent[] = [];
  private seq = 0;
  /** what a fired event reaches besides the log: the webhook dispatcher and the audit trail (trail/) */
  private readonly listeners: ((event: RecordedEvent) => void)[] = [];

  constructor(private readonly clock: Clock) {}

  record(name: string, data: Record<string, unknown> = {}): void {
    const event: RecordedEvent = { seq: ++this.seq, name, data: JSON.parse(JSON.stringify(data)) as Record<string, unknown>, at: new Date(this.clock.now()).toISOString() };
    this.events.push(event);
    for (const listen of this.listeners) listen(structuredClone(event));
  }

  /** Calls `listener` with every event recorded from now on (after it is logged). */
  listen(listener: (event: RecordedEvent) => void): void {
    this.listeners.push(listener);
  }

  /** Everything recorded since the last clear, oldest first; optionally only events named `name` (or matching it). */
  list(name?: string | RegExp): RecordedEvent[] {
    const all = this.events.map((e) => structuredClone(e));
    if (name === undefined) return all;
    return all.filter((e) => (typeof name === 'string' ? e.name === name : name.test(e.name)));
  }

  /** The names only, in order: handy for `expect(events.names()).toEqual([...])`. */
  names(): string[] {
    return this.events.map((e) => e.name);
  }

  clear(): void {
    this.events = [];
  }
}
