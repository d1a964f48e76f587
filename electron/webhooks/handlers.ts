/** The `webhooks.*` channels (contract/webhooks.ts) on the webhooks service. */
import type { webhooksChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { WebhooksService } from './service';

export function webhooksHandlers(webhooks: Lazy<WebhooksService>): HandlersOf<typeof webhooksChannels> {
  return {
    'webhooks.list': ({ siteId }) => webhooks().list(siteId),
    'webhooks.get': ({ siteId, id }) => webhooks().get(siteId, id),
    'webhooks.create': (input) => webhooks().create(input),
    'webhooks.update': (input) => webhooks().update(input),
    'webhooks.delete': ({ siteId, id }) => webhooks().remove(siteId, id),
    'webhooks.deliveries': ({ siteId, id, page, perPage }) => webhooks().deliveries(siteId, id, page, perPage),
    'webhooks.test': ({ siteId, id }) => webhooks().test(siteId, id),
    'webhooks.health': ({ siteId }) => webhooks().health(siteId),
  };
}
