/**
 * The `addons.*` channels: what a CMS site's plugins add to the admin (document 1 section 6, the
 * composition events; shapes as getgrav/grav-plugin-api answers them): sidebar and menubar items,
 * floating widgets, context panels, settings panels, a plugin's admin page, and the site's
 * translations of the labels. Only data: a plugin's own scripts are never run here.
 *
 * A plugin page or settings panel names the endpoints of its data and its save. The renderer never
 * hands those to the Host: it names the page or panel ({plugin, kind, id}) and the Host looks the
 * endpoint up in the definition it read itself, checked to be a path of the site's API (see
 * docs/architecture.md "What plugins add").
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { headerProblem, isPlainObject } from './header';

/**
 * An icon as the plugin declared it: Font Awesome (`fa-name`, `fa-style:name`), a CSS class
 * (`class:fa-solid fa-x`), an SVG path (`{type: 'svg', path}`), or a bare name (Lucide's).
 */
export type AddonIcon = { kind: 'fa'; name: string; style: string | null } | { kind: 'lucide'; name: string } | { kind: 'class'; name: string } | { kind: 'svg'; path: string };

interface AddonBase {
  id: string;
  plugin: string;
  /** As the site sent it: a translation key (`PLUGIN_X.LABEL`) or words. */
  label: string;
  icon: AddonIcon | null;
  priority: number;
}

export interface SidebarAddon extends AddonBase {
  /** The admin route it opens (`/plugin/team-notes`): the plugin's page is `plugin`'s. */
  route: string | null;
  badge: string | number | null;
}

export interface MenubarAddon extends AddonBase {
  action: string;
  /** A question to confirm before the action runs. */
  confirm: string | null;
  variant: 'primary' | 'warning' | 'danger' | null;
}

export interface WidgetAddon extends AddonBase {
  /** The admin routes it shows on (none: everywhere). */
  routes: string[];
  autoLoad: boolean;
}

export interface PanelAddon extends AddonBase {
  /** Where its button shows (`pages`). */
  contexts: string[];
}

export interface SettingsPanelAddon extends AddonBase {
  description: string | null;
  /** The blueprint of its form (a page of the plugin: blueprints.pluginPage). */
  blueprint: string;
}

/** A row the site sent that cannot be read, set aside with the reason. */
export interface AddonAside {
  list: 'sidebar' | 'menubar' | 'widgets' | 'panels' | 'settingsPanels';
  index: number;
  reason: string;
}

export interface SiteAddons {
  sidebar: SidebarAddon[];
  menubar: MenubarAddon[];
  widgets: WidgetAddon[];
  panels: PanelAddon[];
  settingsPanels: SettingsPanelAddon[];
  aside: AddonAside[];
  /** A list the site refused or could not answer, with the reason (the others still show). */
  failed: { list: AddonAside['list']; reason: string }[];
  copiedAt: string | null;
}

export interface PluginPageAction {
  id: string;
  label: string;
  icon: AddonIcon | null;
  primary: boolean;
  download: boolean;
  confirm: string | null;
  /** The action sends a request of its own (an endpoint the Host checked). */
  runs: boolean;
}

export interface PluginPageDef {
  id: string;
  plugin: string;
  title: string;
  icon: AddonIcon | null;
  pageType: 'blueprint' | 'component';
  blueprint: string | null;
  /** The page reads its data / saves it (the definition named a usable endpoint). */
  hasData: boolean;
  canSave: boolean;
  actions: PluginPageAction[];
  /** The plugin ships a page script (run only in the sandboxed frame, never here). */
  hasScript: boolean;
  /** Endpoints of the definition the Host refused to call, in words. */
  refused: string[];
}

/** A plugin page's or settings panel's form data. */
export interface AddonData {
  values: Record<string, unknown>;
}

/** The site's translations of labels that are keys (`PLUGIN_X.LABEL` → words). */
export interface AddonTranslations {
  lang: string;
  strings: Record<string, string>;
  copiedAt: string | null;
}

/** One path segment, as the real routes' placeholders take (a plugin, an action, a panel). */
const Name = (what: string) =>
  v.pipe(v.string(), v.minLength(1, `Name the ${what}.`), v.maxLength(128, `A ${what} name is at most 128 characters.`), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, `Not a ${what} name.`), v.check((s) => !s.includes('..'), `Not a ${what} name.`));

/** A plugin page (its id is the plugin's) or one of its settings panels. */
const Addressed = v.strictObject({ siteId: SiteId, plugin: Name('plugin'), kind: v.picklist(['page', 'settingsPanel'], 'Not a plugin page or settings panel.'), id: Name('page or panel') });

/** A form's values (or an action's body): any JSON object, every key kept, within a header's bounds. */
const Values = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'The form’s values must be an object.'),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = headerProblem(dataset.value);
    if (problem) addIssue({ message: problem.replace(/^The header/, 'The form’s values') });
  }),
);

export const addonsChannels = {
  'addons.list': channel<SiteAddons>()(v.strictObject({ siteId: SiteId })),
  'addons.runAction': channel<{ ok: boolean; message: string }>()(v.strictObject({ siteId: SiteId, plugin: Name('plugin'), action: Name('action'), body: v.optional(Values), /** run it although an earlier run's answer was lost */ again: v.optional(v.boolean()) })),
  /** Runs one of a plugin page's own actions (its endpoint looked up by the Host in the definition it reads now). */
  'addons.pageAction': channel<{ ok: boolean; message: string }>()(v.strictObject({ siteId: SiteId, plugin: Name('plugin'), actionId: Name('action'), again: v.optional(v.boolean()) })),
  'addons.page': channel<PluginPageDef>()(v.strictObject({ siteId: SiteId, plugin: Name('plugin') })),
  'addons.pageData': channel<AddonData>()(Addressed),
  'addons.savePageData': channel<AddonData>()(v.strictObject({ ...Addressed.entries, values: Values })),
  'addons.translations': channel<AddonTranslations>()(v.strictObject({ siteId: SiteId, lang: v.pipe(v.string(), v.regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, 'Not a language code.')) })),
};

export const addonsEvents = {};
