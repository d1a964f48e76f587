/**
 * One data folder, one app: `sitedesk.lock` in the folder names the process using it (pid, mode,
 * browser mode's port). Two copies on one folder would be two writers and two auto-sync loops
 * pushing the same outbox, so a second copy (Electron or browser mode) reads the lock and stops.
 * A lock whose process is gone (a crash, a kill), or whose pid a later process took, is stale and
 * taken over. Taken by the long-lived
 * process of each mode (Electron's main, browser mode's server), never by the Host, which restarts.
 */
import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK_FILE = 'sitedesk.lock';
/** The exit code of a copy that found its data folder in use. */
export const EXIT_FOLDER_IN_USE = 3;

export interface LockHolder {
  pid: number;
  mode: 'electron' | 'browser';
  /** Browser mode's port, once it listens. */
  port?: number;
  startedAt: string;
}

export interface FolderLock {
  readonly path: string;
  /** Adds what a second copy should be told (browser mode's port). */
  update(info: Pick<LockHolder, 'port'>): void;
  /** Removes the lock if it is still ours. Safe to call twice. */
  release(): void;
}

export type LockResult = { ok: true; lock: FolderLock } | { ok: false; holder: LockHolder; path: string };

export interface LockOptions {
  mode: LockHolder['mode'];
  pid?: number;
  /** Whether a process exists; injectable for tests of the decision. */
  isAlive?: (pid: number) => boolean;
  /** When a process started (ms since the epoch), or null when the system does not say. */
  startedAt?: (pid: number) => number | null;
}

/** A process exists when signal 0 reaches it, or when it exists but belongs to someone else (EPERM). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When a process started, from Linux's /proc (clock ticks after boot; 100 a second on every Linux
 * Node supports); null elsewhere. A lock's pid reused by a later process is told apart by it.
 */
export function processStartedAt(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const boot = Number(/^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1]);
    return Number.isFinite(ticks) && Number.isFinite(boot) ? (boot + ticks / 100) * 1000 : null;
  } catch {
    return null;
  }
}

/** The holder is that process: alive, and (where the system says) started before it wrote the lock. */
function holds(holder: LockHolder, isAlive: (pid: number) => boolean, startedAt: (pid: number) => number | null): boolean {
  if (!isAlive(holder.pid)) return false;
  const started = startedAt(holder.pid);
  const locked = Date.parse(holder.startedAt);
  // a process that began after the lock was written cannot have written it: its pid was reused (2 s for clock rounding)
  return started === null || Number.isNaN(locked) || started <= locked + 2000;
}

function readHolder(path: string): LockHolder | null {
  try {
    const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockHolder>;
    if (typeof data.pid !== 'number' || !Number.isSafeInteger(data.pid) || data.pid <= 0) return null;
    return {
      pid: data.pid,
      mode: data.mode === 'electron' ? 'electron' : 'browser',
      ...(typeof data.port === 'number' ? { port: data.port } : {}),
      startedAt: typeof data.startedAt === 'string' ? data.startedAt : '',
    };
  } catch {
    return null;
  }
}

const errCode = (err: unknown) => (err as NodeJS.ErrnoException).code;

/**
 * Takes the lock of `dataDir` (creating the folder, owner-only, if it is new). A lock held by a
 * live process other than this one is refused with its holder; a lock whose process is gone, or
 * that cannot be read, is moved aside atomically and taken over, so two
 * copies starting together on a stale lock cannot both win.
 */
export function lockDataFolder(dataDir: string, opts: LockOptions): LockResult {
  const pid = opts.pid ?? process.pid;
  const isAlive = opts.isAlive ?? processAlive;
  const startedAt = opts.startedAt ?? processStartedAt;
  const path = join(dataDir, LOCK_FILE);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mine: LockHolder = { pid, mode: opts.mode, startedAt: new Date().toISOString() };

  for (let attempt = 0; attempt < 5; attempt++) {
    if (placeLock(path, mine)) return { ok: true, lock: heldLock(path, mine) };
    const holder = readHolder(path);
    // A pid equal to ours is a lock left by an earlier process that had our number (a container restart).
    if (holder && holder.pid !== pid && holds(holder, isAlive, startedAt)) return { ok: false, holder, path };
    // Stale: move it aside under a name of our own; only one of two racing copies can move it.
    const aside = `${path}.stale-${pid}`;
    try {
      renameSync(path, aside);
    } catch (err) {
      if (errCode(err) === 'ENOENT') continue; // another copy moved it first; try again
      throw err;
    }
    const moved = readHolder(aside);
    const sameAsRead = moved !== null && holder !== null && moved.pid === holder.pid && moved.startedAt === holder.startedAt;
    if (moved && !sameAsRead && moved.pid !== pid && holds(moved, isAlive, startedAt)) {
      // A live copy's fresh lock was moved by mistake (it took over between our read and our move): put it back.
      try {
        linkSync(aside, path);
      } catch {
        // a third lock appeared meanwhile; the loop reads it
      }
    }
    try {
      unlinkSync(aside);
    } catch {
      // already gone
    }
  }
  const holder = readHolder(path);
  if (holder) return { ok: false, holder, path };
  throw new Error(`Could not take the lock ${path}`);
}

/**
 * Creates the lock with its whole content at once: written to a file of our own, then linked to
 * the lock's name (a link fails if the name exists), so nobody ever reads a half-written lock.
 */
function placeLock(path: string, holder: LockHolder): boolean {
  const tmp = `${path}.${holder.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(holder), { mode: 0o600 });
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if (errCode(err) === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
}

function heldLock(path: string, mine: LockHolder): FolderLock {
  let current = mine;
  let released = false;
  const stillOurs = () => {
    const h = readHolder(path);
    return h !== null && h.pid === mine.pid && h.startedAt === mine.startedAt;
  };
  return {
    path,
    update(info) {
      if (released || !stillOurs()) return;
      current = { ...current, ...info };
      const tmp = `${path}.${mine.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(current), { mode: 0o600 });
      renameSync(tmp, path); // replaced whole, never read half-written
    },
    release() {
      if (released) return;
      released = true;
      if (!stillOurs()) return;
      try {
        unlinkSync(path);
      } catch {
        // already gone
      }
    },
  };
}

/** One line for a person: who holds the folder and what to do. */
export function folderInUseMessage(dataDir: string, holder: LockHolder, lockPath = join(dataDir, LOCK_FILE)): string {
  const where =
    holder.mode === 'browser'
      ? `in browser mode${holder.port ? ` at http://127.0.0.1:${holder.port}/ (open the link it printed)` : ''}`
      : 'as the desktop app';
  return `Sitedesk is already running with the data folder ${dataDir} (process ${holder.pid}, ${where}). Use that copy, or close it first; to run a second copy, start it with another data folder. If no Sitedesk is running, remove ${lockPath}.`;
}
