/**
 * The set-up most Host tests share: a CMS sandbox (the demo site unless told otherwise), a Host
 * on a fresh data folder with secrets in memory, and the sandbox's site added to it by its admin
 * key. `call`/`fails` reach the Host's channels (host-calls.ts), `events` collects what the Host
 * announced, `reopen` opens the Host again on the same folder (a restart), `open` does so after the
 * test closed the Host itself (to change its database meanwhile), `close` ends all three.
 * Tests keep their own sandboxes, fetch wrappers or secret stores by passing them in.
 * `withPlainHost` is the same Host without the CMS sandbox and site, for tests whose site is
 * something else (a store). `mirrored` starts (or resumes) a site's mirror and waits for its end.
 */
import { createHost, type Host, type HostOptions } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import type { ChannelInput, MirrorProgress, Site } from '../../electron/contract';
import { startCmsSandbox, type CmsSandbox, type CmsSandboxOptions } from '../sandbox/cms/server';
import { hostCalls } from './host-calls';
import { tempDir } from './tmp';
import { until } from './until';

export interface PlainHostOptions {
  /** the Host's options besides its folder (secrets default to memory; log is silent) */
  host?: Partial<Omit<HostOptions, 'dataDir'>>;
}

export interface PlainHost {
  host: Host;
  dir: ReturnType<typeof tempDir>;
  events: { name: string; payload: unknown }[];
  call: ReturnType<typeof hostCalls>['call'];
  fails: ReturnType<typeof hostCalls>['fails'];
  /** closes the Host and opens it again on the same data folder, with the same options */
  reopen(): Promise<Host>;
  /** opens the Host again on the same data folder, with the same options, after the test closed it */
  open(): Promise<Host>;
  /** the Host and the data folder */
  close(): Promise<void>;
}

/** A Host on a fresh data folder, no site added. */
export async function withPlainHost(o: PlainHostOptions = {}): Promise<PlainHost> {
  const dir = tempDir();
  const options: HostOptions = { dataDir: dir.path, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {}, ...o.host };
  const events: PlainHost['events'] = [];
  const open = async () => {
    const h = await createHost(options);
    h.onEvent((name, payload) => events.push({ name, payload }));
    return h;
  };
  const fx = { dir, events } as PlainHost;
  fx.host = await open();
  Object.assign(fx, hostCalls(() => fx.host));
  fx.open = async () => (fx.host = await open());
  fx.reopen = async () => {
    await fx.host.close();
    return fx.open();
  };
  fx.close = async () => {
    await fx.host.close();
    dir.remove();
  };
  return fx;
}

export interface DemoHostOptions {
  /** the sandbox's options (default: the demo seed and content, spec flavour) */
  sandbox?: CmsSandboxOptions;
  /** a sandbox the test started itself (it closes it) */
  cms?: CmsSandbox;
  /** the Host's options besides its folder (secrets default to memory; log is silent) */
  host?: Partial<Omit<HostOptions, 'dataDir'>>;
  /** the name the site is added under; false: add none (default 'Demo') */
  site?: string | false;
}

export interface DemoHost extends PlainHost {
  cms: CmsSandbox;
  /** the site added (undefined with `site: false`) */
  site: Site;
  /** the Host, the sandbox (unless the test started it) and the data folder */
  close(): Promise<void>;
}

export async function withHost(o: DemoHostOptions = {}): Promise<DemoHost> {
  const cms = o.cms ?? (await startCmsSandbox({ seed: 'demo', content: 'demo', ...o.sandbox }));
  const fx = (await withPlainHost({ host: o.host })) as DemoHost;
  fx.cms = cms;
  if (o.site !== false) {
    fx.site = await fx.call('sites.add', { name: o.site ?? 'Demo', kind: 'cms', baseUrl: cms.url, environment: null, authMode: 'apikey', apiKey: cms.seeded!.adminApiKey! });
  }
  const closeHost = fx.close;
  fx.close = async () => {
    await closeHost();
    if (!o.cms) await cms.close();
  };
  return fx;
}

/** The site's mirror status as the Host reports it now. */
export async function mirrorStatus(call: PlainHost['call'], siteId: string): Promise<MirrorProgress> {
  return (await call('mirror.status', { siteId }))[0]!;
}

/**
 * Starts (or resumes) a mirror of the site and waits for that run to end (`ms`, `everyMs`: as
 * `until`'s); answers how it ended.
 */
export async function mirrored(
  call: PlainHost['call'],
  siteId: string,
  input: Partial<Omit<ChannelInput<'mirror.start'>, 'siteId'>> = {},
  wait: { ms?: number; everyMs?: number } = {},
): Promise<MirrorProgress> {
  const started = await call('mirror.start', { siteId, ...input });
  return until(() => mirrorStatus(call, siteId), (s) => s.runId === started.runId && s.state !== 'running', wait.ms, wait.everyMs);
}
