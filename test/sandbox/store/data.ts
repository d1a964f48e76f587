/**
 * Everything the store sandbox knows, in `<data>/store.json` (written after every change, through a
 * temporary file so a killed process never leaves half a file): pets, orders, users, API keys,
 * sessions and the tag and category names seen so far. Keys and session tokens are stored as
 * SHA-256 hashes; passwords as scrypt hashes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Clock } from '../clock';
import { JsonBacked } from '../json-file';
import type { Category, KeyRecord, Order, Pet, SessionRecord, Tag, UserRecord } from './model';
import type { PlanName } from './plans';
import type { PetInput } from './validate';

interface State {
  pets: Pet[];
  orders: Order[];
  users: UserRecord[];
  keys: KeyRecord[];
  sessions: SessionRecord[];
  /** tag names seen so far and their ids, so the same name keeps its id */
  tags: Tag[];
  categories: Required<Category>[];
}

const empty = (): State => ({ pets: [], orders: [], users: [], keys: [], sessions: [], tags: [], categories: [] });

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const nextId = (rows: { id?: number }[]) => rows.reduce((max, r) => Math.max(max, r.id ?? 0), 0) + 1;
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export class StoreData extends JsonBacked<State> {
  constructor(
    dataDir: string,
    private readonly clock: Clock,
  ) {
    super(join(dataDir, 'store.json'), empty());
  }

  // ── pets ───────────────────────────────────────────────────────────────────────────────────

  pets(): Pet[] {
    return this.state.pets;
  }

  pet(id: number): Pet | undefined {
    return this.state.pets.find((p) => p.id === id);
  }

  /** A pet from checked input: tag and category names keep the ids they had before. */
  buildPet(input: PetInput, id: number): Pet {
    const tags: Tag[] = [];
    for (const t of input.tags) {
      const tag = this.tag(t);
      if (!tags.some((x) => x.id === tag.id)) tags.push(tag);
    }
    return {
      id,
      name: input.name,
      ...(input.category ? { category: this.category(input.category) } : {}),
      photoUrls: input.photoUrls,
      tags,
      status: input.status ?? 'available',
    };
  }

  newPetId(): number {
    return nextId(this.state.pets);
  }

  putPet(pet: Pet): Pet {
    const i = this.state.pets.findIndex((p) => p.id === pet.id);
    if (i >= 0) this.state.pets[i] = pet;
    else this.state.pets.push(pet);
    this.save();
    return pet;
  }

  removePet(id: number): boolean {
    const before = this.state.pets.length;
    this.state.pets = this.state.pets.filter((p) => p.id !== id);
    if (this.state.pets.length === before) return false;
    this.save();
    return true;
  }

  private tag(t: { id?: number; name: string }): Tag {
    const known = this.state.tags.find((x) => (t.id !== undefined ? x.id === t.id : same(x.name, t.name)));
    if (known && same(known.name, t.name)) return { ...known };
    const tag = { id: t.id ?? nextId(this.state.tags), name: t.name };
    if (!known) this.state.tags.push(tag);
    return tag;
  }

  private category(c: Category): Category {
    if (c.name === undefined) return c;
    const known = this.state.categories.find((x) => (c.id !== undefined ? x.id === c.id : same(x.name, c.name!)));
    if (known && same(known.name, c.name)) return { ...known };
    const category = { id: c.id ?? nextId(this.state.categories), name: c.name };
    if (!known) this.state.categories.push(category);
    return category;
  }

  // ── orders ─────────────────────────────────────────────────────────────────────────────────

  order(id: number): Order | undefined {
    return this.state.orders.find((o) => o.id === id);
  }

  orders(): Order[] {
    return this.state.orders;
  }

  /** Placed orders get ids after the demo data's 1 to 10 (and after any order ever seen). */
  addOrder(o: Omit<Order, 'id'>): Order {
    const order = { id: Math.max(nextId(this.state.orders), 11), ...o };
    this.state.orders.push(order);
    this.save();
    return order;
  }

  putOrder(order: Order): void {
    this.state.orders = [...this.state.orders.filter((o) => o.id !== order.id), order].sort((a, b) => a.id - b.id);
    this.save();
  }

  removeOrder(id: number): Order | undefined {
    const order = this.order(id);
    if (!order) return undefined;
    this.state.orders = this.state.orders.filter((o) => o.id !== id);
    this.save();
    return order;
  }

  // ── users ──────────────────────────────────────────────────────────────────────────────────

  users(): UserRecord[] {
    return this.state.users;
  }

  user(username: string): UserRecord | undefined {
    return this.state.users.find((u) => same(u.username, username));
  }

  /** Adds accounts all at once (createWithList is all or nothing). */
  addUsers(users: Omit<UserRecord, 'id'>[]): UserRecord[] {
    let id = nextId(this.state.users);
    const added = users.map((u) => ({ id: id++, ...u }));
    this.state.users.push(...added);
    this.save();
    return added;
  }

  putUser(user: UserRecord): void {
    this.state.users = this.state.users.map((u) => (u.id === user.id ? user : u));
    this.save();
  }

  /** The account, its keys and its sessions. */
  removeUser(username: string): boolean {
    const user = this.user(username);
    if (!user) return false;
    this.state.users = this.state.users.filter((u) => u !== user);
    this.state.keys = this.state.keys.filter((k) => k.username !== user.username);
    this.state.sessions = this.state.sessions.filter((s) => s.username !== user.username);
    this.save();
    return true;
  }

  // ── API keys and sessions ──────────────────────────────────────────────────────────────────

  /** A new key for an account on a plan; the key itself is returned only here. */
  createKey(username: string, plan: PlanName, name = `${plan} key`): { key: string; record: KeyRecord } {
    const key = `sk_${plan}_${randomBytes(16).toString('hex')}`;
    const record: KeyRecord = { hash: sha256(key), prefix: key.slice(0, 10), username, plan, name, created: new Date(this.clock.now()).toISOString() };
    this.state.keys.push(record);
    this.save();
    return { key, record };
  }

  keyRecord(key: string): KeyRecord | undefined {
    const hash = sha256(key);
    return this.state.keys.find((k) => k.hash === hash);
  }

  keys(): KeyRecord[] {
    return this.state.keys;
  }

  /** A session token for an account, valid `ttlSec` on the sandbox clock. */
  createSession(username: string, ttlSec: number): { token: string; record: SessionRecord } {
    const token = randomBytes(24).toString('base64url');
    const now = this.clock.now();
    // expired sessions are dropped whenever a new one starts, so the file does not grow forever
    this.state.sessions = this.state.sessions.filter((s) => s.expiresAt > now);
    const record: SessionRecord = { hash: sha256(token), username, expiresAt: now + ttlSec * 1000 };
    this.state.sessions.push(record);
    this.save();
    return { token, record };
  }

  session(token: string): SessionRecord | undefined {
    const hash = sha256(token);
    return this.state.sessions.find((s) => s.hash === hash);
  }

  endSession(token: string): boolean {
    const hash = sha256(token);
    const before = this.state.sessions.length;
    this.state.sessions = this.state.sessions.filter((s) => s.hash !== hash);
    if (this.state.sessions.length === before) return false;
    this.save();
    return true;
  }
}
