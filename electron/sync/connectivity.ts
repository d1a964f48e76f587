/**
 * Which CMS sites answer. Every request to a site reports here (the sessions wrap fetch): any HTTP
 * answer means online, a connection that fails or times out means offline. An offline site is
 * probed (GET /ping) with a growing wait; the first answer, from a probe or from anything the
 * user does, brings it back online, and `changed` says so (the Host then pushes its outbox when
 * auto-sync is on).
 *
 * A site known to be away is not asked again for every read: sites/calls.ts answers from the
 * copy and calls `nudge`, which probes at once (unless a probe is under way or has just been sent),
 * so a site that came back is noticed at the person's next step rather than at the next backoff.
 */

export interface ConnectivityDeps {
  /** Asks the site once; its answer reaches `reachable` / `unreachable` through the wrapped fetch. */
  probe: (siteId: string) => Promise<unknown>;
  /** A site went online or offline. `back`: it was offline (or unknown with work waiting) before. */
  changed: (siteId: string, online: boolean, back: boolean) => void;
  /** Wait before probe number `attempt` (1, 2, …). */
  delayMs?: (attempt: number) => number;
  now?: () => number;
}

/** A nudge sends no probe within this long of the last one: reads in a row ask the site once. */
export const NUDGE_GAP_MS = 1000;

/** 2 s, 4 s, 8 s … at most a minute between probes. */
export const probeDelayMs = (attempt: number) => Math.min(60_000, 2000 * 2 ** Math.max(0, attempt - 1));

interface Probing {
  timer: ReturnType<typeof setTimeout> | null;
  attempt: number;
  inFlight: boolean;
  /** When the last probe was sent (0: none yet). */
  lastAt: number;
}

export function connectivity(deps: ConnectivityDeps) {
  const online = new Map<string, boolean>();
  const probing = new Map<string, Probing>();
  let closed = false;
  const delay = deps.delayMs ?? probeDelayMs;
  const now = deps.now ?? Date.now;

  /** Asks the site now; the next probe is scheduled once this one is answered (or fails). */
  function probeNow(siteId: string, p: Probing): void {
    p.inFlight = true;
    p.lastAt = now();
    // the answer (or its failure) arrives through reachable/unreachable; this only schedules the next
    void deps
      .probe(siteId)
      .catch(() => {})
      .finally(() => {
        p.inFlight = false;
        if (probing.get(siteId) === p && online.get(siteId) !== true) schedule(siteId);
      });
  }

  function schedule(siteId: string): void {
    const p = probing.get(siteId);
    if (!p || closed) return;
    if (p.timer) clearTimeout(p.timer);
    p.attempt++;
    p.timer = setTimeout(() => {
      p.timer = null;
      probeNow(siteId, p);
    }, delay(p.attempt));
    p.timer.unref?.();
  }

  function stopProbing(siteId: string): boolean {
    const p = probing.get(siteId);
    if (!p) return false;
    if (p.timer) clearTimeout(p.timer);
    probing.delete(siteId);
    return true;
  }

  return {
    /** null until the site was asked anything. */
    state: (siteId: string): boolean | null => online.get(siteId) ?? null,

    reachable(siteId: string): void {
      const was = online.get(siteId);
      online.set(siteId, true);
      const waited = stopProbing(siteId);
      if (was !== true) deps.changed(siteId, true, was === false || waited);
    },

    unreachable(siteId: string): void {
      const was = online.get(siteId);
      online.set(siteId, false);
      if (!probing.has(siteId) && !closed) {
        // the failed request counts as the first probe: the next one comes after the first wait
        probing.set(siteId, { timer: null, attempt: 0, inFlight: false, lastAt: now() });
        schedule(siteId);
      }
      if (was !== false) deps.changed(siteId, false, false);
    },

    /** Probe a site whose state is unknown but has work waiting (changes queued before a restart). */
    watch(siteId: string): void {
      if (probing.has(siteId) || online.get(siteId) === true || closed) return;
      const p: Probing = { timer: null, attempt: 0, inFlight: false, lastAt: 0 };
      probing.set(siteId, p);
      probeNow(siteId, p);
    },

    /**
     * The site is known to be away and something was answered from the copy instead of asking it:
     * probe now, unless a probe is under way or was sent less than NUDGE_GAP_MS ago. The backoff
     * goes on from there.
     */
    nudge(siteId: string): void {
      const p = probing.get(siteId);
      if (!p || closed || online.get(siteId) !== false || p.inFlight || now() - p.lastAt < NUDGE_GAP_MS) return;
      if (p.timer) clearTimeout(p.timer);
      p.timer = null;
      probeNow(siteId, p);
    },

    /** The site was removed. */
    forget(siteId: string): void {
      stopProbing(siteId);
      online.delete(siteId);
    },

    close(): void {
      closed = true;
      for (const id of [...probing.keys()]) stopProbing(id);
    },
  };
}

export type Connectivity = ReturnType<typeof connectivity>;
