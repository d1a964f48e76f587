/**
 * Store sites (document 3: pets, orders, users, inventory; the real Swagger Petstore v3 where it
 * differs): the app's types, the input schemas and the `store.*` channels and events, spread into
 * the contract by index.ts. Rules the renderer may rely on:
 * - Sign-in follows the site's sign-in setting: an API key (stored with the site) or a user login
 *   (`store.login`); either way the secret stays in the Host's keychain.
 * - Reads of pets and the inventory fall back to Sitedesk's copy when the store cannot be reached;
 *   such answers carry `cachedAt` (ISO), the time of the copy.
 * - Lists are read entry by entry: an entry the store sent malformed comes in `unreadable` with
 *   what is wrong with it, and the rest of the list is there as usual.
 * - Sitedesk chooses the ids of the pets and orders it creates (a store may make none up).
 * - A delete of something the store no longer has succeeds with `alreadyGone: true` when the store
 *   said so (404); a store that answers 200 either way cannot tell, and then it is false.
 * - A 429 answers `rate_limited` with `retryAfter` seconds; until then the Host refuses calls to
 *   that store locally (same error, no request), so the renderer counts down and retries once.
 * - `store.budget` events report what the store says is left of its rate limits, or (`reported:
 *   false`) that it answers without saying anything about limits.
 */
import * as v from 'valibot';
import { channel, event } from './define';
import { SiteId } from './sites';
import { pathName } from './names';
import { UploadType } from './pages';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export const ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface PetCategory {
  id: number | null;
  name: string;
}

export interface PetTag {
  id: number | null;
  name: string;
}

export interface Pet {
  id: number;
  name: string;
  category: PetCategory | null;
  photoUrls: string[];
  tags: PetTag[];
  /** one of PET_STATUSES on a store that keeps to the document; shown as sent otherwise */
  status: string | null;
  /** Set when the store could not be reached and this is Sitedesk's copy from that time (ISO). */
  cachedAt?: string;
}

/** An entry of a store's list that Sitedesk could not read (it is kept out of the list proper). */
export interface UnreadableEntry {
  /** its id, when it has one Sitedesk can use (to delete it); else null */
  id: number | null;
  /** what it calls itself (a name, a username), when it says; else null */
  label: string | null;
  /** what is wrong with it, in words: `name is missing` */
  problem: string;
}

export interface PetList {
  pets: Pet[];
  /** entries the store sent that are not pets Sitedesk can read (empty for Sitedesk's copy) */
  unreadable: UnreadableEntry[];
  /** Set when the list comes from Sitedesk's copy (the store could not be reached): the oldest copy's time. */
  cachedAt?: string;
}

export interface Inventory {
  /**
   * status → number, as the store counts them (statuses beyond the known ones are kept): pets per
   * pet status in document 3; the real Swagger Petstore adds up ORDER quantities per ORDER status
   */
  counts: Record<string, number>;
  total: number;
  /** when the store said so (ISO) */
  fetchedAt: string;
  /** Set when the store could not be reached (the copy is from fetchedAt). */
  cachedAt?: string;
}

export interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate: string | null;
  status: string | null;
  complete: boolean;
}

/** A store account; the password is never part of it. */
export interface StoreUser {
  id: number | null;
  username: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  userStatus: number | null;
}

export interface RateWindow {
  limit: number;
  remaining: number;
  /** when the window starts afresh (ISO), when the store says */
  resetAt: string | null;
}

/** What the store says is left of the current plan's budget; null windows were not reported. */
export interface RateBudget {
  siteId: string;
  /** false: the store has answered, but said nothing about limits (no plan, no windows); nothing to show */
  reported: boolean;
  /** as the store names it: free, pro, enterprise */
  plan: string | null;
  /** the store named a plan and reported no budget: no limit */
  unlimited: boolean;
  minute: RateWindow | null;
  day: RateWindow | null;
  /** after a 429: no call leaves for this store before this time (ISO) */
  blockedUntil: string | null;
  updatedAt: string;
}

export type StoreSessionState = 'signed_out' | 'signed_in' | 'expired';

