/**
 * System information, cache clearing and the built-in reports, as the real service answers them
 * (document 1 names them without shapes, so both flavours follow
 * getgrav/grav-plugin-api:classes/Api/Controllers/SystemController.php info() and clearCache(),
 * ReportsController.php index(), Grav core's Cache::clearCache(); recordings 25 and 59):
 *
 *   - the information: Grav's and PHP's versions, PHP's extensions and settings grouped as the
 *     real one groups them, every installed plugin (`{name, version, enabled}`, by folder name) and
 *     every theme that ships a form (`{name, version, active}`); a demo account gets server paths
 *     and the server banner as `(hidden in demo mode)`;
 *   - the cache: `scope` all | standard | images | assets | tmp. The service hands the scope to
 *     core's clearCache(), which knows `all` and `standard` but names the others `images-only`,
 *     `assets-only`, `tmp-only`: so images, assets and tmp clear what standard clears (without the
 *     processed images) and, not being `standard`, skip touching the configuration. `details` are
 *     core's lines, colour tags and blank lines included (`<red>Cleared:  </red>/srv/site/cache/twig/*`),
 *     a folder listed only when it held something. A cleared folder fills again five minutes (of
 *     sandbox time) later, as visitors browse the site;
 *   - the reports: Security Check (a scan of the pages, xss-scan.ts), Twig in Content, YAML Linter,
 *     then what enabled plugins add.
 */
import type { IncomingMessage } from 'node:http';
import { header } from '../../http';
import { resolveExact } from '../access';
import type { Account } from '../accounts';
import type { CmsContext } from '../context';
import { scopeInfo } from '../site/config-store';
import { PLUGINS, THEMES, type Extension } from '../site/extensions';
import { enabled, healthChecks, teamNotes } from './demo-plugins';
import { securityScan } from './xss-scan';

const ROOT = '/srv/site';
const REDACTED = '(hidden in demo mode)';

const PHP_EXTENSIONS = ['Core', 'date', 'libxml', 'openssl', 'pcre', 'zlib', 'filter', 'hash', 'json', 'pcntl', 'random', 'Reflection', 'SPL', 'session', 'standard', 'sodium', 'cli_server', 'PDO', 'xml', 'calendar', 'ctype', 'mbstring', 'fileinfo', 'iconv', 'Phar', 'posix', 'tokenizer', 'curl', 'gd', 'intl', 'exif', 'sqlite3', 'pdo_sqlite', 'dom', 'SimpleXML', 'xmlreader', 'xmlwriter', 'zip', 'apcu', 'yaml', 'Zend OPcache'];

const versionOf = (ext: Extension) => (ext as Extension & { version?: string }).version ?? '1.0.0';
const natural = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true, sensitivity: 'base' });

/** The site's environment: the header that names one, else the host (loopback as `localhost`, as Grav's Uri does). */
function environmentOf(ctx: CmsContext, req: IncomingMessage): string {
  const named = header(req, ctx.flavor === 'real' ? 'x-grav-environment' : 'x-cms-environment');
  if (named) return named;
  const host = (header(req, 'host') || '127.0.0.1').replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === '127.0.0.1' || host === '::1' ? 'localhost' : host;
}

