import { describe, expect, it } from 'vitest';
import type { PeopleAccount } from '../../electron/contract/index';
import { groupPeople, writesSomewhere } from '../../electron/users/people';

const acct = (siteId: string, username: string, email: string, more: Partial<PeopleAccount> = {}): PeopleAccount => ({
  siteId,
  username,
  email,
  fullname: '',
  state: 'enabled',
  groups: [],
  twofaEnabled: false,
  writes: false,
  writesKnown: true,
  ...more,
});

describe('groupPeople', () => {
  it('joins accounts by email (any case) or username, transitively', () => {
    const people = groupPeople([
      acct('a', 'ada', 'ada@example.test', { fullname: 'Ada Lovelace' }),
      acct('b', 'a.lovelace', 'ADA@example.test'),
      acct('c', 'a.lovelace', 'other@example.test'),
      acct('a', 'bob', 'bob@example.test'),
    ]);
    expect(people).toHaveLength(2);
    const ada = people.find((p) => p.name === 'Ada Lovelace')!;
    expect(ada.accounts.map((x) => x.siteId)).toEqual(['a', 'b', 'c']);
    expect(ada.usernames).toEqual(['ada', 'a.lovelace']);
    expect(ada.emails).toEqual(['ada@example.test', 'ADA@example.test', 'other@example.test']);
    expect(people.map((p) => p.name)).toEqual(['Ada Lovelace', 'bob']); // sorted by name; a username when no name
  });
  it('keeps accounts without an email apart unless their usernames match', () => {
    expect(groupPeople([acct('a', 'x', ''), acct('b', 'y', ''), acct('c', 'X', '')])).toHaveLength(2);
  });
});

describe('writesSomewhere', () => {
  const groups = [{ name: 'editors', label: 'Editors', access: { api: { pages: { write: true } } } }];
  it('a write, an area or super set true gives writing; reading and access do not', () => {
    expect(writesSomewhere({ api: { pages: { read: true }, access: true } }, [], null)).toEqual({ writes: false, known: true });
    expect(writesSomewhere({ api: { users: { write: true } } }, [], null).writes).toBe(true);
    expect(writesSomewhere({ 'api.pages': true }, [], null).writes).toBe(true);
    expect(writesSomewhere({ api: { super: true } }, [], null).writes).toBe(true);
    expect(writesSomewhere({ api: { pages: { write: false } } }, [], null).writes).toBe(false);
  });
  it('counts the groups where the site lists them, and says when it could not', () => {
    expect(writesSomewhere({}, ['editors'], groups)).toEqual({ writes: true, known: true });
    expect(writesSomewhere({ api: { pages: { write: false } } }, ['editors'], groups).writes).toBe(false); // its own setting wins
    expect(writesSomewhere({}, ['editors'], null)).toEqual({ writes: false, known: false });
  });
});
