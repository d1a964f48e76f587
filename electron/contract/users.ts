/**
 * The `users.*` channels: a CMS site's accounts (document 1, Users; the real service's record),
 * the list's extension points plugins add (filter tabs, columns, row actions), and each account's
 * API keys. Writes are never queued: an account change the site does not answer is refused with
 * the reason. Usernames go into URL paths, so they never climb (`pathName`).
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { pathName } from './names';
import type { AccessMap } from './auth';
import { headerProblem } from './header';
import { UploadType, type BlueprintField } from './pages';

export const CmsUsername = pathName('username', 256);

const Text = (max: number, what: string) => v.pipe(v.string(), v.trim(), v.maxLength(max, `${what} is at most ${max} characters.`));
const Email = v.pipe(v.string(), v.trim(), v.maxLength(254, 'At most 254 characters.'), v.email('Enter a valid email address.'));
const Password = v.pipe(v.string(), v.minLength(8, 'At least 8 characters.'), v.maxLength(4096));
const State = v.picklist(['enabled', 'disabled'], 'Enabled or disabled.');
/** An access map (`{api: {pages: {read: true}}}` or flat `{"api.pages.read": true}`), within the header's bounds. */
const Access = v.pipe(
  v.custom<AccessMap>((x) => typeof x === 'object' && x !== null && !Array.isArray(x), 'The permissions must be a map.'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = headerProblem(dataset.value);
    if (problem) addIssue({ message: problem.replace('The header', 'The permissions') });
  }),
);
const Groups = v.pipe(v.array(pathName('group', 100)), v.maxLength(100, 'At most 100 groups.'));

export const USERS_PER_PAGE_MAX = 100;

export const UsersQuery = v.strictObject({
  siteId: SiteId,
  page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
  perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(USERS_PER_PAGE_MAX))),
  search: v.optional(Text(200, 'A search')),
  /** A filter tab's id (`all` = none). */
  filter: v.optional(v.pipe(v.string(), v.maxLength(100))),
  access: v.optional(v.pipe(v.string(), v.maxLength(200))),
  group: v.optional(v.pipe(v.string(), v.maxLength(100))),
});

/** A language code an account prefers (Grav's `language`: `en`, `pt-BR`; empty for the site's). */
const Language = v.pipe(v.string(), v.trim(), v.maxLength(35), v.regex(/^([A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8})*)?$/, 'A language code, such as en or pt-BR.'));
/** The editor an account prefers for content (`default`, `codemirror`, a plugin's). */
const ContentEditor = v.pipe(v.string(), v.trim(), v.maxLength(100));

export const CmsUserCreate = v.strictObject({
  siteId: SiteId,
  user: v.strictObject({
    username: v.pipe(v.string(), v.trim(), v.regex(/^(?!\.)(?!.*\.\.)[A-Za-z0-9._-]{3,64}$/, '3 to 64 characters: letters, digits, hyphen, underscore and dot.')),
    password: Password,
    email: Email,
    fullname: v.optional(Text(200, 'A full name')),
    title: v.optional(Text(200, 'A title')),
    state: v.optional(State),
    language: v.optional(Language),
    content_editor: v.optional(ContentEditor),
    access: v.optional(Access),
    groups: v.optional(Groups),
  }),
});

export const CmsUserChanges = v.strictObject({
  email: v.optional(Email),
  fullname: v.optional(Text(200, 'A full name')),
  title: v.optional(Text(200, 'A title')),
  state: v.optional(State),
  language: v.optional(Language),
  content_editor: v.optional(ContentEditor),
  access: v.optional(Access),
  groups: v.optional(Groups),
  password: v.optional(Password),
});

export const CmsUserUpdate = v.strictObject({
  siteId: SiteId,
  username: CmsUsername,
  /** The ETag the account was read with; a change made meanwhile on the site is then a conflict. */
  etag: v.nullable(v.pipe(v.string(), v.maxLength(512))),
  changes: CmsUserChanges,
});

export const CmsUserRef = v.strictObject({ siteId: SiteId, username: CmsUsername });

export const RowActionRun = v.strictObject({
  siteId: SiteId,
  username: CmsUsername,
  actionId: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  /** Run it even though an earlier run's answer was lost (the person checked, and chose to). */
  again: v.optional(v.boolean()),
});

export const ApiKeyCreate = v.strictObject({
  siteId: SiteId,
  username: CmsUsername,
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Name the key (where it is used).'), v.maxLength(100, 'At most 100 characters.')),
  scopes: v.pipe(v.array(v.pipe(v.string(), v.maxLength(200))), v.maxLength(200)),
  /** Days until the key stops working; null: it does not expire. */
  expiryDays: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, 'At least one day.'), v.maxValue(3650, 'At most ten years.'))),
});

