/**
 * A CMS site's installed packages (`GET /gpm/plugins`, `GET /gpm/themes`; `api.gpm.read`). Only
 * what the settings need so far: each package's slug (its settings scope is `plugins/<slug>` or
 * `themes/<slug>`), its name, and whether it is enabled. A row without a slug is refused with the
 * route named; other fields are read tolerantly (the real service sends many more).
 */
import * as v from 'valibot';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';
import { pathName } from '../../contract';

export interface InstalledPackage {
  slug: string;
  name: string;
  version: string | null;
  enabled: boolean | null;
}

const Package = v.pipe(
  v.looseObject({
    slug: pathName('package name', 100),
    name: v.optional(v.nullable(v.string())),
    version: v.optional(v.nullable(v.union([v.string(), v.number()]))),
    enabled: v.optional(v.nullable(v.boolean())),
  }),
  v.transform((p): InstalledPackage => ({ slug: p.slug, name: p.name?.trim() || p.slug, version: p.version == null ? null : String(p.version), enabled: p.enabled ?? null })),
);

async function installed(t: Transport, path: string, what: string): Promise<InstalledPackage[]> {
  const call: CallOptions = { path };
  const r = await request(t, call);
  return parseAnswer(v.array(Package), r.data, t, what, callName(call));
}

export const cmsPackages = {
  installedPlugins: (t: Transport) => installed(t, '/gpm/plugins', 'the installed plugins'),
  installedThemes: (t: Transport) => installed(t, '/gpm/themes', 'the installed themes'),
};
