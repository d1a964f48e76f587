/** The `translations.*` channels (contract/translations.ts) on the translations service. */
import type { translationsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { TranslationsService } from './service';

export function translationsHandlers(translations: Lazy<TranslationsService>): HandlersOf<typeof translationsChannels> {
  return {
    'translations.siteLanguages': ({ siteId }) => translations().siteLanguages(siteId),
    'translations.languages': ({ siteId, route }) => translations().languages(siteId, route),
    'translations.translate': (q) => translations().translate(q),
    'translations.adopt': (q) => translations().adopt(q),
    'translations.sync': (q) => translations().sync(q),
    'translations.compare': (q) => translations().compare(q),
    'translations.matrix': ({ siteId }) => translations().matrix(siteId),
  };
}
