/**
 * User accounts, one JSON file each in `<data>/accounts/<username>.json`, like the real service's
 * `user/accounts/<username>.yaml`. Files are read on every lookup, so an edit by hand (or by a
 * test) takes effect at once.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeAccess, type AccessMap } from './access';
import type { Clock } from '../clock';
import { hashPassword, verifyPassword } from '../passwords';

export type AccountState = 'enabled' | 'disabled';

export interface Account {
  username: string;
  email: string;
  fullname: string;
  title: string;
  state: AccountState;
  /** scrypt hash, see passwords.ts; never sent */
  hashed_password: string;
  access: AccessMap;
  twofa_enabled: boolean;
  /** base32; empty when none */
  twofa_secret: string;
  /** preferred editor; empty string when unset */
  content_editor: string;
  /** the groups the account belongs to (their access is inherited, see users/groups.ts); absent = none */
  groups?: string[];
  /** preferred admin language; absent or empty = the site's */
  language?: string;
  avatar: { name: string; type: string } | null;
  /** pending password reset, `token::expiresEpochSeconds` as the login plugin stores it */
  reset?: string;
  /**
   * epoch seconds: tokens issued before are refused (the real service's
   * `api_tokens_valid_after`, set by a password reset)
   */
  api_tokens_valid_after?: number;
  /** epoch seconds */
  created: number;
  modified: number;
}

export interface NewAccount {
  username: string;
  password: string;
  email: string;
  fullname?: string;
  title?: string;
  state?: AccountState;
  access?: unknown;
  twofa_enabled?: boolean;
  twofa_secret?: string;
  content_editor?: string;
  groups?: string[];
  language?: string;
}

/** Usernames the documents' setup accepts. */
export const USERNAME_RE = /^[A-Za-z0-9_-]{3,64}$/;

/** Names that may become an account file: the above, plus inner dots (the real CMS allows them). */
const FILE_NAME_RE = /^(?!\.)(?!.*\.\.)[A-Za-z0-9._-]{3,64}$/;

export class Accounts {
  private readonly dir: string;
  /** parsed account files by username, with the size and mtime they were parsed at (see list()) */
  private readonly parsed = new Map<string, { stamp: string; account: Account }>();

  constructor(dataDir: string, private readonly clock: Clock) {
    this.dir = join(dataDir, 'accounts');
    mkdirSync(this.dir, { recursive: true });
  }

  private file(username: string): string | null {
    return FILE_NAME_RE.test(username) ? join(this.dir, `${username}.json`) : null;
  }

  /**
   * Every account, by username. A file whose size and modification time are unchanged since the
   * last listing is not parsed again (the Users list reads every account on every request), so an
   * edit by hand still shows at once. The objects are copies: changing one changes nothing.
   */
  list(): Account[] {
    const seen = new Set<string>();
    const out: Account[] = [];
    for (const f of readdirSync(this.dir)) {
      if (!f.endsWith('.json')) continue;
      const username = f.slice(0, -5);
      const file = this.file(username);
      const st = file ? statSync(file, { throwIfNoEntry: false }) : undefined;
      if (!st) continue;
      seen.add(username);
      const stamp = `${st.mtimeMs}:${st.size}`;
      let hit = this.parsed.get(username);
      if (hit?.stamp !== stamp) {
        const account = this.get(username);
        if (!account) continue;
        hit = { stamp, account };
        this.parsed.set(username, hit);
      }
      out.push(structuredClone(hit.account));
    }
    for (const name of this.parsed.keys()) if (!seen.has(name)) this.parsed.delete(name);
    return out.sort((a, b) => a.username.localeCompare(b.username));
  }

  count(): number {
    return this.list().length;
  }

  get(username: string): Account | null {
    const file = this.file(username);
    if (!file || !existsSync(file)) return null;
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Account;
    } catch {
      return null;
    }
  }

  findByEmail(email: string): Account | null {
    const needle = email.trim().toLowerCase();
    return this.list().find((a) => a.email.toLowerCase() === needle) ?? null;
  }

  async create(input: NewAccount): Promise<Account> {
    if (!this.file(input.username)) throw new Error(`Invalid username: ${input.username}`);
    if (this.get(input.username)) throw new Error(`Account exists: ${input.username}`);
    const now = this.clock.nowSec();
    const account: Account = {
      username: input.username,
      email: input.email,
      fullname: input.fullname ?? input.username,
      title: input.title ?? '',
      state: input.state ?? 'enabled',
      hashed_password: await hashPassword(input.password),
      access: normalizeAccess(input.access ?? {}),
      twofa_enabled: input.twofa_enabled ?? false,
      twofa_secret: input.twofa_secret ?? '',
      content_editor: input.content_editor ?? '',
      groups: input.groups ?? [],
      language: input.language ?? '',
      avatar: null,
      created: now,
      modified: now,
    };
    this.save(account);
    return account;
  }

  save(account: Account): void {
    const file = this.file(account.username);
    if (!file) throw new Error(`Invalid username: ${account.username}`);
    writeFileSync(file, JSON.stringify(account, null, 2) + '\n');
  }

  /** Changes fields of an existing account (password hashed, access normalised); null when absent. */
  async update(username: string, patch: Partial<Omit<NewAccount, 'username'>> & { reset?: string | null; api_tokens_valid_after?: number }): Promise<Account | null> {
    const account = this.get(username);
    if (!account) return null;
    const { password, access, reset, ...rest } = patch;
    Object.assign(account, Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
    if (password !== undefined) account.hashed_password = await hashPassword(password);
    if (access !== undefined) account.access = normalizeAccess(access);
    if (reset === null) delete account.reset;
    else if (reset !== undefined) account.reset = reset;
    account.modified = this.clock.nowSec();
    this.save(account);
    return account;
  }

  remove(username: string): boolean {
    const file = this.file(username);
    if (!file || !existsSync(file)) return false;
    rmSync(file);
    return true;
  }

  /** The account when the password matches, else null (same effort either way). */
  async authenticate(username: string, password: string): Promise<Account | null> {
    const account = this.get(username);
    const ok = await verifyPassword(password, account?.hashed_password);
    return ok ? account : null;
  }
}
