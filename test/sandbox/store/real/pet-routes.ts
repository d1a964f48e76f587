/**
 * Pets as the real Swagger Petstore v3 serves them (the `real` flavour), following
 * swagger-api/swagger-petstore: src/main/java/io/swagger/petstore/controller/PetController.java
 * and data/PetData.java, behind swagger-inflector v2.0.11 (params.ts):
 * - GET /pet/findByStatus: ONE status, checked against the enum by inflector (several joined by
 *   commas are refused with 400 before Petstore could split them); a repeated parameter counts
 *   its first value; none at all is Petstore's 400 "No status provided. Try again?" (the
 *   schema's default is never applied).
 * - GET /pet/findByTags: `tags` repeated (`tags=a&tags=b`), each value one tag compared exactly
 *   (`tags=a,b` is the tag "a,b" and finds nothing); a pet comes once per matching tag pair, so
 *   it can appear twice; none given is 400 "No tags provided. Try again?".
 * - POST /pet: stored as sent, nothing checked or generated. A pet without id cannot be added to
 *   a list that holds pets (PetData.addPet reads its id: 500); an id already there replaces that
 *   pet. The answer is the pet as read.
 * - PUT /pet: the pet with that id replaced by the body as sent (re-added at the end of the
 *   list), 404 "Pet not found" when there is none; a body without id is a 500.
 * - GET /pet/{petId}: the pet, or 404 "Pet not found". DELETE: always 200 "Pet deleted", whether
 *   or not there was such a pet.
 * - POST /pet/{petId}: updatePetWithForm (name and status in the query).
 * - POST /pet/{petId}/uploadImage: application/octet-stream only; the bytes become a temporary
 *   file on the server (inflector's BinaryProcessor: File.createTempFile("inflector", ".tmp")),
 *   whose server-local path is appended to photoUrls; the answer is the Pet (not the
 *   ApiResponse the OpenAPI file declares). No body: 400 "No file uploaded" (checked before the
 *   pet). Here the bytes are kept under <data>/tmp/ so tests can look at them.
 * No authentication is checked anywhere and no webhook is sent (Petstore has neither).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HttpProblem, readBytes, type Router } from '../../http';
import type { StoreContext } from '../context';
import { PET_STATUSES } from '../model';
import { entity, JavaException, untypedText } from './answers';
import type { PetstoreData } from './data';
import { readEntity, petJson, type JPet } from './entities';
import { bodyRequired, bodyText, enumQuery, explodedQuery, isJson, longParam, stringQuery } from './params';

/** The list as Jackson writes it: a pet without id fails the whole answer (Pet.getId()). */
function petsJson(pets: readonly JPet[]): Record<string, unknown>[] {
  return pets.map((p) => {
    if (p.id === null) throw new JavaException('NullPointerException');
    return petJson(p);
  });
}

const unsupported = () => new HttpProblem(415, 'Unsupported Media Type', 'HTTP 415 Unsupported Media Type');

/** Tmp names as File.createTempFile makes them: the prefix, a long random number, the suffix. */
function tempName(): string {
  const n = BigInt.asUintN(63, BigInt(Math.floor(Math.random() * 2 ** 53)) * 1024n + BigInt(Math.floor(Math.random() * 1024)));
  return `inflector${n}.tmp`;
}

export function registerRealPetRoutes(api: Router, ctx: StoreContext, data: PetstoreData): void {
  api.on('GET', '/pet/findByStatus', (req, res, _p, url) => {
    const status = enumQuery(url, 'status', PET_STATUSES);
    if (status === null) return untypedText(req, res, 400, 'No status provided. Try again?');
    entity(res, petsJson(data.petsByStatus(status)));
  });

  api.on('GET', '/pet/findByTags', (req, res, _p, url) => {
    const tags = explodedQuery(url, 'tags');
    if (!tags || tags.length === 0) return untypedText(req, res, 400, 'No tags provided. Try again?');
    entity(res, petsJson(data.petsByTags(tags)));
  });

  api.on('POST', '/pet', async (req, res) => {
    if (!isJson(req)) throw unsupported();
    const text = await bodyText(req);
    if (text === null) throw bodyRequired('Create a new pet in the store');
    const pet = readEntity(text, 'pet');
    if (!pet) throw bodyRequired('Create a new pet in the store');
    data.addPet(pet);
    entity(res, petsJson([pet])[0]);
  });

  api.on('PUT', '/pet', async (req, res) => {
    if (!isJson(req)) throw unsupported();
    const text = await bodyText(req);
    if (text === null) throw bodyRequired('Update an existent pet in the store');
    const pet = readEntity(text, 'pet');
    if (!pet) throw bodyRequired('Update an existent pet in the store');
    if (pet.id === null) throw new JavaException('NullPointerException'); // getPetById(pet.getId())
    const existing = data.petById(pet.id);
    if (!existing) return untypedText(req, res, 404, 'Pet not found');
    data.deletePet(pet.id);
    data.addPet(pet);
    entity(res, petJson(pet));
  });

  api.on('GET', '/pet/{petId}', (req, res, p) => {
    const pet = data.petById(longParam(p.petId!));
    if (!pet) return untypedText(req, res, 404, 'Pet not found');
    entity(res, petJson(pet));
  });

  api.on('DELETE', '/pet/{petId}', (_req, res, p) => {
    data.deletePet(longParam(p.petId!));
    entity(res, 'Pet deleted');
  });

  api.on('POST', '/pet/{petId}', (req, res, p, url) => {
    const id = longParam(p.petId!);
    const name = stringQuery(url, 'name');
    if (name === null) return untypedText(req, res, 400, 'No Name provided. Try again?');
    const pet = data.petById(id);
    if (!pet) return untypedText(req, res, 404, 'Pet not found');
    const changed: JPet = { ...pet, name, status: stringQuery(url, 'status') };
    data.deletePet(id);
    data.addPet(changed);
    entity(res, petJson(changed));
  });

  api.on('POST', '/pet/{petId}/uploadImage', async (req, res, p) => {
    const id = longParam(p.petId!);
    const type = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/octet-stream') {
      req.resume();
      throw unsupported();
    }
    const bytes = await readBytes(req, ctx.settings.uploadMax);
    if (bytes.length === 0) return untypedText(req, res, 400, 'No file uploaded', ['application/json']);
    const pet = data.petById(id);
    if (!pet) return untypedText(req, res, 404, 'Pet not found', ['application/json']);
    const name = tempName();
    mkdirSync(join(ctx.dataDir, 'tmp'), { recursive: true });
    writeFileSync(join(ctx.dataDir, 'tmp', name), bytes);
    if (pet.photoUrls === null) throw new JavaException('NullPointerException'); // getPhotoUrls().add(…)
    const updated: JPet = { ...pet, photoUrls: [...pet.photoUrls, `/tmp/${name}`] };
    data.deletePet(id);
    data.addPet(updated);
    entity(res, petJson(updated));
  });
}
