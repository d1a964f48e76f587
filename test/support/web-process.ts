/**
 * Browser mode as a real process, built from the sources for the test (electron/web/cli.ts and the
 * Host's child entry, bundled side by side the way scripts/build.mjs lays them out), so a test can
 * attack its sockets, kill its Host or start it twice and see what the process does. Each test
 * process has its own folder (out/test/web-<pid>): the bundle in bin/ and, where the process looks
 * for the renderer (../renderer beside its bundle), a small stand-in renderer of its own, so no
 * test writes or deletes files another test process serves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const node = join(root, 'node_modules', '.bin', 'node');
// a folder per test process: two test files building or serving at once must not share files
const out = `out/test/web-${process.pid}`;
let built: Promise<string> | undefined;

/** The stand-in renderer every test process serves: its files by path under the renderer folder. */
export const STAND_IN_RENDERER: Readonly<Record<string, string>> = {
  'index.html': '<!doctype html><title>Sitedesk</title><script type="module" src="/assets/app.js"></script>',
  'assets/app.js': 'console.log("Sitedesk");',
};

/** The renderer folder this test process's browser mode serves (where cli.ts looks: ../renderer beside its bundle). */
export const webRendererDir = join(root, out, 'renderer');

/** Bundles browser mode once per test file, with the stand-in renderer beside it; answers the entry's path. */
export function buildWebEntry(): Promise<string> {
  built ??= (async () => {
    const { bundleTs } = await import('../../scripts/bundle-ts.mjs');
    const define = { __APP_VERSION__: JSON.stringify('0.0.0-test') };
    for (const [path, text] of Object.entries(STAND_IN_RENDERER)) {
      mkdirSync(join(webRendererDir, path, '..'), { recursive: true });
      writeFileSync(join(webRendererDir, path), text);
    }
    await bundleTs('electron/web/host-child.ts', `${out}/bin/web-host.mjs`, define);
    return bundleTs('electron/web/cli.ts', `${out}/bin/web.mjs`, define);
  })();
  return built;
}

/** Removes this test file's bundle and stand-in renderer (call in afterAll, once its processes have stopped). */
export function removeWebBuild(): void {
  built = undefined;
  rmSync(join(root, out), { recursive: true, force: true });
}

export interface WebProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Resolves with its exit code (or the signal's name) once it has exited. */
  exited: Promise<number | string>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts browser mode on `dataDir` with session-only secrets; does not wait for it to be ready. */
export async function spawnWeb(dataDir: string, env: Record<string, string> = {}): Promise<WebProcess> {
  const entry = await buildWebEntry();
  const child = spawn(node, [entry, '--data', dataDir], {
    env: { ...process.env, SITEDESK_SECRETS: 'memory', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return {
    child,
    output: () => out,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Starts browser mode and waits for its URL line; answers the process with its URL and port. */
export async function startWeb(dataDir: string, env: Record<string, string> = {}): Promise<WebProcess & { url: string; port: number; token: string }> {
  const p = await spawnWeb(dataDir, env);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start:\n${p.output()}`)), 20_000);
    const check = () => {
      const m = /Sitedesk browser mode: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(p.output());
      if (m) {
        clearTimeout(timer);
        p.child.stdout!.off('data', check);
        resolve(m[1]!);
      }
    };
    p.child.stdout!.on('data', check);
    void p.exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited with ${code}:\n${p.output()}`));
    });
  });
  const u = new URL(url);
  return Object.assign(p, { url, port: Number(u.port), token: u.searchParams.get('token')! });
}
