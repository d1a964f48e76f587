/**
 * Browser mode supervises its Host as Electron's main supervises the utility process
 * (electron/utility.ts): the Host runs in a child process (electron/web/host-child.ts); one that
 * dies is restarted with the same backoff and the same limit (electron/host-restarts.ts), every
 * page's socket is closed so the page reconnects by itself, and more than five exits a minute is
 * "the background service keeps stopping" until the person tries again. Work in flight resumes in
 * the new Host from the database: the outbox is pushed again by auto-sync, a mirror run goes on.
 * Without a keychain, the session's secrets are kept here (web/session-secrets.ts), so the new
 * Host still has them.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { RestartLog } from '../host-restarts';
import { MemorySecretStore } from '../secrets/memory';
import { CLOSE_HOST_RESTARTING, type BridgeLine, type HostAvailability, type HostBridge, type PageEnd } from './bridge';
import { readFromHostChild, type FromHostChild, type ToHostChild } from './child-messages';
import { runSecretRequest } from './session-secrets';

export type SupervisedState = 'starting' | 'ready' | 'restarting' | 'stopped';

export interface SupervisorOptions {
  /** The Host child's entry (out/app/host/web-host.mjs). */
  entry: string;
  dataDir: string;
  /** Where lines for the person go (the terminal). */
  say?: (line: string) => void;
  /** How long a page waits for a restarting Host before it is told to try later. */
  waitForHostMs?: number;
}

export type ReadyInfo = Extract<FromHostChild, { type: 'ready' }>;

export interface SupervisedHost extends HostBridge {
  /** The first Host is ready; rejects with its reason when the first start fails (nothing to restart then). */
  readonly firstStart: Promise<ReadyInfo>;
  state(): SupervisedState;
  /** The running Host's process id (tests kill it), or null while there is none. */
  pid(): number | null;
  /** Stop the Host cleanly (it closes its database), or kill it after a grace period. */
  stop(): Promise<void>;
}

const SHUTDOWN_GRACE_MS = 3000;

export function superviseHost(opts: SupervisorOptions): SupervisedHost {
  const say = opts.say ?? ((line: string) => console.error(line));
  const restarts = new RestartLog();
  const lines = new Map<number, PageEnd>();
  /** Session-only secrets (no keychain), kept here so every Host of the session has them. */
  const sessionSecrets = new MemorySecretStore();
  const waiting = new Set<() => void>();
  let nextLine = 1;
  let child: ChildProcess | null = null;
  let state: SupervisedState = 'starting';
  let started = false;
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let lastFailure: string | undefined;
  let firstResolve!: (info: ReadyInfo) => void;
  let firstReject!: (err: Error) => void;
  const firstStart = new Promise<ReadyInfo>((resolve, reject) => ((firstResolve = resolve), (firstReject = reject)));

  /** The sites' origins as the Host last told them (they outlive a restart: the sites do). */
  let origins: readonly string[] = [];

  const setState = (next: SupervisedState) => {
    state = next;
    if (next === 'ready' || next === 'stopped') for (const wake of [...waiting]) wake();
  };

  const post = (message: ToHostChild) => {
    try {
      child?.send(message);
    } catch (err) {
      console.error('Could not reach the Sitedesk Host:', err); // it is exiting; 'exit' follows
    }
  };

  function spawnHost(): void {
    lastFailure = undefined;
    const proc = fork(opts.entry, [opts.dataDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' }); // frames cross as raw strings, not JSON inside JSON
    child = proc;
    proc.on('error', (err) => console.error('The Sitedesk Host process reported an error:', err));
    proc.on('message', (raw) => {
      if (proc !== child) return;
      const m = readFromHostChild(raw);
      if (m?.type === 'frame') lines.get(m.line)?.send(m.frame);
      else if (m?.type === 'failed') lastFailure = m.message;
      else if (m?.type === 'image-origins') origins = m.origins;
      else if (m?.type === 'secret') {
        void runSecretRequest(sessionSecrets, m).then((value) => {
          if (proc === child) post({ type: 'secret-answer', id: m.id, value });
        });
      }
      else if (m?.type === 'ready') {
        if (!started) firstResolve(m);
        started = true;
        setState('ready');
      }
    });
    proc.once('exit', (code, signal) => onExit(proc, code ?? signal ?? 'unknown'));
  }

  function onExit(proc: ChildProcess, how: number | string): void {
    if (child !== proc) return;
    child = null;
    // Every page's line ends now, so calls in flight fail at once and the page reconnects.
    for (const page of lines.values()) page.end(CLOSE_HOST_RESTARTING, 'Sitedesk is restarting its background service');
    lines.clear();
    if (stopping) return;
    if (!started) {
      stopping = true;
      setState('stopped');
      firstReject(new Error(lastFailure ?? `its background service exited (${how}) before it was ready`));
      return;
    }
    say(`Sitedesk's background service stopped unexpectedly (exit ${how}); restarting it.`);
    const next = restarts.exited();
    if (!next.restart) {
      setState('stopped');
      say("Sitedesk's background service keeps stopping. Your saved work is safe. The page offers to try again; or stop Sitedesk (Ctrl+C) and start it again.");
      return;
    }
    setState('restarting');
    restartTimer = setTimeout(spawnHost, next.delayMs);
  }

  spawnHost();

  return {
    firstStart,
    state: () => state,
    pid: () => child?.pid ?? null,

    available(): Promise<HostAvailability> {
      if (state === 'ready' || state === 'stopped') return Promise.resolve(state);
      return new Promise((resolve) => {
        const done = () => {
          waiting.delete(done);
          clearTimeout(timer);
          resolve(state === 'ready' || state === 'stopped' ? state : 'unavailable');
        };
        const timer = setTimeout(done, opts.waitForHostMs ?? 20_000);
        waiting.add(done);
      });
    },

    retry() {
      if (state !== 'stopped' || stopping) return;
      restarts.reset();
      say("Starting Sitedesk's background service again.");
      setState('restarting');
      spawnHost();
    },

    imageOrigins: () => Promise.resolve(origins),

    open(page): BridgeLine | null {
      if (state !== 'ready' || !child) return null;
      const id = nextLine++;
      lines.set(id, page);
      post({ type: 'open', line: id });
      return {
        receive(frame) {
          if (lines.has(id)) post({ type: 'frame', line: id, frame });
        },
        close() {
          if (lines.delete(id)) post({ type: 'close', line: id });
        },
      };
    },

    stop() {
      stopping = true;
      clearTimeout(restartTimer);
      for (const wake of [...waiting]) wake();
      const proc = child;
      if (!proc) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const kill = setTimeout(() => proc.kill('SIGKILL'), SHUTDOWN_GRACE_MS);
        proc.once('exit', () => {
          clearTimeout(kill);
          resolve();
        });
        post({ type: 'shutdown' });
      });
    },
  };
}
