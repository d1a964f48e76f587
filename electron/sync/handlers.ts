/** The `drafts.*` and `sync.*` channels (contract/drafts.ts) on the sync service. */
import type { draftsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SyncService } from './service';

export function syncHandlers(sync: Lazy<SyncService>): HandlersOf<typeof draftsChannels> {
  return {
    'drafts.save': (q) => sync().saveDraft(q),
    'drafts.list': ({ siteId }) => sync().drafts(siteId),
    'drafts.get': ({ draftId }) => sync().draft(draftId),
    'drafts.submit': (q) => sync().submit(q),
    'drafts.discard': ({ draftId }) => sync().discardDraft(draftId),
    'drafts.resolve': (q) => sync().resolve(q),
    'sync.status': () => sync().status(),
    'sync.outbox': ({ siteId }) => sync().outbox(siteId),
    'sync.discard': ({ itemId }) => sync().discard(itemId),
    // from the renderer, a push is always a person asking (Save, Push now, Sync now)
    'sync.push': ({ siteId, route }) => sync().push(siteId, { ...(route ? { only: route } : {}), asked: true }),
  };
}
