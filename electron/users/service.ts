/**
 * A CMS site's accounts: the list (paged by the site, with the extension points its plugins add),
 * one account, its changes and its API keys. Nothing here is queued: account changes are
 * security-relevant, so a change the site does not answer is refused with the reason. Account data
 * is personal: it is not kept in the database and never written to a log.
 */
import { AppError, isAppError, mayHaveArrived, UNCERTAIN_MS } from '../base/app-error';
import { cmsUsers } from '../api/cms/users';
import type { ApiKeyMinted, ChannelParsed, CmsUserRead, RowActionResult, UserListExtensions, UserPage } from '../contract';
import { siteCalls, unreachable, type SiteCallDeps } from '../sites/calls';

/** The site did not answer a write: said so, and that nothing waits to be sent. */
function notSent(err: unknown, what: string): never {
  if (unreachable(err)) {
    throw new AppError({ ...err.info, message: `${err.message.replace(/\.$/, '')}. ${what} was not changed; nothing waits to be sent: try again once the site answers.` }, { cause: err });
  }
  throw err;
}

export function usersService(deps: SiteCallDeps & { now?: () => number }) {
  const { t, read } = siteCalls(deps);
  const now = deps.now ?? Date.now;
  /**
   * Writes that are not safe to send twice (a plugin's row action, minting a key) whose answer was
   * lost, by site, account and what: when. The same write asked again within UNCERTAIN_MS is not
   * simply sent again (the site may have done it): a row action asks the person to check first; a
   * key is looked for and, found, revoked (its secret was never seen) before a new one is made.
   */
  const uncertain = new Map<string, { at: number; keysBefore?: ReadonlySet<string> }>();
  const since = (key: string) => {
    const u = uncertain.get(key);
    if (u !== undefined && now() - u.at >= UNCERTAIN_MS) uncertain.delete(key);
    return uncertain.get(key);
  };
  const timeOf = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

  return {
    list: (q: ChannelParsed<'users.list'>): Promise<UserPage> => cmsUsers.list(read(q.siteId), q),
    extensions: (siteId: string): Promise<UserListExtensions> => cmsUsers.extensions(read(siteId)),
    get: (siteId: string, username: string): Promise<CmsUserRead> => cmsUsers.get(read(siteId), username),

    async create(input: ChannelParsed<'users.create'>): Promise<CmsUserRead> {
      try {
        return await cmsUsers.create(t(input.siteId), input.user);
      } catch (err) {
        if (isAppError(err) && err.code === 'conflict') {
          throw new AppError({ code: 'duplicate', message: `The site already has an account named ${input.user.username}.`, fields: { 'user.username': 'This username is taken on the site.' } }, { cause: err });
        }
        return notSent(err, 'The account');
      }
    },

    async update(input: ChannelParsed<'users.update'>): Promise<CmsUserRead> {
      if (Object.keys(input.changes).length === 0) throw new AppError({ code: 'invalid_input', message: 'Nothing was changed.' });
      try {
        return await cmsUsers.update(t(input.siteId), input.username, input.changes, input.etag);
      } catch (err) {
        if (isAppError(err) && (err.code === 'conflict' || (err.code === 'http' && err.info.status === 412))) {
          throw new AppError({ code: 'conflict', message: `${input.username}'s account was changed on the site since you opened it. Reload it to see the site's values; your edits stay in the form until you do.` }, { cause: err });
        }
        return notSent(err, `${input.username}'s account`);
      }
    },

    async remove(siteId: string, username: string): Promise<{ username: string }> {
      try {
        await cmsUsers.remove(t(siteId), username);
      } catch (err) {
        // gone already: what the person asked for is true
        if (isAppError(err) && err.code === 'not_found') return { username };
        return notSent(err, `${username}'s account`);
      }
      return { username };
    },

    async rowAction(siteId: string, username: string, actionId: string, again = false): Promise<RowActionResult> {
      const key = `${siteId}\n${username}\n${actionId}`;
      const earlier = since(key);
      if (earlier !== undefined && !again) {
        throw new AppError({
          code: 'conflict',
          message: `The site may already have run this for ${username}: its answer to the run at ${timeOf(earlier.at)} was lost. Check the account; run it again only if it did not happen.`,
        });
      }
      try {
        const result = await cmsUsers.rowAction(t(siteId), username, actionId);
        uncertain.delete(key);
        return result;
      } catch (err) {
        if (mayHaveArrived(err)) uncertain.set(key, { at: now() });
        return notSent(err, `${username}'s account`);
      }
    },

    apiKeys: (siteId: string, username: string) => cmsUsers.apiKeys(read(siteId), username),

    async createApiKey(input: ChannelParsed<'users.createApiKey'>): Promise<ApiKeyMinted> {
      const key = `${input.siteId}\n${input.username}\n${input.name}`;
      const earlier = since(key);
      const listed = async () => (await cmsUsers.apiKeys(t(input.siteId), input.username)).filter((k) => k.name === input.name);
      try {
        if (earlier?.keysBefore) {
          // a key the site made while its answer was lost: nobody saw its secret, so it goes
          for (const k of await listed()) if (!earlier.keysBefore.has(k.id)) await cmsUsers.deleteApiKey(t(input.siteId), input.username, k.id);
          uncertain.delete(key);
        }
      } catch (err) {
        return notSent(err, 'No key');
      }
      // the keys of that name there are now, so a key made by a lost answer can be told apart later
      // (not known: a lost answer later cannot be told apart, and no key of the person's is touched)
      const before = await listed().then((ks) => new Set(ks.map((k) => k.id)), () => undefined);
      try {
        return await cmsUsers.createApiKey(t(input.siteId), input.username, input);
      } catch (err) {
        if (mayHaveArrived(err) && before) uncertain.set(key, { at: now(), keysBefore: before });
        return notSent(err, 'No key');
      }
    },

    async deleteApiKey(siteId: string, username: string, keyId: string): Promise<{ keyId: string }> {
      try {
        await cmsUsers.deleteApiKey(t(siteId), username, keyId);
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') return { keyId };
        return notSent(err, 'The key');
      }
      return { keyId };
    },
  };
}

export type UsersService = ReturnType<typeof usersService>;
