/**
 * Text that is not well-formed Unicode: a lone half of a surrogate pair (`\ud800`), which JSON can
 * carry but nothing downstream can: a URL cannot encode it (`encodeURIComponent` throws), UTF-8
 * cannot hold it (it would become U+FFFD silently, changing the text). Every input is checked once
 * at the Host's boundary (core/dispatch.ts) and refused naming the field; names from a site are
 * checked again where a path is made (`segmentProblem`).
 */

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether `text` holds a lone surrogate. */
export const hasBrokenCharacter = (text: string): boolean => LONE_SURROGATE.test(text);

export const BROKEN_TEXT = 'This text holds a broken character (half of a surrogate pair) that cannot be saved or sent.';

/**
 * The path of the first string in `input` (a value or an object's key) with a broken character,
 * or null when there is none. Iterative: a deep input cannot overflow the stack.
 */
export function brokenTextPath(input: unknown): (string | number)[] | null {
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      if (hasBrokenCharacter(value)) return path;
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: [...path, i] });
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (const k of keys) if (hasBrokenCharacter(k)) return [...path, k];
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: (value as Record<string, unknown>)[keys[i]!], path: [...path, keys[i]!] });
    }
  }
  return null;
}
