/**
 * Starting data. `demo`: three accounts and an API key, for people trying the app and for
 * end-to-end tests, and a crowd of 36 more for the Users list (users/seed-users.ts);
 * `empty`: nothing, so the instance asks for first-run setup.
 */
import type { Accounts } from './accounts';
import type { ApiKeys } from './api-keys';
import type { Clock } from '../clock';
import { DEMO_MEMBER_PASSWORD, seedDemoUsers } from './users/seed-users';

export type SeedName = 'demo' | 'empty';

/** Fixed so a person can add it to an authenticator once and keep using it across runs. */
export const DEMO_TOTP_SECRET = 'SITEDESKDEMO2FAKEY7SANDBOX234567';

export const DEMO_ACCOUNTS = {
  admin: { password: 'demo-admin-pass', email: 'admin@example.test', fullname: 'Ada Admin' },
  editor: { password: 'demo-editor-pass', email: 'editor@example.test', fullname: 'Eddie Editor' },
  viewer: { password: 'demo-viewer-pass', email: 'viewer@example.test', fullname: 'Vera Viewer' },
} as const;

export interface SeedInfo {
  seed: SeedName;
  /** demo only: username → password */
  passwords: Record<string, string>;
  /** demo only: the editor's base32 TOTP secret */
  totpSecret: string | null;
  /** demo only: the admin's API key (exists nowhere else in plain text) */
  adminApiKey: string | null;
  /** demo only: how many more accounts the Users list got, and their shared password */
  members: { count: number; password: string } | null;
}

/** Seeds a data folder that has no accounts yet; returns null when it already had some (kept as is). */
export async function seed(name: SeedName, accounts: Accounts, apiKeys: ApiKeys, where: { dataDir: string; clock: Clock }): Promise<SeedInfo | null> {
  if (accounts.count() > 0) return null;
  if (name === 'empty') return { seed: 'empty', passwords: {}, totpSecret: null, adminApiKey: null, members: null };

  const { admin, editor, viewer } = DEMO_ACCOUNTS;
  await accounts.create({
    username: 'admin',
    ...admin,
    title: 'Administrator',
    access: { site: { login: true }, admin: { super: true, login: true }, api: { access: true, super: true } },
  });
  await accounts.create({
    username: 'editor',
    ...editor,
    title: 'Editor',
    access: { site: { login: true }, api: { access: true, pages: { read: true, write: true }, media: { read: true, write: true } } },
    twofa_enabled: true,
    twofa_secret: DEMO_TOTP_SECRET,
    content_editor: 'markdown',
  });
  await accounts.create({ username: 'viewer', ...viewer, title: 'Viewer', access: { api: { access: true } } });
  const key = apiKeys.create({ username: 'admin', name: 'Demo key' });
  const count = await seedDemoUsers(accounts, where.dataDir, where.clock);
  return {
    seed: 'demo',
    passwords: { admin: admin.password, editor: editor.password, viewer: viewer.password },
    totpSecret: DEMO_TOTP_SECRET,
    adminApiKey: key.api_key,
    members: { count, password: DEMO_MEMBER_PASSWORD },
  };
}
