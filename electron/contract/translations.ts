/**
 * The `translations.*` channels: a site's languages, a page's translations, translating, adopting
 * and syncing a language file, comparing two languages, and the site's pages × languages. The
 * types and input schemas sit with the pages (pages.ts), where the page they describe is.
 */
import * as v from 'valibot';
import { channel } from './define';
import { SiteId } from './sites';
import { AuthSite } from './auth';
import {
  PageAdopt,
  PageCompare,
  PageSync,
  PageTranslate,
  Route,
  type PageLanguages,
  type SiteLanguages,
  type TranslationComparison,
  type TranslationMatrix,
} from './pages';

export const translationsChannels = {
  'translations.siteLanguages': channel<SiteLanguages>()(AuthSite),
  'translations.languages': channel<PageLanguages>()(v.strictObject({ siteId: SiteId, route: Route })),
  'translations.translate': channel<{ route: string; lang: string; title?: string; content?: string; queued?: boolean }>()(PageTranslate),
  'translations.adopt': channel<{ route: string; lang: string }>()(PageAdopt),
  'translations.sync': channel<{ route: string; lang: string; title?: string; content?: string }>()(PageSync),
  'translations.compare': channel<TranslationComparison>()(PageCompare),
  /** Pages × languages of the whole site (reads every page's translation metadata). */
  'translations.matrix': channel<TranslationMatrix>()(AuthSite),
};

export const translationsEvents = {};
