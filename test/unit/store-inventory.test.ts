/**
 * What the inventory's numbers are called (renderer/views/store/inventory.ts): pets per pet status
 * for a store that keeps to document 3, quantities ordered per order status for the real Petstore,
 * plain counts for anything else; the kind's own statuses first.
 */
import { describe, expect, test } from 'vitest';
import { inventoryMeaning } from '../../renderer/views/store/inventory';

describe('inventoryMeaning', () => {
  test('the document’s statuses: pets per status, the three first with zeros, others after', () => {
    const m = inventoryMeaning({ sold: 4, available: 12 }, 'Shop');
    expect(m).toMatchObject({ kind: 'pets', title: 'Pets per status', column: 'Pets', note: null });
    expect(m.rows).toEqual([
      ['available', 12],
      ['pending', 0],
      ['sold', 4],
    ]);
    expect(m.totalWords(1)).toBe('pet in all');
    expect(m.totalWords(16)).toBe('pets in all');
  });

  test('Petstore’s order statuses: quantities ordered, said so under the chart', () => {
    const m = inventoryMeaning({ delivered: 8, placed: 2, approved: 3 }, 'Shop');
    expect(m).toMatchObject({ kind: 'orders', title: 'Quantities ordered per order status', column: 'Quantity' });
    expect(m.note).toContain('Shop counts its orders');
    expect(m.rows).toEqual([
      ['placed', 2],
      ['approved', 3],
      ['delivered', 8],
    ]);
    expect(m.totalWords(13)).toBe('ordered in all');
  });

  test('anything else (both kinds, unknown statuses, nothing) claims nothing about what is counted', () => {
    for (const counts of [{ available: 1, placed: 2 }, { returned: 2 }, {}] as Record<string, number>[]) {
      const m = inventoryMeaning(counts, 'Shop');
      expect(m).toMatchObject({ kind: 'other', title: 'Counts per status', column: 'Count' });
      expect(m.rows).toEqual(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    }
  });
});
