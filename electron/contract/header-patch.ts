/**
 * What a PATCH carries so a page's header becomes `next`. The site merges the header it receives
 * into the one it has and drops keys sent as null, so a key removed locally is sent as null.
 * Pure, shared by the renderer's direct saves and the Host's outbox push. Keys are the site's data
 * (contract/header.ts): read and written as own fields only.
 */
import { isPlainObject, ownField, setField, type Header } from './header';

export function headerPatch(saved: Header, next: Header): Header {
  const out: Header = { ...next };
  for (const k of Object.keys(saved)) {
    const v = saved[k];
    if (!Object.hasOwn(next, k)) setField(out, k, null);
    else if (isPlainObject(v) && isPlainObject(next[k])) setField(out, k, headerPatch(v, ownField(next, k) as Header));
  }
  return out;
}
