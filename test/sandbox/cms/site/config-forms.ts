/**
 * The six core configuration scopes (`system`, `site`, `media`, `security`, `scheduler`,
 * `backups`): each one's form, in the real service's field shapes (recording 34 shows `system`), and
 * the values the CMS ships as defaults (what a site's own file overrides; `meta.fallback` of
 * recordings 38–39). The sandbox's forms hold a representative part of Grav's, covering every
 * field type and validation rule those use; the data holds every value the forms name.
 */
import { DANGEROUS_EXTENSIONS } from '../upload-names';
import { onOff, opts, section, select, tab, tabs, text, toggle, yesNo, type Def } from './form-parts';

export interface ScopeForm {
  /** the blueprint's `title` (Grav: the form's title, else the blueprint name) */
  title: string;
  fields: Def[];
  defaults: Record<string, unknown>;
}

const system: ScopeForm = {
  title: 'system',
  fields: [
    tabs(
      'system_tabs',
      [
        tab('content', 'Content', [
          section('content_section', 'Content'),
          { name: 'home.alias', type: 'pages', label: 'Home page', help: 'The page that Grav will use as the default landing page', size: 'large', classes: 'fancy', show_all: false, show_modular: false, show_root: false, show_slug: true },
          toggle('home.hide_in_urls', 'Hide home route in URLs', "Will ensure the default routes for any pages under home do not reference home's regular route", { highlight: 0 }),
          { name: 'pages.theme', type: 'themeselect', label: 'Default theme', help: 'Set the default theme for Grav to use', size: 'medium', classes: 'fancy', selectize: true },
          { name: 'pages.process', type: 'checkboxes', label: 'Process', help: 'Control how pages are processed. Can be set per-page rather than globally', default: [{ markdown: true }], options: opts(['markdown', 'Markdown']), use: 'keys' },
          { name: 'pages.types', type: 'array', label: 'Page Types', help: 'The page types Grav supports, in the order it falls back to', default: ['html', 'htm', 'json', 'xml', 'txt', 'rss', 'atom'], size: 'small', value_only: true },
          select('timezone', 'Timezone', opts(['', 'Default (Server Timezone)']), { help: 'Override the default timezone the server', default: '', size: 'medium', classes: 'fancy', data_options: '\\Grav\\Common\\Utils::timezones' }),
          {
            name: 'pages.dateformat.default',
            type: 'select',
            label: 'Page date format',
            help: 'Page date format used by Grav',
            placeholder: 'Guess automatically',
            size: 'medium',
            selectize: { create: true },
            data_options: '\\Grav\\Common\\Utils::dateFormats',
            validate: { type: 'string' },
          },
          select('pages.order.by', 'Default ordering', opts(['default', 'Default - based on folder name'], ['folder', 'Folder - based on prefix-less folder name'], ['title', 'Title - based on title field in header'], ['date', 'Date - based on date field in header']), {
            help: 'Pages in a list will render using this order unless it is overridden',
            size: 'large',
            classes: 'fancy',
          }),
          { name: 'pages.order.dir', type: 'toggle', label: 'Default order direction', help: 'The direction of pages in a list', default: 'desc', highlight: 'asc', options: opts(['asc', 'Ascending'], ['desc', 'Descending']) },
          select('pages.order_digits', 'Order digits', opts(['1', '1 (e.g. 5.about)'], ['2', '2 (e.g. 05.about)'], ['3', '3 (e.g. 005.about)'], ['4', '4 (e.g. 0005.about)']), {
            help: 'Number of digits used to prefix folder names for ordering',
            default: 2,
            size: 'x-small',
            validate: { type: 'int', min: 1, max: 6 },
          }),
          text('pages.list.count', 'Default page count', { help: 'Default maximum pages count in a list', size: 'x-small', append: 'Pages', validate: { type: 'number', min: 1 } }),
          toggle('pages.publish_dates', 'Date-based publishing', 'Automatically (un)publish posts based on their date'),
          select('pages.redirect_default_code', 'Default redirect code', opts(['301', '301 - Moved permanently'], ['302', '302 - Moved temporarily'], ['303', '303 - See Other']), {
            help: 'The HTTP status code to use for redirects',
            default: 302,
            size: 'medium',
            classes: 'fancy',
          }),
          { name: 'pages.ignore_files', type: 'selectize', label: 'Ignore files', help: 'Specific files to ignore when processing pages', size: 'large', classes: 'fancy', validate: { type: 'commalist' } },
        ]),
        tab('languages', 'Languages', [
          { name: 'languages.supported', type: 'selectize', label: 'Supported', help: 'Comma separated list of two letter language codes', size: 'large', placeholder: 'e.g. en, fr', validate: { type: 'commalist' } },
          toggle('languages.include_default_lang', 'Include default language', 'Prefix all URLs in the default language with the language code'),
          toggle('languages.translations', 'Translations', 'Support translations in Grav, plugins and extensions'),
        ]),
        tab('caching', 'Caching', [
          section('cache_section', 'Caching'),
          toggle('cache.enabled', 'Caching', 'Global ON/OFF switch to enable/disable Grav caching', {}, onOff),
          select('cache.check.method', 'Cache check method', opts(['file', 'File'], ['folder', 'Folder'], ['hash', 'Hash'], ['none', 'No checking']), { help: 'How Grav notices changed pages', size: 'medium', classes: 'fancy' }),
          select('cache.driver', 'Cache driver', opts(['auto', 'Auto detect'], ['file', 'File'], ['apcu', 'APCu'], ['memcached', 'Memcached'], ['redis', 'Redis']), { help: 'Choose which cache driver Grav should use', size: 'small', classes: 'fancy' }),
          text('cache.lifetime', 'Cache lifetime', { help: 'Cache lifetime in seconds, 0 = infinite', size: 'small', append: 'seconds', validate: { type: 'int' } }),
          text('cache.redis.server', 'Redis server', { help: 'The Redis server address', size: 'medium', placeholder: 'localhost' }),
          text('cache.redis.password', 'Redis password', { help: 'The Redis password, if the server asks for one', size: 'medium' }),
        ]),
        tab('errors', 'Error handler', [
          select('errors.display', 'Display errors', opts(['1', 'Show full backtrace'], ['0', 'Show simple error'], ['-1', 'Show system error']), { help: 'Display full backtrace-style error page', size: 'medium', classes: 'fancy', validate: { type: 'int' } }),
          toggle('errors.log', 'Log errors', 'Log errors to /logs folder'),
        ]),
        tab('debugger', 'Debugger', [toggle('debugger.enabled', 'Debugger', 'Enable the Grav debugger and following settings', { highlight: 0 })]),
        tab('accounts', 'Accounts', [
          select('accounts.avatar', 'Avatar generator', opts(['gravatar', 'Gravatar'], ['multiavatar', 'Multiavatar [local]']), { help: 'Which avatar an account without its own image gets', default: 'gravatar', size: 'medium' }),
        ]),
      ],
      { classes: 'side-tabs' },
    ),
  ],
  defaults: {
    home: { alias: '/home', hide_in_urls: false },
    timezone: '',
    pages: {
      theme: 'quark2',
      process: { markdown: true },
      types: ['html', 'htm', 'xml', 'txt', 'json', 'rss', 'atom'],
      dateformat: { default: null, short: 'jS M Y', long: 'F jS \\a\\t g:ia' },
      order: { by: 'default', dir: 'asc' },
      order_digits: 2,
      list: { count: 20 },
      publish_dates: true,
      redirect_default_code: 302,
      ignore_files: ['.DS_Store'],
    },
    languages: { supported: [], include_default_lang: true, translations: true },
    cache: { enabled: true, check: { method: 'file' }, driver: 'auto', lifetime: 604800, redis: { server: null, password: null } },
    errors: { display: 0, log: true },
    debugger: { enabled: false },
    accounts: { avatar: 'gravatar' },
  },
};

