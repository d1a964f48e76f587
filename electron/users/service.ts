/**
 * A CMS site's accounts: the list (paged by the site, with the extension points its plugins add),
 * one account, its changes and its API keys. Nothing here is queued: account changes are
 * security-relevant, so a change the site does not answer is refused with the reason. Account data
 * is personal: it is not kept in the database and never written to a log.
 */
import { AppError, goneAlready, isAppError, mayHaveArrived } from '../base/app-error';
import { timeOfDay, UncertainWrites } from '../base/uncertain';
import { cmsUsers } from '../api/cms/users';
import { PEOPLE_PER_SITE_MAX, USERS_PER_PAGE_MAX } from '../contract';
import type { ApiKeyMinted, ChannelParsed, CmsUserRead, PeopleAccount, PeopleReport, PeopleSite, RowActionResult, UserListExtensions, UserPage } from '../contract';
import { groupPeople, writesSomewhere } from './people';
import { siteCalls, type SiteCallDeps } from '../sites/calls';

export function usersService(deps: SiteCallDeps & { now?: () => number }) {
  const { t, read, sendNow } = siteCalls(deps);
  /**
   * Writes that are not safe to send twice (a plugin's row action, minting a key) whose answer was
   * lost, by site, account and what: when. The same write asked again within UNCERTAIN_MS is not
   * simply sent again (the site may have done it): a row action asks the person to check first; a
   * key is looked for and, found, revoked (its secret was never seen) before a new one is made.
   */
  const uncertain = new UncertainWrites<{ keysBefore?: ReadonlySet<string> }>(deps.now);

  return {
    list: (q: ChannelParsed<'users.list'>): Promise<UserPage> => cmsUsers.list(read(q.siteId), q),
    extensions: (siteId: string): Promise<UserListExtensions> => cmsUsers.extensions(read(siteId)),
    get: (siteId: string, username: string): Promise<CmsUserRead> => cmsUsers.get(read(siteId), username),

    async create(input: ChannelParsed<'users.create'>): Promise<CmsUserRead> {
      try {
        return await sendNow('The account was not made', () => cmsUsers.create(t(input.siteId), input.user));
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
        return await sendNow(`${input.username}'s account was not changed`, () => cmsUsers.update(t(input.siteId), input.username, input.changes, input.etag));
      } catch (err) {
        if (isAppError(err) && err.code === 'conflict') {
          throw new AppError({ code: 'conflict', message: `${input.username}'s account was changed on the site since you opened it. Reload it to see the site's values; your edits stay in the form until you do.` }, { cause: err });
        }
        throw err;
      }
    },

    async remove(siteId: string, username: string): Promise<{ username: string }> {
      await sendNow(`${username}'s account was not deleted`, () => cmsUsers.remove(t(siteId), username).catch(goneAlready));
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

    form: (siteId: string) => cmsUsers.form(read(siteId)),

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
            const accounts: PeopleAccount[] = [];
            let more = true;
            for (let page = 1; more && accounts.length < PEOPLE_PER_SITE_MAX; page++) {
              const got = await cmsUsers.list(transport, { page, perPage: USERS_PER_PAGE_MAX });
              for (const u of got.items) {
                const { writes, known } = writesSomewhere(u.access, u.groups, groups);
                accounts.push({ siteId, username: u.username, email: u.email, fullname: u.fullname, state: u.state, groups: u.groups, twofaEnabled: u.twofaEnabled, writes, writesKnown: known });
              }
              more = got.more && got.items.length > 0;
            }
            return { site: { siteId, count: accounts.length, truncated: more, error: null, groupsKnown: groups !== null }, accounts: accounts.slice(0, PEOPLE_PER_SITE_MAX) };
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
      return sendNow(`${input.username}'s avatar was not changed`, () => cmsUsers.uploadAvatar(t(input.siteId), input.username, { name: input.filename, type: input.type, bytes }));
    },

    removeAvatar: (siteId: string, username: string): Promise<CmsUserRead> => sendNow(`${username}'s avatar was not removed`, () => cmsUsers.removeAvatar(t(siteId), username)),

    twofaSetup: (siteId: string, username: string) => sendNow(`No new 2FA secret was made for ${username}`, () => cmsUsers.twofaSetup(t(siteId), username)),

    twofaEnable: (siteId: string, username: string, code: string) =>
      sendNow(`2FA was not turned on for ${username}`, () => cmsUsers.twofaEnable(t(siteId), username, code)).catch(wrongCode),

    twofaDisable: (siteId: string, username: string, code?: string) =>
      sendNow(`2FA was not turned off for ${username}`, () => cmsUsers.twofaDisable(t(siteId), username, code)).catch(code === undefined ? rethrow : wrongCode),

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
