/** The app-level channels (contract/app.ts): facts about the running app, for the renderer to show. */
import type { appChannels, DatabaseStatus, SecretsStatus } from '../contract';
import type { HandlersOf } from '../base/handlers';

export function appHandlers(facts: { version: string; shell: 'electron' | 'browser'; secrets: () => SecretsStatus; database: () => DatabaseStatus }): HandlersOf<typeof appChannels> {
  return {
    'app.info': () => ({
      version: facts.version,
      shell: facts.shell,
      platform: process.platform,
      secrets: facts.secrets(),
      database: facts.database(),
    }),
  };
}
