/**
 * The `webhooks.*` channels: a CMS site's outgoing webhooks (document 2, "Webhooks"; the real
 * WebhookController, recordings 54, 77, 78). A hook is a URL the site POSTs a signed payload to
 * when a mapped API event happens (document 1's mapping). Its secret is the site's: redacted in
 * every answer but the one that made it (`webhooks.create`), which Sitedesk shows once and keeps
 * nowhere. Writes are sent now or refused with the reason, never queued.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';

/**
 * The events a hook may ask for, as the sites name them. `cms.upgraded` is the document's name for
 * the core upgrade, `grav.upgraded` the real service's; each site takes only its own (the Host
 * sends the other when the site refuses the one asked for). `*` alone means every event.
 */
export const WEBHOOK_EVENTS = [
  'page.created',
  'page.updated',
  'page.deleted',
  'page.moved',
  'page.translated',
  'pages.reordered',
  'media.uploaded',
  'media.deleted',
  'user.created',
  'user.updated',
  'user.deleted',
  'config.updated',
  'gpm.installed',
  'gpm.removed',
  'cms.upgraded',
  'grav.upgraded',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** The core upgrade under either name. */
export const UPGRADE_EVENTS: readonly WebhookEvent[] = ['cms.upgraded', 'grav.upgraded'];
/** The event of a test delivery: the document's and the real service's name. */
export const TEST_EVENTS: readonly string[] = ['webhook.test', 'test'];

export interface Webhook {
  id: string;
  url: string;
  /** The events it is sent for; `['*']` is every event. */
  events: string[];
  /** The secret as the site sends it in a list or a read: redacted (first 6 and last 4 characters). */
  secret: string | null;
  enabled: boolean;
  /** When it was made (the real service says; the document does not). */
  created: string | null;
  /** Deliveries that failed in a row (the real service disables a hook after 5). */
  failureCount: number | null;
  /** Why the site turned it off by itself ("Auto-disabled after 5 consecutive failures"). */
  disabledReason: string | null;
  /** Names of the extra headers the site sends with each delivery (their values may be credentials: not read). */
  headerNames: string[];
}

export interface WebhookDelivery {
  id: string;
  event: string;
  url: string | null;
  /** The receiver's HTTP status; 0 when it gave none (refused, unreachable, timed out). */
  statusCode: number | null;
  success: boolean;
  durationMs: number | null;
  /** When it was sent (ISO). */
  at: string | null;
  /** Why it failed when the receiver gave no answer (the site's words). */
  error: string | null;
  /** The start of the receiver's answer (at most 300 characters), when the site keeps it. */
  response: string | null;
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[];
  total: number | null;
  page: number;
  perPage: number;
  next: number | null;
}

/** A hook made: `secret` is the full secret, in this answer only. */
export interface WebhookCreated {
  hook: Webhook;
  /** null: the site made the hook but did not show its secret whole (nobody can check its signatures: delete it, or give it a secret in an edit where the site allows). */
  secret: string | null;
  /** A secret was asked for and the site made its own instead (the real service always does). */
  ownSecretIgnored: boolean;
  /** A hook the same create made earlier, whose answer was lost, was removed first (nobody saw its secret). */
  replacedLost: number;
}

/**
 * An edit's outcome: saved; or the hook changed on the site since it was read (`theirs` is how the
 * site has it now, with its ETag to apply the edit again on top of).
 */
export type WebhookUpdate =
  | {
      outcome: 'saved';
      hook: Webhook;
      etag: string | null;
      /** A new secret was sent and the site kept its own (the real service never changes a secret). */
      secretIgnored: boolean;
    }
  | { outcome: 'conflict'; theirs: Webhook; etag: string | null };

/** A test delivery: sent by the site now, whatever the receiver answered (a failure is the site's 502 with this delivery). */
export interface WebhookTest {
  delivery: WebhookDelivery;
  /** The delivery is the one of an earlier test whose answer was lost (found on the site, not sent again). */
  earlier: boolean;
  /** The hook as the site has it after the test (its failure count; the real service turns a hook off after 5 in a row); null when it could not be read. */
  hook: Webhook | null;
}

/**
 * A site's webhooks at a glance (the sites' overview): how many hooks, how many are on, and the
 * failed deliveries of the last 24 hours. Counted from each hook's delivery history, newest first,
 * at most `DELIVERIES_LOOKED_AT` per hook; a delivery without a time is not counted.
 */
export interface WebhookHealth {
  hooks: number;
  enabled: number;
  /** Deliveries sent since `since` (24 hours before the count) that failed. */
  failed24h: number;
  /** Deliveries sent since `since` that were looked at, failed or not. */
  delivered24h: number;
  /** The start of the 24 hours counted (ISO). */
  since: string;
  /** Some hook had more deliveries in the 24 hours than were looked at: the counts are "at least". */
  partial: boolean;
  /** Hooks whose deliveries could not be read (each said): not counted. */
  unread: { id: string; reason: string }[];
  copiedAt: string | null;
}

/** How many deliveries of each hook the health looks at, newest first. */
export const DELIVERIES_LOOKED_AT = 200;

const HookId = v.pipe(v.string(), v.minLength(1), v.maxLength(100), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'Not a webhook id.'));

