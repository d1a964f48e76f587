export interface PackageContents {
  /** Files inside the app archive, relative to the project. */
  app: string[];
  /** Files copied beside it (resources/). */
  resources: { from: string; to: string; missing?: boolean }[];
  /** Runtime packages electron-builder copies from node_modules. */
  dependencies: string[];
}
export interface BuilderConfig {
  files?: string | string[];
  extraResources?: (string | { from: string; to?: string; filter?: string | string[] })[];
  [key: string]: unknown;
}
export function globToRegExp(glob: string): RegExp;
export function patternFilter(patterns: string[]): (path: string) => boolean;
export function walk(dir: string, base?: string): string[];
export function readBuilderConfig(projectDir?: string, file?: string): BuilderConfig;
export function packageContents(projectDir: string, config: BuilderConfig, appPkg?: Record<string, unknown>): PackageContents;
export function sandboxSecrets(projectDir?: string): string[];
export function packageProblems(contents: PackageContents, options: { secrets: string[]; read(path: string): string; main?: string }): string[];
/** `file` defaults to the project's out/app/licences.json. */
export function noticesGaps(projectDir?: string, file?: string): string[];
export function checkPackage(projectDir?: string, config?: BuilderConfig): { contents: PackageContents; problems: string[] };
export function summary(contents: PackageContents): string;
