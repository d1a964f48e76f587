/**
 * The plugins and themes the sandbox site has installed: each one's settings form (its
 * `blueprints.yaml`, in the real service's field shapes; recordings 35 and 36 show `api` and
 * `quark2`), its default settings, and the forms of its admin pages (`admin/blueprints/{id}.yaml`).
 *
 *   - api, email, login: forms of their own; `email` keeps an SMTP password (a `password` field),
 *     `api` a signing secret that no form shows (masked by its name, as the real service does);
 *   - team-notes: a demo plugin with an admin page `notes` of its own form (its `note-color` field
 *     is the plugin's own field type, with a script);
 *   - site-health: a demo plugin with a settings panel form `health-settings` (what it adds to the
 *     admin is in ../plugins-ui/demo-plugins.ts, with team-notes');
 *   - problems: installed but disabled, without a form (its blueprint answers 404, its settings read);
 *   - quark2: the default theme; antimatter: installed, without a form.
 */
import { onOff, opts, section, select, tab, tabs, text, toggle, type Def } from './form-parts';

export interface Extension {
  /** the blueprint's `name` (the display name), null when the package ships no blueprints.yaml */
  title: string | null;
  fields: Def[];
  defaults: Record<string, unknown>;
  /** admin page forms by page id */
  pages?: Record<string, { title: string; fields: Def[] }>;
}

const enabled = (label = 'Plugin Status'): Def => ({ name: 'enabled', type: 'toggle', label, default: 1, highlight: 1, options: onOff, validate: { type: 'bool' } });

export const PLUGINS: Record<string, Extension> = {
  api: {
    title: 'API',
    fields: [
      enabled(),
      tabs(
        'tabs',
        [
          tab('tab_general', 'General', [
            section('section_general', 'General Settings'),
            text('route', 'API Route', { help: 'The base route for the API', default: '/api', validate: { type: 'text' } }),
            text('version_prefix', 'Version Prefix', { help: 'Current API version prefix', default: 'v1', validate: { type: 'text' } }),
          ]),
          tab('tab_authentication', 'Authentication', [
            section('section_auth', 'Authentication'),
            toggle('auth.api_keys_enabled', 'API Key Authentication', undefined, { default: 1 }, onOff),
            toggle('auth.jwt_enabled', 'JWT Authentication', undefined, { default: 1 }, onOff),
            text('auth.jwt_expiry', 'JWT Access Token Expiry', { help: 'Access token lifetime in seconds', default: 3600, validate: { type: 'int' } }),
            text('auth.jwt_refresh_expiry', 'JWT Refresh Token Expiry', { help: 'Refresh token lifetime in seconds', default: 604800, validate: { type: 'int' } }),
            select('auth.jwt_algorithm', 'JWT Signing Algorithm', opts(['HS256', 'HS256'], ['HS384', 'HS384'], ['HS512', 'HS512']), { help: 'HMAC algorithm used to sign and verify API tokens', default: 'HS256', validate: { type: 'string' } }),
          ]),
          tab('tab_rate_limiting', 'Rate Limiting', [
            section('section_rate_limit', 'Rate Limiting'),
            toggle('rate_limit.enabled', 'Rate Limiting', undefined, { default: 1 }, onOff),
            text('rate_limit.requests', 'Max Requests', { help: 'Maximum requests per window', default: 120, validate: { type: 'int', min: 1 } }),
            text('rate_limit.window', 'Window (seconds)', { help: 'Time window in seconds', default: 60, validate: { type: 'int', min: 1 } }),
          ]),
        ],
        { classes: 'side-tabs' },
      ),
    ],
    defaults: {
      enabled: true,
      route: '/api',
      version_prefix: 'v1',
      auth: { api_keys_enabled: true, jwt_enabled: true, jwt_expiry: 3600, jwt_refresh_expiry: 604800, jwt_algorithm: 'HS256', jwt_secret: 'sandbox-signing-secret-0f3a9c' },
      rate_limit: { enabled: true, requests: 120, window: 60 },
    },
  },
  email: {
    title: 'Email',
    fields: [
      enabled(),
      text('from', 'Email from', { help: 'Default email from address', size: 'medium', placeholder: 'Default email from address', validate: { required: true, type: 'email' } }),
      select('mailer.engine', 'Mail engine', opts(['none', 'Disabled'], ['smtp', 'SMTP'], ['sendmail', 'Sendmail']), { help: 'How mail leaves the site', size: 'medium' }),
      section('smtp_section', 'SMTP Configuration', [
        text('mailer.smtp.server', 'SMTP server', { size: 'medium', placeholder: 'localhost' }),
        text('mailer.smtp.port', 'SMTP port', { size: 'small', placeholder: '25', validate: { type: 'int', min: 1, max: 65535 } }),
        select('mailer.smtp.encryption', 'SMTP encryption', opts(['none', 'None'], ['ssl', 'SSL'], ['tls', 'TLS'])),
        text('mailer.smtp.user', 'SMTP login name', { size: 'medium' }),
        { name: 'mailer.smtp.password', type: 'password', label: 'SMTP password', size: 'medium' },
      ]),
    ],
    defaults: {
      enabled: true,
      from: 'noreply@example.test',
      mailer: { engine: 'smtp', smtp: { server: 'localhost', port: 25, encryption: 'none', user: 'mailer', password: 'sandbox-smtp-pass' } },
    },
  },
  login: {
    title: 'Login',
    fields: [
      enabled(),
      text('route', 'Login path', { help: 'Custom route to the login page', size: 'medium', placeholder: '/login' }),
      text('redirect_after_login', 'Redirect after login', { size: 'medium', placeholder: '/' }),
      toggle('rememberme.enabled', 'Remember me', 'Offer to stay signed in', {}, onOff),
      text('rememberme.timeout', 'Timeout', { size: 'small', append: 'seconds', validate: { type: 'int', min: 1 } }),
    ],
    defaults: { enabled: true, route: '/login', redirect_after_login: '', rememberme: { enabled: true, timeout: 604800 } },
  },
  'team-notes': {
    title: 'Team Notes',
    fields: [enabled(), text('board_title', 'Board title', { size: 'large', validate: { required: true } }), { name: 'notify.email', type: 'email', label: 'Notify', help: 'Who hears about new notes', validate: { type: 'email' } }],
    defaults: { enabled: true, board_title: 'Team notes', notify: { email: '' }, notes: [] },
    pages: {
      notes: {
        title: 'Notes',
        fields: [
          section('notes_section', 'Pinned notes'),
          {
            name: 'notes',
            type: 'list',
            label: 'Notes',
            style: 'vertical',
            btnLabel: 'Add note',
            collapsed: false,
            fields: [text('notes.title', 'Title', { validate: { required: true } }), { name: 'notes.body', type: 'textarea', label: 'Text', rows: 4 }, { name: 'notes.pinned_until', type: 'date', label: 'Pinned until' }, { name: 'notes.color', type: 'note-color', label: 'Colour' }],
          },
        ],
      },
    },
  },
  'site-health': {
    title: 'Site Health',
    fields: [enabled(), ...healthFields()],
    defaults: { enabled: true, checks: { interval: 15, notify_email: '', disk_warning: 80 }, cdn: { zone: '' } },
    pages: { 'health-settings': { title: 'Health checks', fields: [section('checks_section', 'Checks'), ...healthFields()] } },
  },
  problems: { title: null, fields: [], defaults: { enabled: false } },
};

