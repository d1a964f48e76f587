/** The `store.*` channels (contract/store.ts) on the store service. */
import type { storeChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { StoreService } from './service';

export function storeHandlers(store: Lazy<StoreService>): HandlersOf<typeof storeChannels> {
  return {
    'store.sessions': () => store().sessions(),
    'store.session': ({ siteId }) => store().session(siteId),
    'store.login': ({ siteId, username, password }) => store().login(siteId, username, password),
    'store.logout': ({ siteId }) => store().logout(siteId),
    'store.budget': ({ siteId }) => ({ budget: store().budget(siteId) }),
    'store.pets.list': (q) => store().pets(q),
    'store.pets.get': ({ siteId, petId }) => store().pet(siteId, petId),
    'store.pets.create': (q) => store().createPet(q),
    'store.pets.update': (q) => store().updatePet(q),
    'store.pets.delete': ({ siteId, petId }) => store().deletePet(siteId, petId),
    'store.pets.uploadImage': (q) => store().uploadImage(q),
    'store.inventory': ({ siteId }) => store().inventory(siteId),
    'store.orders.place': (q) => store().placeOrder(q),
    'store.orders.get': ({ siteId, orderId }) => store().order(siteId, orderId),
    'store.orders.delete': ({ siteId, orderId }) => store().deleteOrder(siteId, orderId),
    'store.users.create': ({ siteId, user }) => store().createUser(siteId, user),
    'store.users.createList': ({ siteId, users }) => store().createUsers(siteId, users),
    'store.users.get': ({ siteId, username }) => store().user(siteId, username),
    'store.users.update': ({ siteId, username, changes }) => store().updateUser(siteId, username, changes),
    'store.users.delete': ({ siteId, username }) => store().deleteUser(siteId, username),
  };
}
