/** The People view's filters: pure, so they are tested without sites. */
import type { Person } from '../../../electron/contract/index';

export interface PeopleFilter {
  search: string;
  /** Has write access on at least one site. */
  writes: boolean;
  /** Has an account without 2FA somewhere. */
  twofaOff: boolean;
  /** Has a disabled account somewhere. */
  disabled: boolean;
}

export const NO_FILTER: PeopleFilter = { search: '', writes: false, twofaOff: false, disabled: false };

export function filterPeople(people: readonly Person[], f: PeopleFilter): Person[] {
  const q = f.search.trim().toLowerCase();
  return people.filter(
    (p) =>
      (!q || p.name.toLowerCase().includes(q) || p.emails.some((e) => e.toLowerCase().includes(q)) || p.usernames.some((u) => u.toLowerCase().includes(q))) &&
      (!f.writes || p.accounts.some((a) => a.writes)) &&
      (!f.twofaOff || p.accounts.some((a) => !a.twofaEnabled)) &&
      (!f.disabled || p.accounts.some((a) => a.state === 'disabled')),
  );
}
