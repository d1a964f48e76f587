/**
 * The one runtime global the shared layer uses beyond ES2023. Both its runtimes have it (Node and
 * Chromium); the shared layer is type-checked without Node or DOM types, so it is declared here.
 */
declare function structuredClone<T>(value: T): T;
