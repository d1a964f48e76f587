/**
 * The demo seed's crowd: 36 more accounts with varied groups, own access, titles, 2FA and state,
 * and a membership for about two in three of them (the demo plugins' data), so the Users list has
 * pages, tabs with something to narrow and columns with values. All share one password
 * (DEMO_MEMBER_PASSWORD), hashed once, so seeding stays quick.
 */
import { createHash } from 'node:crypto';
import type { AccessMap } from '../access';
import type { Account, Accounts } from '../accounts';
import type { Clock } from '../../clock';
import { hashPassword } from '../../passwords';
import { base32Encode } from '../totp';
import { demoMembership, Memberships } from './demo-plugins';

/** Meets both flavours' password rules. */
export const DEMO_MEMBER_PASSWORD = 'Demo-member-pass1';

const FIRST = ['Alice', 'Bruno', 'Chloé', 'Dmitri', 'Esther', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quentin', 'Rosa', 'Sven', 'Tamar', 'Umar', 'Vera', 'Wim', 'Xenia', 'Yusuf', 'Zoë', 'Anouk', 'Bao', 'Carmen', 'Dario', 'Elif', 'Finn', 'Gabi', 'Hana', 'Ivo', 'Jade'];
const LAST = ['Martin', 'Keller', 'Dubois', 'Ivanov', 'Cohen', 'Haddad', 'Berg', 'Tanaka', 'Silva', 'Weber', 'Yilmaz', 'Novak', 'García', 'Rahman', 'Lund', 'Shah', 'Moreau', 'Rossi', 'Nilsson', 'Levi', 'Farouk', 'Petrova', 'de Vries', 'Popescu', 'Demir', 'Laurent', 'Jansen', 'Nguyen', 'López', 'Ferrari', 'Kaya', 'Olsen', 'Schmid', 'Sato', 'Horvat', 'Moreno'];

/** Index → groups, own access, title: a rotation that covers every group, none, and several. */
const PROFILES: { groups: string[]; access: AccessMap; title: string }[] = [
  { groups: ['editors'], access: { site: { login: true } }, title: 'Editor' },
  { groups: ['authors'], access: {}, title: 'Author' },
  { groups: ['reviewers'], access: {}, title: 'Reviewer' },
  { groups: [], access: { api: { access: true, pages: { read: true } } }, title: 'Reader' },
  { groups: ['user-managers'], access: {}, title: 'User manager' },
  { groups: ['support', 'reviewers'], access: {}, title: 'Support' },
  { groups: ['editors', 'authors'], access: { api: { media: { write: false } } }, title: 'Senior editor' },
  { groups: [], access: { api: { access: true, config: { read: true }, system: { read: true } } }, title: 'Operator' },
  { groups: [], access: { api: { access: true, super: true }, site: { login: true } }, title: 'Administrator' },
  { groups: [], access: { site: { login: true } }, title: '' },
  { groups: ['authors'], access: { api: { access: false } }, title: 'Former author' },
  { groups: ['reviewers'], access: { api: { users: { read: true } } }, title: 'Auditor' },
];

export async function seedDemoUsers(accounts: Accounts, dataDir: string, clock: Clock): Promise<number> {
  const hash = await hashPassword(DEMO_MEMBER_PASSWORD);
  const memberships = new Memberships(dataDir);
  const now = clock.nowSec();
  let n = 0;
  for (let i = 0; i < FIRST.length; i++) {
    const first = FIRST[i]!;
    const last = LAST[i]!;
    const username = `${first}.${last}`
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/\s+/g, '')
      .toLowerCase();
    if (accounts.get(username)) continue;
    const profile = PROFILES[i % PROFILES.length]!;
    const created = now - (400 - i * 9) * 86400;
    const twofa = i % 4 === 1;
    const account: Account = {
      username,
      email: `${username}@${i % 3 === 0 ? 'example.org' : 'example.test'}`,
      fullname: `${first} ${last}`,
      title: profile.title,
      state: i % 7 === 3 ? 'disabled' : 'enabled',
      hashed_password: hash,
      access: profile.access,
      groups: profile.groups,
      language: ['', 'en', 'de', 'fr'][i % 4]!,
      twofa_enabled: twofa,
      twofa_secret: twofa ? base32Encode(createHash('sha1').update(`sandbox-2fa:${username}`).digest()) : '',
      content_editor: i % 5 === 0 ? 'markdown' : '',
      avatar: null,
      created,
      modified: created + (i % 6) * 86400 * 11,
    };
    accounts.save(account);
    const m = demoMembership(username, i, now);
    if (m) memberships.put(username, m);
    n++;
  }
  return n;
}
