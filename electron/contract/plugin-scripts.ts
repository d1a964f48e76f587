/**
 * The `scripts.*` channels: a site's plugin scripts (its page, widget, panel, report, modal and
 * field components), which are remote code. Off for every site until the person turns them on for
 * it; then the app runs each in a jail (a sandboxed iframe with an opaque origin and a policy that
 * lets nothing leave, common/csp.ts) and answers the jail's few requests through the Host.
 *
 * The message API a script has (window.sitedesk in renderer/public/plugin-frame.html):
 *   request(path, {method, body})   one of the site's API routes, answered by the Host with the
 *                                   person's session: GET anywhere under the API; a write only
 *                                   under the plugin's own routes (`/<plugin>/…`); never the auth,
 *                                   user, key, configuration or package routes (plugin-scripts/rules.ts)
 *   resize(height)                  the frame's height
 *   context                         {plugin, kind, id, route?, lang?}: where it is shown
 * Why it is enough: a plugin's component reads the site's data and writes its own (the official
 * client's components do no more); what it may not do is act as the person elsewhere — read the
 * token, the app or another site, or change accounts, keys, settings or packages.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { pathName } from './names';

export const SCRIPT_KINDS = ['page', 'widget', 'panel', 'report', 'modal', 'field'] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

/** The largest script loaded (the official client's components are tens of kilobytes). */
export const SCRIPT_MAX_BYTES = 1024 * 1024;

const Plugin = pathName('plugin name', 100);

export const ScriptRef = v.strictObject({
  siteId: SiteId,
  plugin: Plugin,
  kind: v.picklist(SCRIPT_KINDS),
  /** The report's, modal's or field type's id (none for page, widget, panel). */
  id: v.optional(pathName('script id', 100)),
});

export const ScriptRequest = v.strictObject({
  siteId: SiteId,
  plugin: Plugin,
  method: v.picklist(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'], 'Not a method a plugin script may use.'),
  path: v.pipe(v.string(), v.maxLength(2000, 'A path is at most 2000 characters.')),
  body: v.optional(v.nullable(v.unknown())),
});

export const scriptsChannels = {
  /** Whether this site's plugin scripts may run (the person's choice, kept on this computer). */
  'scripts.allowed': channel<{ allowed: boolean }>()(v.strictObject({ siteId: SiteId })),
  'scripts.setAllowed': channel<{ allowed: boolean }>()(v.strictObject({ siteId: SiteId, allowed: v.boolean() })),
  /** A script's code, read from the site (refused while the site's scripts are off). */
  'scripts.load': channel<{ code: string; tag: string }>()(ScriptRef),
  /** A jailed script's request of one of the site's API routes (the rules above). */
  'scripts.request': channel<{ status: number; data: unknown }>()(ScriptRequest),
};

export const scriptsEvents = {};
