/**
 * The store's pet routes over the transport, written so that both the document's store and the
 * real Swagger Petstore v3 (swagger-inflector in front) take them:
 * - findByStatus takes ONE status per call (inflector refuses `status=a,b` with 400), so a list of
 *   several statuses is one call each, merged by id;
 * - findByTags takes `tags` repeated (`tags=a&tags=b`); Petstore reads `tags=a,b` as the one tag
 *   "a,b". Petstore lists a pet once per matching tag, so the answer is merged by id too;
 * - lists are read entry by entry (read.ts): a pet needs a safe integer id and a non-empty name,
 *   the rest defaults; an entry that is not such a pet is set aside with what is wrong with it;
 * - a delete's answer is whatever text the store sends ("Pet deleted", an ApiResponse, nothing);
 * - an upload answers an ApiResponse (document) or the Pet (Petstore); either is fine.
 */
import * as v from 'valibot';
import type { KeptPhoto, Pet, PetStatus, UnreadableEntry } from '../../contract/store';
import type { Transport } from '../transport';
import { ask, readOne, readRows, SafeId, Text } from './read';
import { isPlainObject } from '../../contract';

const NamedRef = v.object({ id: v.optional(v.nullable(v.number('should be a number'))), name: v.optional(v.nullable(Text)) }, 'should be an object');

const PetSchema = v.object(
  {
    id: SafeId,
    name: v.pipe(Text, v.check((s) => s.trim() !== '', 'should not be empty')),
    category: v.optional(v.nullable(NamedRef)),
    photoUrls: v.optional(v.nullable(v.array(v.nullable(Text), 'should be a list')), []),
    tags: v.optional(v.nullable(v.array(v.nullable(NamedRef), 'should be a list')), []),
    status: v.optional(v.nullable(Text)),
  },
  'should be a pet (an object)',
);

/** A tag or category id worth sending back: one the store gave and JavaScript holds exactly. */
const usableId = (id: number | null | undefined): number | null => (typeof id === 'number' && Number.isSafeInteger(id) ? id : null);

export function toPet(p: v.InferOutput<typeof PetSchema>): Pet {
  return {
    id: p.id,
    name: p.name,
    category: p.category && (p.category.name ?? '') !== '' ? { id: usableId(p.category.id), name: p.category.name! } : null,
    // a null entry says nothing; any text is kept, address or not
    photoUrls: (p.photoUrls ?? []).filter((u): u is string => typeof u === 'string'),
    // a tag without a name says nothing a person could use
    tags: (p.tags ?? []).filter((t) => t?.name).map((t) => ({ id: usableId(t!.id), name: t!.name! })),
    status: p.status ?? null,
  };
}

const labelOf = (row: Record<string, unknown>) => (typeof row.name === 'string' && row.name.trim() ? row.name : null);

/** The same pet once (its first appearance), in the order met. */
function merge(into: Map<number, Pet>, pets: Pet[]): void {
  for (const p of pets) if (!into.has(p.id)) into.set(p.id, p);
}

function mergeUnreadable(into: UnreadableEntry[], more: UnreadableEntry[]): void {
  for (const u of more) if (u.id === null || !into.some((x) => x.id === u.id)) into.push(u);
}

export interface PetRows {
  pets: Pet[];
  unreadable: UnreadableEntry[];
}

/** What the app sends for a create: the id it chose, tags by name (a store keeps ids per name, or none). */
export interface PetBody {
  id: number;
  name: string;
  category?: { id?: number | null; name: string } | null;
  photoUrls: string[];
  tags: string[];
  status?: PetStatus;
}

const wire = (p: PetBody) => ({
  id: p.id,
  name: p.name,
  ...(p.category ? { category: { ...(p.category.id !== undefined && p.category.id !== null ? { id: p.category.id } : {}), name: p.category.name } } : {}),
  photoUrls: p.photoUrls,
  tags: p.tags.map((name) => ({ name })),
  ...(p.status ? { status: p.status } : {}),
});

/** The person's version of a pet, for an update. */
export interface PetEdit {
  id: number;
  name: string;
  category?: { id?: number | null; name: string } | null;
  photoUrls: (string | KeptPhoto)[];
  tags: string[];
  status?: PetStatus;
}

type Obj = Record<string, unknown>;

/**
 * The body of an update: the pet as the store has it (`stored`, read just before), with the
 * person's version on top. A PUT replaces the whole pet on the real Petstore, so what the form
 * does not show is carried over: tag and category ids for the names that stay, a status outside
 * the three when none was chosen, any field the store keeps that Sitedesk does not know.
 */
