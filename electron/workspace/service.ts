/**
 * The workspace: the open panes (tabs, the focused one, a split and its ratio), kept in the prefs so
 * a restart reopens them. Sites removed since the layout was saved simply drop out of it.
 */
import type { Workspace } from '../contract';
import type { PrefsRepo } from '../db/repos/prefs';

export const EMPTY_WORKSPACE: Workspace = { tabs: [], active: null, split: null, ratio: 0.5 };
const KEY = 'workspace';

export function workspaceService(deps: { prefs: PrefsRepo; siteIds: () => string[] }) {
  return {
    get(): Workspace {
      const saved = deps.prefs.get<Workspace>(KEY) ?? EMPTY_WORKSPACE;
      const known = new Set(deps.siteIds());
      const tabs = saved.tabs.filter((id) => known.has(id));
      const pick = (id: string | null) => (id && known.has(id) ? id : null);
      return { tabs, active: pick(saved.active) ?? tabs[0] ?? null, split: pick(saved.split), ratio: saved.ratio };
    },
    set(workspace: Workspace): Workspace {
      deps.prefs.set(KEY, workspace);
      return workspace;
    },
  };
}

export type WorkspaceService = ReturnType<typeof workspaceService>;