export interface StoreSessionInfo {
  siteId: string;
  state: StoreSessionState;
  /** the site's API key, or a user login's session token */
  via: 'apikey' | 'password' | null;
  /** the logged-in user (user login only) */
  username: string | null;
  /** when the store says the login session ends (ISO, from X-Expires-After); null when it did not say, or not readably */
  expiresAt: string | null;
  /** calls per hour the store says the login allows (X-Rate-Limit); null when not said or unlimited */
  rateLimitPerHour: number | null;
  /** why the session ended (expired), for the sign-in prompt */
  reason?: string;
}

// ── inputs ───────────────────────────────────────────────────────────────────────────────────

const trimmed = (min: number, max: number, empty: string) =>
  v.pipe(v.string(), v.trim(), v.minLength(min, empty), v.maxLength(max, `At most ${max} characters.`));

export const PetId = v.pipe(
  v.number('A pet id is a number.'),
  v.integer('A pet id is a whole number.'),
  v.minValue(1, 'A pet id is 1 or more.'),
  v.maxValue(Number.MAX_SAFE_INTEGER, 'That pet id is too large.'),
);

/** A photo address typed by the person: a full URL. */
const PhotoUrl = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'A photo URL cannot be empty.'),
  v.maxLength(2048),
  v.url('Enter a full address, such as https://example.com/rex.jpg.'),
);

/**
 * A photo entry the store already had and the person left alone, sent back exactly as it was even
 * when it is no address (the real Petstore's uploads store a server-local path such as
 * /tmp/inflector123.tmp; its examples store "string"): never a reason to refuse the save.
 */
export const KeptPhoto = v.strictObject({ kept: v.pipe(v.string(), v.maxLength(2048)) });
export type KeptPhoto = v.InferOutput<typeof KeptPhoto>;

const PetFields = {
  name: trimmed(1, 100, 'Give the pet a name.'),
  category: v.optional(
    v.nullable(
      v.strictObject({
        id: v.optional(v.nullable(v.pipe(v.number(), v.integer('A category id is a whole number.'), v.minValue(0)))),
        name: trimmed(1, 100, 'Give the category a name.'),
      }),
    ),
  ),
  /** Addresses of the pet's photos, in order (uploads add theirs). */
  photoUrls: v.pipe(v.array(PhotoUrl), v.maxLength(50, 'At most 50 photos.')),
  /** Tag names; the store keeps one id per name. */
  tags: v.optional(v.pipe(v.array(trimmed(1, 50, 'A tag cannot be empty.')), v.maxLength(20, 'At most 20 tags.')), []),
  status: v.optional(v.picklist(PET_STATUSES, 'Choose available, pending or sold.')),
};

export const PetCreate = v.strictObject({ siteId: SiteId, ...PetFields });
/**
 * The whole pet as the person wants it. The Host reads the pet first and keeps what the form does
 * not show (tag and category ids, a status outside the three), so nothing else changes.
 */
export const PetUpdate = v.strictObject({
  siteId: SiteId,
  id: PetId,
  ...PetFields,
  /** typed addresses, or entries the store had, kept as they were */
  photoUrls: v.pipe(v.array(v.union([PhotoUrl, KeptPhoto], 'Enter a full address, such as https://example.com/rex.jpg.')), v.maxLength(50, 'At most 50 photos.')),
});
export const PetRef = v.strictObject({ siteId: SiteId, petId: PetId });

export const PetListQuery = v.strictObject({
  siteId: SiteId,
  /** default: all three; each at most once (the store is asked once per status) */
  statuses: v.optional(
    v.pipe(
      v.array(v.picklist(PET_STATUSES, 'Choose available, pending or sold.')),
      v.minLength(1, 'Choose at least one status.'),
      v.maxLength(PET_STATUSES.length, 'Choose each status at most once.'),
      v.check((s) => new Set(s).size === s.length, 'Choose each status at most once.'),
    ),
  ),
  /** pets carrying any of these tags (names, compared as the store compares them: document 3 ignores case, Petstore does not) */
  tags: v.optional(v.pipe(v.array(trimmed(1, 50, 'A tag cannot be empty.')), v.maxLength(20, 'At most 20 tags.'))),
});

/** The largest pet image sent (in one message: base64 of it stays under the bridge's 64 MiB). */
export const PET_IMAGE_MAX_BYTES = 32 * 1024 * 1024;

