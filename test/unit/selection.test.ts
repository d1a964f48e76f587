/** Selection (renderer/lib/selection.svelte.ts): the multi-select the page tree and list share. */
import { describe, expect, test } from 'vitest';
import { Selection } from '../../renderer/lib/selection.svelte';

const rows = ['/a', '/b', '/c', '/d', '/e'];

describe('Selection', () => {
  test('only selects one row and makes it the anchor', () => {
    const s = new Selection<string>();
    s.only('/b');
    expect(s.list).toEqual(['/b']);
    expect(s.anchor).toBe('/b');
    expect(s.has('/b')).toBe(true);
  });

  test('toggle adds and removes, moving the anchor', () => {
    const s = new Selection<string>();
    s.only('/a');
    s.toggle('/c');
    expect([...s.items].sort()).toEqual(['/a', '/c']);
    s.toggle('/a');
    expect(s.list).toEqual(['/c']);
    expect(s.anchor).toBe('/a');
  });

  test('range runs from the anchor in the order on screen, either way', () => {
    const s = new Selection<string>();
    s.only('/d');
    s.range('/b', rows);
    expect(s.list).toEqual(['/b', '/c', '/d']);
    expect(s.anchor).toBe('/d'); // a range keeps its start
    s.range('/e', rows);
    expect(s.list).toEqual(['/d', '/e']);
  });

  test('range with add keeps what was selected', () => {
    const s = new Selection<string>();
    s.only('/a');
    s.toggle('/d');
    s.range('/e', rows, true);
    expect([...s.items].sort()).toEqual(['/a', '/d', '/e']);
  });

  test('a range from an anchor not on screen (or to a row not on screen) selects just the row', () => {
    const s = new Selection<string>();
    s.only('/gone');
    s.range('/c', rows);
    expect(s.list).toEqual(['/c']);
    s.range('/elsewhere', rows);
    expect(s.list).toEqual(['/elsewhere']);
    expect(s.anchor).toBe('/elsewhere');
  });

  test('set, clear', () => {
    const s = new Selection<string>();
    s.set(rows);
    expect(s.size).toBe(5);
    s.clear();
    expect(s.size).toBe(0);
    expect(s.anchor).toBeNull();
  });

  test('remap follows moved rows and drops the gone ones, the anchor too', () => {
    const s = new Selection<string>();
    s.only('/a');
    s.toggle('/b');
    s.toggle('/c');
    s.remap((r) => (r === '/a' ? '/x/a' : r === '/b' ? null : r));
    expect([...s.items].sort()).toEqual(['/c', '/x/a']);
    expect(s.anchor).toBe('/c');
    s.remap((r) => (r === '/c' ? null : r));
    expect(s.anchor).toBeNull();
  });

  test('the set is replaced on every change, never mutated', () => {
    const s = new Selection<string>();
    const before = s.items;
    s.toggle('/a');
    expect(s.items).not.toBe(before);
    expect(before.size).toBe(0);
  });
});
