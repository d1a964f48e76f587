#!/usr/bin/env node
// `node scripts/keyring-session.mjs CMD ARGS…` runs CMD inside a private D-Bus session with an
// unlocked gnome-keyring (Linux), so the real Secret Service is used without touching the person's
// own keyring. Already inside one (SITEDESK_KEYRING_SESSION=1), or off Linux, it just runs CMD.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error('usage: node scripts/keyring-session.mjs CMD [ARGS…]');
  process.exit(2);
}
const have = (bin) => ['/usr/bin', '/bin', '/usr/local/bin'].some((d) => existsSync(`${d}/${bin}`));

let r;
// SITEDESK_KEYRING_WRAPPED tells a script that re-runs itself through here (scripts/test.mjs) not to do it again
const wrapped = { ...process.env, SITEDESK_KEYRING_WRAPPED: '1' };
if (process.env.SITEDESK_KEYRING_SESSION || process.platform !== 'linux') {
  r = spawnSync(cmd, args, { stdio: 'inherit', env: wrapped });
} else if (have('dbus-run-session') && have('gnome-keyring-daemon')) {
  const home = mkdtempSync(join(tmpdir(), 'sitedesk-keyring-'));
  const inner = 'printf "sitedesk-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$0" "$@"';
  r = spawnSync('dbus-run-session', ['--', 'sh', '-c', inner, cmd, ...args], {
    stdio: 'inherit',
    env: { ...wrapped, SITEDESK_KEYRING_SESSION: '1', XDG_DATA_HOME: join(home, 'share'), XDG_RUNTIME_DIR: home },
  });
} else {
  console.warn('dbus-run-session or gnome-keyring-daemon is missing (Debian: dbus, gnome-keyring): running without a keychain.');
  r = spawnSync(cmd, args, { stdio: 'inherit', env: wrapped });
}
process.exit(r.status ?? 1);
