/**
 * The People view's rows: the accounts of several sites joined into people. Two accounts are one
 * person when they share an email address (any case) or a username; the join is transitive (a
 * union of the two), so `ada` on one site and `ada@example.test` under `a.lovelace` on another
 * are one row when some account links them. Pure, so it is tested without sites.
 */
import type { AccessMap, PeopleAccount, Person, UserGroupInfo } from '../contract';

/** Names that give writing wherever they are set true, besides any `….write`. */
const SUPER = new Set(['api.super', 'admin.super']);
/** Names under `api.` that are not an area (and so do not hold a `.write` beneath them). */
const NOT_AREAS = new Set(['api.access', 'api.demo']);

function flat(map: AccessMap | null | undefined, prefix = '', out: Record<string, boolean> = {}): Record<string, boolean> {
  for (const [k, v] of Object.entries(map ?? {})) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'boolean') out[key] = v;
    else if (v && typeof v === 'object') flat(v, key, out);
  }
  return out;
}

/** Does a setting of `name` to true give some writing? (`api.pages` gives `api.pages.write`; `api` every area.) */
function givesWriting(name: string): boolean {
  if (SUPER.has(name) || name.endsWith('.write') || name === 'api') return true;
  const parts = name.split('.');
  return parts[0] === 'api' && parts.length === 2 && !NOT_AREAS.has(name);
}

/**
 * Whether an account may change something on the site through its API: its own settings, and its
 * groups' where the site lists them (null groups: its own settings only; `known` says so).
 */
export function writesSomewhere(access: AccessMap, memberOf: readonly string[], groups: readonly UserGroupInfo[] | null): { writes: boolean; known: boolean } {
  const own = flat(access);
  const merged: Record<string, boolean> = {};
  for (const name of memberOf) {
    const g = groups?.find((x) => x.name === name);
    if (g) for (const [k, v] of Object.entries(flat(g.access))) if (merged[k] !== true) merged[k] = v;
  }
  Object.assign(merged, own);
  const writes = Object.entries(merged).some(([k, v]) => v && givesWriting(k));
  return { writes, known: writes || groups !== null || memberOf.length === 0 };
}

/** People from accounts, joined by email and username; sorted by name, then email. */
export function groupPeople(accounts: readonly PeopleAccount[]): Person[] {
  const parent = accounts.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  const firstBy = new Map<string, number>();
  accounts.forEach((a, i) => {
    const keys = [`u:${a.username.toLowerCase()}`, ...(a.email ? [`e:${a.email.trim().toLowerCase()}`] : [])];
    for (const key of keys) {
      const seen = firstBy.get(key);
      if (seen === undefined) firstBy.set(key, i);
      else parent[find(i)] = find(seen);
    }
  });
  const byRoot = new Map<number, PeopleAccount[]>();
  accounts.forEach((a, i) => {
    const root = find(i);
    byRoot.set(root, [...(byRoot.get(root) ?? []), a]);
  });
  const people = [...byRoot.values()].map((list): Person => {
    const emails = [...new Set(list.map((a) => a.email.trim()).filter(Boolean))];
    const usernames = [...new Set(list.map((a) => a.username))];
    const name = list.find((a) => a.fullname.trim())?.fullname.trim() ?? usernames[0]!;
    return { key: `${usernames[0]}\n${emails[0] ?? ''}`, name, emails, usernames, accounts: list };
  });
  return people.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }) || (a.emails[0] ?? '').localeCompare(b.emails[0] ?? ''));
}
