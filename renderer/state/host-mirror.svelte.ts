/**
 * The one shape of "a Host list kept current by events": per site, the item the Host last
 * described. `load()` asks for the whole list; events (and the answers of calls) bring newer items
 * one at a time (`take`) or the whole list at once (`takeAll`). The sequence guard is the point:
 * a `load()` answer that left the Host before an event arrived is older than that event, so it
 * never undoes it.
 *
 * A subclass names its list call and its events; `start()` subscribes and returns `stop`, and the
 * composition root (state/bootstrap.ts) starts and loads every mirror.
 */
import { AppError } from '../lib/errors';

export abstract class HostMirror<T> {
  /** Site id → item, as the Host last described it. */
  bySite = $state<Record<string, T>>({});
  loaded = $state(false);
  loadError = $state<AppError | null>(null);

  /** Per site: bumped by every newer item, so a slower list answer keeps the newer one. */
  #seq = new Map<string, number>();
  /** Bumped by every whole-list event: a list answer older than it is dropped entirely. */
  #epoch = 0;

  /** The Host's whole list. */
  protected abstract fetch(): Promise<T[]>;
  /** The site an item belongs to. */
  protected abstract keyOf(item: T): string;
  /** Subscribes to the events that bring newer items; returns the unsubscribe functions. */
  protected abstract follow(): Array<() => void>;
  /** False when `next` is older than the item held (e.g. an event of an older run). */
  protected isNewer(_held: T, _next: T): boolean {
    return true;
  }
  /** Told of every item that replaced another (or arrived first), after it is stored. */
  protected changed(_key: string, _before: T | undefined, _after: T): void {}
  /** Told when the whole list was replaced, with the keys it now holds. */
  protected replaced(_keys: ReadonlySet<string>): void {}

  item(key: string | null | undefined): T | null {
    return key ? (this.bySite[key] ?? null) : null;
  }

  /** Subscribes to the events. Returns `stop`. */
  start(): () => void {
    const offs = this.follow();
    return () => offs.forEach((off) => off());
  }

  async load(): Promise<void> {
    const epoch = this.#epoch;
    const started = new Map(this.#seq);
    try {
      const list = await this.fetch();
      // a whole list that came as an event meanwhile is newer than this answer
      if (epoch === this.#epoch) {
        const keep = (key: string) => (this.#seq.get(key) ?? 0) !== (started.get(key) ?? 0);
        const next: Record<string, T> = {};
        // items that arrived as events while this was on its way win over the answer, and stay
        for (const [key, held] of Object.entries(this.bySite)) if (keep(key)) next[key] = held;
        for (const item of list) {
          const key = this.keyOf(item);
          if (!keep(key)) this.#set(next, key, item);
        }
        this.bySite = next;
        this.replaced(new Set(Object.keys(next)));
      }
      this.loadError = null;
      this.loaded = true;
    } catch (err) {
      this.loadError = AppError.from(err);
    }
  }

  /** Takes a newer item (an event or a call's answer). */
  take(item: T): void {
    const key = this.keyOf(item);
    const held = this.bySite[key];
    if (held !== undefined && !this.isNewer(held, item)) return;
    this.#seq.set(key, (this.#seq.get(key) ?? 0) + 1);
    this.#set(this.bySite, key, item);
  }

  /** Takes a whole list that replaces what is held (an event that carries every site). */
  takeAll(list: readonly T[]): void {
    this.#epoch++;
    const next: Record<string, T> = {};
    for (const item of list) this.#set(next, this.keyOf(item), item);
    this.bySite = next;
    this.loaded = true;
    this.replaced(new Set(Object.keys(next)));
  }

  /** Forgets items of sites that are gone. */
  prune(keys: readonly string[]): void {
    const known = new Set(keys);
    for (const key of Object.keys(this.bySite)) if (!known.has(key)) delete this.bySite[key];
  }

  #set(target: Record<string, T>, key: string, item: T): void {
    const before = this.bySite[key];
    target[key] = item;
    this.changed(key, before, item);
  }
}
