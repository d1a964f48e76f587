/** How the Settings area names a setting and shows a value in words (the review before a save, the undo). */
import type { BlueprintField } from '../../../electron/contract/index';

/** The blueprint's label for a full name, or the name's last part. */
export function labelFor(fields: readonly BlueprintField[], name: string): string {
  const walk = (list: readonly BlueprintField[]): string | undefined => {
    for (const f of list) {
      if (f.name === name && f.label?.trim()) return f.label.trim();
      const inner = f.fields ? walk(f.fields) : undefined;
      if (inner) return inner;
    }
    return undefined;
  };
  return walk(fields) ?? name.split('.').pop() ?? name;
}

/** A value as a short phrase: text quoted, on/off, lists joined, "not set". */
export function describeValue(v: unknown): string {
  if (v === undefined || v === null || v === '') return 'not set';
  if (v === true) return 'on';
  if (v === false) return 'off';
  if (typeof v === 'string') return `“${v.length > 120 ? `${v.slice(0, 119)}…` : v}”`;
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => (typeof x === 'object' && x !== null ? JSON.stringify(x) : String(x))).join(', ') : 'an empty list';
  const text = JSON.stringify(v);
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