function healthFields(): Def[] {
  return [
    text('checks.interval', 'Check every', { append: 'minutes', size: 'small', validate: { required: true, type: 'int', min: 5, max: 1440 } }),
    { name: 'checks.notify_email', type: 'email', label: 'Notify', help: 'Who hears about failed checks', validate: { type: 'email' } },
    text('checks.disk_warning', 'Warn at disk use', { append: '%', size: 'small', validate: { type: 'int', min: 50, max: 99 } }),
  ];
}

export const THEMES: Record<string, Extension> = {
  quark2: {
    title: 'Quark 2',
    fields: [
      select('theme-mode', 'Theme Mode Default', opts(['auto', 'Auto (follows OS)'], ['light', 'Light'], ['dark', 'Dark']), {
        help: 'Default appearance before a user makes a choice. Users can still toggle in the UI.',
        default: 'auto',
        size: 'small',
      }),
      { name: 'accent-color', type: 'colorpicker', label: 'Accent Color', help: 'Tints links and focus rings. Leave blank for the pure monochrome palette.', default: '#242424' },
      section('header_section', 'Header'),
      { name: 'custom_logo', type: 'file', label: 'Custom Logo', size: 'large', multiple: false, markdown: true, destination: 'theme://images/logo', accept: ['image/*'] },
      toggle('header-fixed', 'Header Fixed', undefined, { default: 1 }, onOff),
      toggle('header-transparent', 'Header Transparent (hero pages)', undefined, { default: 0, highlight: 0 }, onOff),
      section('blog_section', 'Blog'),
      text('blog-page', 'Blog Page Route', { default: '/blog', size: 'medium' }),
    ],
    defaults: { enabled: true, 'theme-mode': 'auto', 'accent-color': '#242424', custom_logo: null, 'header-fixed': true, 'header-transparent': false, 'blog-page': '/blog' },
  },
  antimatter: { title: null, fields: [], defaults: { enabled: false } },
};
