/**
 * The store's user lists from CSV (renderer/views/store/csv.ts): columns matched loosely, each row
 * checked against the contract's NewStoreUser before anything is sent, duplicates in the list
 * named, the store's refusal (`users.2.email`) put back on its row.
 */
import { describe, expect, test } from 'vitest';
import { columnOf, parseUsersCsv, rowErrorsFrom } from '../../renderer/views/store/csv';

describe('parseUsersCsv', () => {
  test('rows become users; loose headers are matched, unknown ones left out, empty optional cells omitted', () => {
    const csv = ['Username, E-mail ,password,First Name,last_name,Phone Number,Status,Notes', 'ann,ann@example.test,pw-1,Ann,,555,2,vip', '', 'bob,bob@example.test,pw-2,,,,,'].join('\r\n');
    const out = parseUsersCsv(csv);
    expect(out.problems).toEqual([]);
    expect(out.ignored).toEqual(['Notes']);
    expect(out.columns).toEqual(['username', 'email', 'password', 'firstName', 'lastName', 'phone', 'userStatus']);
    expect(out.rows.map((r) => [r.row, r.user, r.errors])).toEqual([
      [2, { username: 'ann', email: 'ann@example.test', password: 'pw-1', firstName: 'Ann', phone: '555', userStatus: 2 }, {}],
      [3, { username: 'bob', email: 'bob@example.test', password: 'pw-2' }, {}],
    ]);
  });

  test('problems per row: the contract’s messages, a status that is not a whole number, a name twice', () => {
    const out = parseUsersCsv(['username,email,password,userStatus', 'ann,not-an-email,pw,1', 'bad name,b@example.test,,x', 'ANN,a2@example.test,pw,'].join('\n'));
    expect(out.rows[0]!.errors).toEqual({ email: 'Enter a valid email address.' });
    expect(out.rows[1]!.errors).toMatchObject({
      username: 'Letters, digits, dots, hyphens and underscores only.',
      password: 'Enter a password.',
      userStatus: 'userStatus is a number.',
    });
    expect(out.rows[2]!.errors).toEqual({ username: 'Also in row 2: usernames are unique.' });
    expect(out.rows.every((r) => r.user === null)).toBe(true);
  });

  test('quoted values keep their commas; a row with too many values is flagged', () => {
    const out = parseUsersCsv(['username,email,password,lastName', 'ann,ann@example.test,"pw,with,commas","Smith, Jr."', 'bob,bob@example.test,pw,Builder,extra'].join('\n'));
    expect(out.rows[0]!.user).toMatchObject({ password: 'pw,with,commas', lastName: 'Smith, Jr.' });
    expect(out.rows[1]!.errors._).toMatch(/different number of values/);
  });

  test('the whole text: empty, required columns missing, too many rows', () => {
    expect(parseUsersCsv('  \n ')).toEqual({ rows: [], columns: [], ignored: [], problems: [] });
    expect(parseUsersCsv('name,mail\nann,a@example.test').problems[0]).toMatch(/^The first line must name the columns; username, password are missing/);
    const many = ['username,email,password', ...Array.from({ length: 1001 }, (_, i) => `u${i},u${i}@example.test,pw`)].join('\n');
    expect(parseUsersCsv(many).problems).toContain('At most 1000 users at a time; this list has 1001.');
  });

  test('header names', () => {
    expect(['first_name', 'FirstName', 'given name', 'Surname', 'e-mail', 'tel', 'user status'].map(columnOf)).toEqual([
      'firstName',
      'firstName',
      'firstName',
      'lastName',
      'email',
      null,
      'userStatus',
    ]);
  });
});

test('the store’s refusal of a list lands on its rows', () => {
  const { byIndex, rest } = rowErrorsFrom({ 'users.1.username': 'The username “x” is taken.', 'users.0': 'Bad row.', users: 'At most 1000 users at a time.' });
  expect(byIndex.get(1)).toEqual({ username: 'The username “x” is taken.' });
  expect(byIndex.get(0)).toEqual({ _: 'Bad row.' });
  expect(rest).toEqual(['At most 1000 users at a time.']);
});
