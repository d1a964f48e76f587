/** The `auditCopy.*` channels (contract/audit-copy.ts) on the kept-copy service. */
import type { auditCopyChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { AuditCopyService } from './service';

export function auditCopyHandlers(copies: Lazy<AuditCopyService>): HandlersOf<typeof auditCopyChannels> {
  return {
    'auditCopy.copies': () => copies().copies(),
    'auditCopy.keep': ({ siteId }) => copies().keep(siteId),
    'auditCopy.chooseOpenFile': () => copies().chooseOpenFile(),
    'auditCopy.import': (input) => copies().import(input),
    'auditCopy.export': (input) => copies().export(input),
    'auditCopy.cancel': ({ jobId }) => copies().cancel(jobId),
    'auditCopy.jobs': () => copies().jobs(),
    'auditCopy.search': (q) => copies().search(q),
    'auditCopy.facets': ({ copies: ids }) => copies().facets(ids),
    'auditCopy.setRetention': ({ copyId, retention }) => copies().setRetention(copyId, retention),
    'auditCopy.forget': ({ copyId }) => copies().forget(copyId),
  };
}
