/**
 * Starts and stops browser mode (`node out/app/host/web.mjs`) as a real child process, the way a
 * person runs it, and reads the URL from its last start-up line.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

export interface BrowserMode {
  url: string;
  dataDir: string;
  output: () => string;
  /** The Host's process (the one child browser mode supervises), for tests that kill it. */
  hostPid(): number;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface StartOptions {
  dataDir: string;
  /** 'memory' starts without a keychain (the banner case). */
  secrets?: 'memory' | 'keychain';
  keychainService?: string;
}

const root = join(import.meta.dirname, '..', '..');
const node = join(root, 'node_modules', '.bin', 'node');

export async function startBrowserMode(opts: StartOptions): Promise<BrowserMode> {
  const useKeychain = opts.secrets !== 'memory' && Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
  const child: ChildProcess = spawn(node, [join(root, 'out/app/host/web.mjs'), '--data', opts.dataDir], {
    env: {
      ...process.env,
      SITEDESK_SECRETS: useKeychain ? '' : 'memory',
      SITEDESK_KEYCHAIN_SERVICE: opts.keychainService ?? `SitedeskE2E-${randomUUID()}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`browser mode did not start:\n${out}`)), 20_000);
    const check = () => {
      const m = /Sitedesk browser mode: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`browser mode exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir: opts.dataDir,
    output: () => out,
    hostPid: () => {
      const pids = execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)], { encoding: 'utf8' }).trim().split(/\s+/).filter(Boolean).map(Number);
      if (pids.length !== 1) throw new Error(`browser mode has ${pids.length} child processes, not one Host`);
      return pids[0]!;
    },
    stop: (signal = 'SIGTERM') =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}
