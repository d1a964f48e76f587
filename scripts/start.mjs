#!/usr/bin/env node
// `npm start`: build if anything changed, then run the desktop app, or browser mode where
// Electron's binary cannot be had (it is downloaded lazily and some machines have no network for
// it). SITEDESK_BROWSER_MODE=1 skips Electron on purpose. Extra CLI arguments are passed through.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const electronDir = join(root, 'node_modules', 'electron');

const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs'), '--if-stale'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

/** The Electron executable, or null when it is not installed. */
function electronBinary() {
  try {
    const relative = readFileSync(join(electronDir, 'path.txt'), 'utf8').trim();
    const binary = join(electronDir, 'dist', relative);
    return relative && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** Runs a child with our terminal and exits with its code; Ctrl+C reaches it through the terminal. */
function run(command, commandArgs, env = process.env) {
  const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env });
  const forward = (signal) => child.kill(signal);
  process.on('SIGTERM', forward);
  process.on('SIGHUP', forward);
  process.on('SIGINT', () => {}); // the child got it too; wait for it to finish
  child.on('error', (err) => {
    console.error(`Could not start ${command}: ${err.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function browserMode() {
  run(process.execPath, [join(root, 'out', 'app', 'host', 'web.mjs'), ...args]);
}

if (process.env.SITEDESK_BROWSER_MODE === '1') {
  browserMode();
} else {
  let binary = electronBinary();
  if (!binary && existsSync(join(electronDir, 'install.js'))) {
    // One quiet attempt; its output only matters if it worked.
    spawnSync(process.execPath, [join(electronDir, 'install.js')], { cwd: electronDir, stdio: 'pipe', timeout: 60_000 });
    binary = electronBinary();
  }
  if (binary) {
    // A shell that exported ELECTRON_RUN_AS_NODE would turn Electron into plain Node.
    const { ELECTRON_RUN_AS_NODE: _ignored, ...env } = process.env;
    run(binary, [root, ...args], env);
  } else {
    console.log("Electron's binary is not available on this machine (could not download it); starting Sitedesk in browser mode instead.");
    browserMode();
  }
}
