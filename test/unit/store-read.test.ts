/**
 * How the Host reads store answers and builds its writes, without I/O: lists read entry by entry
 * with what is wrong said in words (electron/api/store/read.ts, pets.ts), the update bodies that
 * carry over what the form does not show (a pet's tag and category ids and status, a user's every
 * field and username), and the contract's photo entries (a typed address, or an entry kept as the
 * store had it).
 */
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { PetUpdate } from '../../electron/contract/store';
import { Transport } from '../../electron/api/transport';
import { readOne, readRows, SafeId, Text } from '../../electron/api/store/read';
import { updateBody as petUpdateBody } from '../../electron/api/store/pets';
import { updateBody as userUpdateBody } from '../../electron/api/store/users';

const t = new Transport({ baseUrl: 'http://shop.test/api/v3', fetch: () => Promise.reject(new Error('no network in unit tests')) });
const Row = v.object({ id: SafeId, name: Text }, 'should be an object');

describe('readRows', () => {
  test('what reads is kept; what does not is set aside with its id, its name and what is wrong', () => {
    const rows = readRows(Row, [{ id: 1, name: 'Rex' }, { id: 21 }, { id: 9223372036854775807, name: 'Huge' }, { name: 'No id' }, 'text', null, { id: 2, name: 7 }], t, 'a pet list', 'GET /pet/findByStatus', (r) =>
      typeof r.name === 'string' ? r.name : null,
    );
    expect(rows.rows).toEqual([{ id: 1, name: 'Rex' }]);
    expect(rows.unreadable).toEqual([
      { id: 21, label: null, problem: 'name is missing' },
      { id: null, label: 'Huge', problem: 'id should be a whole number small enough to use safely (it is 9223372036854776000)' },
      { id: null, label: 'No id', problem: 'id is missing' },
      { id: null, label: null, problem: 'the answer should be an object (it is "text")' },
      { id: null, label: null, problem: 'the answer should be an object (it is null)' },
      { id: 2, label: null, problem: 'name should be text (it is 7)' },
    ]);
  });

  test('an answer that is not a list fails as a whole, naming the route', () => {
    expect(() => readRows(Row, { pets: [] }, t, 'a pet list', 'GET /pet/findByTags')).toThrow('shop.test sent a pet list Sitedesk cannot read: GET /pet/findByTags answered {"pets":[]} where a list belongs.');
  });

  test('readOne names the route and the first field', () => {
    expect(() => readOne(Row, { id: 3, name: null }, t, 'a pet', 'GET /pet/3')).toThrow('shop.test sent a pet Sitedesk cannot read: GET /pet/3, name should be text (it is null).');
  });
});

describe('a pet update body', () => {
  const stored = {
    id: 7,
    category: { id: 2, name: 'Cats' },
    name: 'Milo',
    photoUrls: ['/tmp/inflector1.tmp', 'https://example.com/milo.jpg'],
    tags: [
      { id: 5, name: 'young' },
      { id: 2, name: 'tag1' },
    ],
    status: 'reserved',
    extra: 'kept',
  };

  test('tag and category ids kept for names that stay; a status the form does not offer kept when none is chosen; unknown fields kept', () => {
    expect(petUpdateBody(stored, { id: 7, name: 'Milo II', category: { name: 'Cats' }, photoUrls: [{ kept: '/tmp/inflector1.tmp' }, 'https://example.com/new.jpg'], tags: ['young', 'cuddly'] })).toEqual({
      id: 7,
      name: 'Milo II',
      category: { id: 2, name: 'Cats' },
      photoUrls: ['/tmp/inflector1.tmp', 'https://example.com/new.jpg'],
      tags: [{ id: 5, name: 'young' }, { name: 'cuddly' }],
      status: 'reserved',
      extra: 'kept',
    });
  });

  test('a new category name goes without the old id; a chosen status wins; no category is no category', () => {
    expect(petUpdateBody(stored, { id: 7, name: 'Milo', category: { name: 'Dogs' }, photoUrls: [], tags: [], status: 'sold' })).toMatchObject({ category: { name: 'Dogs' }, status: 'sold' });
    expect(petUpdateBody(stored, { id: 7, name: 'Milo', category: { name: 'Dogs' }, photoUrls: [], tags: [] }).category).toEqual({ name: 'Dogs' });
    expect(petUpdateBody(stored, { id: 7, name: 'Milo', category: null, photoUrls: [], tags: [] })).not.toHaveProperty('category');
  });
});

describe('a user update body', () => {
  test('the account as read with the changes on top: every other field, the password as read, and the username always', () => {
    const stored = { id: 4, username: 'frank', firstName: 'Frank', lastName: 'Old', email: 'f@example.test', password: 'as-read', phone: '111', userStatus: 1, nickname: 'kept' };
    expect(userUpdateBody(stored, { lastName: 'New', phone: undefined })).toEqual({ ...stored, lastName: 'New' });
    expect(userUpdateBody(stored, { password: 'new-pw' })).toEqual({ ...stored, password: 'new-pw' });
    // a change cannot take the username away
    expect(userUpdateBody(stored, { username: undefined } as never).username).toBe('frank');
  });
});

describe('PetUpdate photo entries', () => {
  const input = (photoUrls: unknown[]) => ({ siteId: '3f2b8c1e-4d5a-4b6c-9e7f-0a1b2c3d4e5f', id: 7, name: 'Milo', photoUrls, tags: [] });

  test('a typed entry must be an address; an entry kept as the store had it may be anything', () => {
    expect(v.safeParse(PetUpdate, input(['https://example.com/a.jpg', { kept: '/tmp/inflector1.tmp' }, { kept: 'url1' }])).success).toBe(true);
    const typed = v.safeParse(PetUpdate, input([{ kept: 'url1' }, 'not an address']));
    expect(typed.success).toBe(false);
    expect(typed.issues?.map((i) => [i.path?.map((p) => p.key).join('.'), i.message])).toEqual([['photoUrls.1', 'Enter a full address, such as https://example.com/rex.jpg.']]);
    expect(v.safeParse(PetUpdate, input([{ kept: 'x', more: 1 }])).success).toBe(false);
  });
});
