/**
 * What a PATCH carries so a page's header becomes `next`. The site merges the header it receives
 * into the one it has and drops keys sent as null, so a key removed locally is sent as null.
 * Pure, shared by the renderer's direct saves and the Host's outbox push.
 */
import type { Header } from './pages';

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function headerPatch(saved: Header, next: Header): Header {
  const out: Header = { ...next };
  for (const [k, v] of Object.entries(saved)) {
    if (!(k in next)) out[k] = null;
    else if (isPlainObject(v) && isPlainObject(next[k])) out[k] = headerPatch(v, next[k] as Header);
  }
  return out;
}
