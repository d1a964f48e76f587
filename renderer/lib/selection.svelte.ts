/**
 * A multi-selection over keyed rows, as lists and trees share it: click selects one, Ctrl/Cmd
 * toggles one, Shift selects the range from the anchor in the order of the rows on screen (adding
 * to what is selected with Ctrl/Cmd too). The set is replaced, never mutated, so a `$derived` of it
 * follows every change.
 */
export class Selection<K> {
  items = $state.raw<ReadonlySet<K>>(new Set());
  /** Where a Shift range starts: the row last clicked or toggled. */
  anchor = $state<K | null>(null);

  readonly list: K[] = $derived([...this.items]);
  readonly size: number = $derived(this.items.size);

  has(key: K): boolean {
    return this.items.has(key);
  }

  only(key: K): void {
    this.items = new Set([key]);
    this.anchor = key;
  }

  toggle(key: K): void {
    const next = new Set(this.items);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    this.items = next;
    this.anchor = key;
  }

  /** Selects from the anchor to `key` in the order of `ordered`; `add` keeps what was selected. */
  range(key: K, ordered: readonly K[], add = false): void {
    const from = this.anchor !== null && ordered.includes(this.anchor) ? this.anchor : key;
    const a = ordered.indexOf(from);
    const b = ordered.indexOf(key);
    if (a < 0 || b < 0) return this.only(key);
    const span = ordered.slice(Math.min(a, b), Math.max(a, b) + 1);
    this.items = new Set(add ? [...this.items, ...span] : span);
  }

  /** Selects exactly `keys` (the anchor stays). */
  set(keys: Iterable<K>): void {
    this.items = new Set(keys);
  }

  clear(): void {
    this.items = new Set();
    this.anchor = null;
  }

  /** Follows keys that changed (a row moved or renamed): `map` gives the new key, or null when it is gone. */
  remap(map: (key: K) => K | null): void {
    const next = new Set<K>();
    for (const key of this.items) {
      const m = map(key);
      if (m !== null) next.add(m);
    }
    this.items = next;
    if (this.anchor !== null) this.anchor = map(this.anchor);
  }
}