export const PetUpload = v.strictObject({
  siteId: SiteId,
  petId: PetId,
  /** Renderer-side id, echoed in `store.progress` events. */
  uploadId: v.pipe(v.string(), v.maxLength(64)),
  filename: v.pipe(v.string(), v.trim(), pathName('file name')),
  type: UploadType,
  /** The image's bytes, base64 (the bridge carries JSON), at most PET_IMAGE_MAX_BYTES. */
  data: v.pipe(v.string(), v.minLength(1, 'The file is empty.'), v.maxLength(Math.ceil(PET_IMAGE_MAX_BYTES / 3) * 4, 'An image is at most 32 MB.')),
  /** sent as the reference's `additionalMetadata` */
  metadata: v.optional(v.pipe(v.string(), v.maxLength(500))),
});

const Quantity = v.pipe(v.number('Enter the quantity as a number.'), v.integer('The quantity is a whole number.'), v.minValue(1, 'Order at least 1.'), v.maxValue(1000, 'At most 1000 per order.'));

export const OrderPlace = v.strictObject({
  siteId: SiteId,
  petId: PetId,
  quantity: Quantity,
  /** ISO 8601 date-time */
  shipDate: v.optional(v.pipe(v.string(), v.isoTimestamp('Enter the ship date as an ISO 8601 date-time, such as 2025-06-01T12:00:00Z.'))),
  status: v.optional(v.picklist(ORDER_STATUSES, 'Choose placed, approved or delivered.')),
  complete: v.optional(v.boolean()),
  /** Place it even though an earlier try's answer was lost and the store cannot say whether it has it (the person checked). */
  again: v.optional(v.boolean()),
});

/**
 * Document 3's id rules, said when a store refuses an id (its 400), never enforced here: the real
 * Petstore looks up and deletes any id, and the orders Sitedesk places have large ones.
 */
export const ORDER_ID_RULES = {
  get: 'A store that follows document 3 looks orders up by ids 1 to 10 only.',
  delete: 'A store that follows document 3 deletes orders by positive ids only.',
} as const;

const OrderId = v.pipe(
  v.number('Enter the order id as a number.'),
  v.integer('An order id is a whole number.'),
  v.safeInteger('That order id is too large.'),
);

export const OrderLookup = v.strictObject({ siteId: SiteId, orderId: OrderId });

export const OrderDelete = v.strictObject({ siteId: SiteId, orderId: OrderId });

/** Names under /user that are the store's own routes, not users (paths are case-sensitive there). */
export const STORE_ROUTE_NAMES: readonly string[] = ['login', 'logout', 'createWithList'];

/** A username as typed: the characters both stores' forms take. */
const UsernameText = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Enter the username.'),
  v.maxLength(64, 'At most 64 characters.'),
  v.regex(/^[A-Za-z0-9._-]+$/, 'Letters, digits, dots, hyphens and underscores only.'),
);

/**
 * A store username that addresses a user: it is a segment of the store's URL (`/user/{username}`),
 * so it never climbs (`.`, `..`: contract/names.ts), and the store's own routes under /user
 * (`login`, `logout`, `createWithList`) are refused: such a user could never be read, changed or deleted.
 */
export const StoreUsername = v.pipe(
  UsernameText,
  pathName('username', 64),
  v.check((name) => !STORE_ROUTE_NAMES.includes(name), 'That name is one of the store’s own addresses (login, logout, createWithList); choose another username.'),
);

const optionalText = (max: number) => v.optional(v.pipe(v.string(), v.trim(), v.maxLength(max, `At most ${max} characters.`)));
const Email = v.pipe(v.string(), v.trim(), v.email('Enter a valid email address.'), v.maxLength(254));
const Password = v.pipe(v.string(), v.minLength(1, 'Enter a password.'), v.maxLength(200, 'At most 200 characters.'));
const UserStatus = v.pipe(v.number('userStatus is a number.'), v.integer('userStatus is a whole number.'));

export const NewStoreUser = v.strictObject({
  username: StoreUsername,
  email: Email,
  password: Password,
  firstName: optionalText(100),
  lastName: optionalText(100),
  phone: optionalText(100),
  userStatus: v.optional(UserStatus),
});
export type NewStoreUser = v.InferOutput<typeof NewStoreUser>;

