/**
 * The store's resources (document 3, section 2) as the sandbox keeps them, and the views it sends.
 * Kept beside the spec's fields: a user's password hash, whether the account administers the
 * store, and its rate-limit plan (the document names plans but not how an account gets one).
 */
import type { PlanName } from './plans';

export const PET_STATUSES = ['available', 'pending', 'sold'] as const;
export type PetStatus = (typeof PET_STATUSES)[number];

export const ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface Category {
  id?: number;
  name?: string;
}

export interface Tag {
  id: number;
  name: string;
}

export interface Pet {
  id: number;
  name: string;
  category?: Category;
  photoUrls: string[];
  tags: Tag[];
  status: PetStatus;
}

export interface Order {
  id: number;
  petId: number;
  quantity: number;
  shipDate?: string;
  status: OrderStatus;
  complete: boolean;
}

export interface UserRecord {
  id: number;
  username: string;
  firstName?: string;
  lastName?: string;
  email: string;
  phone?: string;
  userStatus?: number;
  passwordHash: string;
  /** may create users (POST /user, createWithList) and change or delete any account */
  admin: boolean;
  /** the plan a logged-in session of this account counts against */
  plan: PlanName;
}

/** What GET /user/{username} answers: the spec's fields without the password, which is never sent back. */
export function userView(u: UserRecord) {
  return {
    id: u.id,
    username: u.username,
    ...(u.firstName !== undefined ? { firstName: u.firstName } : {}),
    ...(u.lastName !== undefined ? { lastName: u.lastName } : {}),
    email: u.email,
    ...(u.phone !== undefined ? { phone: u.phone } : {}),
    ...(u.userStatus !== undefined ? { userStatus: u.userStatus } : {}),
  };
}

export interface KeyRecord {
  /** sha256 hex of the key; the key itself exists only in the answer that created it */
  hash: string;
  /** first 10 characters, to recognise a key in listings */
  prefix: string;
  username: string;
  plan: PlanName;
  name: string;
  /** ISO */
  created: string;
}

export interface SessionRecord {
  /** sha256 hex of the session token */
  hash: string;
  username: string;
  /** epoch ms on the sandbox clock */
  expiresAt: number;
}
