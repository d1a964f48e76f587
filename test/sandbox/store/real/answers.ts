/**
 * How the real Swagger Petstore v3 answers, as far as the bodies and headers go (the `real`
 * flavour). Petstore runs on swagger-inflector v2.0.11 under Jersey, and three kinds of answer
 * come out of that stack:
 *
 * - A controller's entity. Petstore's controllers (swagger-api/swagger-petstore:
 *   src/main/java/io/swagger/petstore/controller/*.java) answer either a model object, serialized
 *   by Jackson with swagger-core's mapper (null fields left out: swagger-api/swagger-core:
 *   modules/swagger-core/src/main/java/io/swagger/v3/core/util/ObjectMapperFactory.java), or a
 *   bare Java string such as "Pet not found" or "Pet deleted". Jackson's JAX-RS provider never
 *   touches strings, so Jersey writes them as they are: plain text, not a JSON string, although
 *   the Content-Type says application/json. A null entity (deleting an order or a user) is an
 *   empty 200 without a Content-Type.
 * - inflector's own refusals of parameters and bodies (OpenAPIOperationController.apply in
 *   swagger-api/swagger-inflector@v2.0.11, src/main/java/io/swagger/oas/inflector/controllers/):
 *   status 400 and an ApiError `{code, message}` whose message starts "Input error: " (or
 *   "Input errors: " for several), mapped by utils/DefaultExceptionMapper.java.
 * - Anything a controller throws (Petstore's lists hit NullPointerExceptions on records with a
 *   null id or username): 500 with ApiErrorUtils.createInternalError()'s message, "There was an
 *   error processing your request. It has been logged (ID: <16 hex digits>)".
 * Jersey's own 404/405/415 go through the same mapper: `{code, message: "HTTP 404 Not Found"}`.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpProblem, type ErrorWriter } from '../../http';

/** What Jersey names its own refusals (WebApplicationException messages). */
const JERSEY: Record<number, string> = { 404: 'HTTP 404 Not Found', 405: 'HTTP 405 Method Not Allowed', 415: 'HTTP 415 Unsupported Media Type' };

const internalErrorMessage = () => `There was an error processing your request. It has been logged (ID: ${randomBytes(8).toString('hex')})`;

/** The ApiError body inflector writes for every exception: `{code, message}`, JSON. */
export const inflectorError: ErrorWriter = (res, status, _title, detail) => {
  const message = status >= 500 ? internalErrorMessage() : (JERSEY[status] ?? detail);
  const text = JSON.stringify({ code: status, message });
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
};

/** inflector refusing parameters or a body before Petstore sees them (one message per problem). */
export function inputError(...messages: string[]): HttpProblem {
  return new HttpProblem(400, 'Bad Request', `Input error${messages.length > 1 ? 's' : ''}: ${messages.join(', ')}`);
}

/**
 * A Java exception inside Petstore (a NullPointerException on a record without id or username,
 * Jackson failing on a null map key): the caller lets it escape, inflector answers 500.
 */
export class JavaException extends Error {
  constructor(what: string) {
    super(`java.lang.${what}`);
  }
}

/**
 * The Content-Type inflector gives an entity the controller set no type for (its 404s and 400s
 * with a text): OpenAPIOperationController.identifyResponseContentType walks the operation's
 * declared response types and, unless the Accept header names one, keeps the last one it saw.
 * Petstore declares JSON then XML, so a client sending `Accept: *\/*` (fetch's default) gets
 * its "Pet not found" labelled application/xml.
 */
function untypedContentType(req: IncomingMessage, declared: readonly string[]): string | null {
  if (declared.length === 0) return null;
  const accept = String(req.headers.accept ?? '');
  for (const type of declared) if (accept.split(',').some((a) => a.trim().split(';')[0]!.endsWith(`/${type.split('/')[1]}`))) return type;
  return declared[declared.length - 1]!;
}

/** The types Petstore's operations declare for their answers (openapi.yaml), for untyped entities. */
const JSON_AND_XML = ['application/json', 'application/xml'] as const;

/** A controller's entity (a model object or a string), typed application/json as Util.getMediaType does. */
export function entity(res: ServerResponse, body: unknown, status = 200): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A controller's string without a type of its own ("Pet not found", "No status provided. Try again?"). */
export function untypedText(req: IncomingMessage, res: ServerResponse, status: number, text: string, declared: readonly string[] = JSON_AND_XML): void {
  const type = untypedContentType(req, declared);
  res.writeHead(status, { ...(type ? { 'Content-Type': type } : {}), 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** A null entity: 200, no body, no type (deleteOrder and deleteUser answer so whether or not anything was there). */
export function noEntity(res: ServerResponse): void {
  res.writeHead(200, { 'Content-Length': '0' });
  res.end();
}

// ── java.util.Date.toString() ─────────────────────────────────────────────────────────────────

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * The short names Java prints for a few zones a server may run in, standard then daylight time;
 * a zone not listed prints as `GMT+hh:mm`, as Java does for zones without a short name.
 */
const ZONE_NAMES: Record<string, [string, string]> = {
  UTC: ['UTC', 'UTC'],
  'Etc/UTC': ['UTC', 'UTC'],
  GMT: ['GMT', 'GMT'],
  'Europe/Berlin': ['CET', 'CEST'],
  'Europe/Paris': ['CET', 'CEST'],
  'Europe/London': ['GMT', 'BST'],
  'America/New_York': ['EST', 'EDT'],
  'America/Chicago': ['CST', 'CDT'],
  'America/Denver': ['MST', 'MDT'],
  'America/Los_Angeles': ['PST', 'PDT'],
  'Asia/Tokyo': ['JST', 'JST'],
};

/** Minutes east of UTC of `zone` at `ms`. */
function offsetMinutes(ms: number, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(ms));
  const n = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  const asUtc = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * `new Date(ms).toString()` of a JVM running in `zone` (an IANA name): `EEE MMM dd HH:mm:ss zzz
 * yyyy`, e.g. `Fri Nov 20 09:12:01 UTC 2026` — the form of Petstore's X-Expires-After
 * (UserController.loginUser).
 */
export function javaDateString(ms: number, zone = 'UTC'): string {
  const offset = offsetMinutes(ms, zone);
  const local = new Date(ms + offset * 60_000);
  const january = offsetMinutes(Date.UTC(local.getUTCFullYear(), 0, 1), zone);
  const july = offsetMinutes(Date.UTC(local.getUTCFullYear(), 6, 1), zone);
  const daylight = january !== july && offset === Math.max(january, july);
  const names = ZONE_NAMES[zone];
  const sign = offset < 0 ? '-' : '+';
  const name = names ? names[daylight ? 1 : 0] : `GMT${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${pad(local.getUTCDate())} ` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} ${name} ${local.getUTCFullYear()}`
  );
}
