/**
 * Where a key moves the focus in a strip of tabs (WAI-ARIA's tabs pattern): arrows wrap around,
 * Home and End go to the ends. `null` for any other key, which the strip then leaves alone.
 */
export function tabKeyTarget(key: string, index: number, count: number): number | null {
  if (count <= 0) return null;
  const last = count - 1;
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return index >= last ? 0 : index + 1;
    case 'ArrowLeft':
    case 'ArrowUp':
      return index <= 0 ? last : index - 1;
    case 'Home':
      return 0;
    case 'End':
      return last;
    default:
      return null;
  }
}
