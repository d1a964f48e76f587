/**
 * What the `real` flavour knows, kept the way Petstore keeps it: three plain lists in the order
 * things were added, in `<data>/petstore.json` (written after every change, through a temporary
 * file). The operations follow swagger-api/swagger-petstore: src/main/java/io/swagger/petstore/
 * data/{PetData,OrderData,UserData}.java, including where they break:
 * - Adding replaces any record with the same id (pets, orders) or username (users): the old one
 *   is removed and the new one appended at the end. Nothing is ever generated: no ids, no tag or
 *   category ids.
 * - Lookups walk the list from the start and stop at the first match. Reading the id of a pet
 *   stored without one, or calling equals on a user stored without a username, throws a
 *   NullPointerException; `JavaException` stands for it here and the routes answer 500. So a
 *   broken record breaks every walk that reaches it: lookups of records after it or of missing
 *   ones, every add (adds walk from the end), every delete (removeIf tests every record and
 *   removes nothing when one throws).
 * - The inventory adds up order quantities per order status; an order without a status makes a
 *   null map key, which Jackson refuses to write (500).
 * Users keep their password in clear, as Petstore's User does.
 */
import { join } from 'node:path';
import { JsonBacked } from '../../json-file';
import { JavaException } from './answers';
import type { JOrder, JPet, JUser } from './entities';

interface State {
  pets: JPet[];
  orders: JOrder[];
  users: JUser[];
}

const npe = (): JavaException => new JavaException('NullPointerException');

/** Pet.getId(): a primitive long read from a Long field. */
const idOf = (p: JPet): number => {
  if (p.id === null) throw npe();
  return p.id;
};

/** User.getUsername().equals(…): fine with a null argument, not with a null receiver. */
const usernameEquals = (u: JUser, other: string | null): boolean => {
  if (u.username === null) throw npe();
  return u.username === other;
};

export class PetstoreData extends JsonBacked<State> {
  constructor(dataDir: string) {
    super(join(dataDir, 'petstore.json'), { pets: [], orders: [], users: [] });
  }

  // ── pets (PetData) ────────────────────────────────────────────────────────────────────────

  /** Every pet in list order (for tests and the routes' filters). */
  pets(): readonly JPet[] {
    return this.state.pets;
  }

  /** getPetById: the first pet with this id; throws on a pet without id met before it. */
  petById(id: number): JPet | undefined {
    for (const p of this.state.pets) if (idOf(p) === id) return p;
    return undefined;
  }

  /** The stored pet with this id, for tests: never throws. */
  pet(id: number): JPet | undefined {
    return this.state.pets.find((p) => p.id === id);
  }

  /** addPet: removes pets with the same id (walking from the end), appends this one. */
  addPet(pet: JPet): void {
    const pets = this.state.pets;
    if (pets.length > 0) {
      for (let i = pets.length - 1; i >= 0; i--) {
        if (idOf(pets[i]!) === idOf(pet)) pets.splice(i, 1);
      }
    }
    pets.push(pet);
    this.save();
  }

  /** deletePetById: removeIf over every pet; one without id throws and nothing is removed. */
  deletePet(id: number): void {
    const keep = this.state.pets.filter((p) => idOf(p) !== id);
    if (keep.length === this.state.pets.length) return;
    this.state.pets = keep;
    this.save();
  }

  /** findPetByStatus: the value split on commas, pets in list order (one entry per match). */
  petsByStatus(status: string): JPet[] {
    const wanted = status.split(',');
    const out: JPet[] = [];
    for (const p of this.state.pets) for (const s of wanted) if (s === p.status) out.push(p);
    return out;
  }

  /** findPetByTags: a pet once per (its tag, asked tag) pair that is equal, names compared exactly. */
  petsByTags(tags: readonly string[]): JPet[] {
    const out: JPet[] = [];
    for (const p of this.state.pets) {
      if (p.tags === null) continue;
      for (const t of p.tags) {
        if (t === null) throw npe(); // tag.getName() on a null list item
        for (const asked of tags) if (asked === t.name) out.push(p);
      }
    }
    return out;
  }

  // ── orders (OrderData) ────────────────────────────────────────────────────────────────────

  orders(): readonly JOrder[] {
    return this.state.orders;
  }

  order(id: number): JOrder | undefined {
    return this.state.orders.find((o) => o.id === id);
  }

  /** addOrder: an order with the same id is replaced (an order sent without id is order 0). */
  addOrder(order: JOrder): void {
    this.state.orders = this.state.orders.filter((o) => o.id !== order.id);
    this.state.orders.push(order);
    this.save();
  }

  deleteOrder(id: number): void {
    const keep = this.state.orders.filter((o) => o.id !== id);
    if (keep.length === this.state.orders.length) return;
    this.state.orders = keep;
    this.save();
  }

  /** getCountByStatus: quantities summed per order status; a null status cannot be written as a JSON key. */
  countByStatus(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const o of this.state.orders) {
      if (o.status === null) throw new JavaException('JsonMappingException: Null key for a Map not allowed in JSON');
      counts[o.status] = (counts[o.status] ?? 0) + o.quantity;
    }
    return counts;
  }

  // ── users (UserData) ──────────────────────────────────────────────────────────────────────

  users(): readonly JUser[] {
    return this.state.users;
  }

  /** findUserByName: names compared exactly; throws on a user without username met before the match. */
  userByName(username: string): JUser | undefined {
    for (const u of this.state.users) if (usernameEquals(u, username)) return u;
    return undefined;
  }

  /** The stored user with this username, for tests: never throws. */
  user(username: string): JUser | undefined {
    return this.state.users.find((u) => u.username === username);
  }

  /** addUser: users with the same username removed (walking from the end), this one appended. */
  addUser(user: JUser): void {
    const users = this.state.users;
    if (users.length > 0) {
      for (let i = users.length - 1; i >= 0; i--) {
        if (usernameEquals(users[i]!, user.username)) users.splice(i, 1);
      }
    }
    users.push(user);
    this.save();
  }

  /** deleteUser: removeIf over every user; one without username throws and nothing is removed. */
  deleteUser(username: string | null): void {
    const keep = this.state.users.filter((u) => !usernameEquals(u, username));
    if (keep.length === this.state.users.length) return;
    this.state.users = keep;
    this.save();
  }
}
