/**
 * A CMS site's page templates and a template's form (the editor's header fields), read from the
 * site, and the options a site resolves for a form's field (kept per site for the Host's life: they
 * are lists like time zones or page types, asked for by every form that names them).
 */
import { cmsBlueprints } from '../api/cms/blueprints';
import { siteCalls, type SiteCallDeps } from '../sites/calls';
import type { BlueprintOption } from '../contract';

export function blueprintsService(deps: SiteCallDeps) {
  const { read } = siteCalls(deps);
  const resolved = new Map<string, Promise<BlueprintOption[]>>();
  return {
    templates: (siteId: string) => cmsBlueprints.templates(read(siteId)),
    page: (siteId: string, template: string) => cmsBlueprints.page(read(siteId), template),
    pluginPage: (siteId: string, plugin: string, pageId: string) => cmsBlueprints.pluginPage(read(siteId), plugin, pageId),
    options(siteId: string, callable: string): Promise<BlueprintOption[]> {
      const key = `${siteId}\u0000${callable}`;
      let p = resolved.get(key);
      if (!p) {
        p = cmsBlueprints.resolve(read(siteId), callable);
        resolved.set(key, p);
        p.catch(() => resolved.delete(key)); // a failure is asked again next time
      }
      return p;
    },
  };
}

export type BlueprintsService = ReturnType<typeof blueprintsService>;
