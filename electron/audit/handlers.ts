/** The `audit.*` channels (contract/audit.ts) on the audit service. */
import type { auditChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { AuditService } from './service';

export function auditHandlers(audit: Lazy<AuditService>): HandlersOf<typeof auditChannels> {
  return {
    'audit.status': ({ siteId }) => audit().status(siteId),
    'audit.events': ({ siteId, filter, page, perPage }) => audit().events(siteId, filter, page, perPage),
    'audit.facets': ({ siteId }) => audit().facets(siteId),
    'audit.chooseFile': ({ format }) => audit().chooseFile(format),
    'audit.export': (input) => audit().export(input),
    'audit.cancelExport': ({ exportId }) => audit().cancelExport(exportId),
  };
}
