/** The `packages.*` channels (contract/packages.ts) on the packages service. */
import type { packagesChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { PackagesService } from './service';

export function packagesHandlers(packages: Lazy<PackagesService>): HandlersOf<typeof packagesChannels> {
  return {
    'packages.installed': ({ siteId }) => packages().installed(siteId),
    'packages.document': ({ siteId, type, slug, which }) => packages().document(siteId, type, slug, which),
    'packages.coreChangelog': ({ siteId }) => packages().coreChangelog(siteId),
    'packages.updates': ({ siteId, flush }) => packages().updates(siteId, flush),
    'packages.updatesAcross': ({ siteIds, flush }) => packages().updatesAcross(siteIds, flush),
    'packages.repository': (q) => packages().repository(q),
    'packages.repositoryPackage': ({ siteId, type, slug }) => packages().repositoryPackage(siteId, type, slug),
    'packages.uploadChunk': ({ uploadId, offset, data }) => packages().uploadChunk(uploadId, offset, data),
    'packages.run': ({ jobs }) => packages().run(jobs),
    'packages.jobs': () => packages().jobs(),
    'packages.clearJobs': ({ ids }) => packages().clearJobs(ids),
  };
}
