/** The `blueprints.*` channels: a site's page templates and a template's form (the editor's header fields). */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { AuthSite } from './auth';
import { Template, type BlueprintOption, type PageBlueprint } from './pages';

/** A site's data provider, as blueprints name it: `Class::method` (PHP's namespace separators allowed). */
export const DATA_CALLABLE = /^\\?[A-Za-z_][A-Za-z0-9_\\]*::[A-Za-z_][A-Za-z0-9_]*$/;

/** A plugin's name or one of its admin pages: one path segment, as the real route's placeholder takes. */
const PluginPart = (what: string) =>
  v.pipe(v.string(), v.minLength(1, `Name the ${what}.`), v.maxLength(128, `A ${what} name is at most 128 characters.`), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, `Not a ${what} name.`), v.check((s) => s !== '..', `Not a ${what} name.`));

export const blueprintsChannels = {
  'blueprints.templates': channel<{ type: string; label: string }[]>()(AuthSite),
  'blueprints.page': channel<PageBlueprint>()(v.strictObject({ siteId: SiteId, template: Template })),
  /** A plugin's admin page form (the form engine draws it; the page's data and saving are the plugin's definition). */
  'blueprints.pluginPage': channel<PageBlueprint>()(v.strictObject({ siteId: SiteId, plugin: PluginPart('plugin'), pageId: PluginPart('plugin page') })),
  /** The options a site resolves for a blueprint field (its `data_options` callable). */
  'blueprints.options': channel<BlueprintOption[]>()(
    v.strictObject({ siteId: SiteId, callable: v.pipe(v.string(), v.maxLength(200, 'A data provider is at most 200 characters.'), v.regex(DATA_CALLABLE, 'Not a data provider of a blueprint (Class::method).')) }),
  ),
};

export const blueprintsEvents = {};
