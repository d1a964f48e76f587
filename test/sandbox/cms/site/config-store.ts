/**
 * The site's configuration on disk: for every scope the CMS's defaults (config-forms.ts,
 * extensions.ts) and the site's own file holding only what it overrides (`config/<scope>.json`,
 * `config/plugins/<name>.json`, `config/themes/<name>.json` in the data folder), as Grav keeps
 * `user/config` (getgrav/grav-plugin-api:ConfigController writeConfigFile() and
 * Services/ConfigDiffer.php: the file is the delta against the defaults, lists compared whole).
 * The effective values are the defaults with the delta merged in.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isObject } from '../content/common';
import { isCoreScope, SCOPE_FORMS } from './config-forms';
import { PLUGINS, THEMES, type Extension } from './extensions';
import type { Def } from './form-parts';

export type Data = Record<string, unknown>;

export interface ScopeInfo {
  scope: string;
  /** the form's fields, null when the package ships no form */
  fields: Def[] | null;
  defaults: Data;
  /** `plugins/<name>` → the plugin's name */
  plugin?: string;
}

/**
 * The scope a route names: a core scope, `plugins/<name>` or `themes/<name>` of an installed
 * package; null otherwise. `installed` says which packages the site has now (packages/); without
 * it, the packages the settings know (extensions.ts).
 */
export function scopeInfo(scope: string, installed?: (kind: 'plugins' | 'themes', name: string) => Extension | null): ScopeInfo | null {
  if (isCoreScope(scope)) return { scope, fields: SCOPE_FORMS[scope].fields, defaults: SCOPE_FORMS[scope].defaults };
  const m = /^(plugins|themes)\/([a-z0-9][a-z0-9_-]*)$/.exec(scope);
  if (!m) return null;
  const kind = m[1] as 'plugins' | 'themes';
  const ext = installed ? installed(kind, m[2]!) : (kind === 'plugins' ? PLUGINS : THEMES)[m[2]!];
  if (!ext) return null;
  return { scope, fields: ext.title ? ext.fields : null, defaults: ext.defaults, ...(m[1] === 'plugins' ? { plugin: m[2] } : {}) };
}

/** A copy of `base` with `over` merged in: maps key by key, lists and scalars replace. */
export function deepMerge(base: Data, over: Data): Data {
  const out: Data = structuredClone(base);
  for (const [k, v] of Object.entries(over)) out[k] = isObject(v) && isObject(out[k]) ? deepMerge(out[k] as Data, v) : structuredClone(v);
  return out;
}

/** What `current` sets differently from `parent` (ConfigDiffer::diff): maps recurse, everything else compares whole. */
export function diff(current: Data, parent: Data): Data {
  const out: Data = {};
  for (const [k, v] of Object.entries(current)) {
    const p = parent[k];
    if (isObject(v) && isObject(p)) {
      const inner = diff(v, p);
      if (Object.keys(inner).length) out[k] = inner;
    } else if (!(k in parent) || JSON.stringify(v) !== JSON.stringify(p)) out[k] = v;
  }
  return out;
}

/** Dotted paths of a map's leaves (lists and empty maps are leaves). */
export function leafPaths(data: Data, prefix = ''): string[] {
  return Object.entries(data).flatMap(([k, v]) => {
    const path = prefix ? `${prefix}.${k}` : k;
    return isObject(v) && Object.keys(v).length ? leafPaths(v, path) : [path];
  });
}

export function valueAt(data: unknown, path: string): unknown {
  let node = data;
  for (const seg of path.split('.')) {
    if (!isObject(node) || !(seg in node)) return null;
    node = node[seg];
  }
  return node ?? null;
}

export function setAt(data: Data, path: string, value: unknown): void {
  const segs = path.split('.');
  let node = data;
  for (const seg of segs.slice(0, -1)) {
    if (!isObject(node[seg])) node[seg] = {};
    node = node[seg] as Data;
  }
  node[segs[segs.length - 1]!] = value;
}

/** Removes a dotted key, and the maps it leaves empty on its way up. */
export function unsetAt(data: Data, path: string): void {
  const [head, ...rest] = path.split('.');
  if (head === undefined || !(head in data)) return;
  if (!rest.length) {
    delete data[head];
    return;
  }
  const child = data[head];
  if (!isObject(child)) return;
  unsetAt(child, rest.join('.'));
  if (!Object.keys(child).length) delete data[head];
}

/** Keys sorted at every level, so a hash does not depend on the order values were written in. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (isObject(value)) return Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]));
  return value;
}

export class SiteConfig {
  readonly root: string;
  #seed: (() => Record<string, Data>) | null;

  /** `seed`: the overrides a fresh site starts with (written on first use when the folder has no config). */
  constructor(dataDir: string, seed: () => Record<string, Data>) {
    this.root = join(dataDir, 'config');
    this.#seed = existsSync(this.root) ? null : seed;
  }

  private ready(): void {
    if (!this.#seed) return;
    const seed = this.#seed;
    this.#seed = null;
    mkdirSync(this.root, { recursive: true });
    for (const [scope, data] of Object.entries(seed())) {
      const info = scopeInfo(scope);
      if (info) this.save(info, deepMerge(info.defaults, data));
    }
  }

  private file(scope: string): string {
    return join(this.root, `${scope}.json`);
  }

  /** The site's own file for a scope: only what it overrides. */
  delta(scope: string): Data {
    this.ready();
    const f = this.file(scope);
    return existsSync(f) ? (JSON.parse(readFileSync(f, 'utf8')) as Data) : {};
  }

  effective(info: ScopeInfo): Data {
    return deepMerge(info.defaults, this.delta(info.scope));
  }

  /** Stores `full` as its difference from the defaults; a scope that overrides nothing and had no file gets none. */
  save(info: ScopeInfo, full: Data): void {
    this.ready();
    const d = diff(full, info.defaults);
    if (!Object.keys(d).length && !existsSync(this.file(info.scope))) return;
    this.writeDelta(info.scope, d);
  }

  /** Drops overridden values (dotted keys) from the site's file, or the whole file (`null`): the defaults show again. */
  revert(info: ScopeInfo, keys: string[] | null): void {
    this.ready();
    const f = this.file(info.scope);
    if (!existsSync(f)) return;
    const delta = keys ? this.delta(info.scope) : {};
    for (const key of keys ?? []) unsetAt(delta, key);
    if (Object.keys(delta).length) this.writeDelta(info.scope, delta);
    else unlinkSync(f);
  }

  private writeDelta(scope: string, data: Data): void {
    const f = this.file(scope);
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f + '.tmp', JSON.stringify(data, null, 1));
    renameSync(f + '.tmp', f);
  }
}
