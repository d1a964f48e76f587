/**
 * Starting data of the `real` flavour. `demo`: the same 20 pets, 10 orders and two accounts as
 * the spec flavour's demo (../seed.ts), stored the way Petstore would hold them had they been
 * sent to it (tag and category ids as sent, passwords in clear), plus two pets of the kind the
 * public petstore3.swagger.io instance is full of, because anybody may write anything to it:
 *   21  a pet without a name (and so without anything a list could show it by);
 *   22  "doggie" as the Swagger UI's example sends it: photo entries that are not addresses
 *       ("url1", "url2", as Petstore's own seed has them in PetData.java), a category and a tag
 *       without names or with the placeholder "string".
 * `empty`: the administrator's account only. Petstore checks no API key, so the "keys" are made up here only
 * so that clients have one to send; any other string does as well.
 */
import { randomBytes } from 'node:crypto';
import type { PlanName } from '../plans';
import { DEMO_ORDERS, DEMO_PETS, DEMO_USERS, type StoreSeedInfo, type StoreSeedName } from '../seed';
import type { PetstoreData } from './data';
import type { JPet } from './entities';

export const MALFORMED_PET_ID = 21;
export const PLACEHOLDER_PET_ID = 22;

function demoPets(origin: string): JPet[] {
  const categories = new Map<string, number>();
  const tags = new Map<string, number>();
  const idFor = (known: Map<string, number>, name: string) => {
    if (!known.has(name)) known.set(name, known.size + 1);
    return known.get(name)!;
  };
  return DEMO_PETS.map(([name, category, tagNames, status], i) => ({
    id: i + 1,
    category: { id: idFor(categories, category), name: category },
    name,
    photoUrls: [`${origin}/images/demo/${name.toLowerCase()}.svg`],
    tags: tagNames.map((t) => ({ id: idFor(tags, t), name: t })),
    status,
  }));
}

const PUBLIC_INSTANCE_PETS: JPet[] = [
  { id: MALFORMED_PET_ID, category: null, name: null, photoUrls: [], tags: [], status: 'available' },
  { id: PLACEHOLDER_PET_ID, category: { id: 0, name: null }, name: 'doggie', photoUrls: ['url1', 'url2'], tags: [{ id: 0, name: 'string' }], status: 'pending' },
];

/** Seeds an empty data folder; null when it already holds a store (kept as it is). */
export function seedPetstore(name: StoreSeedName, data: PetstoreData, origin: string, now: number): StoreSeedInfo | null {
  if (data.exists()) return null;
  const { admin, user1 } = DEMO_USERS;
  // one write of the file for the whole seed (written even when empty: the folder holds a store now)
  data.batch(() => {
    data.addUser({ id: 1, username: 'admin', firstName: admin.firstName, lastName: admin.lastName, email: admin.email, password: admin.password, phone: '+1 555 0100', userStatus: 1 });
    if (name === 'demo') {
      data.addUser({ id: 2, username: 'user1', firstName: user1.firstName, lastName: user1.lastName, email: user1.email, password: user1.password, phone: null, userStatus: 1 });
      for (const pet of [...demoPets(origin), ...PUBLIC_INSTANCE_PETS]) data.addPet(pet);
      DEMO_ORDERS.forEach(([petId, quantity, status, complete], i) => {
        data.addOrder({ id: i + 1, petId, quantity, shipDate: now + (i - 5) * 86_400_000, status, complete });
      });
    }
    data.save();
  });
  const key = (plan: PlanName) => `sk_${plan}_${randomBytes(16).toString('hex')}`;
  return {
    seed: name,
    passwords: name === 'demo' ? { admin: admin.password, user1: user1.password } : { admin: admin.password },
    keys: { free: key('free'), pro: key('pro'), enterprise: key('enterprise') },
  };
}
