/**
 * What Sitedesk keeps of each store site (migration 6): the pets and the inventory as last read,
 * for offline reading, and who is logged in (never a key or a token: those are in the keychain).
 */
import type { Pet } from '../../contract/store';
import type { Db } from '../open';

interface PetRow {
  pet: string;
  fetched_at: string;
}

interface SessionRow {
  site_id: string;
  via: 'password' | 'apikey';
  username: string | null;
  state: 'signed_in' | 'expired';
  reason: string | null;
  expires_at: string | null;
  rate_limit: number | null;
  signed_in_at: string | null;
}

export interface StoredStoreSession {
  siteId: string;
  via: 'password' | 'apikey';
  username: string | null;
  state: 'signed_in' | 'expired';
  reason: string | null;
  /** ISO */
  expiresAt: string | null;
  /** calls per hour (X-Rate-Limit of the login) */
  rateLimit: number | null;
  signedInAt: string | null;
}

export interface CachedPets {
  pets: Pet[];
  /** the oldest copy among them; with none matching, the newest copy of the site; null when nothing is cached */
  fetchedAt: string | null;
}

const parsePet = (text: string): Pet | null => {
  try {
    return JSON.parse(text) as Pet;
  } catch {
    return null;
  }
};

export function storeRepo(db: Db) {
  const q = {
    upsertPet: db.prepare(
      `INSERT INTO store_pets (site_id, pet_id, name, status, pet, fetched_at) VALUES (@site_id, @pet_id, @name, @status, @pet, @now)
       ON CONFLICT (site_id, pet_id) DO UPDATE SET name = excluded.name, status = excluded.status, pet = excluded.pet, fetched_at = excluded.fetched_at`,
    ),
    pet: db.prepare<[string, number], PetRow>('SELECT pet, fetched_at FROM store_pets WHERE site_id = ? AND pet_id = ?'),
    pets: db.prepare<[string], PetRow>('SELECT pet, fetched_at FROM store_pets WHERE site_id = ? ORDER BY pet_id'),
    idsWithStatus: db.prepare<[string, string], { pet_id: number }>('SELECT pet_id FROM store_pets WHERE site_id = ? AND status IS ?'),
    removePet: db.prepare<[string, number]>('DELETE FROM store_pets WHERE site_id = ? AND pet_id = ?'),
    newest: db.prepare<[string], { at: string | null }>('SELECT max(fetched_at) AS at FROM store_pets WHERE site_id = ?'),
    putInventory: db.prepare(
      `INSERT INTO store_inventory (site_id, counts, fetched_at) VALUES (@site_id, @counts, @now)
       ON CONFLICT (site_id) DO UPDATE SET counts = excluded.counts, fetched_at = excluded.fetched_at`,
    ),
    inventory: db.prepare<[string], { counts: string; fetched_at: string }>('SELECT counts, fetched_at FROM store_inventory WHERE site_id = ?'),
    session: db.prepare<[string], SessionRow>('SELECT * FROM store_sessions WHERE site_id = ?'),
    putSession: db.prepare(
      `INSERT INTO store_sessions (site_id, via, username, state, reason, expires_at, rate_limit, signed_in_at)
       VALUES (@site_id, @via, @username, @state, @reason, @expires_at, @rate_limit, @signed_in_at)
       ON CONFLICT (site_id) DO UPDATE SET via = excluded.via, username = excluded.username, state = excluded.state, reason = excluded.reason,
         expires_at = excluded.expires_at, rate_limit = excluded.rate_limit, signed_in_at = excluded.signed_in_at`,
    ),
    removeSession: db.prepare<[string]>('DELETE FROM store_sessions WHERE site_id = ?'),
  };

  const petParams = (siteId: string, p: Pet, now: string) => {
    const { cachedAt: _c, ...pet } = p;
    return { site_id: siteId, pet_id: p.id, name: p.name, status: p.status, pet: JSON.stringify(pet), now };
  };

  return {
    /**
     * Pets as read. With `complete` (a list by status), pets of those statuses that the list no
     * longer holds are gone from the store and leave the copy too.
     */
    putPets(siteId: string, pets: Pet[], complete?: { statuses: readonly string[] }, now = new Date().toISOString()): void {
      db.transaction(() => {
        if (complete) {
          const seen = new Set(pets.map((p) => p.id));
          for (const status of complete.statuses) {
            for (const { pet_id } of q.idsWithStatus.all(siteId, status)) if (!seen.has(pet_id)) q.removePet.run(siteId, pet_id);
          }
        }
        for (const p of pets) q.upsertPet.run(petParams(siteId, p, now));
      })();
    },
    putPet(siteId: string, pet: Pet, now = new Date().toISOString()): void {
      q.upsertPet.run(petParams(siteId, pet, now));
    },
    removePet(siteId: string, petId: number): void {
      q.removePet.run(siteId, petId);
    },
    pet(siteId: string, petId: number): { pet: Pet; fetchedAt: string } | undefined {
      const r = q.pet.get(siteId, petId);
      const pet = r && parsePet(r.pet);
      return pet ? { pet, fetchedAt: r.fetched_at } : undefined;
    },
    /** The copy filtered as the store would (statuses; any of the tags, without case). */
    pets(siteId: string, filter: { statuses?: readonly string[]; tags?: readonly string[] } = {}): CachedPets {
      const wanted = filter.tags?.length ? new Set(filter.tags.map((t) => t.toLowerCase())) : null;
      const rows = q.pets
        .all(siteId)
        .map((r) => ({ pet: parsePet(r.pet), at: r.fetched_at }))
        .filter((r): r is { pet: Pet; at: string } => r.pet !== null)
        .filter((r) => !filter.statuses || filter.statuses.includes(r.pet.status ?? ''))
        .filter((r) => !wanted || r.pet.tags.some((t) => wanted.has(t.name.toLowerCase())));
      const oldest = rows.reduce<string | null>((min, r) => (min === null || r.at < min ? r.at : min), null);
      return { pets: rows.map((r) => r.pet), fetchedAt: oldest ?? q.newest.get(siteId)?.at ?? null };
    },

    putInventory(siteId: string, counts: Record<string, number>, now = new Date().toISOString()): void {
      q.putInventory.run({ site_id: siteId, counts: JSON.stringify(counts), now });
    },
    inventory(siteId: string): { counts: Record<string, number>; fetchedAt: string } | undefined {
      const r = q.inventory.get(siteId);
      if (!r) return undefined;
      try {
        return { counts: JSON.parse(r.counts) as Record<string, number>, fetchedAt: r.fetched_at };
      } catch {
        return undefined;
      }
    },

    session(siteId: string): StoredStoreSession | undefined {
      const r = q.session.get(siteId);
      return (
        r && {
          siteId: r.site_id,
          via: r.via,
          username: r.username,
          state: r.state,
          reason: r.reason,
          expiresAt: r.expires_at,
          rateLimit: r.rate_limit,
          signedInAt: r.signed_in_at,
        }
      );
    },
    putSession(s: StoredStoreSession): void {
      q.putSession.run({
        site_id: s.siteId,
        via: s.via,
        username: s.username,
        state: s.state,
        reason: s.reason,
        expires_at: s.expiresAt,
        rate_limit: s.rateLimit,
        signed_in_at: s.signedInAt,
      });
    },
    removeSession(siteId: string): void {
      q.removeSession.run(siteId);
    },
  };
}

export type StoreRepo = ReturnType<typeof storeRepo>;