export function systemInfo(ctx: CmsContext, req: IncomingMessage, caller: Account): Record<string, unknown> {
  const demo = resolveExact(caller.access, 'api.demo') === true;
  const path = (v: string) => (demo ? REDACTED : v);
  const system = scopeInfo('system');
  const theme = system ? ((ctx.site.config.effective(system).pages as { theme?: string } | undefined)?.theme ?? 'quark2') : 'quark2';
  return {
    grav_version: ctx.settings.cmsVersion,
    php_version: '8.4.28',
    php_extensions: PHP_EXTENSIONS,
    server_software: demo ? REDACTED : 'PHP/8.4.28 (Development Server)',
    environment: environmentOf(ctx, req),
    plugins: Object.keys(PLUGINS)
      .sort(natural)
      .map((slug) => ({ name: PLUGINS[slug]!.title ?? slug, version: versionOf(PLUGINS[slug]!), enabled: enabled(ctx, slug) })),
    themes: Object.keys(THEMES)
      .sort(natural)
      .filter((slug) => THEMES[slug]!.title !== null)
      .map((slug) => ({ name: THEMES[slug]!.title, version: versionOf(THEMES[slug]!), active: slug === theme })),
    php_config: {
      'Upload & POST': { file_uploads: '1', upload_max_filesize: '64M', max_file_uploads: '20', post_max_size: '64M' },
      'Memory & Execution': { memory_limit: '512M', max_execution_time: '30s', max_input_time: '-1s', max_input_vars: '1000' },
      'Error Handling': { display_errors: '', error_reporting: '22527', log_errors: '1', error_log: path('(none)') },
      'Paths & Environment': { open_basedir: path('(none)'), sys_temp_dir: path('/tmp'), doc_root: path(`${ROOT}/grav`), include_path: path('.:/usr/share/php') },
      Session: {
        'session.save_handler': 'files',
        'session.save_path': path(`${ROOT}/run/sessions`),
        'session.gc_maxlifetime': '1440s',
        'session.cookie_lifetime': '1800s',
        'session.cookie_secure': '0',
        'session.cookie_httponly': '1',
      },
      OPcache: { 'opcache.enable': '1', 'opcache.memory_consumption': '128MB', 'opcache.max_accelerated_files': '10000', 'opcache.validate_timestamps': '1', 'opcache.revalidate_freq': '2s' },
      Security: { allow_url_fopen: '1', allow_url_include: '0', disable_functions: '(none)', expose_php: '1' },
      'Date & Locale': { 'date.timezone': 'UTC', default_charset: 'UTF-8', 'mbstring.internal_encoding': '(default)' },
    },
  };
}

// ---- the cache --------------------------------------------------------------------------------

export const CACHE_SCOPES = ['all', 'standard', 'images', 'assets', 'tmp'] as const;
export type CacheScope = (typeof CACHE_SCOPES)[number];

/** The folders that fill up (cache/clockwork stays empty on this site; cache/validated-* never exists). */
const FOLDERS = ['cache/twig', 'cache/doctrine', 'cache/grav', 'cache/compiled', 'cache/images', 'assets', 'tmp'];
const STANDARD_NO_IMAGES = ['cache/twig', 'cache/doctrine', 'cache/grav', 'cache/compiled', 'cache/clockwork', 'cache/validated-', 'assets'];
const ALL = ['cache', 'cache/images', 'assets', 'tmp'];
const REFILL_MS = 5 * 60_000;

/** A folder as core names it (`cache://twig/`, `asset://`). */
const streamOf = (folder: string): string => (folder === 'assets' ? 'asset://' : folder === 'tmp' ? 'tmp://' : folder === 'cache' ? 'cache://' : folder.endsWith('-') ? `cache://${folder.slice(6)}` : `cache://${folder.slice(6)}/`);

export class CacheFolders {
  /** when each folder was last emptied (sandbox ms); absent = full */
  private readonly clearedAt = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Whether a folder holds something now (the whole cache: any folder under it). */
  full(folder: string): boolean {
    if (folder === 'cache') return FOLDERS.some((f) => f.startsWith('cache/') && this.full(f));
    if (!FOLDERS.includes(folder)) return false;
    const at = this.clearedAt.get(folder);
    return at === undefined || this.now() - at >= REFILL_MS;
  }

  private empty(folder: string): void {
    for (const f of FOLDERS) if (f === folder || f.startsWith(`${folder}/`)) this.clearedAt.set(f, this.now());
  }

  /** core's clearCache($remove): the lines it reports. */
  clear(remove: CacheScope): { paths: string[]; output: string[] } {
    const paths = remove === 'all' ? ALL : STANDARD_NO_IMAGES;
    const output: string[] = [];
    for (const folder of paths) {
      if (!this.full(folder)) continue;
      this.empty(folder);
      output.push(`<red>Cleared:  </red>${ROOT}/${folder}/*`);
    }
    output.push('');
    if (remove === 'all' || remove === 'standard') output.push(`<red>Touched: </red>${ROOT}/user/config/system.yaml`, '');
    return { paths: paths.map(streamOf), output };
  }
}

