import { describe, expect, it } from 'vitest';
import type { Person } from '../../electron/contract/index';
import { filterPeople, NO_FILTER } from '../../renderer/views/people/people-filter';

const person = (name: string, accounts: Partial<Person['accounts'][number]>[]): Person => ({
  key: name,
  name,
  emails: [`${name.toLowerCase()}@example.test`],
  usernames: [name.toLowerCase()],
  accounts: accounts.map((a) => ({ siteId: 's', username: name.toLowerCase(), email: '', fullname: name, state: 'enabled', groups: [], twofaEnabled: true, writes: false, writesKnown: true, ...a })),
});

const people = [person('Ada', [{ writes: true }]), person('Bob', [{ twofaEnabled: false }]), person('Cy', [{ state: 'disabled' }, { writes: true, twofaEnabled: false }])];

describe('filterPeople', () => {
  it('narrows by each filter, and by all of them together', () => {
    expect(filterPeople(people, NO_FILTER).map((p) => p.name)).toEqual(['Ada', 'Bob', 'Cy']);
    expect(filterPeople(people, { ...NO_FILTER, writes: true }).map((p) => p.name)).toEqual(['Ada', 'Cy']);
    expect(filterPeople(people, { ...NO_FILTER, twofaOff: true }).map((p) => p.name)).toEqual(['Bob', 'Cy']);
    expect(filterPeople(people, { ...NO_FILTER, disabled: true }).map((p) => p.name)).toEqual(['Cy']);
    expect(filterPeople(people, { ...NO_FILTER, writes: true, twofaOff: true }).map((p) => p.name)).toEqual(['Cy']);
  });
  it('searches names, emails and usernames in any case', () => {
    expect(filterPeople(people, { ...NO_FILTER, search: 'BOB@' }).map((p) => p.name)).toEqual(['Bob']);
    expect(filterPeople(people, { ...NO_FILTER, search: ' cy ' }).map((p) => p.name)).toEqual(['Cy']);
  });
});
