/**
 * Audit events packed for writing (pure): what the kept copies' repository inserts, as a file's
 * reader (in a worker thread: audit-copy/import-worker.ts) or a keep hands it over. One flat array
 * of values per batch, sorted by time, and each event's kind (event code, severity, target type)
 * and actor (id, name, roles, how signed in, user agent) as a small number the packer gives the
 * first time it meets one (`ref`), defined once in the batch that first uses it: a trail repeats a
 * few dozen of each a million times (migration 12: audit_kinds, audit_actors), so a batch posted
 * between threads carries numbers and a few strings, and the writer resolves each ref once.
 */

/** Values per event in `PackedBatch.rows`. */
export const PACKED_WIDTH = 8;
/** Where each value of an event is in its PACKED_WIDTH slots. */
export const P_ID = 0;
export const P_TS = 1;
export const P_KIND = 2;
export const P_ACTOR = 3;
export const P_IP = 4;
export const P_TARGET = 5;
export const P_STATUS = 6;
export const P_CONTEXT = 7;
/** Values per definition in `kinds` (ref, event, severity, target type) and `actors` (ref, id, name, roles, auth method, user agent). */
export const KIND_WIDTH = 4;
export const ACTOR_WIDTH = 6;

export interface PackedBatch {
  /** Per event (oldest first; the same millisecond in the order read): site id, time (epoch ms), kind ref, actor ref, ip, target id, status, context (JSON text). */
  rows: (string | number | null)[];
  /** Kinds this batch uses first: ref, event, severity, target type ('' for none). */
  kinds: (string | number)[];
  /** Actors this batch uses first: ref, actor id, name, roles (JSON text), auth method, user agent ('' for none). */
  actors: (string | number)[];
  /** The packer forgot its refs before this batch (too many different ones): the writer forgets its too. */
  reset: boolean;
}

/** An event's fields as the packer takes them (a read event: audit-copy/event-row.ts). */
export interface PackInput {
  id: number;
  ts: number;
  event: string;
  severity: string;
  actorId: string | null;
  actorName: string | null;
  /** JSON text of the role list, or null for none. */
  roles: string | null;
  authMethod: string | null;
  ip: string | null;
  userAgent: string | null;
  targetType: string | null;
  targetId: string | null;
  status: number | null;
  /** JSON text of the context object, or null. */
  context: string | null;
}

type Tree = Map<string, Tree | number>;

/** The ref under a path of values in a tree of maps (no string built per event). */
function lookup(tree: Tree, path: readonly string[]): number | undefined {
  let node: Tree | number | undefined = tree;
  for (const v of path) {
    if (node === undefined || typeof node === 'number') return undefined;
    node = node.get(v);
  }
  return typeof node === 'number' ? node : undefined;
}

function store(tree: Tree, path: readonly string[], ref: number): void {
  let node = tree;
  for (let i = 0; i < path.length - 1; i++) {
    let next = node.get(path[i]!) as Tree | undefined;
    if (!next) {
      next = new Map();
      node.set(path[i]!, next);
    }
    node = next;
  }
  node.set(path[path.length - 1]!, ref);
}

/** Refs remembered at most (a file of all-different user agents): past it the next batch starts them again. */
const MAX_REFS = 20_000;

/** Packs events into batches: `add` each, `take` a batch (sorted by time). */
export class AuditPacker {
  private kinds: Tree = new Map();
  private actors: Tree = new Map();
  private nextRef = 0;
  private rows: (string | number | null)[] = [];
  private ts: number[] = [];
  private newKinds: (string | number)[] = [];
  private newActors: (string | number)[] = [];
  private reset = false;
  private readonly kindPath: string[] = ['', '', ''];
  private readonly actorPath: string[] = ['', '', '', '', ''];

  /** Events added since the last take. */
  get size(): number {
    return this.ts.length;
  }

  add(e: PackInput): void {
    const kp = this.kindPath;
    kp[0] = e.event;
    kp[1] = e.severity;
    kp[2] = e.targetType ?? '';
    let kind = lookup(this.kinds, kp);
    if (kind === undefined) {
      kind = this.nextRef++;
      store(this.kinds, kp, kind);
      this.newKinds.push(kind, kp[0], kp[1], kp[2]);
    }
    const ap = this.actorPath;
    ap[0] = e.actorId ?? '';
    ap[1] = e.actorName ?? '';
    ap[2] = e.roles ?? '';
    ap[3] = e.authMethod ?? '';
    ap[4] = e.userAgent ?? '';
    let actor = lookup(this.actors, ap);
    if (actor === undefined) {
      actor = this.nextRef++;
      store(this.actors, ap, actor);
      this.newActors.push(actor, ap[0], ap[1], ap[2], ap[3], ap[4]);
    }
    this.rows.push(e.id, e.ts, kind, actor, e.ip, e.targetId, e.status, e.context);
    this.ts.push(e.ts);
  }

  /** The events added since the last take, oldest first (stable: one millisecond keeps the order read). */
  take(): PackedBatch {
    const n = this.ts.length;
    let rows = this.rows;
    const ts = this.ts;
    let ascending = true;
    let descending = true;
    for (let i = 1; i < n && (ascending || descending); i++) {
      if (ts[i]! < ts[i - 1]!) ascending = false;
      if (ts[i]! > ts[i - 1]!) descending = false;
    }
    if (!ascending) {
      const order = Array.from({ length: n }, (_, i) => i);
      if (descending) {
        // an export is newest first: runs of one millisecond reversed as runs, each kept in its order
        order.length = 0;
        let end = n;
        while (end > 0) {
          let start = end - 1;
          while (start > 0 && ts[start - 1] === ts[end - 1]) start--;
          for (let i = start; i < end; i++) order.push(i);
          end = start;
        }
      } else order.sort((a, b) => ts[a]! - ts[b]! || a - b);
      const sorted: (string | number | null)[] = new Array(rows.length);
      let o = 0;
      for (const i of order) {
        const from = i * PACKED_WIDTH;
        for (let k = 0; k < PACKED_WIDTH; k++) sorted[o++] = rows[from + k]!;
      }
      rows = sorted;
    }
    const batch: PackedBatch = { rows, kinds: this.newKinds, actors: this.newActors, reset: this.reset };
    this.rows = [];
    this.ts = [];
    this.newKinds = [];
    this.newActors = [];
    this.reset = false;
    if (this.nextRef >= MAX_REFS) {
      // the next batch starts the refs again (and says so)
      this.kinds = new Map();
      this.actors = new Map();
      this.nextRef = 0;
      this.reset = true;
    }
    return batch;
  }
}