// ---- reports ----------------------------------------------------------------------------------

export function reports(ctx: CmsContext): Record<string, unknown>[] {
  const list: Record<string, unknown>[] = [
    securityReport(ctx),
    {
      id: 'twig-content',
      title: 'Twig in Content',
      provider: 'core',
      component: null,
      status: 'success',
      message: 'Twig in Content is disabled. No pages are leaking raw Twig.',
      meta: { gate: false, sandbox: true, editor_enabled: false, leak_count: 0, event_count: 0, global_request_gated: false, frontmatter_request_gated: false },
      items: [],
    },
    { id: 'yaml-linter', title: 'Grav Yaml Linter', provider: 'core', component: null, status: 'success', message: 'YAML Linting: No errors found.', items: [] },
  ];
  if (enabled(ctx, 'problems')) list.push(problemsReport());
  if (enabled(ctx, 'team-notes')) {
    const today = new Date(ctx.clock.now()).toISOString().slice(0, 10);
    const stale = teamNotes.read(ctx).filter((n) => n.pinned_until !== null && n.pinned_until < today);
    list.push({
      id: 'team-notes-stale',
      title: 'Notes pinned past their date',
      provider: 'team-notes',
      component: null,
      status: stale.length ? 'warning' : 'success',
      message: stale.length ? `${stale.length} note${stale.length > 1 ? 's are' : ' is'} still pinned past ${stale.length > 1 ? 'their' : 'its'} date.` : 'No note is pinned past its date.',
      items: stale.map((n) => ({ title: n.title, pinned_until: n.pinned_until })),
    });
  }
  if (enabled(ctx, 'site-health')) {
    const checks = healthChecks(ctx);
    const failing = checks.filter((c) => c.status !== 'ok').length;
    list.push({
      id: 'site-health',
      title: 'Site health',
      provider: 'site-health',
      component: 'health-report',
      status: failing ? 'warning' : 'success',
      message: failing ? `${checks.length - failing} of ${checks.length} checks passed; ${failing} need${failing === 1 ? 's' : ''} attention.` : `All ${checks.length} checks passed.`,
      items: checks,
    });
  }
  return list;
}

/** Security Check: the pages whose header or content looks like an XSS vector (xss-scan.ts). */
function securityReport(ctx: CmsContext): Record<string, unknown> {
  const items = securityScan(ctx.content);
  const n = items.length;
  return {
    id: 'security-check',
    title: 'Grav Security Check',
    provider: 'core',
    component: null,
    status: n === 0 ? 'success' : 'warning',
    message: n === 0 ? 'Security Scan complete: No issues found.' : `Security Scan complete: ${n} potential XSS issue${n > 1 ? 's' : ''} found...`,
    items,
  };
}

/** The problems plugin's report (recording 59's shape), when someone turns the plugin on. */
function problemsReport(): Record<string, unknown> {
  const ok = (id: string, level: string, msg: string, help: string) => ({ id, level, status: true, msg, details: [], help });
  return {
    id: 'problems',
    title: 'Grav Potential Problems',
    provider: 'problems',
    component: 'problems-report',
    status: 'success',
    message: 'No critical problems detected.',
    items: [
      ok('PHP Minimum Version', 'critical', 'Your PHP <strong>8.4.28</strong> is greater than the minimum of <strong>8.3.0</strong> required', 'https://getgrav.org/blog/raising-php-requirements-2018'),
      {
        id: 'Essential Folders',
        level: 'critical',
        status: true,
        msg: 'All folders look good!',
        details: { errors: [], success: { [ROOT]: 'exists', [`${ROOT}/cache`]: 'exists and is writable', [`${ROOT}/logs`]: 'exists and is writable' } },
        help: 'https://learn.getgrav.org/basics/folder-structure',
      },
      ok('Apache Modules', 'critical', 'Apache is not installed or PHP is not installed as Apache module, skipping...', 'https://learn.getgrav.org/basics/requirements#apache-requirements'),
      ok('Permissions Setup', 'warning', 'Your default file umask is <strong>22</strong> which looks good!', 'https://learn.getgrav.org/troubleshooting/permissions'),
    ],
  };
}
