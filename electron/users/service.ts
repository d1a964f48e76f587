/**
 * A CMS site's accounts: the list (paged by the site, with the extension points its plugins add),
 * one account, its changes and its API keys. Nothing here is queued: account changes are
 * security-relevant, so a change the site does not answer is refused with the reason. Account data
 * is personal: kept in the database only where the person chose an offline copy for the site
 * (accounts-copy.ts), removed with the account or the choice, and never written to a log.
 */
import { AppError, goneAlready, isAppError, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import { cmsUsers } from '../api/cms/users';
import { PEOPLE_PER_SITE_MAX, USERS_PER_PAGE_MAX } from '../contract';
import type { AccountForm, ApiKeyMinted, ChannelParsed, CmsUser, CmsUserRead, PeopleAccount, PeopleReport, PeopleSite, RowActionResult, UserListExtensions, UserPage, UsersOfflineState } from '../contract';
import type { Transport } from '../api/transport';
import type { SiteCacheRepo } from '../db/repos/site-cache';
import { accountsCopy, COPY_MAX, FORM_KEY } from './accounts-copy';
import { groupPeople, writesSomewhere } from './people';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

export function usersService(deps: SiteCallDeps & { siteCache: SiteCacheRepo; now?: () => number }) {
  const { t, read, once, sendNow, away, withCopy } = siteCalls(deps);
  const copy = accountsCopy(deps.siteCache, deps.now);
  /** Reads every account of the site (up to `max`), page by page; `more` when the site has further ones. */
  async function readAll(transport: Transport, max: number): Promise<{ users: CmsUser[]; more: boolean }> {
    const users: CmsUser[] = [];
    let more = true;
    for (let page = 1; more && users.length < max; page++) {
      const got = await cmsUsers.list(transport, { page, perPage: USERS_PER_PAGE_MAX });
      users.push(...got.items);
      more = got.more && got.items.length > 0;
    }
    return { users: users.slice(0, max), more };
  }
  /** The copy read again, in the background (a list read online found it old); a failure leaves the old one. */
  const refreshing = new Set<string>();
  function refreshCopy(siteId: string): Promise<void> {
    if (refreshing.has(siteId)) return Promise.resolve();
    refreshing.add(siteId);
    const transport = t(siteId).derive({ priority: 'background' });
    return readAll(transport, COPY_MAX)
      .then(async ({ users }) => {
        copy.replace(siteId, users);
        // the form too, so an account of the copy opens offline
        deps.siteCache.put(siteId, FORM_KEY, await cmsUsers.form(transport));
      })
      .catch(() => undefined)
      .finally(() => refreshing.delete(siteId));
  }
  /** A read the site did not answer, from the copy where the person keeps one. */
  const fromCopy = <T>(siteId: string, err: unknown, answer: () => T | null): T => {
    if (unreachable(err) && copy.keeps(siteId)) {
      const a = answer();
      if (a) return a;
    }
    throw err;
  };
  /** An account the site confirmed: in the copy too. */
  const confirmed = <R extends { user: CmsUser }>(siteId: string, r: R): R => {
    copy.put(siteId, r.user);
    return r;
  };
  const twofaConfirmed = (siteId: string, username: string, r: { twofaEnabled: boolean }) => {
    const kept = copy.get(siteId, username);
    if (kept) copy.put(siteId, { ...kept.user, twofaEnabled: r.twofaEnabled });
    return r;
  };
  /**
   * Writes that are not safe to send twice (a plugin's row action, minting a key) whose answer was
   * lost, by site, account and what: when. The same write asked again within UNCERTAIN_MS is not
   * simply sent again (the site may have done it): a row action asks the person to check first; a
   * key is looked for and, found, revoked (its secret was never seen) before a new one is made.
   */
  const uncertain = new UncertainWrites<{ keysBefore?: ReadonlySet<string> }>(deps.now);

  return {
    async list(q: ChannelParsed<'users.list'>): Promise<UserPage> {
      const kept = copy.keeps(q.siteId) && copy.state(q.siteId).copiedAt !== null;
      if (kept && away(q.siteId)) return copy.page(q.siteId, q)!;
      try {
        const page = await cmsUsers.list(kept ? once(q.siteId) : read(q.siteId), q);
        if (copy.keeps(q.siteId) && copy.stale(q.siteId)) void refreshCopy(q.siteId);
        return page;
      } catch (err) {
        return fromCopy(q.siteId, err, () => copy.page(q.siteId, q));
      }
    },
    extensions: (siteId: string): Promise<UserListExtensions> => cmsUsers.extensions(read(siteId)),
    async get(siteId: string, username: string): Promise<CmsUserRead> {
      const kept = copy.keeps(siteId) ? copy.get(siteId, username) : null;
      const fromKept = (c: { user: CmsUser; copiedAt: string } | null): CmsUserRead | null => (c ? { user: c.user, etag: null, copiedAt: c.copiedAt } : null);
      if (kept && away(siteId)) return fromKept(kept)!;
      try {
        return await cmsUsers.get(kept ? once(siteId) : read(siteId), username);
      } catch (err) {
        return fromCopy(siteId, err, () => fromKept(copy.get(siteId, username)));
      }
    },

    offline: (siteId: string): UsersOfflineState => copy.state(siteId),

    /** Turning it on reads the accounts now (the site away: at the next read); off removes the copy. */
    async setOffline(siteId: string, keep: boolean): Promise<UsersOfflineState> {
      deps.sessions.get(siteId); // a site that does not exist (or is not a CMS site) is said, not stored
      copy.setKeep(siteId, keep);
      if (keep) await refreshCopy(siteId);
      return copy.state(siteId);
    },

    async create(input: ChannelParsed<'users.create'>): Promise<CmsUserRead> {
      try {
        return confirmed(input.siteId, await sendNow('The account was not made', () => cmsUsers.create(t(input.siteId), input.user)));
      } catch (err) {
        if (isAppError(err) && err.code === 'conflict') {
          throw new AppError({ code: 'duplicate', message: `The site already has an account named ${input.user.username}.`, fields: { 'user.username': 'This username is taken on the site.' } }, { cause: err });
        }
        throw err;
      }
    },

    async update(input: ChannelParsed<'users.update'>): Promise<CmsUserRead> {
      if (Object.keys(input.changes).length === 0) throw new AppError({ code: 'invalid_input', message: 'Nothing was changed.' });
      try {
        return confirmed(input.siteId, await sendNow(`${input.username}'s account was not changed`, () => cmsUsers.update(t(input.siteId), input.username, input.changes, input.etag)));
      } catch (err) {
        if (isAppError(err) && err.code === 'conflict') {
          throw new AppError({ code: 'conflict', message: `${input.username}'s account was changed on the site since you opened it. Reload it to see the site's values; your edits stay in the form until you do.` }, { cause: err });
        }
        throw err;
      }
    },

    async remove(siteId: string, username: string): Promise<{ username: string }> {
      await sendNow(`${username}'s account was not deleted`, () => cmsUsers.remove(t(siteId), username).catch(goneAlready));
      copy.remove(siteId, username); // personal data: gone from this computer with the account
      return { username };
    },

    async rowAction(siteId: string, username: string, actionId: string, again = false): Promise<RowActionResult> {
      const key = `${siteId}\n${username}\n${actionId}`;
      const earlier = uncertain.get(key);
      if (earlier && !again) {
        throw new AppError({
          code: 'conflict',
          message: `The site may already have run this for ${username}: its answer to the run at ${timeOfDay(earlier.at)} was lost. Check the account; run it again only if it did not happen.`,
        });
      }
      try {
        const result = await sendNow(`The action was not run for ${username}`, () => cmsUsers.rowAction(t(siteId), username, actionId));
        uncertain.forget(key);
        return result;
      } catch (err) {
        if (mayHaveArrived(err)) uncertain.remember(key, {});
        throw err;
      }
    },

    apiKeys: (siteId: string, username: string) => cmsUsers.apiKeys(read(siteId), username),

    async createApiKey(input: ChannelParsed<'users.createApiKey'>): Promise<ApiKeyMinted> {
      const key = `${input.siteId}\n${input.username}\n${input.name}`;
      const earlier = uncertain.get(key)?.value;
      const listed = async () => (await cmsUsers.apiKeys(t(input.siteId), input.username)).filter((k) => k.name === input.name);
      const keysBefore = earlier?.keysBefore;
      if (keysBefore) {
        // a key the site made while its answer was lost: nobody saw its secret, so it goes
        await sendNow('No key was made', async () => {
          for (const k of await listed()) if (!keysBefore.has(k.id)) await cmsUsers.deleteApiKey(t(input.siteId), input.username, k.id);
        });
        uncertain.forget(key);
      }
      // the keys of that name there are now, so a key made by a lost answer can be told apart later
      // (not known: a lost answer later cannot be told apart, and no key of the person's is touched)
      const before = await listed().then((ks) => new Set(ks.map((k) => k.id)), () => undefined);
      try {
        return await sendNow('No key was made', () => cmsUsers.createApiKey(t(input.siteId), input.username, input));
      } catch (err) {
        if (mayHaveArrived(err) && before) uncertain.remember(key, { keysBefore: before });
        throw err;
      }
    },

    /** The blueprint, the permission tree and the groups: not personal, so kept as a copy for offline reading. */
    async form(siteId: string): Promise<AccountForm> {
      const { value, copiedAt } = await withCopy(siteId, deps.siteCache, FORM_KEY, (transport) => cmsUsers.form(transport));
      return copiedAt ? { ...value, copiedAt } : value;
    },

    /**
     * Every account of these sites, joined into people. Each site is read on its own (its accounts
     * page by page, its groups where it lists them): a site that cannot be read is said in its row
     * and the others are shown. Nothing of it is kept: it is personal data, read when asked.
     */
    async people(siteIds: readonly string[]): Promise<PeopleReport> {
      const perSite = await Promise.all(
        [...new Set(siteIds)].map(async (siteId): Promise<{ site: PeopleSite; accounts: PeopleAccount[] }> => {
          try {
            const transport = read(siteId);
            const groups = await cmsUsers.groups(transport).catch(() => null);
            const { users, more } = await readAll(transport, PEOPLE_PER_SITE_MAX);
            const accounts = users.map((u): PeopleAccount => {
              const { writes, known } = writesSomewhere(u.access, u.groups, groups);
              return { siteId, username: u.username, email: u.email, fullname: u.fullname, state: u.state, groups: u.groups, twofaEnabled: u.twofaEnabled, writes, writesKnown: known };
            });
            return { site: { siteId, count: accounts.length, truncated: more, error: null, groupsKnown: groups !== null }, accounts };
          } catch (err) {
            if (!isAppError(err)) throw err;
            return { site: { siteId, count: 0, truncated: false, error: err.message, groupsKnown: false }, accounts: [] };
          }
        }),
      );
      return { sites: perSite.map((x) => x.site), people: groupPeople(perSite.flatMap((x) => x.accounts)) };
    },

    uploadAvatar(input: ChannelParsed<'users.uploadAvatar'>): Promise<CmsUserRead> {
      const bytes = Buffer.from(input.data, 'base64');
      if (bytes.length === 0) throw new AppError({ code: 'invalid_input', message: 'The image is empty.', fields: { data: 'The image is empty.' } });
      return sendNow(`${input.username}'s avatar was not changed`, () => cmsUsers.uploadAvatar(t(input.siteId), input.username, { name: input.filename, type: input.type, bytes })).then((r) => confirmed(input.siteId, r));
    },

    removeAvatar: (siteId: string, username: string): Promise<CmsUserRead> =>
      sendNow(`${username}'s avatar was not removed`, () => cmsUsers.removeAvatar(t(siteId), username)).then((r) => confirmed(siteId, r)),

    twofaSetup: (siteId: string, username: string) => sendNow(`No new 2FA secret was made for ${username}`, () => cmsUsers.twofaSetup(t(siteId), username)),

    twofaEnable: (siteId: string, username: string, code: string) =>
      sendNow(`2FA was not turned on for ${username}`, () => cmsUsers.twofaEnable(t(siteId), username, code))
        .then((r) => twofaConfirmed(siteId, username, r))
        .catch(wrongCode),

    twofaDisable: (siteId: string, username: string, code?: string) =>
      sendNow(`2FA was not turned off for ${username}`, () => cmsUsers.twofaDisable(t(siteId), username, code))
        .then((r) => twofaConfirmed(siteId, username, r))
        .catch(code === undefined ? rethrow : wrongCode),

    async deleteApiKey(siteId: string, username: string, keyId: string): Promise<{ keyId: string }> {
      await sendNow('The key was not revoked', () => cmsUsers.deleteApiKey(t(siteId), username, keyId).catch(goneAlready));
      return { keyId };
    },
  };
}

const rethrow = (err: unknown): never => {
  throw err;
};

/** The site's "Invalid 2FA code." (400 or 422, with or without a field) said at the code's field. */
function wrongCode(err: unknown): never {
  if (isAppError(err) && err.code === 'invalid_input' && /secret/i.test(err.message)) {
    throw new AppError({ code: 'conflict', message: 'The site holds no new secret waiting for a code (it was replaced or removed meanwhile): start the set-up again.' }, { cause: err });
  }
  if (isAppError(err) && err.code === 'invalid_input') {
    const message = 'That code is not the one the authenticator shows now: enter the current six digits.';
    throw new AppError({ code: 'invalid_input', message, fields: { code: message } }, { cause: err });
  }
  throw err;
}

export type UsersService = ReturnType<typeof usersService>;
