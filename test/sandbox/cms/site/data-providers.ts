/**
 * The approved data providers behind `GET /data/resolve` and the forms' `data_options`: an exact
 * allow-list of `Class::method` names, as Grav core keeps one (Blueprint::isSafeDynamicCall(),
 * which the real service defers to). Each provider answers a `{key: label}` map, turned into
 * `[{value, label}]` by the route.
 *
 * `Grav\Plugin\AdminPlugin::pagesTypes` / `pagesModularTypes` are the classic admin's wrappers,
 * whose class the real service does not load: it answers them with core's page types (honouring
 * `?type=`). `Grav\Plugin\ProblemsPlugin::checkOptions` is opted in by the installed but disabled
 * `problems` plugin, so its class is missing: 404, as the real service answers such a name.
 */
import type { CmsContext } from '../context';
import { realPageTypes } from '../content/blueprint-real';

type Provider = (ctx: CmsContext, type: string) => Record<string, string>;

const pageTypes: Provider = (_ctx, type) => (type === 'modular' ? {} : Object.fromEntries(realPageTypes().map((t) => [t.type, t.label])));

const DATE_FORMATS: Record<string, string> = {
  'd-m-Y H:i': '05-02-2026 13:45 (d-m-Y H:i)',
  'Y-m-d H:i': '2026-02-05 13:45 (Y-m-d H:i)',
  'm/d/Y h:i a': '02/05/2026 01:45 pm (m/d/Y h:i a)',
  'H:i d-m-Y': '13:45 05-02-2026 (H:i d-m-Y)',
  'D, d M Y H:i:s': 'Thu, 05 Feb 2026 13:45:00 (D, d M Y H:i:s)',
};

let zoneLabels: Record<string, string> | null = null;

/** `(+01:00) Europe/Berlin` for every zone the runtime knows, as Utils::timezones() labels them (worked out once). */
function timezones(): Record<string, string> {
  if (zoneLabels) return { ...zoneLabels };
  const now = new Date(Date.UTC(2026, 0, 15));
  const out: Record<string, string> = {};
  for (const zone of Intl.supportedValuesOf('timeZone')) {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(now).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const offset = name === 'GMT' ? '+00:00' : name.slice(3);
    out[zone] = `(${offset}) ${zone}`;
  }
  zoneLabels = out;
  return { ...out };
}

/** The groups the site's accounts belong to, sorted (the sandbox keeps no separate group list). */
function groupNames(ctx: CmsContext): Record<string, string> {
  const names = new Set<string>();
  for (const a of ctx.accounts.list()) {
    const groups = (a as { groups?: unknown }).groups;
    if (Array.isArray(groups)) for (const g of groups) if (typeof g === 'string') names.add(g);
  }
  return Object.fromEntries([...names].sort().map((g) => [g, g]));
}

/** Every page's route, labelled with its title path, for parent pickers. */
function parents(ctx: CmsContext): Record<string, string> {
  ctx.content.ready();
  const out: Record<string, string> = { '/': '<root>' };
  for (const node of ctx.content.tree().pages) out[node.route] = node.route;
  return out;
}

export const DATA_PROVIDERS: Record<string, Provider | null> = {
  'Grav\\Common\\Utils::timezones': () => timezones(),
  'Grav\\Common\\Utils::dateFormats': () => ({ ...DATE_FORMATS }),
  'Grav\\Common\\Page\\Pages::pageTypes': pageTypes,
  'Grav\\Common\\Page\\Pages::types': (ctx) => pageTypes(ctx, 'standard'),
  'Grav\\Common\\Page\\Pages::modularTypes': () => ({}),
  'Grav\\Common\\Page\\Pages::parents': parents,
  'Grav\\Common\\User\\Group::groupNames': groupNames,
  'Grav\\Common\\Security::pageProcessOptions': () => ({ markdown: 'Markdown' }),
  'Grav\\Plugin\\AdminPlugin::pagesTypes': null,
  'Grav\\Plugin\\AdminPlugin::pagesModularTypes': null,
  'Grav\\Plugin\\ProblemsPlugin::checkOptions': null,
};

/** The classic admin's wrappers answered with core's page types when their class is absent. */
export const ADMIN_PAGE_TYPE_WRAPPERS: Record<string, string> = {
  'Grav\\Plugin\\AdminPlugin::pagesTypes': 'standard',
  'Grav\\Plugin\\AdminPlugin::pagesModularTypes': 'modular',
};

export { pageTypes };
