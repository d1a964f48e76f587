#!/usr/bin/env node
// `npm test`: everything CI runs, in order, stopping at the first failure:
//   typecheck (tsc per layer + svelte-check) → build → the package's contents
//   (scripts/package-contents.mjs) → Vitest (unit + integration) → Playwright.
// The keychain is real: on Linux this re-runs itself inside a private `dbus-run-session` with an
// unlocked gnome-keyring (scripts/keyring-session.mjs), so the Secret Service tests run the same on
// a laptop and in CI.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const run = (cmd, args, env = {}) => {
  const started = Date.now();
  console.log(`\n▶ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (r.status !== 0) {
    console.error(`✖ ${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}) after ${secs} s`);
    process.exit(r.status || 1);
  }
  console.log(`✔ ${secs} s`);
};

if (!process.env.SITEDESK_KEYRING_SESSION && !process.env.SITEDESK_KEYRING_WRAPPED && process.platform === 'linux') {
  // the keychain is real: re-run this script inside a private keyring session
  const r = spawnSync(process.execPath, ['scripts/keyring-session.mjs', process.execPath, ...process.argv.slice(1)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

const bin = (name) => `node_modules/.bin/${name}`;
run(bin('tsc'), ['-p', 'electron/contract/tsconfig.json']);
run(bin('tsc'), ['-p', 'electron/tsconfig.json']);
run(bin('tsc'), ['-p', 'electron/shell.tsconfig.json']);
run(bin('tsc'), ['-p', 'test/tsconfig.json']);
run(bin('svelte-check'), ['--tsconfig', 'renderer/tsconfig.json', '--fail-on-warnings', '--output', 'human']);
// built before Vitest: the shell's tests (test/integration/shell.test.ts) load the built bundles
run(process.execPath, ['scripts/build.mjs']);
// what the installer would hold, from electron-builder.yml's patterns: the app and its notices only
run(process.execPath, ['scripts/package-contents.mjs']);
const reports = spawnSync('mktemp', ['-d'], { encoding: 'utf8' }).stdout.trim();
run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/vitest.json`], {
  SITEDESK_REQUIRE_KEYCHAIN: process.env.SITEDESK_KEYRING_SESSION ? '1' : '',
});
run(bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: `${reports}/playwright.json` });

// One closing line over both runners, so a reader (or CI) sees the whole count at once.
const vit = JSON.parse(readFileSync(`${reports}/vitest.json`, 'utf8'));
const pw = JSON.parse(readFileSync(`${reports}/playwright.json`, 'utf8')).stats;
const passed = vit.numPassedTests + pw.expected;
const failed = vit.numFailedTests + pw.unexpected + (pw.flaky ?? 0);
const skipped = vit.numPendingTests + vit.numTodoTests + pw.skipped;
console.log(`\nvitest: ${vit.numPassedTests} passed, ${vit.numFailedTests} failed, ${vit.numPendingTests} skipped`);
console.log(`playwright: ${pw.expected} passed, ${pw.unexpected} failed, ${pw.skipped} skipped`);
console.log(`total: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
