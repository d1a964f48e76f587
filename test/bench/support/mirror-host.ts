/**
 * A Host on a temporary data folder with one CMS site, and a way to run a mirror to its end; its
 * fetch keeps what went over the wire (statuses, conditional requests, when each left).
 */
import { createHost, type Host } from '../../../electron/core/host';
import { MemorySecretStore } from '../../../electron/secrets/memory';
import type { ChannelInput, ChannelName, ChannelOutput, MirrorProgress, Site } from '../../../electron/contract';
import { hostCalls } from '../../support/host-calls';
import { tempDir } from '../../support/tmp';

/** What the Host sent and what came back, counted at its fetch. */
export interface Wire {
  /** answers by status (0: no answer) */
  statuses: Map<number, number>;
  /** requests sent with If-None-Match */
  conditional: number;
  /** when each request left (performance.now()) */
  sentAt: number[];
  count(status: number): number;
  clear(): void;
}

export function wiredFetch(): { fetch: typeof fetch; wire: Wire } {
  const wire: Wire = {
    statuses: new Map(),
    conditional: 0,
    sentAt: [],
    count: (status) => wire.statuses.get(status) ?? 0,
    clear: () => {
      wire.statuses.clear();
      wire.conditional = 0;
      wire.sentAt = [];
    },
  };
  const wrapped: typeof fetch = async (input, init) => {
    wire.sentAt.push(performance.now());
    if (new Headers(init?.headers).has('if-none-match')) wire.conditional++;
    try {
      const res = await fetch(input, init);
      wire.statuses.set(res.status, (wire.statuses.get(res.status) ?? 0) + 1);
      return res;
    } catch (err) {
      wire.statuses.set(0, (wire.statuses.get(0) ?? 0) + 1);
      throw err;
    }
  };
  return { fetch: wrapped, wire };
}

export interface BenchHost {
  host: Host;
  site: Site;
  wire: Wire;
  call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>>;
  /** Starts a mirror and resolves with its last progress when it ends; `ms` is the wall time. */
  mirror(input?: Partial<ChannelInput<'mirror.start'>>): Promise<{ progress: MirrorProgress; ms: number }>;
  close(): Promise<void>;
}

export async function benchHost(sandbox: { url: string; apiKey: string }): Promise<BenchHost> {
  const dir = tempDir('sitedesk-bench-host-');
  const { fetch: fetchImpl, wire } = wiredFetch();
  const host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'bench', secrets: new MemorySecretStore(), fetch: fetchImpl, log: () => {} });
  const ended = new Map<number, (p: MirrorProgress) => void>();
  host.onEvent((name, payload) => {
    if (name !== 'mirror.progress') return;
    const p = payload as MirrorProgress;
    if (p.state !== 'running') ended.get(p.runId)?.(p);
  });
  const { call } = hostCalls(() => host);
  const site = await call('sites.add', { name: 'Bench', kind: 'cms', baseUrl: sandbox.url, environment: null, authMode: 'apikey', apiKey: sandbox.apiKey });
  return {
    host,
    site,
    wire,
    call,
    async mirror(input = {}) {
      const t = performance.now();
      let resolve!: (p: MirrorProgress) => void;
      const done = new Promise<MirrorProgress>((r) => (resolve = r));
      const started = await call('mirror.start', { siteId: site.id, ...input });
      ended.set(started.runId, resolve);
      // it may have ended before the listener was set
      const [now] = await call('mirror.status', { siteId: site.id });
      if (now && now.runId === started.runId && now.state !== 'running') resolve(now);
      const progress = await done;
      return { progress, ms: performance.now() - t };
    },
    async close() {
      await host.close();
      dir.remove();
    },
  };
}
