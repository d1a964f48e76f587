/**
 * The account form (`GET /blueprints/users`) and the permission tree
 * (`GET /blueprints/users/permissions`), laid out as the real service answers them (recordings 32
 * and 33: Grav core's user/account.yaml as getgrav/grav-plugin-api:BlueprintController
 * serialises it, admin2's state select added by its `onApiBlueprintResolved` listener; the tree
 * from the registered permission actions with their labels).
 */
import { opts, section, select, text, yesNo, type Def } from './form-parts';

export function accountFields(languages: string[]): Def[] {
  const languageOptions = (languages.length ? languages : ['en']).map((code) => ({ value: code, label: LANGUAGE_NAMES[code] ?? code }));
  return [
    { name: 'info', type: 'userinfo', size: 'large' },
    { name: 'avatar', type: 'file', size: 'large', multiple: false, destination: 'account://avatars', random_name: true },
    {
      name: 'multiavatar_only',
      type: 'conditional',
      condition: "config.system.accounts.avatar == 'multiavatar'",
      fields: [{ name: 'multiavatar_only.avatar_hash', type: 'text', label: '', placeholder: 'e.g. dceaadcfda491f4e45', description: "NOTE: Optional Avatar custom 'hash' string", size: 'large' }],
    },
    section('content', 'Account'),
    text('username', 'Username', { size: 'large', disabled: true, readonly: true }),
    { name: 'email', type: 'email', label: 'Email', size: 'large', validate: { type: 'email', message: 'PLUGIN_ADMIN.EMAIL_VALIDATION_MESSAGE', required: true } },
    { name: 'password', type: 'password', label: 'Password', size: 'large', validate: { required: false, message: 'PLUGIN_ADMIN.PASSWORD_VALIDATION_MESSAGE', 'config-pattern@': 'system.pwd_regex' } },
    text('fullname', 'Full name', { size: 'large', validate: { required: true } }),
    text('title', 'Title', { size: 'large' }),
    select('state', 'ADMIN_NEXT.USERS.STATUS', opts(['enabled', 'ADMIN_NEXT.ENABLED'], ['disabled', 'ADMIN_NEXT.DISABLED']), {
      size: 'medium',
      classes: 'fancy',
      help: 'ADMIN_NEXT.USERS.STATUS_HELP',
      default: 'enabled',
    }),
    select('language', 'Language', languageOptions, { help: 'Set the favorite language', default: 'en', size: 'medium', classes: 'fancy' }),
    select('content_editor', 'Content Editor', opts(['default', 'Default'], ['codemirror', 'CodeMirror']), {
      help: 'Custom editors can be preferred for content editing',
      default: 'default',
      size: 'medium',
      classes: 'fancy',
    }),
    {
      name: 'twofa_check',
      type: 'conditional',
      condition: 'config.plugins.admin.twofa_enabled',
      fields: [
        { name: 'twofa_check.twofa', type: 'section', title: '2-Factor Authentication', underline: true },
        { name: 'twofa_check.twofa_enabled', type: 'toggle', label: '2FA Enabled', default: 0, classes: 'twofa-toggle', highlight: 1, options: yesNo, validate: { type: 'bool' } },
        { name: 'twofa_check.twofa_secret', type: '2fa_secret', label: '2FA Secret', markdown: true },
        {
          name: 'twofa_check.yubikey_id',
          type: 'text',
          label: 'YubiKey ID',
          description: 'Insert your YubiKey into your computer and click the button to generate an OTP. The first 12 chars are your client ID and will be saved.',
          size: 'small',
          maxlength: 12,
        },
      ],
    },
    section('security', 'Access Levels', [
      {
        name: 'groups',
        type: 'select',
        label: 'Groups',
        help: 'List of groups the user is part of',
        size: 'large',
        classes: 'fancy',
        multiple: true,
        data_options: '\\Grav\\Common\\User\\Group::groupNames',
        validate: { type: 'commalist' },
      },
      { name: 'access', type: 'permissions', label: 'Permissions', validate: { type: 'array', value_type: 'bool' } },
    ]),
    {
      name: 'api_check',
      type: 'conditional',
      condition: 'config.plugins.api.enabled',
      fields: [
        { name: 'api_check.api_section', type: 'section', title: 'API Keys', underline: true },
        { name: 'api_check.api_keys_display', type: 'api_keys', label: false },
      ],
    },
  ];
}

const LANGUAGE_NAMES: Record<string, string> = { en: 'English', de: 'Deutsch', fr: 'Français' };

export interface PermissionNode {
  name: string;
  label: string;
  children?: PermissionNode[];
}

const leaf = (name: string, label: string): PermissionNode => ({ name, label });
const group = (name: string, label: string, children: PermissionNode[]): PermissionNode => ({ name, label, children });

/** The registered permission actions, each with its label, as recording 33 lists them. */
export const PERMISSION_TREE: PermissionNode[] = [
  group('site', 'Site', [leaf('site.login', 'Login to Site')]),
  group('admin', 'Admin', [
    leaf('admin.pages', 'Pages'),
    leaf('admin.pages_twig', 'Toggle Twig Processing in Pages'),
    leaf('admin.users', 'User Accounts'),
    leaf('admin.login', 'Login to Admin'),
    leaf('admin.super', 'Super User'),
  ]),
  group('api', 'Api', [
    leaf('api.super', 'API Super User'),
    leaf('api.access', 'API Access'),
    leaf('api.demo', 'Demo Mode (read-only account)'),
    group('api.pages', 'Pages API', [leaf('api.pages.read', 'Read Pages'), leaf('api.pages.write', 'Create/Update/Delete Pages')]),
    group('api.media', 'Media API', [leaf('api.media.read', 'Read Media'), leaf('api.media.write', 'Upload/Delete Media')]),
    group('api.config', 'Configuration API', [leaf('api.config.read', 'Read Configuration'), leaf('api.config.write', 'Update Configuration')]),
    group('api.users', 'Users API', [leaf('api.users.read', 'Read Users'), leaf('api.users.write', 'Create/Update/Delete Users')]),
    group('api.system', 'System API', [
      leaf('api.system.read', 'Read System Info/Logs'),
      leaf('api.system.write', 'Cache/Updates'),
      leaf('api.system.backup', 'Create/Download/Delete Backups'),
    ]),
    group('api.gpm', 'GPM API', [leaf('api.gpm.read', 'List Packages / Check Updates'), leaf('api.gpm.write', 'Install/Remove/Update Packages')]),
    group('api.scheduler', 'Scheduler API', [leaf('api.scheduler.read', 'View Jobs/Status/History'), leaf('api.scheduler.write', 'Run Jobs')]),
    group('api.reports', 'Reports API', [leaf('api.reports.read', 'View Reports')]),
    group('api.webhooks', 'Webhooks API', [leaf('api.webhooks.read', 'View Webhooks'), leaf('api.webhooks.write', 'Manage Webhooks')]),
  ]),
];
