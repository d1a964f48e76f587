/**
 * The subscribers table's rows without a browser (the paging itself is lib/paged-rows, tested
 * through AuditRows in audit-view.test.ts): page 1 heads the table whenever it is read (a refresh
 * after a bulk action too), a person changed or deleted here changes in place without a read, a
 * refresh reads the held pages again and keeps their rows until they come, and every request is
 * counted for the benchmark.
 */
import { expect, test } from 'vitest';
import type { SubscriberPage, SubscriberRow } from '../../electron/contract/index';
import { SubscriberRows } from '../../renderer/views/mailer/subscribers/subscriber-rows.svelte';

const person = (id: number, name = `P${id}`): SubscriberRow => ({ id, email: `p${id}@example.test`, name, status: 'subscribed', source: 'form', sourceRef: null, language: null, suppressed: false, importId: null, lists: [], tags: [], createdAt: null, updatedAt: null, consentAt: null, confirmedAt: null, unsubscribedAt: null });
const settle = () => new Promise((r) => setTimeout(r, 0));

function site(total: number) {
  const asked: number[] = [];
  let subscribed = total;
  const load = async (page: number, perPage: number): Promise<SubscriberPage> => {
    asked.push(page);
    const from = (page - 1) * perPage;
    const items = Array.from({ length: Math.max(0, Math.min(perPage, total - from)) }, (_, i) => person(from + i + 1));
    return { items, unreadable: [], total, page, perPage, next: from + perPage < total ? page + 1 : null, statusCounts: { subscribed, pending: 0, unsubscribed: 0, bounced: 0, complained: 0 } as SubscriberPage['statusCounts'], listCounts: null, copiedAt: null, filterIgnored: [] };
  };
  return { asked, load, setSubscribed: (n: number) => (subscribed = n) };
}

test('page 1 heads the table, again at a refresh; a refresh reads the held pages once more and keeps the rows meanwhile', async () => {
  const s = site(1000);
  const rows = new SubscriberRows(s.load, { perPage: 100 });
  await rows.reset();
  expect(rows.head?.total).toBe(1000);
  expect(rows.head).not.toHaveProperty('items');
  rows.ensureRows([450]);
  await settle();
  expect(s.asked).toEqual([1, 5]);
  s.setSubscribed(990);
  rows.refresh();
  // the rows stay while their pages are read again
  expect(rows.personAt(450)?.id).toBe(451);
  await settle();
  expect(s.asked).toEqual([1, 5, 1, 5]);
  expect(rows.head?.statusCounts?.subscribed).toBe(990);
  expect(rows.fetched).toBe(4);
  expect(rows.held).toBe(2);
});

test('a person changed or deleted here changes in place, with no read; a range’s ids skip what is gone', async () => {
  const s = site(300);
  const rows = new SubscriberRows(s.load, { perPage: 100 });
  await rows.reset();
  const before = rows.version;
  rows.put(person(3, 'Renamed'));
  expect(rows.personAt(2)?.name).toBe('Renamed');
  rows.gone(4);
  expect(rows.at(3)).toMatchObject({ kind: 'gone', person: { id: 4 } });
  expect(rows.personAt(3)).toBeUndefined();
  expect(rows.idsBetween(4, 1)).toEqual([2, 3, 5]);
  expect(rows.version).toBe(before + 2);
  // someone not held: nothing changes
  rows.put(person(250));
  expect(rows.version).toBe(before + 2);
  expect(s.asked).toEqual([1]);
});

test('a failed first page says why and forgets the head', async () => {
  const s = site(10);
  let fail = false;
  const rows = new SubscriberRows((p, n) => (fail ? Promise.reject(new Error('The site did not answer.')) : s.load(p, n)));
  await rows.reset();
  expect(rows.head).not.toBeNull();
  fail = true;
  await rows.reset();
  expect(rows.error).toBe('The site did not answer.');
  expect(rows.head).toBeNull();
  expect(rows.count).toBe(0);
});