export const UserCreate = v.strictObject({ siteId: SiteId, user: NewStoreUser });
/** One list (pasted or from a CSV the renderer read); all are created or none. */
export const UserCreateList = v.strictObject({
  siteId: SiteId,
  users: v.pipe(v.array(NewStoreUser), v.minLength(1, 'The list holds no users.'), v.maxLength(1000, 'At most 1000 users at a time.')),
});
export const UserRef = v.strictObject({ siteId: SiteId, username: StoreUsername });

/**
 * The person's changes. The Host reads the account, applies them and saves it whole with its
 * username (a store may replace the account with what it is sent: the real Petstore does), so
 * fields not given stay as they are.
 */
export const UserChanges = v.pipe(
  v.strictObject({
    email: v.optional(Email),
    password: v.optional(Password),
    firstName: optionalText(100),
    lastName: optionalText(100),
    phone: optionalText(100),
    userStatus: v.optional(UserStatus),
  }),
  v.check((c) => Object.values(c).some((x) => x !== undefined), 'Nothing was changed.'),
);
export type UserChanges = v.InferOutput<typeof UserChanges>;

export const UserUpdate = v.strictObject({ siteId: SiteId, username: StoreUsername, changes: UserChanges });

export const StoreLogin = v.strictObject({
  siteId: SiteId,
  /** sent in the query, never in the path: any name the store takes */
  username: UsernameText,
  password: v.pipe(v.string(), v.minLength(1, 'Enter the password.'), v.maxLength(4096)),
});

export const StoreSite = v.strictObject({ siteId: SiteId });

export type PetListQuery = v.InferOutput<typeof PetListQuery>;
export type PetCreate = v.InferOutput<typeof PetCreate>;
export type PetUpdate = v.InferOutput<typeof PetUpdate>;
export type PetUpload = v.InferOutput<typeof PetUpload>;
export type OrderPlace = v.InferOutput<typeof OrderPlace>;

// ── channels and events ──────────────────────────────────────────────────────────────────────

export const storeChannels = {
  /** Sign-in state of every store site (for the rail) or of one. */
  'store.sessions': channel<StoreSessionInfo[]>()(v.optional(v.strictObject({}))),
  'store.session': channel<StoreSessionInfo>()(StoreSite),
  /** User login (sites set to password sign-in): the session token goes to the keychain. */
  'store.login': channel<StoreSessionInfo>()(StoreLogin),
  /** Ends the login session; `revoked: false` = forgotten here, but the store could not be told. */
  'store.logout': channel<StoreSessionInfo & { revoked: boolean }>()(StoreSite),
  /** The last rate-limit budget the store reported; null before any call or when it says nothing. */
  'store.budget': channel<{ budget: RateBudget | null }>()(StoreSite),

  'store.pets.list': channel<PetList>()(PetListQuery),
  'store.pets.get': channel<Pet>()(PetRef),
  'store.pets.create': channel<Pet>()(PetCreate),
  'store.pets.update': channel<Pet>()(PetUpdate),
  'store.pets.delete': channel<{ petId: number; alreadyGone: boolean }>()(PetRef),
  /** Progress arrives as `store.progress` events with the same uploadId; answers the pet as it is after the upload. */
  'store.pets.uploadImage': channel<{ pet: Pet; message: string }>()(PetUpload),

  'store.inventory': channel<Inventory>()(StoreSite),

  'store.orders.place': channel<Order>()(OrderPlace),
  'store.orders.get': channel<Order>()(OrderLookup),
  'store.orders.delete': channel<{ orderId: number; alreadyGone: boolean }>()(OrderDelete),

  'store.users.create': channel<StoreUser>()(UserCreate),
  /** `unreadable`: users the store answered with that Sitedesk cannot read (they were sent, and likely created) */
  'store.users.createList': channel<{ users: StoreUser[]; unreadable: UnreadableEntry[] }>()(UserCreateList),
  'store.users.get': channel<StoreUser>()(UserRef),
  'store.users.update': channel<StoreUser>()(UserUpdate),
  'store.users.delete': channel<{ username: string; alreadyGone: boolean }>()(UserRef),
};

export const storeEvents = {
  /** A store site's sign-in changed: logged in or out, expired, key refused. */
  'store.session': event<StoreSessionInfo>(),
  /** The store reported its rate-limit budget (after every call that said so, and after a 429). */
  'store.budget': event<RateBudget>(),
  /** Bytes of an image upload sent so far. */
  'store.progress': event<{ uploadId: string; sent: number; total: number }>(),
};
