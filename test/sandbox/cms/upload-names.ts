/**
 * The fixed checks of an uploaded file's name, shared by the site media library and page media:
 * a base name without traversal, not hidden, with an extension, none of whose dot-separated parts
 * is dangerous; and the wording of the size limit in their refusals. Each route passes its own
 * 422, its list of dangerous extensions (the site's `security` setting, or the CMS's default) and
 * its own extra refusal.
 */

/** The CMS's default `security.uploads_dangerous_extensions` (the page media's fixed list). */
export const DANGEROUS_EXTENSIONS: readonly string[] = ['php', 'php2', 'php3', 'php4', 'php5', 'phar', 'phtml', 'html', 'htm', 'shtml', 'shtm', 'js', 'exe'];

/** A size limit as the refusals word it: whole megabytes as `N MB`, else `N bytes`. */
export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MB` : `${bytes} bytes`;
}

export interface UploadNameRules {
  /** the extensions refused in any dot-separated part of the name */
  dangerous: readonly string[];
  /** the route's 422 for a message */
  fail: (detail: string) => Error;
  /** the message for an empty name, when the route has one of its own */
  empty?: string;
  /** a route's own refusal of a clean name, checked before its extension */
  refuse?: (name: string) => string | null;
}

/** A client file name made safe, or a 422: a base name, no traversal, not hidden, with an allowed extension. */
export function checkUploadName(raw: string, rules: UploadNameRules): string {
  const { fail } = rules;
  const name = raw.split(/[/\\]/).pop() ?? '';
  if (name === '' && rules.empty !== undefined) throw fail(rules.empty);
  if (name === '' || name.includes('..') || name.includes('\0') || name.startsWith('.')) throw fail(`Invalid filename: '${name}'.`);
  const refusal = rules.refuse?.(name);
  if (refusal) throw fail(refusal);
  const parts = name.toLowerCase().split('.').slice(1);
  if (parts.length === 0 || parts[parts.length - 1] === '') throw fail('Uploaded file must have a file extension.');
  // every dot-separated part counts (`shell.php.jpg` is refused), as the real service checks
  for (const part of parts) {
    if (rules.dangerous.includes(part)) throw fail(`File extension '.${part}' is not allowed for security reasons.`);
  }
  return name;
}
