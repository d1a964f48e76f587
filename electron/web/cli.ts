/**
 * `npm run start:web -- [--data DIR] [--port N]`: the Host in this Node process, the renderer in
 * any browser. The last start-up line is the URL to open (it carries the per-run token).
 */
import { parseArgs } from 'node:util';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHost } from '../core/host';
import { openSecretStore } from '../secrets/keychain';
import { secretsOptionsFromEnv } from '../secrets/options';
import { defaultDataDir } from './data-dir';
import { startWebServer } from './server';

const usage = 'Usage: npm run start:web -- [--data DIR] [--port N]';

// The last resort: the server answers every request inside its own boundary (web/server.ts), so
// anything reaching here is a bug; it is logged and browser mode keeps serving.
process.on('unhandledRejection', (reason) => console.error('Sitedesk browser mode: a task failed and nothing handled it:', reason));
process.on('uncaughtException', (err) => console.error('Sitedesk browser mode: an error escaped every handler:', err));

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
  const secrets = await openSecretStore(secretsOptionsFromEnv() ?? {});
  const host = await createHost({ dataDir, shell: 'browser', version: __APP_VERSION__, secrets });
  const here = dirname(fileURLToPath(import.meta.url)); // out/host
  const web = await startWebServer({ host, staticDir: join(here, '..', 'renderer'), port });

  let closing = false;
  const stop = async () => {
    if (closing) return;
    closing = true;
    await web.close();
    await host.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  console.log(`Data folder: ${dataDir}`);
  console.log(
    secrets.status.mode === 'keychain' ? 'Secrets: system keychain' : `Secrets: this session only — ${secrets.status.reason ?? ''}`,
  );
  console.log(`Sitedesk browser mode: ${web.url}`);
}

main().catch((err) => {
  console.error(`Sitedesk could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
