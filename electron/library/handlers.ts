/** The `library.*` channels (contract/library.ts) on the library service. */
import type { libraryChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { LibraryService } from './service';

export function libraryHandlers(library: Lazy<LibraryService>): HandlersOf<typeof libraryChannels> {
  return {
    'library.list': (q) => library().list(q),
    'library.uploadChunk': (q) => library().stageChunk(q),
    'library.upload': (q) => library().upload(q),
    'library.delete': (q) => library().remove(q),
    'library.move': (q) => library().move(q),
    'library.createFolder': (q) => library().createFolder(q),
    'library.renameFolder': (q) => library().renameFolder(q),
    'library.deleteFolder': (q) => library().removeFolder(q),
  };
}
