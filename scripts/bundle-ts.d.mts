export const root: string;
/** `entry` and `out` are relative to the project root; returns the absolute output path. */
export function bundleTs(entry: string, out: string, define?: Record<string, string>): Promise<string>;
