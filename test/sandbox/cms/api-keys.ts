/**
 * API keys in `<data>/api-keys.json`. Only a SHA-256 of each key is stored; the key itself is
 * returned once, at creation (`grav_` + 40 hex characters, like the real service's keys).
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock';

export interface ApiKeyRecord {
  id: string;
  name: string;
  /** first 12 characters plus `...`, for recognising a key in lists */
  prefix: string;
  /** sha256 hex of the key */
  hash: string;
  /** owning account */
  username: string;
  /** empty = unrestricted (the owner's permissions apply) */
  scopes: string[];
  active: boolean;
  /** epoch seconds */
  created: number;
  last_used: number | null;
  expires: number | null;
}

export interface NewApiKey {
  username: string;
  name?: string;
  scopes?: string[];
  /** null or absent: no expiry */
  expiry_days?: number | null;
}

/** A key as listed (GET /users/{username}/api-keys; recordings 72–73): never the key or its hash. */
export type ApiKeyMeta = Pick<ApiKeyRecord, 'id' | 'name' | 'prefix' | 'scopes' | 'active' | 'created' | 'last_used' | 'expires'>;

export function keyMeta(k: ApiKeyRecord): ApiKeyMeta {
  return { id: k.id, name: k.name, prefix: k.prefix, scopes: k.scopes, active: k.active, created: k.created, last_used: k.last_used, expires: k.expires };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export class ApiKeys {
  private readonly file: string;

  constructor(dataDir: string, private readonly clock: Clock) {
    this.file = join(dataDir, 'api-keys.json');
  }

  list(): ApiKeyRecord[] {
    if (!existsSync(this.file)) return [];
    try {
      return (JSON.parse(readFileSync(this.file, 'utf8')) as { keys: ApiKeyRecord[] }).keys ?? [];
    } catch {
      return [];
    }
  }

  private write(keys: ApiKeyRecord[]): void {
    writeFileSync(this.file, JSON.stringify({ keys }, null, 2) + '\n');
  }

  /** Creates a key; the returned `api_key` is the only time the key itself exists outside a hash. */
  create(input: NewApiKey): { record: ApiKeyRecord; api_key: string } {
    const apiKey = `grav_${randomBytes(20).toString('hex')}`;
    const now = this.clock.nowSec();
    const record: ApiKeyRecord = {
      id: randomBytes(8).toString('hex'),
      name: input.name ?? 'Key',
      prefix: `${apiKey.slice(0, 12)}...`,
      hash: sha256(apiKey),
      username: input.username,
      scopes: input.scopes ?? [],
      active: true,
      created: now,
      last_used: null,
      expires: input.expiry_days ? now + input.expiry_days * 86400 : null,
    };
    this.write([...this.list(), record]);
    return { record, api_key: apiKey };
  }

  /** The live record for a presented key (active, not expired), marking it used; else null. */
  use(apiKey: string): ApiKeyRecord | null {
    const keys = this.list();
    const hash = sha256(apiKey);
    const record = keys.find((k) => k.hash === hash);
    if (!record || !record.active) return null;
    const now = this.clock.nowSec();
    if (record.expires !== null && record.expires <= now) return null;
    // like the real service (ApiKeyManager touchKey()), last_used is written at most once a minute:
    // rewriting the keys file on every call would cost every API-key request a write
    if (record.last_used === null || now - record.last_used >= 60) {
      record.last_used = now;
      this.write(keys);
    }
    return record;
  }

  /** An account's keys as the service lists them: everything but the hash and the owner. */
  listFor(username: string): ApiKeyMeta[] {
    return this.list()
      .filter((k) => k.username === username)
      .map(keyMeta);
  }

  /** Revokes one key of one account; false when that account has no such key. */
  revokeFor(username: string, id: string): boolean {
    const keys = this.list();
    if (!keys.some((k) => k.id === id && k.username === username)) return false;
    this.write(keys.filter((k) => k.id !== id));
    return true;
  }

  /** Removes every key of an account (its deletion, in the documents' flavour). */
  revokeAll(username: string): void {
    this.write(this.list().filter((k) => k.username !== username));
  }

  revoke(id: string): boolean {
    const keys = this.list();
    const left = keys.filter((k) => k.id !== id);
    this.write(left);
    return left.length !== keys.length;
  }
}