/** The most an avatar may be (the real service's AVATAR_MAX_SIZE). */
export const AVATAR_MAX_BYTES = 8 * 1024 * 1024;

export const AvatarUpload = v.strictObject({
  siteId: SiteId,
  username: CmsUsername,
  filename: v.pipe(v.string(), v.trim(), pathName('file name')),
  type: UploadType,
  /** The image's bytes, base64 (the bridge carries JSON). */
  data: v.pipe(v.string(), v.minLength(1, 'The file is empty.'), v.maxLength(Math.ceil(AVATAR_MAX_BYTES / 3) * 4, 'An avatar is at most 8 MB.')),
});

/** A code from an authenticator app: six digits, spaces allowed between them. */
const TotpCode = v.pipe(v.string(), v.transform((x) => x.replace(/\s+/g, '')), v.regex(/^\d{6}$/, 'Enter the six digits your authenticator app shows.'));

export const TwofaEnable = v.strictObject({ siteId: SiteId, username: CmsUsername, code: TotpCode });
/** Without a code: an administrator's forced disable (another account's, or one's own with api.users.write). */
export const TwofaDisable = v.strictObject({ siteId: SiteId, username: CmsUsername, code: v.optional(TotpCode) });

export const ApiKeyRef = v.strictObject({ siteId: SiteId, username: CmsUsername, keyId: pathName('key id', 200) });

/** A scalar a plugin column shows (`extra`). */
export type ExtraValue = string | number | boolean | null;

export interface CmsUser {
  username: string;
  email: string;
  fullname: string;
  title: string;
  state: 'enabled' | 'disabled' | string;
  /** The account's own permissions (not those its groups give). */
  access: AccessMap;
  groups: string[];
  /** Where the avatar is (an absolute URL on the site), or null. */
  avatarUrl: string | null;
  twofaEnabled: boolean;
  /** The language the account prefers ('' for the site's). */
  language: string;
  /** The content editor the account prefers ('' for the site's default). */
  contentEditor: string;
  created: string | null;
  modified: string | null;
  /** Plugin columns' values, on list rows only. */
  extra: Record<string, ExtraValue>;
}

export interface CmsUserRead {
  user: CmsUser;
  etag: string | null;
  /** Read from the offline copy of this time (the site did not answer): for reading only. */
  copiedAt?: string;
}

export interface UserPage {
  items: CmsUser[];
  total: number | null;
  page: number;
  perPage: number;
  /** A further page exists. */
  more: boolean;
  /** Rows the site sent that could not be read, each saying why (absent when none). */
  unreadable?: string[];
  /** Answered from the offline copy of this time (the site did not answer); absent when the site answered. */
  copiedAt?: string;
  /** From the copy: the tab's or permission's filter could not apply (its rule is the site's), so every account is listed. */
  filterIgnored?: boolean;
}

/** Whether a site's accounts are kept for offline reading, and the copy's time and size. */
export interface UsersOfflineState {
  keep: boolean;
  copiedAt: string | null;
  count: number;
}

export type ColumnFormatter = 'text' | 'link' | 'date' | 'datetime' | 'boolean' | 'number' | 'badge';

export interface UserListTab {
  id: string;
  plugin: string;
  label: string;
  badge: string | number | null;
}

export interface UserListColumn {
  id: string;
  plugin: string;
  label: string;
  field: string;
  formatter: ColumnFormatter;
  sortable: boolean;
}

export interface UserRowAction {
  id: string;
  plugin: string;
  label: string;
  /** The prompt a person must confirm before it runs, or null. */
  confirm: string | null;
}

export interface UserListExtensions {
  tabs: UserListTab[];
  defaultFilter: string;
  showAll: boolean;
  columns: UserListColumn[];
  actions: UserRowAction[];
}

export interface RowActionResult {
  ok: boolean;
  message: string | null;
  /** Where the site sends the person next: root-relative or on the site's own origin only. */
  url: string | null;
}

export interface ApiKeyInfo {
  id: string;
  name: string;
  scopes: string[];
  created: string | null;
  expires: string | null;
}

export interface ApiKeyMinted extends ApiKeyInfo {
  /** The raw key: shown once, never kept by Sitedesk unless the person stores it as the site's key. */
  apiKey: string;
}

