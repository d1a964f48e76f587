/**
 * Browser mode's Host process (out/app/host/web-host.mjs): the Host, in a child of the web server, so
 * a Host that dies takes no page and no port with it; the server restarts it
 * (electron/web/supervisor.ts), as Electron's main restarts its utility process. Argument: the
 * data folder. Each page's line is served by `inProcessBridge`, its frames carried over Node's IPC;
 * without a keychain, the session's secrets are the server's (web/session-secrets.ts).
 * It exits when the server goes (the IPC channel closes), so no Host outlives its server.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost, type Host } from '../core/host';
import { openSecretStore } from '../secrets/keychain';
import { secretsOptionsFromEnv } from '../secrets/options';
import type { SecretStore } from '../secrets/secret-store';
import { inProcessBridge, type BridgeLine, type HostBridge } from './bridge';
import { followImageOrigins } from '../core/image-origins';
import { readToHostChild, type FromHostChild } from './child-messages';
import { ServerKeptSecrets } from './session-secrets';

const dataDir = process.argv[2];
if (!process.send || !dataDir) {
  console.error('web-host runs only as the child of Sitedesk browser mode (a data folder and an IPC channel are needed).');
  process.exit(1);
}

/** Sends to the server; resolves once the message is handed over (before an exit, so it is not lost). */
const tell = (message: FromHostChild) =>
  new Promise<void>((resolve) => {
    if (!process.connected) return resolve();
    process.send!(message, undefined, undefined, () => resolve());
  });

let host: Host | undefined;
let bridge: HostBridge | undefined;
let serverSecrets: ServerKeptSecrets | undefined;
let closing: Promise<void> | undefined;
const lines = new Map<number, BridgeLine>();

// One listener from the start: secrets are answered while the Host opens; lines only once it is open.
process.on('message', (raw) => {
  const m = readToHostChild(raw);
  if (!m || closing) return;
  if (m.type === 'secret-answer') return void serverSecrets?.answer(m.id, m.value);
  if (m.type === 'shutdown') return void shutdown();
  if (!bridge) return; // the server opens lines only after 'ready'
  if (m.type === 'open') {
    const line = bridge.open({ send: (frame) => void tell({ type: 'frame', line: m.line, frame }), end: () => undefined });
    if (line) lines.set(m.line, line);
  } else if (m.type === 'frame') {
    lines.get(m.line)?.receive(m.frame);
  } else {
    lines.get(m.line)?.close();
    lines.delete(m.line);
  }
});

function shutdown(): Promise<void> {
  closing ??= (async () => {
    try {
      for (const line of lines.values()) line.close();
      await host?.close();
    } catch (err) {
      console.error('The Sitedesk Host did not close cleanly:', err);
    }
    process.exit(0);
  })();
  return closing;
}

async function start(): Promise<void> {
  let secrets: SecretStore = await openSecretStore(secretsOptionsFromEnv() ?? {});
  // Without a keychain the session's secrets are kept by the server, so they outlive this process.
  if (secrets.status.mode === 'memory') secrets = serverSecrets = new ServerKeptSecrets(secrets.status, (m) => void tell(m));
  // the build's licence notices sit one folder up from this bundle (out/app/host/web-host.mjs → out/app/licences.json)
  const noticesFile = join(dirname(fileURLToPath(import.meta.url)), '..', 'licences.json');
  host = await createHost({ dataDir: dataDir!, shell: 'browser', version: __APP_VERSION__, secrets, noticesFile });
  bridge = inProcessBridge(host);
  // the server builds each page's image policy from the sites' origins: tell it now and on every change
  await followImageOrigins(host, (origins) => tell({ type: 'image-origins', origins }));
  await tell({ type: 'ready', secrets: { mode: secrets.status.mode, reason: secrets.status.reason } });
}

process.on('disconnect', () => void shutdown()); // the server is gone
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void 0); // Ctrl+C reaches the whole group: the server stops us in order

start().catch(async (err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  console.error('The Sitedesk Host could not start:', err);
  await tell({ type: 'failed', message });
  process.exit(1); // the server restarts it with backoff, or reports the first start's failure
});
