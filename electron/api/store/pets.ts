/**
 * The store's pet routes (document 3, "Pets") over the transport. Answers are checked here: a pet
 * needs an integer id and a name; the optional parts default (no category, no tags, no status); an
 * answer of any other shape is a bad_response error, never a half-read pet.
 */
import * as v from 'valibot';
import type { Pet, PetStatus } from '../../contract/store';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

const Id = v.pipe(v.number(), v.integer());

const PetSchema = v.object({
  id: Id,
  name: v.string(),
  category: v.optional(v.nullable(v.object({ id: v.optional(v.nullable(Id)), name: v.optional(v.nullable(v.string())) }))),
  photoUrls: v.optional(v.nullable(v.array(v.string())), []),
  tags: v.optional(v.nullable(v.array(v.object({ id: v.optional(v.nullable(Id)), name: v.optional(v.nullable(v.string())) }))), []),
  status: v.optional(v.nullable(v.string())),
});

/** The ApiResponse of uploads (reference): every part optional. */
const ApiResponseSchema = v.object({ code: v.optional(v.number()), type: v.optional(v.string()), message: v.optional(v.string()) });

export function toPet(p: v.InferOutput<typeof PetSchema>): Pet {
  return {
    id: p.id,
    name: p.name,
    category: p.category && (p.category.name ?? '') !== '' ? { id: p.category.id ?? null, name: p.category.name! } : null,
    photoUrls: p.photoUrls ?? [],
    // a tag without a name says nothing a person could use
    tags: (p.tags ?? []).filter((t) => t.name).map((t) => ({ id: t.id ?? null, name: t.name! })),
    status: p.status ?? null,
  };
}

/** What the app sends for a create or an update: tags by name, the store keeps their ids. */
export interface PetBody {
  id?: number;
  name: string;
  category?: { id?: number | null; name: string } | null;
  photoUrls: string[];
  tags: string[];
  status?: PetStatus;
}

const wire = (p: PetBody) => ({
  ...(p.id !== undefined ? { id: p.id } : {}),
  name: p.name,
  ...(p.category ? { category: { ...(p.category.id !== undefined && p.category.id !== null ? { id: p.category.id } : {}), name: p.category.name } } : {}),
  photoUrls: p.photoUrls,
  tags: p.tags.map((name) => ({ name })),
  ...(p.status ? { status: p.status } : {}),
});

export const storePets = {
  /** GET /pet/findByStatus with the statuses comma-separated (the reference's form). */
  async findByStatus(t: Transport, statuses: readonly string[]): Promise<Pet[]> {
    const r = await t.call({ path: '/pet/findByStatus', query: { status: statuses.join(',') }, envelope: 'raw' });
    return parseAnswer(v.array(PetSchema), r.data, t, 'a pet list').map(toPet);
  },

  async findByTags(t: Transport, tags: readonly string[]): Promise<Pet[]> {
    const r = await t.call({ path: '/pet/findByTags', query: { tags: tags.join(',') }, envelope: 'raw' });
    return parseAnswer(v.array(PetSchema), r.data, t, 'a pet list').map(toPet);
  },

  async get(t: Transport, id: number): Promise<Pet> {
    const r = await t.call({ path: `/pet/${id}`, envelope: 'raw' });
    return toPet(parseAnswer(PetSchema, r.data, t, 'a pet'));
  },

  async create(t: Transport, pet: PetBody): Promise<Pet> {
    const r = await t.call({ method: 'POST', path: '/pet', body: wire(pet), envelope: 'raw' });
    return toPet(parseAnswer(PetSchema, r.data, t, 'the created pet'));
  },

  async update(t: Transport, pet: PetBody & { id: number }): Promise<Pet> {
    const r = await t.call({ method: 'PUT', path: '/pet', body: wire(pet), envelope: 'raw' });
    return toPet(parseAnswer(PetSchema, r.data, t, 'the updated pet'));
  },

  async remove(t: Transport, id: number): Promise<void> {
    await t.call({ method: 'DELETE', path: `/pet/${id}`, envelope: 'raw' });
  },

  /** The image as the raw body (application/octet-stream, as the reference takes it), streamed with progress. */
  async uploadImage(
    t: Transport,
    id: number,
    bytes: Uint8Array,
    o: { metadata?: string; onProgress?: (sent: number, total: number) => void } = {},
  ): Promise<{ message: string }> {
    const r = await t.call({
      method: 'POST',
      path: `/pet/${id}/uploadImage`,
      query: { additionalMetadata: o.metadata },
      raw: { bytes, contentType: 'application/octet-stream', ...(o.onProgress ? { onProgress: o.onProgress } : {}) },
      envelope: 'raw',
      timeoutMs: 10 * 60_000,
    });
    const answer = r.data === undefined ? {} : parseAnswer(ApiResponseSchema, r.data, t, 'an upload answer');
    return { message: answer.message ?? 'Uploaded.' };
  },
};
