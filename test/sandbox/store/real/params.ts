/**
 * How swagger-inflector v2.0.11 turns Petstore's parameters into Java values before a controller
 * runs (the `real` flavour), from swagger-api/swagger-inflector@v2.0.11:
 * - converters/DefaultConverter.java `coerceValue`/`cast`: a single-valued parameter takes the
 *   FIRST value when it is repeated (`status=pending&status=sold` is "pending"); a Long is
 *   Long.parseLong, anything else fails with "couldn't convert `x` to type `class
 *   java.lang.Long`"; an array parameter with `style: form, explode: true` (findByTags' `tags`)
 *   takes every value whole (`tags=a,b` is the one tag "a,b") and drops empty ones.
 * - validators/: the chain DefaultValidator, NumericValidator, StringTypeValidator
 *   (InputConverter.defaultValidators). NumericValidator checks any schema's enum first, so a
 *   status outside the enum is refused with ITS wording, which lacks the backtick after the
 *   name: "query parameter `status value `available,sold` is not in the allowable values
 *   `[available, pending, sold]`". A missing optional parameter is null: the schema's
 *   `default: available` is never applied (only ExampleBuilder reads defaults), so findByStatus
 *   without a status reaches Petstore as null.
 * - controllers/OpenAPIOperationController.java `apply`: every problem is collected, then one 400
 *   ApiError "Input error: …" (see answers.ts). A required body that is missing is "The input body
 *   `<the RequestBody model printed by Java>` is required"; the model is abbreviated here.
 */
import type { IncomingMessage } from 'node:http';
import { readText } from '../../http';
import { inputError } from './answers';

/** A path parameter declared `type: integer, format: int64`. */
export function longParam(raw: string): number {
  const n = /^[+-]?\d{1,19}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isFinite(n) || n > 9223372036854775807 || n < -9223372036854775808) {
    throw inputError(`couldn't convert \`${raw}\` to type \`class java.lang.Long\``);
  }
  return n;
}

/** A query parameter declared as one string with an enum (findByStatus' `status`): the first value, checked. */
export function enumQuery(url: URL, name: string, allowed: readonly string[]): string | null {
  const values = url.searchParams.getAll(name);
  if (values.length === 0) return null;
  const value = values[0]!;
  if (!allowed.includes(value)) {
    throw inputError(`query parameter \`${name} value \`${value}\` is not in the allowable values \`[${allowed.join(', ')}]\``);
  }
  return value;
}

/** A plain optional string query parameter: the first value, or null. */
export function stringQuery(url: URL, name: string): string | null {
  return url.searchParams.getAll(name)[0] ?? null;
}

/** An array query parameter with `explode: true`: each value whole, empty ones dropped; null when absent. */
export function explodedQuery(url: URL, name: string): string[] | null {
  const values = url.searchParams.getAll(name);
  if (values.length === 0) return null;
  return values.filter((v) => v !== '');
}

/** The request body's text when there is one (inflector's `ctx.hasEntity()`), else null. */
export async function bodyText(req: IncomingMessage): Promise<string | null> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared === 0 || (Number.isNaN(declared) && req.headers['transfer-encoding'] === undefined)) {
    req.resume();
    return null;
  }
  const text = await readText(req);
  return text === '' ? null : text;
}

/** inflector's refusal of a missing required body. */
export const bodyRequired = (description: string) => inputError(`The input body \`class RequestBody { description: ${description} … required: true }\` is required`);

/**
 * Jersey picks the resource method by the Content-Type the operation `consumes`; Petstore's JSON
 * operations also take XML and forms, which this sandbox does not imitate, so anything but JSON is
 * refused with Jersey's 415 (the real service would refuse only types it does not declare).
 */
export function isJson(req: IncomingMessage): boolean {
  return String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}
