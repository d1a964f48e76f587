/** The `settings.*` channels (contract/settings.ts) on the settings service. */
import type { settingsChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SettingsService } from './service';

export function settingsHandlers(settings: Lazy<SettingsService>): HandlersOf<typeof settingsChannels> {
  return {
    'settings.scopes': ({ siteId }) => settings().scopes(siteId),
    'settings.open': ({ siteId, scope }) => settings().open(siteId, scope),
    'settings.save': ({ siteId, scope, etag, changes }) => settings().save(siteId, scope, etag, changes),
  };
}
