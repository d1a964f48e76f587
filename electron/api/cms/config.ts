/**
 * A CMS site's configuration (the real service's `/config`: the documents name it without a
 * shape). `GET /config` lists the scopes; `GET /config/{scope}` answers the scope's values (the
 * whole merged configuration, secrets replaced by the site's mask), an ETag, and in
 * `meta.overrides`/`meta.fallback` which leaves this site's files set and what each would fall back
 * to. `PATCH /config/{scope}` takes the changed values as a nested object with `If-Match`, and
 * answers like the read. Plugin and theme settings are the scopes `plugins/<name>`, `themes/<name>`.
 */
import * as v from 'valibot';
import type { BlueprintField } from '../../contract';
import { isPlainObject, SETTINGS_MASK } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { blueprintFields } from './blueprints';
import { callName, request } from './envelope';

/** The value the real service sends in place of a secret. */
export const MASKED = SETTINGS_MASK;

export interface ConfigRead {
  values: Record<string, unknown>;
  etag: string | null;
  /** Dotted leaves this site's own files set (the rest are defaults). */
  overrides: string[];
  /** What each overridden leaf would fall back to. */
  fallback: Record<string, unknown>;
}

/** `plugins/api` → `/config/plugins/api`: each part encoded, the slash kept (the route takes the rest). */
const scopePath = (scope: string) => scope.split('/').map(encodeURIComponent).join('/');

const Meta = v.nullish(
  v.looseObject({
    overrides: v.nullish(v.array(v.string())),
    fallback: v.nullish(v.union([v.record(v.string(), v.unknown()), v.array(v.unknown())])),
  }),
);

function readOf(t: Transport, call: CallOptions, r: { data: unknown; meta?: Record<string, unknown>; etag?: string }): ConfigRead {
  const values = parseAnswer(v.record(v.string(), v.unknown()), r.data, t, 'a configuration', callName(call));
  const meta = parseAnswer(Meta, r.meta, t, 'a configuration', callName(call));
  return {
    values,
    etag: r.etag ?? null,
    overrides: meta?.overrides ?? [],
    // PHP sends an empty map as []
    fallback: isPlainObject(meta?.fallback) ? meta.fallback : {},
  };
}

export const cmsConfig = {
  async scopes(t: Transport): Promise<string[]> {
    const call: CallOptions = { path: '/config' };
    const r = await request(t, call);
    return parseAnswer(v.array(v.string()), r.data, t, 'the configuration scopes', callName(call));
  },

  async read(t: Transport, scope: string): Promise<ConfigRead> {
    const call: CallOptions = { path: `/config/${scopePath(scope)}` };
    return readOf(t, call, await request(t, call));
  },

  /** `changes` is nested like the values; a 409 (stale ETag) and a 422 (the blueprint's rules) reach the caller as errors. */
  async write(t: Transport, scope: string, changes: Record<string, unknown>, etag: string | null): Promise<ConfigRead> {
    const call: CallOptions = { method: 'PATCH', path: `/config/${scopePath(scope)}`, body: changes, ...(etag ? { ifMatch: etag } : {}) };
    return readOf(t, call, await request(t, call));
  },

  /** The form of a scope: `/blueprints/config/{scope}`, or a plugin's or theme's own blueprint. */
  async blueprint(t: Transport, scope: string): Promise<BlueprintField[]> {
    const [head, name] = scope.split('/', 2);
    const path = head === 'plugins' || head === 'themes' ? `/blueprints/${head}/${encodeURIComponent(name ?? '')}` : `/blueprints/config/${scopePath(scope)}`;
    const call: CallOptions = { path };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({ fields: v.optional(v.unknown()) }), r.data, t, 'a blueprint', callName(call));
    return blueprintFields(d.fields, t, 'a blueprint', callName(call));
  },
};
