/**
 * Pets (document 3, "Pets"). Every pet route needs a caller (API key or session). Where the
 * document says "not shown", the reference decides:
 * - findByStatus: `status`, comma-separated or repeated, values from the status list, default
 *   `available`; another value is 400 "Invalid status value".
 * - findByTags: `tags`, comma-separated or repeated; pets carrying any of them (names compared
 *   without case); none given or an empty one is 400 "Invalid tag value".
 * - GET/DELETE /pet/{petId}: 400 for an id that is not a positive whole number, 404 for none.
 * - uploadImage: see images.ts; answers ApiResponse {code, type (the image type), message}.
 * A pet created without a status is `available`; a PUT without one keeps the pet's status.
 */
import { json, readJson, type Router } from '../http';
import { fail, okMessage } from './answers';
import { callerOf, needCaller } from './auth';
import type { SpecStoreContext } from './context';
import { readUpload, saveImage } from './images';
import { PET_STATUSES, type Pet, type PetStatus } from './model';
import { petIdParam, readPet } from './validate';

/** `a,b` and repeated parameters alike, trimmed. */
function listParam(url: URL, name: string): string[] {
  return url.searchParams.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim());
}

const byId = (a: Pet, b: Pet) => a.id - b.id;

export function registerPetRoutes(api: Router, ctx: SpecStoreContext): void {
  const { data } = ctx;

  const mustPet = (id: number): Pet => {
    const pet = data.pet(id);
    if (!pet) throw fail(404, `Pet not found: there is no pet with id ${id}.`);
    return pet;
  };

  // fixed paths before /pet/{petId}
  api.on('GET', '/pet/findByStatus', (req, res, _p, url) => {
    needCaller(callerOf(req));
    const given = listParam(url, 'status');
    const statuses = given.length ? given : ['available'];
    const wrong = statuses.find((s) => !(PET_STATUSES as readonly string[]).includes(s));
    if (wrong !== undefined) throw fail(400, `Invalid status value “${wrong}”: use ${PET_STATUSES.join(', ')} (comma-separated for several).`);
    json(res, 200, data.pets().filter((p) => statuses.includes(p.status as PetStatus)).sort(byId));
  });

  api.on('GET', '/pet/findByTags', (req, res, _p, url) => {
    needCaller(callerOf(req));
    const tags = listParam(url, 'tags');
    if (tags.length === 0) throw fail(400, 'Invalid tag value: give at least one tag (tags=friendly,young).');
    if (tags.some((t) => t === '')) throw fail(400, 'Invalid tag value: a tag name cannot be empty.');
    const wanted = new Set(tags.map((t) => t.toLowerCase()));
    json(res, 200, data.pets().filter((p) => p.tags.some((t) => wanted.has(t.name.toLowerCase()))).sort(byId));
  });

  api.on('POST', '/pet', async (req, res) => {
    needCaller(callerOf(req));
    const input = readPet(await readJson(req), 'create');
    if (input.id !== undefined && data.pet(input.id)) throw fail(400, `Invalid input: a pet with id ${input.id} exists already; PUT /pet changes it.`);
    const pet = data.putPet(data.buildPet(input, input.id ?? data.newPetId()));
    json(res, 200, pet);
    ctx.webhooks.emit('pet.created', { id: pet.id, name: pet.name, status: pet.status });
  });

  api.on('PUT', '/pet', async (req, res) => {
    needCaller(callerOf(req));
    const input = readPet(await readJson(req), 'update');
    const before = mustPet(input.id!);
    const pet = data.putPet(data.buildPet({ ...input, status: input.status ?? before.status }, before.id));
    json(res, 200, pet);
  });

  api.on('GET', '/pet/{petId}', (req, res, p) => {
    needCaller(callerOf(req));
    json(res, 200, mustPet(petIdParam(p.petId!)));
  });

  api.on('DELETE', '/pet/{petId}', (req, res, p) => {
    needCaller(callerOf(req));
    const id = petIdParam(p.petId!);
    mustPet(id);
    data.removePet(id);
    okMessage(res, `Pet ${id} deleted.`);
  });

  api.on('POST', '/pet/{petId}/uploadImage', async (req, res, p, url) => {
    needCaller(callerOf(req));
    const id = petIdParam(p.petId!);
    if (!data.pet(id)) {
      req.resume(); // the answer is known; the body is not needed
      mustPet(id);
    }
    const upload = await readUpload(req, ctx.settings.uploadMax);
    const pet = mustPet(id); // it may have been deleted while the bytes arrived
    const address = saveImage(ctx.dataDir, ctx.origin, id, upload);
    data.putPet({ ...pet, photoUrls: [...pet.photoUrls, address] });
    const meta = url.searchParams.get('additionalMetadata');
    okMessage(res, `Uploaded ${upload.data.length} bytes as ${address}${meta ? `; additionalMetadata: ${meta}` : ''}`, upload.type);
  });
}
