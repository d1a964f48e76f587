/** The `users.*` channels (contract/users.ts) on the users service. */
import type { usersChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { UsersService } from './service';

export function usersHandlers(users: Lazy<UsersService>): HandlersOf<typeof usersChannels> {
  return {
    'users.list': (q) => users().list(q),
    'users.extensions': ({ siteId }) => users().extensions(siteId),
    'users.get': ({ siteId, username }) => users().get(siteId, username),
    'users.create': (input) => users().create(input),
    'users.update': (input) => users().update(input),
    'users.delete': ({ siteId, username }) => users().remove(siteId, username),
    'users.rowAction': ({ siteId, username, actionId, again }) => users().rowAction(siteId, username, actionId, again),
    'users.apiKeys': ({ siteId, username }) => users().apiKeys(siteId, username),
    'users.createApiKey': (input) => users().createApiKey(input),
    'users.deleteApiKey': ({ siteId, username, keyId }) => users().deleteApiKey(siteId, username, keyId),
    'users.form': ({ siteId }) => users().form(siteId),
    'users.offline': async ({ siteId }) => users().offline(siteId),
    'users.setOffline': ({ siteId, keep }) => users().setOffline(siteId, keep),
    'users.people': ({ siteIds }) => users().people(siteIds),
    'users.uploadAvatar': (input) => users().uploadAvatar(input),
    'users.removeAvatar': ({ siteId, username }) => users().removeAvatar(siteId, username),
    'users.twofaSetup': ({ siteId, username }) => users().twofaSetup(siteId, username),
    'users.twofaEnable': ({ siteId, username, code }) => users().twofaEnable(siteId, username, code),
    'users.twofaDisable': ({ siteId, username, code }) => users().twofaDisable(siteId, username, code),
  };
}
