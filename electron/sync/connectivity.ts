/**
 * Which CMS sites answer. Every request to a site reports here (the sessions wrap fetch): any HTTP
 * answer means online, a connection that fails or times out means offline. An offline site is
 * probed (GET /ping) with a growing wait; the first answer, from a probe or from anything the
 * user does, brings it back online, and `changed` says so (the Host then pushes its outbox when
 * auto-sync is on).
 */

export interface ConnectivityDeps {
  /** Asks the site once; its answer reaches `reachable` / `unreachable` through the wrapped fetch. */
  probe: (siteId: string) => Promise<unknown>;
  /** A site went online or offline. `back`: it was offline (or unknown with work waiting) before. */
  changed: (siteId: string, online: boolean, back: boolean) => void;
  /** Wait before probe number `attempt` (1, 2, …). */
  delayMs?: (attempt: number) => number;
}

/** 2 s, 4 s, 8 s … at most a minute between probes. */
export const probeDelayMs = (attempt: number) => Math.min(60_000, 2000 * 2 ** Math.max(0, attempt - 1));

export function connectivity(deps: ConnectivityDeps) {
  const online = new Map<string, boolean>();
  const probing = new Map<string, { timer: ReturnType<typeof setTimeout> | null; attempt: number }>();
  let closed = false;
  const delay = deps.delayMs ?? probeDelayMs;

  function schedule(siteId: string): void {
    const p = probing.get(siteId);
    if (!p || closed) return;
    p.attempt++;
    p.timer = setTimeout(() => {
      p.timer = null;
      // the answer (or its failure) arrives through reachable/unreachable; this only schedules the next
      void deps.probe(siteId).catch(() => {}).finally(() => {
        if (probing.get(siteId) === p && online.get(siteId) !== true) schedule(siteId);
      });
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
        probing.set(siteId, { timer: null, attempt: 0 });
        schedule(siteId);
      }
      if (was !== false) deps.changed(siteId, false, false);
    },

    /** Probe a site whose state is unknown but has work waiting (changes queued before a restart). */
    watch(siteId: string): void {
      if (probing.has(siteId) || online.get(siteId) === true || closed) return;
      probing.set(siteId, { timer: null, attempt: 0 });
      void deps.probe(siteId).catch(() => {}).finally(() => {
        if (probing.has(siteId) && online.get(siteId) !== true) schedule(siteId);
      });
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
