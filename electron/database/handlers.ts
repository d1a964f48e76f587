/** The `database.*` channels (contract/database.ts) on the recovery service. */
import type { databaseChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { DatabaseService } from './service';

export function databaseHandlers(database: Lazy<DatabaseService>): HandlersOf<typeof databaseChannels> {
  return {
    'database.chooseFolder': () => database().chooseFolder(),
    'database.saveUnsynced': (input) => database().saveUnsynced(input),
    'database.startFresh': () => database().startFresh(),
  };
}
