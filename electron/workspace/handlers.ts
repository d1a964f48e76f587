/** The `workspace.*` channels (contract/workspace.ts) on the workspace service. */
import type { workspaceChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { WorkspaceService } from './service';

export function workspaceHandlers(workspace: Lazy<WorkspaceService>): HandlersOf<typeof workspaceChannels> {
  return {
    'workspace.get': () => workspace().get(),
    'workspace.set': (input) => workspace().set(input),
  };
}
