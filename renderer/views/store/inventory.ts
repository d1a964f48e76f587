/**
 * What a store's inventory numbers are, read from the statuses it counts, so the chart and the
 * table say it honestly. Document 3 counts pets per pet status (available, pending, sold); the real
 * Swagger Petstore adds up the quantities of its ORDERS per order status (placed, approved,
 * delivered). A store that reports other statuses (or both kinds) is shown as it reports them,
 * without a claim about what is counted.
 */
import { ORDER_STATUSES, PET_STATUSES } from '../../../electron/contract/index';

export interface InventoryMeaning {
  kind: 'pets' | 'orders' | 'other';
  /** the chart's caption and the start of its accessible name */
  title: string;
  /** the table's number column */
  column: string;
  /** the words after the total: "pets in all" ("13 pets in all"), "ordered in all" */
  totalWords: (count: number) => string;
  /** a sentence under the panels saying what is counted, or null when the caption says it all */
  note: string | null;
  /** the rows in order: the kind's own statuses first (with zeros), then any others by name */
  rows: [status: string, count: number][];
}

const within = (keys: string[], known: readonly string[]) => keys.length > 0 && keys.every((k) => known.includes(k));

function ordered(counts: Record<string, number>, first: readonly string[]): [string, number][] {
  const others = Object.entries(counts)
    .filter(([s]) => !first.includes(s))
    .sort(([a], [b]) => a.localeCompare(b));
  return [...first.map((s): [string, number] => [s, counts[s] ?? 0]), ...others];
}

export function inventoryMeaning(counts: Record<string, number>, siteName: string): InventoryMeaning {
  const keys = Object.keys(counts);
  if (within(keys, PET_STATUSES)) {
    return {
      kind: 'pets',
      title: 'Pets per status',
      column: 'Pets',
      totalWords: (count) => `${count === 1 ? 'pet' : 'pets'} in all`,
      note: null,
      rows: ordered(counts, PET_STATUSES),
    };
  }
  if (within(keys, ORDER_STATUSES)) {
    return {
      kind: 'orders',
      title: 'Quantities ordered per order status',
      column: 'Quantity',
      totalWords: () => 'ordered in all',
      note: `${siteName} counts its orders here: the quantities ordered, by the orders’ status (placed, approved, delivered). Pets are not counted.`,
      rows: ordered(counts, ORDER_STATUSES),
    };
  }
  return {
    kind: 'other',
    title: 'Counts per status',
    column: 'Count',
    totalWords: () => 'counted in all',
    note: `These are the numbers ${siteName} reports per status; it does not say whether it counts pets or orders.`,
    rows: ordered(counts, []),
  };
}