export function updateBody(stored: Obj, edit: PetEdit): Obj {
  const storedTags = Array.isArray(stored.tags) ? stored.tags.filter(isPlainObject) : [];
  const tagFor = (name: string) => {
    const known = storedTags.find((t) => t.name === name);
    return known && known.id !== undefined && known.id !== null ? { id: known.id, name } : { name };
  };
  const storedCategory = isPlainObject(stored.category) ? stored.category : null;
  let category: Obj | undefined;
  if (edit.category) {
    const sameName = storedCategory && storedCategory.name === edit.category.name && storedCategory.id !== undefined && storedCategory.id !== null;
    const id = edit.category.id ?? (sameName ? storedCategory.id : undefined);
    category = { ...(id !== undefined && id !== null ? { id } : {}), name: edit.category.name };
  }
  const { category: _c, tags: _t, photoUrls: _p, status: _s, ...rest } = stored;
  const status = edit.status ?? (typeof stored.status === 'string' ? stored.status : undefined);
  return {
    ...rest,
    id: edit.id,
    name: edit.name,
    ...(category ? { category } : {}),
    photoUrls: edit.photoUrls.map((u) => (typeof u === 'string' ? u : u.kept)),
    tags: edit.tags.map(tagFor),
    ...(status !== undefined ? { status } : {}),
  };
}

/** What the store said about an upload, in a sentence. */
function uploadMessage(text: string | undefined): string {
  if (!text) return 'Uploaded.';
  try {
    const body: unknown = JSON.parse(text);
    if (isPlainObject(body) && typeof body.message === 'string' && body.message.trim()) return body.message;
    if (isPlainObject(body) && Array.isArray(body.photoUrls)) return `Uploaded; the store now lists ${body.photoUrls.length} ${body.photoUrls.length === 1 ? 'photo' : 'photos'} for this pet.`;
  } catch {
    // a text answer: nothing more to say than that it went up
  }
  return 'Uploaded.';
}

export const storePets = {
  /** One GET /pet/findByStatus per status (a store may take only one), merged by id in the order met. */
  async findByStatus(t: Transport, statuses: readonly string[]): Promise<PetRows> {
    const pets = new Map<number, Pet>();
    const unreadable: UnreadableEntry[] = [];
    for (const status of statuses) {
      const r = await ask(t, { path: '/pet/findByStatus', query: { status }, envelope: 'raw' });
      const rows = readRows(PetSchema, r.data, t, 'a pet list', r.route, labelOf);
      merge(pets, rows.rows.map(toPet));
      mergeUnreadable(unreadable, rows.unreadable);
    }
    return { pets: [...pets.values()], unreadable };
  },

  /** GET /pet/findByTags with `tags` repeated; a pet listed twice (once per matching tag) counts once. */
  async findByTags(t: Transport, tags: readonly string[]): Promise<PetRows> {
    const r = await ask(t, { path: '/pet/findByTags', query: { tags }, envelope: 'raw' });
    const rows = readRows(PetSchema, r.data, t, 'a pet list', r.route, labelOf);
    const pets = new Map<number, Pet>();
    merge(pets, rows.rows.map(toPet));
    const unreadable: UnreadableEntry[] = [];
    mergeUnreadable(unreadable, rows.unreadable);
    return { pets: [...pets.values()], unreadable };
  },

  async get(t: Transport, id: number): Promise<Pet> {
    const r = await ask(t, { path: `/pet/${id}`, envelope: 'raw' });
    return toPet(readOne(PetSchema, r.data, t, 'a pet', r.route));
  },

  /** The pet as the store keeps it, every field, for an update to start from (any object will do). */
  async getStored(t: Transport, id: number): Promise<Obj> {
    const r = await ask(t, { path: `/pet/${id}`, envelope: 'raw' });
    return readOne(v.record(v.string(), v.unknown(), 'should be a pet (an object)'), r.data, t, 'a pet', r.route);
  },

  /**
   * POST /pet with the id Sitedesk chose. The answer is the pet when it reads as one; a store that
   * answers without it (or unreadably) is asked for the pet by that id.
   */
  async create(t: Transport, pet: PetBody): Promise<Pet> {
    const r = await ask(t, { method: 'POST', path: '/pet', body: wire(pet), envelope: 'raw' });
    const answer = v.safeParse(PetSchema, r.data);
    if (answer.success && answer.output.id === pet.id) return toPet(answer.output);
    return storePets.get(t, pet.id);
  },

  async update(t: Transport, body: Obj & { id: number }): Promise<Pet> {
    const r = await ask(t, { method: 'PUT', path: '/pet', body, envelope: 'raw' });
    const answer = r.data === undefined ? null : v.safeParse(PetSchema, r.data);
    if (answer?.success && answer.output.id === body.id) return toPet(answer.output);
    return storePets.get(t, body.id);
  },

  /** DELETE /pet/{id}; whatever the store answers besides its status does not matter. */
  async remove(t: Transport, id: number): Promise<void> {
    await ask(t, { method: 'DELETE', path: `/pet/${id}`, envelope: 'text' });
  },

  /** The image as the raw body (application/octet-stream, as both stores take it), streamed with progress. */
  async uploadImage(
    t: Transport,
    id: number,
    bytes: Uint8Array,
    o: { metadata?: string; onProgress?: (sent: number, total: number) => void } = {},
  ): Promise<{ message: string }> {
    const r = await ask<string | undefined>(t, {
      method: 'POST',
      path: `/pet/${id}/uploadImage`,
      query: { additionalMetadata: o.metadata },
      raw: { bytes, contentType: 'application/octet-stream', ...(o.onProgress ? { onProgress: o.onProgress } : {}) },
      envelope: 'text',
      timeoutMs: 10 * 60_000,
      reply: 'media',
    });
    return { message: uploadMessage(r.data) };
  },
};
