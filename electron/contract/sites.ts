import * as v from 'valibot';
import { channel, event, None } from './define';

export const SITE_KINDS = ['cms', 'store'] as const;
export type SiteKind = (typeof SITE_KINDS)[number];

/** `password` = username/password sign-in that yields JWTs; `apikey` = a key sent with every call. */
export const AUTH_MODES = ['password', 'apikey'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

/** The API prefix each kind of site serves under unless the user says otherwise. */
export const DEFAULT_PREFIX: Record<SiteKind, string> = { cms: '/api/v1', store: '/api/v3' };

export interface Site {
  id: string;
  name: string;
  kind: SiteKind;
  /** Full base URL including the API prefix, no trailing slash: https://example.com/api/v1 */
  baseUrl: string;
  /**
   * The Grav environment to use (sent as `X-Grav-Environment`, and as `X-Cms-Environment` for the
   * spec), or null to send none. Grav takes `^[a-zA-Z0-9][a-zA-Z0-9._-]*$` and answers 400 to any other.
   */
  environment: string | null;
  authMode: AuthMode;
  /** True when an API key for this site is in the secret store (the key itself never leaves the Host). */
  hasApiKey: boolean;
  /**
   * The person chose to reach this site over plain http:// on another computer (see
   * `plainHttpToAnotherComputer`): what is sent travels readable on the network. False for https
   * and for loopback, which need no choice.
   */
  allowPlainHttp: boolean;
  position: number;
  createdAt: string;
  updatedAt: string;
}

/** Names and addresses of this computer: plain http:// to them never crosses a network. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '[::1]' || /^127(\.\d{1,3}){3}$/.test(h);
}

/**
 * An address whose requests (passwords, tokens, keys with them) would travel readable by anyone on
 * the network: plain http:// to a host other than this computer. Such a site needs the person's
 * explicit "allow plain HTTP for this site". False for what is not a URL at all (other checks say why).
 */
export function plainHttpToAnotherComputer(address: string): boolean {
  // read by hand: the contract runs where no URL class is typed (it imports only valibot)
  const m = /^\s*http:\/\/([^/?#]*)/i.exec(address);
  if (!m) return false;
  const authority = m[1]!.slice(m[1]!.lastIndexOf('@') + 1);
  const host = authority.startsWith('[') ? authority.slice(0, authority.indexOf(']') + 1) : authority.replace(/:\d*$/, '');
  return host !== '' && !isLoopbackHost(host);
}

const trimmed = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max, `At most ${max} characters.`));

/** Kept loose on purpose: URL rules are checked by the Host (sites/url.ts) so the message can say what is wrong. */
export const SiteFields = {
  name: v.pipe(trimmed(80), v.minLength(1, 'Give the site a name.')),
  kind: v.picklist(SITE_KINDS, 'Choose CMS or store.'),
  baseUrl: v.pipe(trimmed(2048), v.minLength(1, 'Enter the address of the site.')),
  environment: v.nullable(trimmed(253)),
  authMode: v.picklist(AUTH_MODES, 'Choose how to sign in.'),
  /**
   * Present = store this key (empty string = forget it); absent = leave the stored key alone (while
   * the origin and kind stay: on another origin or kind the stored key is dropped).
   */
  apiKey: v.optional(v.pipe(v.string(), v.maxLength(4096))),
  /** The explicit choice to use plain http:// to another computer (absent = not chosen). */
  allowPlainHttp: v.optional(v.boolean()),
};

export const SiteDraft = v.strictObject(SiteFields);
export type SiteDraft = v.InferInput<typeof SiteDraft>;

export const SiteId = v.pipe(v.string(), v.uuid('Not a site id.'));

export const SiteUpdate = v.strictObject({ id: SiteId, ...SiteFields });
export type SiteUpdate = v.InferInput<typeof SiteUpdate>;

export type ConnectionOutcome =
  | 'reachable' // the right kind of service answered at that prefix
  | 'wrong_prefix' // a server answered, but not at this API prefix (a hint says which prefix works, if found)
  | 'wrong_service' // something answered at the prefix, but it is not this kind of service
  | 'needs_auth' // the service is there but wants credentials for this probe
  | 'tls' // certificate refused
  | 'timeout'
  | 'unreachable' // DNS, refused, reset
  | 'server_error'; // 5xx

export interface ConnectionReport {
  outcome: ConnectionOutcome;
  ok: boolean;
  /** One sentence for the user. */
  message: string;
  /** The URL that was probed. */
  url: string;
  status?: number;
  /** Round-trip time of the probe in milliseconds. */
  ms: number;
  /** For wrong_prefix: a base URL that does answer, when one was found. */
  suggestedBaseUrl?: string;
}

// ── channels and events ──────────────────────────────────────────────────────────────────────

const ProbeTarget = v.strictObject({
  kind: SiteFields.kind,
  baseUrl: SiteFields.baseUrl,
  environment: SiteFields.environment,
  allowPlainHttp: SiteFields.allowPlainHttp,
});

export const sitesChannels = {
  'sites.list': channel<Site[]>()(None),
  'sites.add': channel<Site>()(SiteDraft),
  'sites.update': channel<Site>()(SiteUpdate),
  'sites.remove': channel<{ id: string }>()(v.strictObject({ id: SiteId })),
  /** The full list of site ids in their new order. */
  'sites.reorder': channel<Site[]>()(v.strictObject({ ids: v.pipe(v.array(SiteId), v.minLength(1), v.maxLength(1000, 'At most 1000 sites.')) })),
  /** Probe a saved site (`id`) or the values in an unsaved form (`target`). */
  'sites.test': channel<ConnectionReport>()(
    v.union([v.strictObject({ id: SiteId }), v.strictObject({ target: ProbeTarget })], 'Give a site id or a target to test.'),
  ),
};

export const sitesEvents = {
  /** The whole list, after any add, edit, removal or reorder (from any window). */
  'sites.changed': event<Site[]>(),
};