const site: ScopeForm = {
  title: 'site',
  fields: [
    section('content', 'Defaults', [
      text('title', 'Site title', { help: 'Default title for your site, often used in themes', size: 'large', placeholder: 'Site wide title', validate: { required: true } }),
      text('default_lang', 'Default language', { help: 'Default language for the site', size: 'x-small', placeholder: 'en' }),
      text('author.name', 'Default author', { help: 'A default author name, often used in themes or page content', size: 'large', placeholder: 'Joe Bloggs' }),
      { name: 'author.email', type: 'text', label: 'Default email', help: 'A default email to reference in themes or pages', size: 'large', placeholder: 'joe@example.com', validate: { type: 'email' } },
      { name: 'taxonomies', type: 'selectize', label: 'Taxonomy types', help: 'Taxonomy types must be defined here if you wish to use them in pages', size: 'large', classes: 'fancy', validate: { type: 'commalist' } },
    ]),
    section('summary', 'Page Summary', [
      toggle('summary.enabled', 'Enabled', 'Enable page summary (the summary returns the same as the page content)'),
      text('summary.size', 'Size', { help: 'The amount of characters of a page to use as a content summary', size: 'x-small', append: 'characters', validate: { type: 'int', min: 0, max: 65536 } }),
      { name: 'summary.format', type: 'toggle', label: 'Format', help: 'short = use the first occurrence of delimiter or size; long = summary delimiter will be ignored', highlight: 'short', options: opts(['short', 'Short'], ['long', 'Long']) },
      text('summary.delimiter', 'Delimiter', { help: 'Summary delimiter (default "===")', size: 'x-small', placeholder: '===' }),
    ]),
    section('metadata', 'Metadata', [{ name: 'metadata', type: 'array', label: 'Metadata', help: 'Default metadata values that will be displayed on every page unless this is overridden by the page', placeholder_key: 'Name', placeholder_value: 'Content' }]),
    section('routes', 'Redirects & Routes', [
      { name: 'redirects', type: 'array', label: 'Custom redirects', help: 'Routes to redirect to other pages', placeholder_key: '/your/alias', placeholder_value: '/your/redirect' },
      { name: 'routes', type: 'array', label: 'Custom routes', help: 'Routes to alias to other pages', placeholder_key: '/your/alias', placeholder_value: '/your/route' },
    ]),
    section('blog', 'Blog', [text('blog.route', 'Blog route', { size: 'medium', placeholder: '/blog' })]),
  ],
  defaults: {
    title: 'Grav',
    default_lang: 'en',
    author: { name: 'John Appleseed', email: 'john@example.com' },
    taxonomies: ['category', 'tag'],
    metadata: { description: 'My Grav Site' },
    summary: { enabled: true, format: 'short', size: 300, delimiter: '===' },
    redirects: null,
    routes: null,
    blog: { route: '/blog' },
  },
};

