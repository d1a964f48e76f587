import * as v from 'valibot';
import { AppError } from '../core/app-error';
import type { Transport } from './transport';

/**
 * Checks a server answer against its schema at the boundary: a malformed answer becomes one
 * bad_response error naming what was expected, never a half-read value.
 */
export function parseAnswer<S extends v.GenericSchema>(schema: S, value: unknown, t: Transport, what: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  throw new AppError({
    code: 'bad_response',
    message: `${t.host} sent ${what} Sitedesk cannot read.`,
    detail: r.issues
      .slice(0, 3)
      .map((i) => `${i.path?.map((p) => String(p.key)).join('.') ?? ''}: ${i.message}`)
      .join('; '),
  });
}
