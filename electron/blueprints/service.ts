/** A CMS site's page templates and a template's form (the editor's header fields), read from the site. */
import { cmsBlueprints } from '../api/cms/blueprints';
import { siteCalls, type SiteCallDeps } from '../sites/calls';

export function blueprintsService(deps: SiteCallDeps) {
  const { read } = siteCalls(deps);
  return {
    templates: (siteId: string) => cmsBlueprints.templates(read(siteId)),
    page: (siteId: string, template: string) => cmsBlueprints.page(read(siteId), template),
  };
}

export type BlueprintsService = ReturnType<typeof blueprintsService>;
