/**
 * `npm run sandbox -- [--flavor spec|real] [--port N] [--data DIR] [--seed demo|empty] [--content demo|single|empty|N] [--package-work-ms N] [--audit N] [--mailer N] [--store-port N]`:
 * the sandbox servers for people and scripts. Prints `CMS sandbox: http://127.0.0.1:PORT/api/v1` on
 * a line of its own (scripts wait for that line), then the demo credentials and the page count;
 * then `Store sandbox: http://127.0.0.1:PORT/api/v3` on a line of its own and the store's demo API
 * keys per plan; and runs until SIGINT/SIGTERM. The store always starts from fresh demo data.
 * `--flavor real` makes both behave as the real services do (the Grav API plugin, the Swagger
 * Petstore v3) where those differ from the documents; `spec` (the default) follows the documents.
 * `--audit N` turns the CMS's audit trail on and fills it with N generated events. `--mailer N` seeds
 * the mailing plugin's audience with N people at start (the benchmarks' 500,000) instead of 20,000
 * on the first mailer request.
 */
import { resolve } from 'node:path';
import { startCmsSandbox, type CmsSandbox } from './cms/server';
import { otpauthUri, totp, totpSecondsLeft } from './cms/totp';
import type { SeedName } from './cms/seed';
import { isFlavor, type Flavor } from './flavor';
import type { ContentSeed } from './cms/content/seed-content';
import { startStoreSandbox, type StoreSandbox } from './store/server';
import { PLAN_LABELS, PLAN_NAMES } from './store/plans';

interface Args {
  flavor: Flavor;
  port?: number;
  storePort?: number;
  dataDir?: string;
  seed: SeedName;
  content: ContentSeed;
  /** how long one package install, update or removal takes (default: the sandbox's 2500 ms) */
  packageWorkMs?: number;
  /** turn the audit trail on and fill it with this many generated events (the benchmarks' million) */
  audit?: number;
  /** seed the mailer's audience with this many people at start (default: 20,000 on first use) */
  mailer?: number;
}

const USAGE = 'Usage: npm run sandbox -- [--flavor spec|real] [--port N] [--data DIR] [--seed demo|empty] [--content demo|single|empty|N] [--package-work-ms N] [--audit N] [--mailer N] [--store-port N]';

function parseArgs(argv: string[]): Args {
  const args: Args = { flavor: 'spec', seed: 'demo', content: 'demo' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split(/=(.*)/s) as [string, string | undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === '') fail(`${flag} needs a value.`);
      return v;
    };
    switch (flag) {
      case '--port':
      case '--store-port': {
        const port = Number(value());
        if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`${flag} must be a number from 0 to 65535.`);
        if (flag === '--port') args.port = port;
        else args.storePort = port;
        break;
      }
      case '--flavor': {
        const flavor = value();
        if (!isFlavor(flavor)) fail('--flavor must be spec or real.');
        args.flavor = flavor;
        break;
      }
      case '--data':
        args.dataDir = resolve(value());
        break;
      case '--seed': {
        const seed = value();
        if (seed !== 'demo' && seed !== 'empty') fail('--seed must be demo or empty.');
        args.seed = seed;
        break;
      }
      case '--content': {
        const content = value();
        if (content === 'demo' || content === 'single' || content === 'empty') args.content = content;
        else if (/^\d+$/.test(content)) args.content = { pages: Number(content) };
        else fail('--content must be demo, single, empty or a number of pages.');
        break;
      }
      case '--package-work-ms': {
        const ms = Number(value());
        if (!Number.isInteger(ms) || ms < 0) fail('--package-work-ms must be a whole number of milliseconds.');
        args.packageWorkMs = ms;
        break;
      }
      case '--audit': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 5_000_000) fail('--audit must be a whole number of events from 0 to 5000000.');
        args.audit = n;
        break;
      }
      case '--mailer': {
        const n = Number(value());
        if (!Number.isInteger(n) || n < 0 || n > 2_000_000) fail('--mailer must be a whole number of people from 0 to 2000000.');
        args.mailer = n;
        break;
      }
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
      default:
        fail(`Unknown option ${flag}.`);
    }
  }
  return args;
}

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

