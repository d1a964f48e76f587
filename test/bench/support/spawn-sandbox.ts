/**
 * Starts the CMS sandbox (cms-child.ts) in a child process for a benchmark and waits for its
 * address. The child is bundled here with esbuild, the way scripts/bench.mjs bundles benchmarks
 * (benchmarks run with the project root as their working folder).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { build } from 'esbuild';
import { tempDir } from '../../support/tmp';

export interface ChildSandbox {
  url: string;
  apiKey: string;
  pages: number;
  /** The mailing plugin's generated audience, when asked for: how many and how long it took (ms). */
  mailerSeeded?: { subscribers: number; ms: number } | null;
  pid: number;
  stop(): Promise<void>;
}

/** `options` go to the child as they are: `{flavor, api, auditSeed, mailer}` (see cms-child.ts). */
export async function spawnSandbox(
  pages: number,
  options: { flavor?: 'spec' | 'real'; api?: { limit: number; windowSec: number } | null; auditSeed?: number; mailer?: { subscribers: number; importRate?: number } } = {},
): Promise<ChildSandbox> {
  const root = process.cwd();
  const outfile = join(root, 'out/bench/cms-child.mjs');
  await build({
    entryPoints: [join(root, 'test/bench/support/cms-child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
  });
  const dir = tempDir('sitedesk-bench-cms-');
  const child: ChildProcess = spawn(process.execPath, [outfile, String(pages), dir.path, JSON.stringify(options)], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise<{ url: string; apiKey: string; pages: number; mailerSeeded?: { subscribers: number; ms: number } | null }>((resolve, reject) => {
    let out = '';
    child.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before it listened`)));
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(out.slice(0, nl)));
    });
  });
  return {
    ...info,
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => (dir.remove(), resolve());
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
