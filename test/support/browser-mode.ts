/**
 * Browser mode's server in this process over a fresh Host: a private data folder, a stand-in
 * renderer page, session-only secrets. For the tests of the bridge itself (frames, sizes, tokens);
 * the supervised child-process form is tested by web-supervision.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHost, type Host } from '../../electron/core/host';
import { MemorySecretStore } from '../../electron/secrets/memory';
import { startWebServer, type WebServer } from '../../electron/web/server';
import { tempDir } from './tmp';

export interface BrowserModeHost {
  host: Host;
  web: WebServer;
  close(): Promise<void>;
}

export async function startBrowserModeHost(): Promise<BrowserModeHost> {
  const dir = tempDir();
  const staticDir = join(dir.path, 'renderer');
  mkdirSync(staticDir);
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>Sitedesk</title>');
  const host = await createHost({ dataDir: dir.path, shell: 'browser', version: 'test', secrets: new MemorySecretStore(), log: () => {} });
  const web = await startWebServer({ host, staticDir });
  return {
    host,
    web,
    async close() {
      await web.close();
      await host.close();
      dir.remove();
    },
  };
}
