/**
 * What every reply of the real Grav API plugin has in common (the `real` flavour), where it
 * differs from the documents:
 *
 *   - the headers PHP and Grav add to every reply: `Expires` in 1981, `Pragma: no-cache`,
 *     `Cache-Control: no-store, max-age=0` and a non-standard `Content-Encoding: none` (recordings
 *     01–25; getgrav/grav-plugin-api:classes/Api/Response/ApiResponse.php sets the Cache-Control);
 *   - errors as getgrav/grav-plugin-api:classes/Api/Response/ErrorResponse.php fromException()
 *     writes them: `{status, title, detail}` plus `code` and `errors` when the exception has them,
 *     JSON with non-ASCII escaped; a 401 carries `WWW-Authenticate: Bearer`
 *     (Exceptions/UnauthorizedException.php); every validation failure is a 422 (ValidationException:
 *     the plugin answers 400 only for a bad environment header);
 *   - the environment header: only `X-Grav-Environment` is read, and a value that is not a
 *     hostname-like name answers 400 on every route, public ones included
 *     (classes/Api/ApiRouter.php applyEnvironment(), which runs before authentication);
 *   - `X-Invalidates` on writes (Controllers/AbstractApiController.php invalidationHeaders());
 *   - header values with routes carry the route's raw UTF-8 bytes, as PHP sends them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpProblem } from '../http';

export const REAL_HEADERS: Record<string, string> = {
  Expires: 'Thu, 19 Nov 1981 08:52:00 GMT',
  Pragma: 'no-cache',
  'Cache-Control': 'no-store, max-age=0',
  'Content-Encoding': 'none',
};

/** PHP's json_encode without JSON_UNESCAPED_UNICODE: every character past ASCII as `\uXXXX`. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The real service's problem answer (an ErrorWriter for the Router). */
export function realProblem(res: ServerResponse, status: number, title: string, detail: string, extra: Record<string, unknown> = {}): void {
  // the plugin's only 400 is the environment header (written by environmentProblem); everything
  // the documents call a bad request is its ValidationException
  if (status === 400) {
    status = 422;
    title = 'Unprocessable Entity';
  }
  const body: Record<string, unknown> = { status, title, detail };
  if (typeof extra.code === 'string') body.code = extra.code;
  if (Array.isArray(extra.errors) && extra.errors.length) body.errors = extra.errors;
  const text = asciiJson(body);
  const headers: Record<string, string | number> = { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store, max-age=0', 'Content-Length': Buffer.byteLength(text) };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer';
  res.writeHead(status, headers);
  res.end(text);
}

const ENVIRONMENT_RE = /^[a-zA-Z0-9][a-zA-Z0-9._-]*$/;

/** The 400 a bad `X-Grav-Environment` gets, or null (absent, empty or a valid name). */
export function environmentProblem(req: IncomingMessage): HttpProblem | null {
  const raw = req.headers['x-grav-environment'];
  const value = Array.isArray(raw) ? raw.join(', ') : (raw ?? '');
  if (value === '' || ENVIRONMENT_RE.test(value)) return null;
  return new HttpProblem(400, 'Bad Request', 'Invalid environment name. Use a valid hostname (e.g., localhost, mysite.com).');
}

/** Writes the environment 400 (as a 400: the one place the plugin answers one). */
export function writeEnvironmentProblem(res: ServerResponse, problem: HttpProblem): void {
  const text = asciiJson({ status: problem.status, title: problem.title, detail: problem.message });
  res.writeHead(problem.status, { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store, max-age=0', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A header value holding text as PHP sends it: its UTF-8 bytes, unencoded. */
export function rawHeader(value: string): string {
  return Buffer.from(value, 'utf8').toString('latin1');
}

/** `X-Invalidates: tag, tag` (tags name routes, sent as raw UTF-8). */
export function invalidates(tags: string[]): Record<string, string> {
  const list = tags.filter((t) => t !== '');
  return list.length ? { 'X-Invalidates': rawHeader(list.join(', ')) } : {};
}
