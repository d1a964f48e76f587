/**
 * HostMirror (renderer/state/host-mirror.svelte.ts): the one base of the renderer's lists kept
 * current by Host events. The point under test is the sequence guard: a list answer that left the
 * Host before an event arrived never undoes that event.
 */
import { describe, expect, test } from 'vitest';
import { HostMirror } from '../../renderer/state/host-mirror.svelte';
import { AppError } from '../../renderer/lib/errors';

interface Item {
  siteId: string;
  v: number;
}

/** A mirror whose list call is answered by the test, one promise at a time. */
class TestMirror extends HostMirror<Item> {
  answers: Array<{ resolve: (list: Item[]) => void; reject: (err: unknown) => void }> = [];
  listeners = new Set<(item: Item) => void>();
  changes: Array<[string, number | undefined, number]> = [];
  replacedWith: string[][] = [];
  guardOrder = false;

  protected fetch() {
    return new Promise<Item[]>((resolve, reject) => this.answers.push({ resolve, reject }));
  }
  protected keyOf(item: Item) {
    return item.siteId;
  }
  protected follow() {
    const cb = (item: Item) => this.take(item);
    this.listeners.add(cb);
    return [() => this.listeners.delete(cb)];
  }
  protected override isNewer(held: Item, next: Item) {
    return !this.guardOrder || next.v >= held.v;
  }
  protected override changed(key: string, before: Item | undefined, after: Item) {
    this.changes.push([key, before?.v, after.v]);
  }
  protected override replaced(keys: ReadonlySet<string>) {
    this.replacedWith.push([...keys].sort());
  }
  answer(i: number, list: Item[]) {
    this.answers[i]!.resolve(list);
  }
  fail(i: number, err: unknown) {
    this.answers[i]!.reject(err);
  }
  emit(item: Item) {
    for (const cb of this.listeners) cb(item);
  }
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('HostMirror', () => {
  test('load takes the whole list and marks it loaded', async () => {
    const m = new TestMirror();
    const done = m.load();
    m.answer(0, [{ siteId: 'a', v: 1 }, { siteId: 'b', v: 1 }]);
    await done;
    expect(m.loaded).toBe(true);
    expect(m.item('a')).toEqual({ siteId: 'a', v: 1 });
    expect(m.item('b')?.v).toBe(1);
    expect(m.item('c')).toBeNull();
    expect(m.item(null)).toBeNull();
    expect(m.replacedWith).toEqual([['a', 'b']]);
  });

  test('an event that arrives while the list is on its way is not undone by the slower answer', async () => {
    const m = new TestMirror();
    const stop = m.start();
    const done = m.load();
    m.emit({ siteId: 'a', v: 2 }); // newer than what the list will say
    m.emit({ siteId: 'c', v: 5 }); // a site the list does not know yet
    m.answer(0, [{ siteId: 'a', v: 1 }, { siteId: 'b', v: 1 }]);
    await done;
    expect(m.item('a')?.v).toBe(2);
    expect(m.item('b')?.v).toBe(1);
    expect(m.item('c')?.v).toBe(5);
    stop();
  });

  test('a later load takes the list again for sites with no event since it started', async () => {
    const m = new TestMirror();
    const first = m.load();
    m.answer(0, [{ siteId: 'a', v: 1 }]);
    await first;
    m.take({ siteId: 'a', v: 2 });
    const second = m.load();
    m.answer(1, [{ siteId: 'a', v: 3 }]);
    await second;
    expect(m.item('a')?.v).toBe(3);
  });

  test('a site missing from a newer list is dropped', async () => {
    const m = new TestMirror();
    const first = m.load();
    m.answer(0, [{ siteId: 'a', v: 1 }, { siteId: 'b', v: 1 }]);
    await first;
    const second = m.load();
    m.answer(1, [{ siteId: 'a', v: 1 }]);
    await second;
    expect(m.item('b')).toBeNull();
  });

  test('a whole-list event makes an answer already on its way stale', async () => {
    const m = new TestMirror();
    const done = m.load();
    m.takeAll([{ siteId: 'x', v: 9 }]);
    m.answer(0, [{ siteId: 'a', v: 1 }]);
    await done;
    expect(m.bySite).toEqual({ x: { siteId: 'x', v: 9 } });
    expect(m.loaded).toBe(true);
  });

  test('a failed load keeps what is held and says why', async () => {
    const m = new TestMirror();
    m.take({ siteId: 'a', v: 1 });
    const done = m.load();
    m.fail(0, new AppError({ code: 'host_unavailable', message: 'Sitedesk is not connected yet.' }));
    await done;
    expect(m.loadError?.code).toBe('host_unavailable');
    expect(m.loaded).toBe(false);
    expect(m.item('a')?.v).toBe(1);
    // the next load that answers clears the error
    const again = m.load();
    m.answer(1, [{ siteId: 'a', v: 2 }]);
    await again;
    expect(m.loadError).toBeNull();
    expect(m.item('a')?.v).toBe(2);
  });

  test('isNewer keeps an older item from replacing a newer one', () => {
    const m = new TestMirror();
    m.guardOrder = true;
    m.take({ siteId: 'a', v: 4 });
    m.take({ siteId: 'a', v: 3 });
    expect(m.item('a')?.v).toBe(4);
    m.take({ siteId: 'a', v: 5 });
    expect(m.item('a')?.v).toBe(5);
  });

  test('changed hears every replacement with the item it replaced', async () => {
    const m = new TestMirror();
    m.take({ siteId: 'a', v: 1 });
    m.take({ siteId: 'a', v: 2 });
    const done = m.load();
    m.answer(0, [{ siteId: 'b', v: 7 }]);
    await done;
    expect(m.changes).toEqual([
      ['a', undefined, 1],
      ['a', 1, 2],
      ['b', undefined, 7],
    ]);
  });

  test('stop unsubscribes from the events', async () => {
    const m = new TestMirror();
    const stop = m.start();
    expect(m.listeners.size).toBe(1);
    stop();
    expect(m.listeners.size).toBe(0);
    await tick();
  });

  test('prune forgets sites that are gone', () => {
    const m = new TestMirror();
    m.take({ siteId: 'a', v: 1 });
    m.take({ siteId: 'b', v: 1 });
    m.prune(['b']);
    expect(Object.keys(m.bySite)).toEqual(['b']);
  });
});
