/**
 * Store sites (document 3, and the real Swagger Petstore v3 where it differs): sign-in, pets,
 * inventory, orders and users. Every call goes through one place (`remote`) that refuses locally
 * while the store asked to wait (429), reads the rate-limit budget from every answer, and turns
 * the store's errors into sentences about this site. Pets and the inventory are kept in SQLite as
 * read, so they can be read (marked `cachedAt`) when the store cannot be reached.
 * What holds on both kinds of store: the pets and orders created here carry ids Sitedesk chose
 * (ids.ts), and a create whose answer was lost goes again with the same id, looked up first
 * (createOnce); an edit reads the record first and sends it back whole; the store's id rules are
 * explained when it refuses an id, not enforced here; a delete of something already gone is no
 * error.
 */
import {
  ORDER_ID_RULES,
  PET_STATUSES,
  type Inventory,
  type NewStoreUser,
  type Order,
  type OrderPlace,
  type Pet,
  type PetCreate,
  type PetList,
  type PetListQuery,
  type PetUpdate,
  type PetUpload,
  type RateBudget,
  type StoreSessionInfo,
  type StoreUser,
  type UnreadableEntry,
  type UserChanges,
} from '../contract/store';
import { createHash } from 'node:crypto';
import type { Site } from '../contract';
import { AppError, isAppError, isUnreachable, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import { throttledProgress, type UploadProgress } from '../base/upload-progress';
import type { FetchLike } from '../api/http';
import { Transport } from '../api/transport';
import { storePets, updateBody } from '../api/store/pets';
import { storeOrders } from '../api/store/orders';
import { storeUsers, updateBody as updateUserBody } from '../api/store/users';
import type { SitesRepo } from '../db/repos/sites';
import type { StoreRepo } from '../db/repos/store';
import type { SecretStore } from '../secrets/secret-store';
import { BudgetTracker } from './budget';
import { IdMaker } from './ids';
import type { ApiKeys } from '../sessions/api-keys';
import type { SiteRows } from '../sessions/site-rows';
import { StoreSession, storeSessionAccount } from '../sessions/store-session';

export interface StoreDeps {
  sites: SitesRepo;
  /** The Host's site rows and API keys (core/host.ts forgets them at every edit and removal). */
  rows: SiteRows;
  apiKeys: ApiKeys;
  repo: StoreRepo;
  secrets: SecretStore;
  fetch: FetchLike;
  /** the `store.session` event */
  session: (info: StoreSessionInfo) => void;
  /** the `store.budget` event */
  budget: (b: RateBudget) => void;
  /** the `store.progress` event */
  progress: (p: UploadProgress) => void;
  /** session expiry and Retry-After are judged by this clock (tests move it) */
  now?: () => number;
  /** the ids of new pets and orders (default: time and chance, see ids.ts) */
  newId?: () => number;
  /** waits between retries of idempotent calls (the transport's default when absent) */
  retryDelaysMs?: number[];
}

interface Live {
  session: StoreSession;
  budget: BudgetTracker;
}

const PLAN_NAMES: Record<string, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise' };

const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;

/** The same error with the store's field names moved to where the channel's input has them (none: kept as it is). */
const renamed =
  (rename: (field: string) => string) =>
  (err: AppError): AppError | undefined => {
    if (!err.info.fields) return undefined;
    const fields = Object.fromEntries(Object.entries(err.info.fields).map(([k, m]) => [rename(k), m]));
    return new AppError({ ...err.info, fields }, { cause: err });
  };

export function storeService(deps: StoreDeps) {
  const now = deps.now ?? Date.now;
  const ids = new IdMaker();
  const newId = deps.newId ?? (() => ids.next());
  /**
   * Creates whose answer never came, by site and what was sent: the id they went with. The same
   * create asked again (the person's retry) is looked up by that id first and, found, answered
   * from the store without a second POST; not found, it goes again with the same id. So a lost
   * answer never makes a second pet or order (the outbox's rule for pages, sync/push.ts).
   */
  const uncertain = new UncertainWrites<number>(now);
  /** Image uploads whose answer never came, by site, pet and bytes: how many photos the pet had before. */
  const uncertainUploads = new UncertainWrites<number>(now);
  async function createOnce<T>(siteId: string, what: unknown, lookup: (t: Transport, id: number) => Promise<T>, create: (id: number) => Promise<T>, again = false): Promise<T> {
    const key = `${siteId}\n${JSON.stringify(what)}`;
    const earlier = uncertain.get(key);
    const id = earlier?.value ?? newId();
    if (earlier) {
      // found: the lost answer's create is the one; not there: it goes again with the same id;
      // a store that cannot look that id up (document 3 finds orders 1 to 10 only) cannot tell
      let unknowable = false;
      const found = await remote(siteId, (t) => lookup(t, id)).catch((err: unknown) => {
        if (isAppError(err) && err.code === 'not_found') return null;
        if (isAppError(err) && err.code === 'invalid_input') {
          unknowable = true;
          return null;
        }
        throw err;
      });
      if (found !== null) {
        uncertain.forget(key);
        return found;
      }
      if (unknowable && !again) {
        throw new AppError({
          code: 'conflict',
          message: `The store may already have this: its answer to the same request at ${timeOfDay(earlier.at)} was lost, and it cannot look that one up to tell. Check the store; send it again only if it is not there.`,
        });
      }
    }
    try {
      const made = await create(id);
      uncertain.forget(key);
      return made;
    } catch (err) {
      if (mayHaveArrived(err)) uncertain.remember(key, id);
      throw err;
    }
  }
  const iso = () => new Date(now()).toISOString();
  const live = new Map<string, Live>();
  const { rows, apiKeys } = deps;

  function get(siteId: string): Live & { site: Site } {
    const site = rows.ofKind(siteId, 'store', 'store actions do not apply to it.');
    let l = live.get(siteId);
    if (!l) {
      // the getter goes through the row cache, which an edit empties, so an edited address or key is used at once
      l = {
        session: new StoreSession({ site: () => rows.get(siteId), secrets: deps.secrets, apiKeys, repo: deps.repo, emit: deps.session, now }),
        budget: new BudgetTracker(siteId, now, deps.budget),
      };
      live.set(siteId, l);
    }
    return { ...l, site };
  }

  /** Calls with this site's credentials; every answer's rate-limit headers reach the budget. */
  function transport(l: Live, site: Site): Transport {
    const observed: FetchLike = async (input, init) => {
      const res = await deps.fetch(input, init);
      l.budget.observe(res.status, res.headers);
      return res;
    };
    // 429s reach the caller at once: the renderer counts down and retries, the Host never waits and resends
    return new Transport({ baseUrl: site.baseUrl, fetch: observed, credentials: l.session, secrets: () => l.session.held(), maxAutoWaitS: 0, ...(deps.retryDelaysMs ? { retryDelaysMs: deps.retryDelaysMs } : {}) });
  }

  /** A 429, said about this site: what it is limiting, the plan when known, and when to try again. */
  function slowDown(l: Live, site: Site, err: AppError, what: 'requests' | 'logins' = 'requests'): AppError {
    const plan = what === 'requests' ? l.budget.current()?.plan : undefined;
    const retryAfter = err.info.retryAfter ?? 60;
    const which = plan ? ` (${PLAN_NAMES[plan] ?? plan} plan)` : '';
    return new AppError({ ...err.info, retryAfter, message: `${site.name} is rate-limiting ${what}${which}. Try again in ${retryAfter} s.` }, { cause: err });
  }

  /**
   * One call to the store. `explain` may put a store error in this site's words (it returns
   * undefined to keep the error as it is).
   */
  async function remote<T>(siteId: string, fn: (t: Transport, l: Live) => Promise<T>, explain?: (err: AppError, site: Site) => AppError | undefined): Promise<T> {
    const l = get(siteId);
    l.budget.guard(l.site.name);
    try {
      const result = await fn(transport(l, l.site), l);
      l.session.succeeded();
      return result;
    } catch (err) {
      if (!isAppError(err)) throw err;
      if (err.code === 'rate_limited') throw slowDown(l, l.site, err);
      // the store's own words for a 401 ("Unauthorized") name neither the store nor what to do
      if (err.code === 'unauthorized' && err.info.status === 401) {
        const reason = l.session.info().reason ?? `${l.site.name} did not accept Sitedesk's credentials (it says: ${err.message.replace(/\.$/, '')}).`;
        throw new AppError({ ...err.info, message: reason }, { cause: err });
      }
      throw explain?.(err, l.site) ?? err;
    }
  }

  const noPet = (petId: number) => (err: AppError, site: Site) => {
    if (err.code !== 'not_found') return undefined;
    deps.repo.removePet(site.id, petId);
    return new AppError({ ...err.info, message: `There is no pet ${petId} in ${site.name} (it may have been deleted).` });
  };

  const noUser = (username: string) => (err: AppError, site: Site) =>
    err.code === 'not_found' ? new AppError({ ...err.info, message: `There is no user ${username} in ${site.name}.` }) : undefined;

  /** A 400 to an order id: the store's reason, and the rules an id must follow for this call. */
  const orderIdRefused = (orderId: number, rules: string) => (err: AppError, site: Site) =>
    err.info.status === 400 ? new AppError({ ...err.info, message: `${site.name} refused order id ${orderId}: ${err.message.replace(/\.$/, '')}. ${rules}`, fields: { orderId: rules } }) : undefined;

  /** The store names pet fields as it takes them; the channel's tags are plain names. */
  const petField = (f: string) => f.replace(/^tags\.(\d+)\.name$/, 'tags.$1');

  /** A store's 404 to a delete: the thing is gone either way, which is what the person wanted. */
  async function removing(siteId: string, fn: (t: Transport) => Promise<void>, explain?: (err: AppError, site: Site) => AppError | undefined): Promise<{ alreadyGone: boolean }> {
    try {
      await remote(siteId, fn, explain);
      return { alreadyGone: false };
    } catch (err) {
      if (isAppError(err) && err.code === 'not_found' && err.info.status === 404) return { alreadyGone: true };
      throw err;
    }
  }

  return {
    // ── sign-in ──────────────────────────────────────────────────────────────────────────────

    sessions: (): StoreSessionInfo[] => deps.sites.list().filter((s) => s.kind === 'store').map((s) => get(s.id).session.info()),
    session: (siteId: string): StoreSessionInfo => get(siteId).session.info(),

    async login(siteId: string, username: string, password: string): Promise<StoreSessionInfo> {
      const l = get(siteId);
      const { session, site, budget } = l;
      budget.guard(site.name);
      try {
        return await session.login(new Transport({ baseUrl: site.baseUrl, fetch: deps.fetch, secrets: () => session.held(), authRoutes: true, maxAutoWaitS: 0 }), username, password);
      } catch (err) {
        if (isAppError(err) && err.code === 'rate_limited') throw slowDown(l, site, err, 'logins');
        // the document's 400 for a login is "invalid username/password supplied"
        if (isAppError(err) && err.code === 'invalid_input' && err.info.status === 400) {
          throw new AppError({ ...err.info, code: 'unauthorized', message: 'That user name and password were not accepted.', fields: { password: 'Check the user name and password.' } });
        }
        throw err;
      }
    },

    async logout(siteId: string): Promise<StoreSessionInfo & { revoked: boolean }> {
      const l = get(siteId);
      const { info, revoked } = await l.session.logout(transport(l, l.site));
      return { ...info, revoked };
    },

    budget: (siteId: string): RateBudget | null => get(siteId).budget.current(),

    // ── pets ─────────────────────────────────────────────────────────────────────────────────

    async pets(q: PetListQuery): Promise<PetList> {
      const statuses = q.statuses ?? PET_STATUSES;
      try {
        if (q.tags?.length) {
          const tagged = await remote(q.siteId, (t) => storePets.findByTags(t, q.tags!));
          deps.repo.putPets(q.siteId, tagged.pets, undefined, iso());
          // the store filters by tags or by status, not both: statuses are applied here
          const pets = q.statuses ? tagged.pets.filter((p) => statuses.includes(p.status as never)) : tagged.pets;
          return { pets: pets.sort(byId), unreadable: tagged.unreadable };
        }
        const found = await remote(q.siteId, (t) => storePets.findByStatus(t, statuses));
        deps.repo.putPets(q.siteId, found.pets, { statuses }, iso());
        return { pets: found.pets.sort(byId), unreadable: found.unreadable };
      } catch (err) {
        if (isUnreachable(err)) {
          const copy = deps.repo.pets(q.siteId, { ...(q.statuses ? { statuses: q.statuses } : {}), ...(q.tags ? { tags: q.tags } : {}) });
          if (copy.fetchedAt) return { pets: copy.pets, unreadable: [], cachedAt: copy.fetchedAt };
        }
        throw err;
      }
    },

    async pet(siteId: string, petId: number): Promise<Pet> {
      try {
        const pet = await remote(siteId, (t) => storePets.get(t, petId), noPet(petId));
        deps.repo.putPet(siteId, pet, iso());
        return pet;
      } catch (err) {
        const copy = isUnreachable(err) ? deps.repo.pet(siteId, petId) : undefined;
        if (copy) return { ...copy.pet, cachedAt: copy.fetchedAt };
        throw err;
      }
    },

    /** The pet goes out with an id chosen here: a store may make none up (Petstore does not). */
    async createPet(p: PetCreate): Promise<Pet> {
      const { siteId, ...fields } = p;
      const pet = await createOnce(siteId, ['pet', fields], storePets.get, (id) => remote(siteId, (t) => storePets.create(t, { ...fields, id }), renamed(petField)));
      deps.repo.putPet(siteId, pet, iso());
      return pet;
    },

    /** The pet is read first and sent back whole with the person's version on top (a PUT replaces it all). */
    async updatePet(p: PetUpdate): Promise<Pet> {
      const { siteId, ...edit } = p;
      const pet = await remote(
        siteId,
        async (t) => storePets.update(t, { ...updateBody(await storePets.getStored(t, p.id), edit), id: p.id }),
        (err, site) => noPet(p.id)(err, site) ?? renamed(petField)(err),
      );
      deps.repo.putPet(siteId, pet, iso());
      return pet;
    },

    async deletePet(siteId: string, petId: number): Promise<{ petId: number; alreadyGone: boolean }> {
      const { alreadyGone } = await removing(siteId, (t) => storePets.remove(t, petId));
      deps.repo.removePet(siteId, petId);
      return { petId, alreadyGone };
    },

    async uploadImage(q: PetUpload): Promise<{ pet: Pet; message: string }> {
      const bytes = Buffer.from(q.data, 'base64');
      if (bytes.length === 0) throw AppError.fields({ data: 'The file is empty.' }, 'The file is empty.');
      // an upload whose answer was lost: the pet has a photo more than it had before it, so it
      // arrived and is not sent twice (a store names the photo itself, so the count is the sign)
      const key = `${q.siteId}\n${q.petId}\n${createHash('sha256').update(bytes).digest('hex')}`;
      const earlier = uncertainUploads.get(key);
      const photos = (await remote(q.siteId, (t) => storePets.get(t, q.petId), noPet(q.petId))).photoUrls.length;
      if (earlier && photos > earlier.value) {
        uncertainUploads.forget(key);
        return { pet: await this.pet(q.siteId, q.petId), message: 'The image was uploaded (the store’s first answer was lost).' };
      }
      let message: string;
      try {
        ({ message } = await remote(
          q.siteId,
          (t) =>
            storePets.uploadImage(t, q.petId, bytes, {
              ...(q.metadata ? { metadata: q.metadata } : {}),
              onProgress: throttledProgress(q.uploadId, deps.progress),
            }),
          noPet(q.petId),
        ));
      } catch (err) {
        if (mayHaveArrived(err)) uncertainUploads.remember(key, photos);
        throw err;
      }
      uncertainUploads.forget(key);
      const pet = await this.pet(q.siteId, q.petId);
      return { pet, message };
    },

    // ── inventory ────────────────────────────────────────────────────────────────────────────

    async inventory(siteId: string): Promise<Inventory> {
      const total = (c: Record<string, number>) => Object.values(c).reduce((a, b) => a + b, 0);
      try {
        const counts = await remote(siteId, (t) => storeOrders.inventory(t));
        const fetchedAt = iso();
        deps.repo.putInventory(siteId, counts, fetchedAt);
        return { counts, total: total(counts), fetchedAt };
      } catch (err) {
        const copy = isUnreachable(err) ? deps.repo.inventory(siteId) : undefined;
        if (copy) return { counts: copy.counts, total: total(copy.counts), fetchedAt: copy.fetchedAt, cachedAt: copy.fetchedAt };
        throw err;
      }
    },

    // ── orders ───────────────────────────────────────────────────────────────────────────────

    /**
     * The order goes out whole: an id chosen here (Petstore would file it as order 0, over the last
     * one), the status (Petstore's inventory breaks on an order without one) and `complete`.
     */
    async placeOrder(o: OrderPlace): Promise<Order> {
      const { siteId, again, ...fields } = o;
      const body = { ...fields, status: fields.status ?? 'placed', complete: fields.complete ?? false };
      return createOnce(siteId, ['order', body], storeOrders.get, (id) => remote(siteId, (t) => storeOrders.place(t, { ...body, id })), again === true);
    },

    order(siteId: string, orderId: number): Promise<Order> {
      return remote(
        siteId,
        (t) => storeOrders.get(t, orderId),
        (err, site) =>
          err.code === 'not_found'
            ? new AppError({ ...err.info, message: `There is no order ${orderId} in ${site.name} (it may have been deleted).` })
            : orderIdRefused(orderId, ORDER_ID_RULES.get)(err, site),
      );
    },

    async deleteOrder(siteId: string, orderId: number): Promise<{ orderId: number; alreadyGone: boolean }> {
      const { alreadyGone } = await removing(siteId, (t) => storeOrders.remove(t, orderId), orderIdRefused(orderId, ORDER_ID_RULES.delete));
      return { orderId, alreadyGone };
    },

    // ── users ────────────────────────────────────────────────────────────────────────────────

    createUser(siteId: string, user: NewStoreUser): Promise<StoreUser> {
      return remote(siteId, (t) => storeUsers.create(t, user), renamed((f) => `user.${f}`));
    },

    /**
     * All or none on a store that follows the document: it refuses the whole list when one user is
     * wrong, naming it (`users.2.email`). The answer is read user by user.
     */
    createUsers(siteId: string, users: NewStoreUser[]): Promise<{ users: StoreUser[]; unreadable: UnreadableEntry[] }> {
      return remote(siteId, (t) => storeUsers.createWithList(t, users), renamed((f) => `users.${f}`));
    },

    user(siteId: string, username: string): Promise<StoreUser> {
      return remote(siteId, (t) => storeUsers.get(t, username), noUser(username));
    },

    /**
     * Reads the account, applies the person's changes and saves it whole with its username: a store
     * may replace the account with what it is sent (the real Petstore does, and a body without
     * username breaks its user list), so a partial record is never sent.
     */
    async updateUser(siteId: string, username: string, changes: UserChanges): Promise<StoreUser> {
      let stored = username;
      const updated = await remote(
        siteId,
        async (t) => {
          const record = await storeUsers.getStored(t, username);
          stored = record.username;
          return storeUsers.update(t, updateUserBody(record, changes));
        },
        (err, site) => noUser(username)(err, site) ?? renamed((f) => `changes.${f}`)(err),
      );
      // a PUT may answer without the user: read it back
      return updated ?? this.user(siteId, stored);
    },

    async deleteUser(siteId: string, username: string): Promise<{ username: string; alreadyGone: boolean }> {
      const { alreadyGone } = await removing(siteId, (t) => storeUsers.remove(t, username));
      const { session } = get(siteId);
      // the store ends a deleted account's sessions; this one was among them
      if (session.loggedInAs()?.toLowerCase() === username.toLowerCase()) await session.reset();
      return { username, alreadyGone };
    },

    // ── the site itself ──────────────────────────────────────────────────────────────────────

    /** After an edit: a new address, kind or sign-in setting means the login belongs to something else. */
    async siteChanged(before: Site, after: Site): Promise<void> {
      if (before.kind !== 'store' && after.kind !== 'store') return;
      const l = live.get(after.id);
      if (before.baseUrl !== after.baseUrl || before.kind !== after.kind || before.authMode !== after.authMode) {
        if (l) {
          await l.session.reset();
          l.budget.reset();
        } else {
          deps.repo.removeSession(after.id);
          await deps.secrets.delete(storeSessionAccount(after.id)).catch(() => {});
        }
      } else get(after.id).session.succeeded(); // a refused key may have been replaced: try it again
      if (after.kind !== 'store') live.delete(after.id);
    },

    /** The site is being removed: its secrets go by prefix, its rows by cascade. */
    dropped(siteId: string): void {
      live.delete(siteId);
    },
  };
}

export type StoreService = ReturnType<typeof storeService>;
