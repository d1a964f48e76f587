/**
 * The configured sites' origins, the only places the window may load images from
 * (electron/common/csp.ts): told to the shell now and at every change of the site list. The
 * shell in Electron (main filters the window's requests) and browser mode's server (it writes the
 * page's policy) both follow them this way.
 */
import { siteOrigins } from '../common/csp';
import type { HostEndpoint } from './host-types';

type SiteAddresses = readonly { baseUrl: string }[];

/** The origins of the sites the Host lists now (none when it cannot list them). */
export async function imageOriginsOf(host: HostEndpoint): Promise<string[]> {
  const list = await host.invoke('sites.list', {}).catch(() => null);
  return list?.ok ? siteOrigins(list.value as SiteAddresses) : [];
}

/**
 * Tells `tell` the origins now and after every `sites.changed`; resolves once the first telling is
 * done (so a shell can have them before it serves a page), with the unsubscribe.
 */
export async function followImageOrigins(host: HostEndpoint, tell: (origins: string[]) => void | Promise<void>): Promise<() => void> {
  const off = host.onEvent((event, payload) => {
    if (event === 'sites.changed') void tell(siteOrigins(payload as SiteAddresses));
  });
  await tell(await imageOriginsOf(host));
  return off;
}