/** An absolute http(s) address without spaces; the site checks the rest (and says what is wrong). */
export const WebhookUrl = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Enter the address the site should send to.'),
  v.maxLength(2000, 'At most 2000 characters.'),
  v.regex(/^https?:\/\/[^\s/?#]+[^\s]*$/i, 'An address starting with http:// or https://, e.g. https://hooks.example.com/grav.'),
);

/** `['*']` (every event) or a choice of the events; never empty. */
export const WebhookEvents = v.pipe(
  v.array(v.picklist(['*', ...WEBHOOK_EVENTS], 'Not an event the sites know.')),
  v.minLength(1, 'Choose at least one event, or every event.'),
  v.maxLength(WEBHOOK_EVENTS.length + 1),
  v.check((xs) => new Set(xs).size === xs.length, 'An event is chosen twice.'),
);

const Secret = v.pipe(v.string(), v.minLength(8, 'At least 8 characters (or leave it empty for one the site makes).'), v.maxLength(500, 'At most 500 characters.'), v.regex(/^\S+$/, 'No spaces in a secret.'));

export const WebhookCreate = v.strictObject({
  siteId: SiteId,
  url: WebhookUrl,
  events: WebhookEvents,
  /** The secret to sign with; absent: the site makes one (the real service always does). */
  secret: v.optional(Secret),
  enabled: v.optional(v.boolean()),
});

export const WebhookChanges = v.pipe(
  v.strictObject({
    url: v.optional(WebhookUrl),
    events: v.optional(WebhookEvents),
    secret: v.optional(Secret),
    enabled: v.optional(v.boolean()),
  }),
  v.check((c) => Object.values(c).some((x) => x !== undefined), 'Nothing was changed.'),
);

export const webhooksChannels = {
  /** The site's hooks (secrets redacted as the site sends them), kept as a copy for offline reading. */
  'webhooks.list': channel<{ hooks: Webhook[]; copiedAt: string | null }>()(v.strictObject({ siteId: SiteId })),
  /** One hook with its ETag (for an edit's If-Match). */
  'webhooks.get': channel<{ hook: Webhook; etag: string | null }>()(v.strictObject({ siteId: SiteId, id: HookId })),
  /** Makes a hook; the answer carries its full secret, once. */
  'webhooks.create': channel<WebhookCreated>()(WebhookCreate),
  /**
   * Changes a hook. With `etag` (from `webhooks.get`): refused as a conflict when the hook changed
   * on the site since (the outcome carries the site's hook to apply the edit on top of). Without:
   * sent as is (turning a hook on or off from the list).
   */
  'webhooks.update': channel<WebhookUpdate>()(v.strictObject({ siteId: SiteId, id: HookId, etag: v.nullable(v.pipe(v.string(), v.maxLength(200))), changes: WebhookChanges })),
  /** Removes a hook and, on the site, its delivery history. */
  'webhooks.delete': channel<{ id: string }>()(v.strictObject({ siteId: SiteId, id: HookId })),
  /** A hook's deliveries, newest first, paged. */
  'webhooks.deliveries': channel<WebhookDeliveryPage>()(
    v.strictObject({
      siteId: SiteId,
      id: HookId,
      page: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 1),
      perPage: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100, 'At most 100 a page.')), 50),
    }),
  ),
  /** Has the site send a test delivery now and answers it (a receiver's failure included). */
  'webhooks.test': channel<WebhookTest>()(v.strictObject({ siteId: SiteId, id: HookId })),
  /** Hooks, enabled hooks and failed deliveries of the last 24 hours (for the sites' overview). */
  'webhooks.health': channel<WebhookHealth>()(v.strictObject({ siteId: SiteId })),
};

export const webhooksEvents = {};
