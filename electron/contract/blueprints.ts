/** The `blueprints.*` channels: a site's page templates and a template's form (the editor's header fields). */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { AuthSite } from './auth';
import { Template, type PageBlueprint } from './pages';

export const blueprintsChannels = {
  'blueprints.templates': channel<{ type: string; label: string }[]>()(AuthSite),
  'blueprints.page': channel<PageBlueprint>()(v.strictObject({ siteId: SiteId, template: Template })),
};

export const blueprintsEvents = {};
