/**
 * A CMS site's accounts: the list (paged by the site, with the extension points its plugins add),
 * one account, its changes and its API keys. Nothing here is queued: account changes are
 * security-relevant, so a change the site does not answer is refused with the reason. Account data
 * is personal: it is not kept in the database and never written to a log.
 */
import { AppError, isAppError } from '../base/app-error';
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

export function usersService(deps: SiteCallDeps) {
  const { t, read } = siteCalls(deps);

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

    async rowAction(siteId: string, username: string, actionId: string): Promise<RowActionResult> {
      try {
        return await cmsUsers.rowAction(t(siteId), username, actionId);
      } catch (err) {
        return notSent(err, `${username}'s account`);
      }
    },

    apiKeys: (siteId: string, username: string) => cmsUsers.apiKeys(read(siteId), username),

    async createApiKey(input: ChannelParsed<'users.createApiKey'>): Promise<ApiKeyMinted> {
      try {
        return await cmsUsers.createApiKey(t(input.siteId), input.username, input);
      } catch (err) {
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
