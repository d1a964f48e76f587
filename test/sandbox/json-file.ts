/**
 * A sandbox's state file: JSON written whole to a temporary file and renamed into place (atomic),
 * after every change so a sandbox restarted on its folder finds what it had. `batch` holds the
 * writes of a run of changes (seeding writes dozens of rows) until its end: one write, not one per
 * row. The store sandboxes of both flavours keep their data this way.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

export class JsonFile<S> {
  private held = 0;
  private pending = false;
  /** Writes made so far (the tests count them). */
  writes = 0;

  constructor(
    readonly file: string,
    private readonly state: () => S,
  ) {}

  exists(): boolean {
    return existsSync(this.file);
  }

  /** The stored state, or undefined when there is no file yet. */
  read(): Partial<S> | undefined {
    return existsSync(this.file) ? (JSON.parse(readFileSync(this.file, 'utf8')) as Partial<S>) : undefined;
  }

  /** Writes the state now, or at the end of the batch under way. */
  save(): void {
    if (this.held > 0) {
      this.pending = true;
      return;
    }
    writeFileSync(this.file + '.tmp', JSON.stringify(this.state(), null, 1));
    renameSync(this.file + '.tmp', this.file);
    this.writes++;
  }

  /** Runs `fn` with its writes held, then writes once (if it changed anything). */
  batch<T>(fn: () => T): T {
    this.held++;
    try {
      return fn();
    } finally {
      if (--this.held === 0 && this.pending) {
        this.pending = false;
        this.save();
      }
    }
  }
}

/** State kept in a JsonFile: read at construction (over the empty state), saved whole. */
export abstract class JsonBacked<S extends object> {
  /** The state file (`stored.writes` counts its writes). */
  readonly stored: JsonFile<S>;
  protected state: S;

  constructor(file: string, empty: S) {
    this.stored = new JsonFile(file, () => this.state);
    this.state = { ...empty, ...this.stored.read() };
  }

  get file(): string {
    return this.stored.file;
  }

  /** True once anything was written (seeding is skipped for a folder that has data). */
  exists(): boolean {
    return this.stored.exists();
  }

  save(): void {
    this.stored.save();
  }

  /** Changes written to the file once, at the end (seeding). */
  batch<T>(fn: () => T): T {
    return this.stored.batch(fn);
  }
}
