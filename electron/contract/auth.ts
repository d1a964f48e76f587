import * as v from 'valibot';
import { SiteId } from './sites';
import { channel, event, None } from './define';

/**
 * Resolved permission map from GET /me (and the token pair's `user`), leaves boolean. The spec
 * nests it by permission segments (`{api: {pages: {read: true}}}`); the real service sends it flat
 * with dotted keys (`{"api.pages.read": true}`). Both are kept as sent; permissions.ts reads either.
 */
export type AccessMap = { [segment: string]: boolean | AccessMap };

/** The account's demo-mode block (`demo_mode` of /me on the real service). */
export interface DemoMode {
  /** True for a demo account: its writes are refused except for `writable`. */
  enabled: boolean;
  /** Permissions a demo account may still write with. */
  writable: string[];
  /** Minutes between resets of the demo content, when the site says. */
  resetInterval: number | null;
  /** Seconds until the next reset, for a demo account. */
  secondsUntilReset: number | null;
}

/** GET /me, as the app keeps it (the spec's fields; the server may send more). */
export interface Me {
  username: string;
  fullname: string;
  email: string;
  avatarUrl: string | null;
  /** `super_admin` of the real service: may do everything, whatever the map says. */
  superAdmin: boolean;
  access: AccessMap;
  contentEditor: string;
  /** The CMS version: `grav_version` (real service) or `cms_version` (spec). */
  cmsVersion: string | null;
  adminVersion: string | null;
  /**
   * The demo-mode block, when the site sends one (absent in the spec and in accounts kept from
   * before it was read). A super admin's map holds `api.demo: true` even with demo mode off, so
   * whether this is a demo account is `isDemoAccount(me)`, never the map alone.
   */
  demoMode?: DemoMode;
}

/**
 * The site's rules for a new account's password, when it says them (the real service's
 * `password_policy` in GET /auth/setup): each rule with its words and a pattern the password
 * must contain a match of. The spec names no policy beyond its own 8 characters.
 */
export interface PasswordPolicy {
  minLength: number | null;
  rules: { label: string; pattern: string }[];
}

/** GET /auth/setup: whether the site still needs its first account, and its password rules. */
export interface SetupStatus {
  setupRequired: boolean;
  passwordPolicy?: PasswordPolicy;
}

export type SessionState =
  | 'signed_out' // no credential for this site
  | 'needs_2fa' // password accepted; the 6-digit code is next (the challenge stays in the Host)
  | 'signed_in'
  | 'expired'; // the refresh token stopped working: sign in again (nothing local is lost)

export interface SessionInfo {
  siteId: string;
  state: SessionState;
  /** How the session authenticates: a JWT pair from a password sign-in, or the site's API key. */
  via: 'password' | 'apikey' | null;
  username: string | null;
  /** The account as /me last described it (kept across restarts for the info panel). */
  me: Me | null;
  /** When /me was last read. */
  meAt: string | null;
  /** For needs_2fa: when the challenge runs out (ISO). */
  challengeExpiresAt?: string;
  /** Why the session ended (expired), for the sign-in prompt. */
  reason?: string;
}

const username = v.pipe(v.string(), v.trim(), v.minLength(1, 'Enter the username.'), v.maxLength(256));
const password = v.pipe(v.string(), v.minLength(1, 'Enter the password.'), v.maxLength(4096));

export const AuthSite = v.strictObject({ siteId: SiteId });

export const SignIn = v.strictObject({ siteId: SiteId, username, password });

export const Verify2fa = v.strictObject({
  siteId: SiteId,
  code: v.pipe(v.string(), v.trim(), v.regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.')),
});

/**
 * The setup rules, checked here too so the form answers at once (the server checks again). The
 * username rule is the wider of the two services': the documents allow letters, digits, hyphen and
 * underscore; Grav also allows dots (not first, never two in a row). A site that refuses a dot says
 * so at the field.
 */
export const Setup = v.strictObject({
  siteId: SiteId,
  username: v.pipe(
    v.string(),
    v.trim(),
    v.regex(/^(?!\.)(?!.*\.\.)[A-Za-z0-9._-]{3,64}$/, '3 to 64 characters: letters, digits, hyphen, underscore and dot.'),
  ),
  password: v.pipe(v.string(), v.minLength(8, 'At least 8 characters.'), v.maxLength(4096)),
  email: v.pipe(v.string(), v.trim(), v.maxLength(254, 'At most 254 characters.'), v.email('Enter a valid email address.')),
  fullname: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
  title: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(200))),
});

export const Forgot = v.strictObject({
  siteId: SiteId,
  email: v.pipe(v.string(), v.trim(), v.maxLength(254, 'At most 254 characters.'), v.email('Enter a valid email address.')),
});

export const Reset = v.strictObject({
  siteId: SiteId,
  username,
  /** The token from the reset link; a whole pasted link is accepted too and the token taken from it. */
  token: v.pipe(v.string(), v.trim(), v.minLength(1, 'Paste the token (or the whole link) from the email.'), v.maxLength(4096)),
  password: v.pipe(v.string(), v.minLength(8, 'At least 8 characters.'), v.maxLength(4096)),
});

// ── channels and events ──────────────────────────────────────────────────────────────────────

export const authChannels = {
  /** The session of every CMS site (state, account, /me), for the rail and the panes. */
  'auth.sessions': channel<SessionInfo[]>()(None),
  /** Whether the site still needs its first account, and the rules it gives for its password (GET /auth/setup). */
  'auth.setupStatus': channel<SetupStatus>()(AuthSite),
  'auth.setup': channel<SessionInfo>()(Setup),
  /** Password sign-in; answers state needs_2fa when the account has two-factor. */
  'auth.signIn': channel<SessionInfo>()(SignIn),
  'auth.verify2fa': channel<SessionInfo>()(Verify2fa),
  /** Leaves the code step without signing in (the waiting challenge is dropped in the Host). */
  'auth.cancel2fa': channel<SessionInfo>()(AuthSite),
  /**
   * Revokes the refresh token and forgets the tokens; API-key sites just stop using the key.
   * `revoked: false` = signed out here, but the site could not be told (offline).
   */
  'auth.signOut': channel<SessionInfo & { revoked: boolean }>()(AuthSite),
  /** Reads /me again (the info panel's refresh). */
  'auth.refreshMe': channel<SessionInfo>()(AuthSite),
  'auth.forgotPassword': channel<{ message: string }>()(Forgot),
  'auth.resetPassword': channel<{ message: string }>()(Reset),
};

export const authEvents = {
  /** A site's session changed: signed in or out, expired, /me re-read. */
  'auth.session': event<SessionInfo>(),
};
