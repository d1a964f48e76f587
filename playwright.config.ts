import { defineConfig } from '@playwright/test';

// Debian's Chromium drives the tests (never `playwright install`); the flags keep it off the
// closed network of CI machines.
export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// screenshots.spec.ts writes docs/screenshots/ (npm run screenshots); it is not a test
const screenshots = process.env.SITEDESK_SCREENSHOTS ? [] : ['**/screenshots.spec.ts'];

// The specs that also run against the sandboxes' `real` flavour (the Grav API plugin's and the
// Swagger Petstore's own behaviour, where it differs from the documents).
const realFlavour: string[] = [
  '**/auth.spec.ts',
  '**/sites.spec.ts',
  '**/pages.spec.ts',
  '**/editor.spec.ts',
  '**/translations.spec.ts',
  '**/media.spec.ts',
  '**/offline-copy.spec.ts',
  '**/offline.spec.ts',
  '**/sync.spec.ts',
  '**/store.spec.ts',
  '**/offline-walk.spec.ts',
  '**/first-walk.spec.ts',
  '**/settings.spec.ts',
  '**/users.spec.ts',
  '**/addons.spec.ts',
  '**/library.spec.ts',
  '**/packages.spec.ts',
  '**/plugin-scripts.spec.ts',
  '**/dashboard.spec.ts',
  '**/glance.spec.ts',
  '**/scheduler.spec.ts',
  '**/demo.spec.ts',
  '**/webhooks.spec.ts',
  '**/audit.spec.ts',
  '**/audit-kept.spec.ts',
  '**/mailer-subscribers.spec.ts',
  '**/mailer-tools.spec.ts',
  '**/mailer-campaigns.spec.ts',
  '**/mailer-reports.spec.ts',
  '**/mailer-automations.spec.ts',
];

export default defineConfig({
  testDir: 'test/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    browserName: 'chromium',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'e2e', testIgnore: [...screenshots, '**/*-perf.spec.ts'], metadata: { flavor: 'spec' } },
    ...(realFlavour.length ? [{ name: 'e2e-real', testMatch: realFlavour, metadata: { flavor: 'real' } }] : []),
    // measurements of smoothness run once everything else is done, one at a time, so no other test
    // shares the CPU (two perf files side by side on two cores put 250 ms long tasks in the mailer's)
    { name: 'perf', workers: 1, testMatch: ['**/*-perf.spec.ts'], dependencies: ['e2e', ...(realFlavour.length ? ['e2e-real'] : [])], metadata: { flavor: 'spec' } },
  ],
});
