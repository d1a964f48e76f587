import type { Me } from '../../contract';
import type { Db } from '../open';

/** What survives a restart of a site's session (never a token: those live in the keychain). */
export interface StoredSession {
  siteId: string;
  via: 'password' | 'apikey';
  username: string | null;
  state: 'signed_in' | 'expired';
  reason: string | null;
  me: Me | null;
  meAt: string | null;
}

interface Row {
  site_id: string;
  via: 'password' | 'apikey';
  username: string | null;
  state: 'signed_in' | 'expired';
  reason: string | null;
  me: string | null;
  me_at: string | null;
}

const parseMe = (text: string | null): Me | null => {
  if (!text) return null;
  try {
    return JSON.parse(text) as Me;
  } catch {
    return null;
  }
};

export function sessionsRepo(db: Db) {
  const q = {
    get: db.prepare<[string], Row>('SELECT * FROM sessions WHERE site_id = ?'),
    put: db.prepare(
      `INSERT INTO sessions (site_id, via, username, state, reason, me, me_at) VALUES (@site_id, @via, @username, @state, @reason, @me, @me_at)
       ON CONFLICT (site_id) DO UPDATE SET via = excluded.via, username = excluded.username, state = excluded.state,
         reason = excluded.reason, me = excluded.me, me_at = excluded.me_at`,
    ),
    remove: db.prepare<[string]>('DELETE FROM sessions WHERE site_id = ?'),
  };
  return {
    get(siteId: string): StoredSession | undefined {
      const r = q.get.get(siteId);
      return r && { siteId: r.site_id, via: r.via, username: r.username, state: r.state, reason: r.reason, me: parseMe(r.me), meAt: r.me_at };
    },
    put(s: StoredSession): void {
      q.put.run({ site_id: s.siteId, via: s.via, username: s.username, state: s.state, reason: s.reason, me: s.me ? JSON.stringify(s.me) : null, me_at: s.meAt });
    },
    remove(siteId: string): void {
      q.remove.run(siteId);
    },
  };
}

export type SessionsRepo = ReturnType<typeof sessionsRepo>;
