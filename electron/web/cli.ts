/**
 * `npm run start:web -- [--data DIR] [--port N]`: the renderer in any browser, the Host in a child
 * process this one supervises (web/supervisor.ts), the two joined by the loopback server
 * (web/server.ts). This process holds the data folder's lock for the whole session; a second copy
 * on the same folder says so in one line and exits with EXIT_FOLDER_IN_USE. The last start-up
 * line is the URL to open (it carries the per-run token).
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXIT_FOLDER_IN_USE, folderInUseMessage, lockDataFolder, type FolderLock } from '../db/folder-lock';
import { defaultDataDir } from './data-dir';
import { startWebServer, type WebServer } from './server';
import { superviseHost, type SupervisedHost } from './supervisor';

const usage = 'Usage: npm run start:web -- [--data DIR] [--port N]';

// The last resort: the server answers every request inside its own boundary (web/server.ts), so
// anything reaching here is a bug; it is logged and browser mode keeps serving.
process.on('unhandledRejection', (reason) => console.error('Sitedesk browser mode: a task failed and nothing handled it:', reason));
process.on('uncaughtException', (err) => console.error('Sitedesk browser mode: an error escaped every handler:', err));

let lock: FolderLock | undefined;
let host: SupervisedHost | undefined;
let web: WebServer | undefined;
// However this process ends, a lock it holds does not outlive it (a kill leaves it stale, and the next start takes it over).
process.on('exit', () => lock?.release());

async function main() {
  let values;
  try {
    ({ values } = parseArgs({
      options: { data: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`--port must be a number from 0 to 65535.\n${usage}`);
    process.exit(2);
  }
  const dataDir = resolve(values.data ?? defaultDataDir());
  const locked = lockDataFolder(dataDir, { mode: 'browser' });
  if (!locked.ok) {
    console.error(folderInUseMessage(dataDir, locked.holder));
    process.exit(EXIT_FOLDER_IN_USE);
  }
  lock = locked.lock;

  const here = dirname(fileURLToPath(import.meta.url)); // out/app/host
  host = superviseHost({ entry: join(here, 'web-host.mjs'), dataDir });
  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await web?.close();
    await host?.stop();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop); // the terminal closed (npm start forwards it)

  const ready = await host.firstStart;
  web = await startWebServer({ bridge: host, staticDir: join(here, '..', 'renderer'), port });
  lock.update({ port: web.port });

  console.log(`Data folder: ${dataDir}`);
  console.log(ready.secrets.mode === 'keychain' ? 'Secrets: system keychain' : `Secrets: this session only — ${ready.secrets.reason ?? ''}`);
  console.log(`Sitedesk browser mode: ${web.url}`);
}

main().catch(async (err) => {
  console.error(`Sitedesk could not start: ${err instanceof Error ? err.message : String(err)}`);
  await host?.stop();
  lock?.release();
  process.exit(1);
});