function describe(cms: CmsSandbox): string[] {
  const lines = [`  data folder: ${cms.dataDir}${cms.seeded ? '' : ' (existing accounts kept)'}`];
  const s = cms.seeded;
  if (!s) {
    lines.push(`  accounts: ${cms.accounts.list().map((a) => a.username).join(', ') || 'none (first-run setup)'}`);
  } else if (s.seed === 'empty') {
    lines.push('  no accounts: the first client to POST /auth/setup creates the super admin');
  } else {
    const now = cms.clock.now();
    lines.push(
      '  demo accounts (username / password):',
      `    admin  / ${s.passwords.admin}   super admin`,
      `    editor / ${s.passwords.editor}  pages and media; two-factor sign-in`,
      `    viewer / ${s.passwords.viewer}  api.access only`,
      ...(s.members ? [`    and ${s.members.count} more for the Users list (groups, own access, 2FA, some disabled), password ${s.members.password}`] : []),
      `  editor's TOTP secret: ${s.totpSecret}  (code now: ${totp(s.totpSecret!, now)}, for ${totpSecondsLeft(now)} s more)`,
      `    ${otpauthUri(s.totpSecret!, 'editor', 'Sitedesk sandbox')}`,
      `  admin's API key (shown only now): ${s.adminApiKey}`,
    );
  }
  const site = cms.content.site;
  const pages = cms.contentSeeded?.pages ?? cms.content.tree().pages.length;
  const langs = site.languages.length ? `${site.languages.join(', ')}; default ${site.defaultLanguage}` : 'single-language';
  lines.push(`  content: ${pages} pages (${langs})${cms.contentSeeded ? '' : ', existing pages kept'}`);
  const media = cms.site.media.counts();
  lines.push(`  media library: ${media.files} files in ${media.folders} folders${cms.site.mediaSeeded ? '' : ', existing library kept'} (${cms.url}/media, files under ${cms.origin}/user/media/)`);
  lines.push(`  settings: ${cms.url}/config/{system,site,media,security,scheduler,backups,plugins/<name>,themes/<name>} (every installed package; forms for api, email, login, team-notes, site-health and quark2)`);
  const pk = cms.packages;
  const updates = pk.updatable().map((p) => p.slug);
  lines.push(
    `  packages: ${pk.list('plugin').length} plugins and ${pk.list('theme').length} themes installed (devtools symlinked); updates for ${updates.join(', ') || 'none'}; core ${pk.coreVersion} → ${pk.coreAvailable() ?? '?'}`,
    `    repository: ${(pk.repository() ?? new Map()).size} packages (${cms.url}/gpm/repository/plugins); broken-installer fails to install, sitemap to update; seo-suite, shop-pro, members-area premium`,
    `    each write takes ${pk.knobs.workMs} ms; knobs at ${cms.origin}/__sandbox/packages (workMs, coreSymlinked, coreLatest, repositoryUnreachable, officialGpmOnly, failingInstalls, failingUpdates), zips for direct install at ${cms.origin}/__sandbox/packages/<slug>.zip`,
    `  admin extensions: demo plugins team-notes (everyone) and site-health (api.system.read) add to ${cms.url}/{sidebar/items,menubar/items,floating-widgets,context-panels,settings/panels,reports};`,
    `    menubar actions POST ${cms.url}/menubar/actions/{plugin}/{action} (site-health/purge-cdn is always refused); plugin pages ${cms.url}/gpm/plugins/{team-notes,site-health}/page;`,
    `    scripts under ${cms.url}/gpm/plugins/<slug>/{page-script,field/<type>,report-script/<id>,widget-script,panel-script,modal-script/<id>} (site-health's page script probes its frame)`,
    `  system: ${cms.url}/system/info, DELETE ${cms.url}/cache?scope=all|standard|images|assets|tmp, translations ${cms.url}/translations/{lang} (public)`,
  );
  lines.push(`  users list: two demo plugins add tabs, columns and row actions (${cms.origin}/__sandbox/user-list turns them off)`);
  const audit = cms.audit.knobs;
  lines.push(
    `  webhooks: ${cms.url}/webhooks (deliveries, test); mapped events are POSTed signed to each hook's URL${cms.flavor === 'real' && !cms.webhooks.allowPrivate ? ' (private and unresolvable targets refused, as the real service does)' : ''}`,
    `  audit trail: ${cms.url}/audit/{status,events,facets,export} — ${audit.enabled && audit.available ? `on (${audit.coverage}), ${cms.audit.store.count()} events` : 'off'}; knobs at ${cms.origin}/__sandbox/audit (enabled, available, coverage, retentionDays, retentionMaxRows, anonymizeIp, maxPerPage, pruneEvery), /audit/seed {count}`,
  );
  const ops = cms.ops;
  lines.push(
    `  scheduler: ${cms.url}/scheduler/{jobs,status,history,run}: ${ops.scheduler.all().length} jobs on the sandbox's clock (${ops.scheduler.knobs.failingJobs.join(', ') || 'none'} fail), crontab ${ops.scheduler.knobs.crontab}`,
    `  dashboard: ${cms.url}/dashboard/{stats,popularity,notifications,feed}, POST ${cms.url}/dashboard/notifications/<id>/hide`,
    `  demo mode: ${cms.url}/demo/{status,baseline,reset}, every ${ops.demo.interval()} min once a baseline is captured; an account with access api.demo is a demo account`,
  );
  const mailerBase = `${cms.url}/${cms.flavor === 'real' ? 'mailroom' : 'mailer'}`;
  const perm = cms.flavor === 'real' ? 'mailroom' : 'mailer';
  const mk = cms.mailer.knobs;
  lines.push(
    `  mailer (audience; docs/mailer-audience.md): ${mailerBase}/{subscribers,subscribers/bulk,subscribers/export,subscribers/<id>,subscribers/<id>/{unsubscribe,resubscribe,confirm,export},imports,imports/preview,imports/<id>,lists,tags,segments,segments/vocabulary,segments/preview,segments/<id>/count,suppressions,suppressions/<sha256>,erase}`,
    `    permissions ${perm}.view (reads), ${perm}.manage (writes and exports), ${perm}.send; api.super counts as all${cms.flavor === 'real' ? ' (real flavour: Grav\'s Mailroom, under /mailroom)' : ''}`,
    `    ${cms.mailer.opened && cms.mailer.seeded ? `${cms.mailer.seeded.subscribers.toLocaleString('en')} people seeded in ${(cms.mailer.seeded.ms / 1000).toFixed(1)} s` : cms.mailer.opened ? `${cms.mailer.store.count({}).toLocaleString('en')} people kept from the data folder` : '20,000 people on 4 lists, 8 tags, 3 segments and suppressions of every reason, seeded on the first mailer request'}; imports run at ${mk.importRate || 'full'} rows/s and campaigns send ${mk.sendRate || 'all at once'} messages/s of the sandbox's clock`,
    `    knobs at ${cms.origin}/__sandbox/mailer (importRate, sendRate, bouncePercent, failPercent, stopBouncePercent, worker, workerEverySeconds, segmentRecountMinutes); /mailer/seed {subscribers}, /mailer/worker (run it now), /mailer/campaigns, /mailer/act (sign up, confirm, leave, bounce, complain), /mailer/messages`,
  );
  lines.push(`  test controls: ${cms.origin}/__sandbox/{faults,clock,settings,mail,accounts,api-keys,user-list,events,content,pages/edit,packages,packages/release,packages/<slug>.zip,audit,audit/seed,audit/prune,webhooks,webhooks/settled,ops,ops/jobs,ops/views,mailer,mailer/seed,mailer/worker,mailer/campaigns,mailer/act,mailer/messages}`);
  return lines;
}

