/**
 * What every CMS route module is handed: the stores, the clock, the limiters and the settings of
 * one sandbox instance.
 */
import type { Accounts } from './accounts';
import type { ApiKeys } from './api-keys';
import type { Clock } from '../clock';
import type { Flavor } from '../flavor';
import type { EventLog } from './content/events';
import type { PageFiles } from './content/page-files';
import type { Tokens } from './jwt';
import type { Limits } from './limits';
import type { Mailbox } from './mail';
import type { MailerWorld } from './mailer/world';
import type { PackageWorld } from './packages/world';
import type { OpsWorld } from './ops/world';
import type { SiteState } from './site/state';
import type { AuditTrail } from './trail/audit';
import type { Webhooks } from './trail/webhooks';

/** The Users-list demo plugins (users/demo-plugins.ts) and the page-level policy they set; mutable at run time. */
export interface UserListPolicy {
  /** the two demo plugins answer the list's extension events (default true) */
  plugins: boolean;
  /** the tab they ask the client to land on (default `billing`, which only `api.users.write` sees) */
  defaultFilter: string | null;
  /** false asks to drop the built-in `all` tab (default true) */
  showAll: boolean;
}

/** Lifetimes in seconds; mutable at run time (tests, `POST /__sandbox/settings`). */
export interface CmsSettings {
  /** access token, default 3600 (1 hour) */
  accessTtl: number;
  /** refresh token, default 604800 (7 days) */
  refreshTtl: number;
  /** 2FA challenge token, default 300 (5 minutes) */
  challengeTtl: number;
  /** password reset link, default 86400 (24 hours) */
  resetTtl: number;
  /** reported by GET /me (`cms_version`; the real flavour's `grav_version`) */
  cmsVersion: string;
  /** reported by GET /me; null = no admin plugin enabled */
  adminVersion: string | null;
  /** most routes (or operations) one /pages/batch or /pages/reorganize call may carry; default 50 */
  batchMax: number;
  /** largest accepted media upload per file in bytes; default 64 MB */
  uploadMax: number;
  /** the login plugin's 2FA support is installed (default true); false makes the 2FA routes answer 500 */
  twofaAvailable: boolean;
}

export const DEFAULT_SETTINGS: CmsSettings = {
  accessTtl: 3600,
  refreshTtl: 7 * 86400,
  challengeTtl: 300,
  resetTtl: 86400,
  cmsVersion: '1.8.0',
  adminVersion: '1.0.12',
  batchMax: 50,
  uploadMax: 64 * 1024 * 1024,
  twofaAvailable: true,
};

/** The versions the real flavour reports by default: the Grav and admin2 of the recorded replies. */
export const REAL_VERSIONS: Pick<CmsSettings, 'cmsVersion' | 'adminVersion'> = { cmsVersion: '2.0.7', adminVersion: '2.0.15' };

export interface CmsContext {
  /** `spec`: the documents' behaviour; `real`: the Grav API plugin's where the two differ */
  flavor: Flavor;
  dataDir: string;
  /** http://127.0.0.1:PORT, known once listening (the fallback for reset links) */
  origin: string;
  clock: Clock;
  accounts: Accounts;
  apiKeys: ApiKeys;
  tokens: Tokens;
  limits: Limits;
  mail: Mailbox;
  settings: CmsSettings;
  /** the site's pages, media and languages on disk */
  content: PageFiles;
  /** the site's configuration and media library (site/) */
  site: SiteState;
  /** the events of the catalogue (spec section 6) fired so far */
  events: EventLog;
  /** the API prefix, e.g. /api/v1 (for Location headers) */
  prefix: string;
  /** what the Users-list demo plugins declare */
  userList: UserListPolicy;
  /** the installed plugins, themes and core, the repository and its knobs (packages/) */
  packages: PackageWorld;
  /** outgoing webhooks and the audit trail (trail/) */
  trail: { webhooks: Webhooks; audit: AuditTrail };
  /** the scheduler, dashboard and demo mode with their knobs (ops/) */
  ops: OpsWorld;
  /** the mailing plugin's audience, opened and seeded on first use (mailer/) */
  mailer: MailerWorld;
}
