import type { AuthMode, Site, SiteKind } from '../../contract';
import type { Db } from '../open';

/** A row of `sites` exactly as stored. */
interface SiteRow {
  id: string;
  name: string;
  kind: SiteKind;
  base_url: string;
  environment: string | null;
  auth_mode: AuthMode;
  has_api_key: 0 | 1;
  allow_plain_http: 0 | 1;
  position: number;
  created_at: string;
  updated_at: string;
}

/** A site to store; `allowPlainHttp` defaults to false (no choice made). */
export type NewSite = Omit<Site, 'position' | 'createdAt' | 'updatedAt' | 'allowPlainHttp'> & { allowPlainHttp?: boolean };
export type SiteChanges = NewSite;

const toSite = (r: SiteRow): Site => ({
  id: r.id,
  name: r.name,
  kind: r.kind,
  baseUrl: r.base_url,
  environment: r.environment,
  authMode: r.auth_mode,
  hasApiKey: r.has_api_key === 1,
  allowPlainHttp: r.allow_plain_http === 1,
  position: r.position,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function sitesRepo(db: Db) {
  const q = {
    all: db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY position, created_at'),
    one: db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE id = ?'),
    byName: db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE lower(trim(name)) = lower(trim(?))'),
    nextPosition: db.prepare<[], { p: number }>('SELECT coalesce(max(position) + 1, 0) AS p FROM sites'),
    insert: db.prepare(
      `INSERT INTO sites (id, name, kind, base_url, environment, auth_mode, has_api_key, allow_plain_http, position, created_at, updated_at)
       VALUES (@id, @name, @kind, @base_url, @environment, @auth_mode, @has_api_key, @allow_plain_http, @position, @now, @now)`,
    ),
    update: db.prepare(
      `UPDATE sites SET name = @name, kind = @kind, base_url = @base_url, environment = @environment,
              auth_mode = @auth_mode, has_api_key = @has_api_key, allow_plain_http = @allow_plain_http, updated_at = @now WHERE id = @id`,
    ),
    setHasKey: db.prepare<[number, string, string]>('UPDATE sites SET has_api_key = ?, updated_at = ? WHERE id = ?'),
    setPosition: db.prepare<[number, string]>('UPDATE sites SET position = ? WHERE id = ?'),
    remove: db.prepare<[string]>('DELETE FROM sites WHERE id = ?'),
  };

  const params = (s: NewSite, now: string) => ({
    id: s.id,
    name: s.name,
    kind: s.kind,
    base_url: s.baseUrl,
    environment: s.environment,
    auth_mode: s.authMode,
    has_api_key: s.hasApiKey ? 1 : 0,
    allow_plain_http: s.allowPlainHttp ? 1 : 0,
    now,
  });

  return {
    list: (): Site[] => q.all.all().map(toSite),
    get: (id: string): Site | undefined => {
      const r = q.one.get(id);
      return r && toSite(r);
    },
    findByName: (name: string): Site | undefined => {
      const r = q.byName.get(name);
      return r && toSite(r);
    },
    insert: (s: NewSite, now = new Date().toISOString()): Site => {
      db.transaction(() => q.insert.run({ ...params(s, now), position: q.nextPosition.get()!.p }))();
      return toSite(q.one.get(s.id)!);
    },
    update: (s: SiteChanges, now = new Date().toISOString()): Site | undefined => {
      const { changes } = q.update.run(params(s, now));
      return changes ? toSite(q.one.get(s.id)!) : undefined;
    },
    setHasApiKey: (id: string, has: boolean, now = new Date().toISOString()) => q.setHasKey.run(has ? 1 : 0, now, id),
    /** Positions follow `ids`; the caller has checked it names every site exactly once. */
    reorder: (ids: string[]) => db.transaction(() => ids.forEach((id, i) => q.setPosition.run(i, id)))(),
    remove: (id: string): boolean => q.remove.run(id).changes > 0,
  };
}

export type SitesRepo = ReturnType<typeof sitesRepo>;
