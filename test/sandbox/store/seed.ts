/**
 * Starting data. `demo`: 20 pets in four categories with tags, orders 1 to 10 (the ids document 3
 * calls valid in the demo data), two accounts and one API key per plan. `empty`: only the
 * administrator and the keys, no pets or orders (the empty states).
 * Pet status and orders agree: a pet with an open order is `pending`, one delivered is `sold`.
 */
import { hashPassword } from '../passwords';
import type { StoreData } from './data';
import type { OrderStatus, PetStatus } from './model';
import type { PlanName } from './plans';

export type StoreSeedName = 'demo' | 'empty';

export const DEMO_USERS = {
  admin: { password: 'demo-admin-pass', email: 'admin@example.test', firstName: 'Ada', lastName: 'Admin' },
  user1: { password: 'demo-user-pass', email: 'user1@example.test', firstName: 'Uma', lastName: 'User' },
} as const;

export interface StoreSeedInfo {
  seed: StoreSeedName;
  /** username → password */
  passwords: Record<string, string>;
  /** the administrator's demo keys, one per plan (they exist nowhere else in plain text) */
  keys: Record<PlanName, string>;
}

type DemoPet = [name: string, category: string, tags: string[], status: PetStatus];

/** The demo pets, ids 1 to 20 in this order (the real flavour's seed has them too). */
export const DEMO_PETS: readonly DemoPet[] = [
  ['Rex', 'Dogs', ['friendly', 'tag1'], 'available'],
  ['Bella', 'Dogs', ['young', 'tag2'], 'available'],
  ['Max', 'Dogs', ['trained'], 'available'],
  ['Luna', 'Cats', ['friendly', 'indoor'], 'available'],
  ['Milo', 'Cats', ['young', 'tag1'], 'available'],
  ['Nala', 'Cats', ['indoor'], 'available'],
  ['Kiwi', 'Birds', ['talks', 'tag3'], 'available'],
  ['Sunny', 'Birds', ['young'], 'available'],
  ['Bubbles', 'Fish', ['tag2'], 'available'],
  ['Nemo', 'Fish', ['young', 'tag3'], 'available'],
  ['Charlie', 'Dogs', ['friendly', 'trained'], 'available'],
  ['Daisy', 'Cats', ['senior'], 'available'],
  ['Rocky', 'Dogs', ['senior', 'tag1'], 'pending'],
  ['Coco', 'Birds', ['talks'], 'pending'],
  ['Oscar', 'Cats', ['friendly'], 'pending'],
  ['Goldie', 'Fish', ['tag2'], 'pending'],
  ['Buddy', 'Dogs', ['trained', 'tag3'], 'sold'],
  ['Shadow', 'Cats', ['indoor'], 'sold'],
  ['Polly', 'Birds', ['talks', 'senior'], 'sold'],
  ['Finn', 'Fish', ['young'], 'sold'],
];

/** [petId, quantity, status, complete]: open orders on the pending pets, delivered ones on the sold. */
export const DEMO_ORDERS: readonly [number, number, OrderStatus, boolean][] = [
  [13, 1, 'placed', false],
  [14, 1, 'approved', false],
  [15, 1, 'placed', false],
  [16, 2, 'approved', false],
  [17, 1, 'delivered', true],
  [18, 1, 'delivered', true],
  [19, 1, 'delivered', true],
  [20, 3, 'delivered', true],
  [17, 1, 'delivered', true],
  [20, 1, 'delivered', true],
];

/** Seeds an empty data folder; null when it already holds a store (kept as it is). */
export async function seedStore(name: StoreSeedName, data: StoreData, origin: string, now: number): Promise<StoreSeedInfo | null> {
  if (data.exists()) return null;
  const { admin, user1 } = DEMO_USERS;
  const [adminHash, userHash] = await Promise.all([hashPassword(admin.password), hashPassword(user1.password)]);
  // one write of the file for the whole seed, not one per user, key, pet and order
  return data.batch(() => seedRows(name, data, origin, now, adminHash, userHash));
}

function seedRows(name: StoreSeedName, data: StoreData, origin: string, now: number, adminHash: string, userHash: string): StoreSeedInfo {
  const { admin, user1 } = DEMO_USERS;
  data.addUsers([
    { username: 'admin', firstName: admin.firstName, lastName: admin.lastName, email: admin.email, phone: '+1 555 0100', userStatus: 1, passwordHash: adminHash, admin: true, plan: 'pro' },
    ...(name === 'demo'
      ? [{ username: 'user1', firstName: user1.firstName, lastName: user1.lastName, email: user1.email, userStatus: 1, passwordHash: userHash, admin: false, plan: 'free' as const }]
      : []),
  ]);
  const keys = {
    free: data.createKey('admin', 'free', 'Demo key (Free)').key,
    pro: data.createKey('admin', 'pro', 'Demo key (Pro)').key,
    enterprise: data.createKey('admin', 'enterprise', 'Demo key (Enterprise)').key,
  };
  if (name === 'demo') {
    DEMO_PETS.forEach(([petName, category, tags, status], i) => {
      const id = i + 1;
      data.putPet(
        data.buildPet(
          { name: petName, category: { name: category }, photoUrls: [`${origin}/images/demo/${petName.toLowerCase()}.svg`], tags: tags.map((t) => ({ name: t })), status },
          id,
        ),
      );
    });
    DEMO_ORDERS.forEach(([petId, quantity, status, complete], i) => {
      const shipDate = new Date(now + (i - 5) * 86_400_000).toISOString();
      data.putOrder({ id: i + 1, petId, quantity, shipDate, status, complete });
    });
  }
  data.save();
  return { seed: name, passwords: name === 'demo' ? { admin: admin.password, user1: user1.password } : { admin: admin.password }, keys };
}
