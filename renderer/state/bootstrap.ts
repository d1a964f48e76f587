/**
 * The composition root of the renderer's app-wide state: every piece is started here (its events
 * followed) and loaded here, and again when the Host comes back. App.svelte calls `startState()`
 * once and `loadState()` whenever the Host is ready; nothing else subscribes app-wide state itself.
 */
import { app } from '../lib/app.svelte';
import { mirrors } from './mirrors.svelte';
import { packageWork } from './package-work.svelte';
import { auditCopies } from './audit-copies.svelte';
import { sessions } from './sessions.svelte';
import { sites } from './sites.svelte';
import { storeSessions } from './stores.svelte';
import { sync } from './sync.svelte';
import { workspace } from './workspace.svelte';

let loadedOnce = false;

/**
 * Follows every app-wide event. `onHostReady` runs each time the Host (re)connects.
 * Returns `stop`.
 */
export function startState(onHostReady: () => void): () => void {
  const stops = [app.start(onHostReady), sites.start(), sessions.start(), sync.start(), storeSessions.start(), mirrors.start(), packageWork.start(), auditCopies.start()];
  return () => stops.forEach((stop) => stop());
}

/** Loads everything; runs again whenever the Host (re)connects. */
export async function loadState(): Promise<void> {
  await app.load();
  if (!app.info || !app.info.database.ok) return;
  const lists = [sites.load(), sessions.load(), sync.load(), storeSessions.load(), mirrors.load(), packageWork.load(), auditCopies.load()];
  if (!loadedOnce) {
    loadedOnce = true;
    await Promise.all([...lists, workspace.load()]);
  } else {
    // the Host came back: catch up with anything that changed, and save the layout if a save was lost
    await Promise.all(lists);
    if (workspace.loaded) workspace.saveSoon();
    else await workspace.load();
  }
}