function describeStore(store: StoreSandbox): string[] {
  const s = store.seeded!;
  if (store.flavor === 'real') {
    return [
      `  demo API keys: none are checked (Petstore takes any api_key, or none); for instance ${s.keys.free}`,
      `  demo users (username / password): ${Object.entries(s.passwords).map(([u, pw]) => `${u} / ${pw}`).join(', ')} (any password logs in)`,
      `  test controls: ${store.origin}/__sandbox/{faults,clock,settings}`,
    ];
  }
  const budget = (p: (typeof PLAN_NAMES)[number]) => {
    const { perMinute, perDay } = store.plans[p];
    return perMinute === null && perDay === null ? 'unlimited' : `${perMinute ?? '∞'}/min, ${(perDay ?? Infinity).toLocaleString('en')}/day`;
  };
  return [
    '  demo API keys (send as the api_key header; all the administrator\'s):',
    ...PLAN_NAMES.map((p) => `    ${PLAN_LABELS[p].padEnd(10)} ${budget(p).padEnd(22)} ${s.keys[p]}`),
    `  demo users (username / password): ${Object.entries(s.passwords).map(([u, pw]) => `${u} / ${pw}`).join(', ')} (admin administers the store)`,
    `  test controls: ${store.origin}/__sandbox/{faults,clock,settings,plans,webhooks,keys}`,
  ];
}

const args = parseArgs(process.argv.slice(2));
const cms = await startCmsSandbox({
  flavor: args.flavor,
  port: args.port,
  dataDir: args.dataDir,
  seed: args.seed,
  content: args.content,
  packageWorkMs: args.packageWorkMs,
  ...(args.audit !== undefined ? { audit: { enabled: true }, auditSeed: args.audit } : {}),
  ...(args.mailer !== undefined ? { mailer: { subscribers: args.mailer } } : {}),
});
// a number asked for: seed now (a data folder that already holds an audience keeps it)
if (args.mailer !== undefined) void cms.mailer.store;
console.log(`CMS sandbox: ${cms.url}`);
if (args.flavor === 'real') console.log('  flavour: real (behaves as the Grav API plugin does where it differs from the documents)');
for (const line of describe(cms)) console.log(line);
const store = await startStoreSandbox({ flavor: args.flavor, port: args.storePort });
console.log(`Store sandbox: ${store.url}`);
if (args.flavor === 'real') console.log('  flavour: real (behaves as the Swagger Petstore v3 does where it differs from the document)');
for (const line of describeStore(store)) console.log(line);
console.log('Stop with Ctrl+C.');

let stopping = false;
const stop = (signal: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  void Promise.all([cms.close(), store.close()]).then(() => process.exit(signal === 'SIGINT' ? 130 : 143));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