const media: ScopeForm = {
  title: 'media',
  fields: [
    section('media_section', 'Media types'),
    {
      name: 'types',
      type: 'list',
      label: 'Media types',
      help: 'The file extensions Grav treats as media, and how',
      key: 'extension',
      controls: 'both',
      collapsed: true,
      fields: [
        select('types.type', 'Type', opts(['image', 'Image'], ['animated', 'Animated'], ['video', 'Video'], ['audio', 'Audio'], ['file', 'File'], ['vector', 'Vector'])),
        text('types.thumb', 'Thumbnail'),
        text('types.mime', 'MIME type', { validate: { required: true } }),
      ],
    },
  ],
  defaults: {
    types: {
      jpg: { type: 'image', thumb: 'media/thumb-jpg.png', mime: 'image/jpeg' },
      png: { type: 'image', thumb: 'media/thumb-png.png', mime: 'image/png' },
      gif: { type: 'animated', thumb: 'media/thumb-gif.png', mime: 'image/gif' },
      webp: { type: 'image', thumb: 'media/thumb-webp.png', mime: 'image/webp' },
      svg: { type: 'vector', thumb: 'media/thumb-svg.png', mime: 'image/svg+xml' },
      mp4: { type: 'video', thumb: 'media/thumb-mp4.png', mime: 'video/mp4' },
      mp3: { type: 'audio', thumb: 'media/thumb-mp3.png', mime: 'audio/mp3' },
      pdf: { type: 'file', thumb: 'media/thumb-pdf.png', mime: 'application/pdf' },
    },
  },
};

