/** The `blueprints.*` channels: a site's page templates and a template's form (the editor's header fields). */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { AuthSite } from './auth';
import { Template, type BlueprintOption, type PageBlueprint } from './pages';

/** A site's data provider, as blueprints name it: `Class::method` (PHP's namespace separators allowed). */
export const DATA_CALLABLE = /^\\?[A-Za-z_][A-Za-z0-9_\\]*::[A-Za-z_][A-Za-z0-9_]*$/;

export const blueprintsChannels = {
  'blueprints.templates': channel<{ type: string; label: string }[]>()(AuthSite),
  'blueprints.page': channel<PageBlueprint>()(v.strictObject({ siteId: SiteId, template: Template })),
  /** The options a site resolves for a blueprint field (its `data_options` callable). */
  'blueprints.options': channel<BlueprintOption[]>()(
    v.strictObject({ siteId: SiteId, callable: v.pipe(v.string(), v.maxLength(200, 'A data provider is at most 200 characters.'), v.regex(DATA_CALLABLE, 'Not a data provider of a blueprint (Class::method).')) }),
  ),
};

export const blueprintsEvents = {};
