/**
 * The built renderer served for a request path: which file a path names (one rule for Electron's
 * app:// protocol, main.ts, and browser mode's server) and its content type. Pure decisions (which
 * file, which status) apart from the one read, so a hostile path is an answer, never a throw.
 */
import { readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
};

/** The content type a renderer file is served with. */
export const mimeOf = (file: string): string => MIME[extname(file).toLowerCase()] ?? 'application/octet-stream';

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
  return { status: 200, body, type: mimeOf(file) };
}