const security: ScopeForm = {
  title: 'security',
  fields: [
    section('xss_section', 'XSS Security'),
    { name: 'xss_whitelist', type: 'selectize', size: 'large', label: 'Whitelist permissions', help: 'Users with these permissions will skip the XSS rules when saving content', classes: 'fancy', validate: { type: 'commalist' } },
    toggle('xss_enabled.on_events', 'Filter on events', 'Detect on-event attributes'),
    toggle('xss_enabled.invalid_protocols', 'Filter invalid protocols', 'Detect links with dangerous protocols'),
    { name: 'xss_invalid_protocols', type: 'selectize', size: 'large', label: 'Invalid protocols', classes: 'fancy', validate: { type: 'commalist' } },
    section('uploads_section', 'Uploads'),
    { name: 'uploads_dangerous_extensions', type: 'selectize', size: 'large', label: 'Dangerous extensions', help: 'These extensions are never accepted as uploads', classes: 'fancy', validate: { type: 'commalist' } },
    toggle('sanitize_svg', 'Sanitize SVG', 'Remove scripts and other unsafe markup from uploaded SVG files'),
  ],
  defaults: {
    xss_whitelist: ['admin.super'],
    xss_enabled: { on_events: true, invalid_protocols: true },
    xss_invalid_protocols: ['javascript', 'livescript', 'vbscript', 'mocha', 'feed', 'data'],
    uploads_dangerous_extensions: [...DANGEROUS_EXTENSIONS],
    sanitize_svg: true,
  },
};

const scheduler: ScopeForm = {
  title: 'scheduler',
  fields: [
    section('status_title', 'Scheduler'),
    {
      name: 'custom_jobs',
      type: 'list',
      label: 'Custom jobs',
      style: 'vertical',
      key: 'id',
      fields: [
        text('custom_jobs.id', 'ID', { validate: { required: true, pattern: '[a-z0-9_-]+' } }),
        text('custom_jobs.command', 'Command', { validate: { required: true } }),
        text('custom_jobs.at', 'Run at', { help: 'A cron expression', validate: { required: true } }),
        text('custom_jobs.output', 'Output file'),
      ],
    },
  ],
  defaults: { custom_jobs: {}, status: {} },
};

const backups: ScopeForm = {
  title: 'backups',
  fields: [
    section('purge_section', 'Storage'),
    select('purge.trigger', 'Purge trigger', opts(['space', 'Maximum backup space'], ['number', 'Maximum number of backups'], ['time', 'Number of days']), { size: 'medium', default: 'space' }),
    text('purge.max_backups_count', 'Maximum number of backups', { size: 'x-small', default: 25, validate: { type: 'int', min: 0 } }),
    text('purge.max_backups_space', 'Maximum backups space', { size: 'x-small', append: 'GB', default: 5, validate: { type: 'int', min: 0 } }),
    text('purge.max_backups_time', 'Maximum retention time', { size: 'x-small', append: 'days', default: 365, validate: { type: 'int', min: 0 } }),
    toggle('profiles_enabled', 'Scheduled backups', 'Run the backup profiles on their schedule', {}, yesNo),
  ],
  defaults: { purge: { trigger: 'space', max_backups_count: 25, max_backups_space: 5, max_backups_time: 365 }, profiles_enabled: true },
};

export const CORE_SCOPES = ['system', 'site', 'media', 'security', 'scheduler', 'backups'] as const;
export type CoreScope = (typeof CORE_SCOPES)[number];

export const SCOPE_FORMS: Record<CoreScope, ScopeForm> = { system, site, media, security, scheduler, backups };

export const isCoreScope = (s: string): s is CoreScope => (CORE_SCOPES as readonly string[]).includes(s);
