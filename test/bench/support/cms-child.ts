/**
 * The CMS sandbox in a process of its own for the benchmarks, so the Host under test and the
 * server do not share an event loop (or a heap: the memory figure is the Host's alone). Arguments:
 * the number of pages to generate, the data folder, and optionally JSON options
 * `{"flavor": "spec" | "real", "api": {limit, windowSec} | null, "auditSeed": n, "mailer": {subscribers, importRate}}`
 * (default: spec, limiter off; `auditSeed`: the audit trail on, with n generated events; `mailer`:
 * the mailing plugin's audience generated with that many people before it listens).
 * Prints one JSON line {url, apiKey, pages, mailerSeeded} when it listens.
 * By default the general API rate limit is off (a mirror of 10,000 pages is far past 6,000
 * requests a minute); the site is one-language, so 10,000 pages are 10,000 reads; and pages are
 * checked the way large sites set the CMS (`pages.check_method: none`): a list does not look at
 * every file on disk again, which at 10,000 pages costs the sandbox ~150 ms per list request.
 */
import { startCmsSandbox } from '../../sandbox/cms/server';
import type { LimitRule } from '../../sandbox/rate-limiter';

const pages = Number(process.argv[2] ?? 10_000);
const dataDir = process.argv[3]!;
const opts = JSON.parse(process.argv[4] ?? '{}') as { flavor?: 'spec' | 'real'; api?: LimitRule | null; auditSeed?: number; mailer?: { subscribers: number; importRate?: number } };
const cms = await startCmsSandbox({
  dataDir,
  flavor: opts.flavor ?? 'spec',
  seed: 'demo',
  content: { pages },
  languages: [],
  limits: { api: opts.api === undefined ? null : opts.api },
  pagesCheck: 'none',
  ...(opts.auditSeed ? { audit: { enabled: true }, auditSeed: opts.auditSeed } : {}),
  ...(opts.mailer ? { mailer: opts.mailer } : {}),
});
// the audience is generated on its first use: now, before anything is timed
if (opts.mailer) void cms.mailer.store;
const seeded = cms.contentSeeded; // writes the pages now, before anything is timed
console.log(JSON.stringify({ url: cms.url, apiKey: cms.seeded!.adminApiKey, pages: seeded?.pages ?? null, mailerSeeded: cms.mailer.seeded }));
// the data folder is the benchmark's to remove; close() would wait for keep-alive sockets
const stop = () => process.exit(0);
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