/** One permission of the site's tree (`/blueprints/users/permissions`): `api.pages.read`, its label, and those under it. */
export interface PermissionNode {
  name: string;
  label: string;
  children: PermissionNode[];
}

/** A user group of the site (`/groups`): its access is what its members inherit. */
export interface UserGroupInfo {
  name: string;
  label: string;
  access: AccessMap;
}

/** What an account form is made of on a site. */
export interface AccountForm {
  /** The account blueprint's fields (`/blueprints/users`). */
  fields: BlueprintField[];
  /** The permission tree, in the site's order. */
  permissions: PermissionNode[];
  /** The site's groups with their access; null where the site does not list them (the documents have no `/groups`). */
  groups: UserGroupInfo[] | null;
  /** Read from the copy of this time (the site did not answer). */
  copiedAt?: string;
}

/** A new 2FA secret: the account must confirm it with a code before it counts. */
export interface TwofaSetup {
  /** In groups of four, as the site sends it. */
  secret: string;
  /** The QR code as an image data: URI (PNG or SVG), or null when the site sent none that can be shown safely. */
  qrCode: string | null;
}

/** One account in the People view: what it is on one site. */
export interface PeopleAccount {
  siteId: string;
  username: string;
  email: string;
  fullname: string;
  state: string;
  groups: string[];
  twofaEnabled: boolean;
  /** It may change something through the site's API (its settings, and its groups' where the site lists them). */
  writes: boolean;
  /** False when its groups' permissions could not be read (the site does not list groups), so `writes` may say too little. */
  writesKnown: boolean;
}

/** A person: accounts on several sites joined by email address or username. */
export interface Person {
  key: string;
  name: string;
  emails: string[];
  usernames: string[];
  accounts: PeopleAccount[];
}

/** How reading one site's accounts went. */
export interface PeopleSite {
  siteId: string;
  /** Accounts read. */
  count: number;
  /** The site has more accounts than were read (PEOPLE_PER_SITE_MAX). */
  truncated: boolean;
  /** Why its accounts are not in the view, or null. */
  error: string | null;
  /** The site listed its groups, so what they give counts towards "writes" (the documents have no /groups). */
  groupsKnown: boolean;
}

export interface PeopleReport {
  sites: PeopleSite[];
  people: Person[];
}

/** At most this many accounts are read per site for the People view. */
export const PEOPLE_PER_SITE_MAX = 5000;

export const usersChannels = {
  'users.list': channel<UserPage>()(UsersQuery),
  'users.extensions': channel<UserListExtensions>()(v.strictObject({ siteId: SiteId })),
  'users.get': channel<CmsUserRead>()(CmsUserRef),
  'users.create': channel<CmsUserRead>()(CmsUserCreate),
  'users.update': channel<CmsUserRead>()(CmsUserUpdate),
  'users.delete': channel<{ username: string }>()(CmsUserRef),
  'users.rowAction': channel<RowActionResult>()(RowActionRun),
  'users.apiKeys': channel<ApiKeyInfo[]>()(CmsUserRef),
  'users.createApiKey': channel<ApiKeyMinted>()(ApiKeyCreate),
  'users.deleteApiKey': channel<{ keyId: string }>()(ApiKeyRef),
  /** Every account of these sites, joined into people (personal data: read when asked, never kept). */
  'users.people': channel<PeopleReport>()(v.strictObject({ siteIds: v.pipe(v.array(SiteId), v.minLength(1, 'Choose at least one site.'), v.maxLength(64, 'At most 64 sites.')) })),
  /** Whether this site's accounts are kept for offline reading (personal data: only by choice). */
  'users.offline': channel<UsersOfflineState>()(v.strictObject({ siteId: SiteId })),
  /** Keep a copy of this site's accounts for offline reading, or stop and remove it. */
  'users.setOffline': channel<UsersOfflineState>()(v.strictObject({ siteId: SiteId, keep: v.boolean() })),
  'users.form': channel<AccountForm>()(v.strictObject({ siteId: SiteId })),
  'users.uploadAvatar': channel<CmsUserRead>()(AvatarUpload),
  'users.removeAvatar': channel<CmsUserRead>()(CmsUserRef),
  /** A new 2FA secret for the account (the old enrolment ends until it is enabled with a code). */
  'users.twofaSetup': channel<TwofaSetup>()(CmsUserRef),
  'users.twofaEnable': channel<{ twofaEnabled: boolean }>()(TwofaEnable),
  'users.twofaDisable': channel<{ twofaEnabled: boolean }>()(TwofaDisable),
};

export const usersEvents = {};
