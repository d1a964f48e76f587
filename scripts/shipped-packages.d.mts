export const root: string;
export const META_DIR: string;
export interface PackageOwner {
  name: string;
  /** The package's folder as written in the path, or null when only its name is known (a bundler's virtual module). */
  dir: string | null;
}
export interface ShippedPackage {
  name: string;
  version: string;
  licence: string;
  /** Absolute, symlinks resolved. */
  dir: string;
  licenceFiles: string[];
  native: boolean;
  homepage: string | null;
  /** renderer, host, shell, browser-mode (bundled) and/or runtime (copied from node_modules). */
  where: string[];
}
export interface BundleRecord {
  bundle: string;
  inputs: string[];
}
export function packageOfPath(path: string): PackageOwner | null;
export function licenceOf(pkg: Record<string, unknown>): string;
export function licenceFromFile(text: string): string | null;
export function licenceFiles(dir: string): string[];
export function hasNativeAddon(dir: string): boolean;
export function resolvePackageDir(name: string, fromDir: string, stopAt: string): string | null;
export function runtimeDependencies(projectDir: string, appPkg: Record<string, unknown>): { name: string; dir: string; via: string }[];
export function readBundleRecords(projectDir: string, metaDir?: string): BundleRecord[];
export function esbuildInputs(metafile: { outputs?: Record<string, { inputs?: Record<string, { bytesInOutput: number }> }> }): string[];
export function shippedPackages(projectDir?: string, options?: { records?: BundleRecord[]; appPkg?: Record<string, unknown> }): ShippedPackage[];
export function formatTable(packages: ShippedPackage[]): string;
