/**
 * A sandbox's state kept in a JSON file: read at construction (over the empty state), written
 * whole to a temporary file and renamed into place (atomic) after every change, so a sandbox
 * restarted on its folder finds what it had. `batch` holds the writes of a run of changes (seeding
 * writes dozens of rows) until its end: one write, not one per row. The store sandboxes of both
 * flavours keep their data this way.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export abstract class JsonBacked<S extends object> {
  protected state: S;
  /** Writes made so far (the tests count them). */
  writes = 0;
  #held = 0;
  #pending = false;

  constructor(
    readonly file: string,
    empty: S,
  ) {
    const stored = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<S>) : undefined;
    this.state = { ...empty, ...stored };
  }

  /** True once anything was written (seeding is skipped for a folder that has data). */
  exists(): boolean {
    return existsSync(this.file);
  }

  /** Writes the state now, or at the end of the batch under way. */
  save(): void {
    if (this.#held > 0) {
      this.#pending = true;
      return;
    }
    writeFileSync(this.file + '.tmp', JSON.stringify(this.state, null, 1));
    renameSync(this.file + '.tmp', this.file);
    this.writes++;
  }

  /** Runs `fn` with its writes held, then writes once (if it changed anything). */
  batch<T>(fn: () => T): T {
    this.#held++;
    try {
      return fn();
    } finally {
      if (--this.#held === 0 && this.#pending) {
        this.#pending = false;
        this.save();
      }
    }
  }
}
