/**
 * Browser mode's static side: the built renderer answered for a request path, with the same CSP as
 * Electron's app:// protocol plus the bridge's own ws: origin. Pure decisions (which file, which
 * status) apart from the one read, so a hostile path is an answer, never a throw.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export type StaticAnswer =
  | { status: 200; body: Buffer; type: string }
  | { status: 400 | 403 | 404; text: string };

/**
 * The file under `root` a request path names, decided without touching the disk: a malformed
 * escape or a NUL is 400, anything that resolves outside `root` (after decoding, so %2e%2e, %2f and
 * backslashes cannot climb) is 403. `/` is index.html.
 */
export function fileFor(root: string, rawPathname: string): { file: string } | { status: 400 | 403 } {
  let path: string;
  try {
    path = decodeURIComponent(rawPathname);
  } catch {
    return { status: 400 };
  }
  if (path.includes('\0')) return { status: 400 };
  const base = resolve(root);
  const file = resolve(base, path === '/' ? 'index.html' : `.${path}`);
  const inside = relative(base, file);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return { status: 403 };
  return { file };
}

/** What to send for `rawPathname`: the file, index.html for an unknown path (the app's own routes), or an error. */
export async function answerStatic(root: string, rawPathname: string): Promise<StaticAnswer> {
  const target = fileFor(root, rawPathname);
  if ('status' in target) return { status: target.status, text: target.status === 400 ? 'Bad request' : 'Forbidden' };
  let file = target.file;
  try {
    if (!(await stat(file)).isFile()) file = join(root, 'index.html');
  } catch {
    file = join(root, 'index.html');
  }
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return { status: 404, text: 'Not found (was the renderer built? run npm run build)' };
  }
  return { status: 200, body, type: MIME[extname(file)] ?? 'application/octet-stream' };
}
