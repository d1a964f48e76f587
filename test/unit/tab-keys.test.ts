import { describe, expect, it } from 'vitest';
import { tabKeyTarget } from '../../renderer/lib/tab-keys';

describe('tabKeyTarget', () => {
  it('moves to the neighbour and wraps at both ends', () => {
    expect(tabKeyTarget('ArrowRight', 0, 3)).toBe(1);
    expect(tabKeyTarget('ArrowDown', 2, 3)).toBe(0);
    expect(tabKeyTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(tabKeyTarget('ArrowUp', 2, 3)).toBe(1);
  });
  it('goes to the ends with Home and End', () => {
    expect(tabKeyTarget('Home', 2, 3)).toBe(0);
    expect(tabKeyTarget('End', 0, 3)).toBe(2);
  });
  it('leaves other keys, and an empty strip, alone', () => {
    expect(tabKeyTarget('Enter', 1, 3)).toBeNull();
    expect(tabKeyTarget('a', 1, 3)).toBeNull();
    expect(tabKeyTarget('ArrowRight', 0, 0)).toBeNull();
  });
});
