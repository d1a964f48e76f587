/**
 * The CMS authentication routes (document 1, "Authentication endpoints") and GET /me. Answers are
 * checked at this boundary: a malformed one becomes a bad_response error, never a half-read value.
 * Both the spec's shapes and the real service's are accepted: the access map nested or flat
 * (`"api.pages.read": true`), `super_admin`, `demo_mode`, `grav_version` or `cms_version`, and the
 * pair's `user` (the same account description as /me).
 */
import * as v from 'valibot';
import type { Me, SetupStatus } from '../../contract';
import { AppError } from '../../base/app-error';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';

const ChallengeSchema = v.object({
  requires_2fa: v.literal(true),
  challenge_token: v.optional(v.string()),
  expires_in: v.optional(v.number()),
});

/**
 * The resolved access map: nested (spec) or flat with dotted keys (real service), leaves boolean.
 * PHP sends an empty map as `[]`.
 */
const AccessSchema: v.GenericSchema<Me['access']> = v.record(v.string(), v.union([v.boolean(), v.lazy(() => AccessSchema)]));
const Access = v.pipe(
  v.union([AccessSchema, v.pipe(v.array(v.never()), v.transform((): Me['access'] => ({})))]),
  v.transform((x): Me['access'] => x),
);

const count = v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), null);
const DemoModeSchema = v.object({
  enabled: v.optional(v.boolean(), false),
  writable: v.optional(v.nullable(v.array(v.string())), []),
  reset_interval: count,
  seconds_until_reset: count,
});

const MeSchema = v.object({
  username: v.string(),
  fullname: v.optional(v.nullable(v.string()), ''),
  email: v.optional(v.nullable(v.string()), ''),
  avatar_url: v.optional(v.nullable(v.string()), null),
  super_admin: v.optional(v.nullable(v.boolean()), false),
  access: v.optional(v.nullable(Access), {}),
  content_editor: v.optional(v.nullable(v.string()), ''),
  demo_mode: v.optional(v.nullable(DemoModeSchema)),
  /** The real service's name for the CMS version. */
  grav_version: v.optional(v.nullable(v.string()), null),
  cms_version: v.optional(v.nullable(v.string()), null),
  admin_version: v.optional(v.nullable(v.string()), null),
});

/** The real service's password rules (GET /auth/setup `password_policy`, recording 02). */
const PolicySchema = v.object({
  min_length: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))), null),
  rules: v.optional(v.nullable(v.array(v.object({ label: v.string(), pattern: v.string() }))), null),
});

const TokenPairSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.optional(v.string()),
  expires_in: v.optional(v.pipe(v.number(), v.minValue(0))),
  /** The real service describes the account with the pair; a `user` that does not read is ignored (/me follows). */
  user: v.optional(v.fallback(v.nullable(MeSchema), null)),
});

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Access token lifetime in seconds (1 hour when the server does not say). */
  expiresIn: number;
  /** The account as the pair describes it (real service), for the areas until /me has been read. */
  user?: Me;
}

export type TokenAnswer = { kind: 'tokens'; tokens: TokenPair } | { kind: 'challenge'; challengeToken: string; expiresIn: number };


const toPair = (p: v.InferOutput<typeof TokenPairSchema>): TokenPair => ({
  accessToken: p.access_token,
  refreshToken: p.refresh_token,
  expiresIn: p.expires_in ?? 3600,
  ...(p.user ? { user: toMe(p.user) } : {}),
});

function tokenAnswer(data: unknown, t: Transport, where: string): TokenAnswer {
  if (typeof data === 'object' && data !== null && (data as { requires_2fa?: unknown }).requires_2fa === true) {
    const c = parseAnswer(ChallengeSchema, data, t, 'a two-factor challenge', where);
    if (!c.challenge_token) {
      throw new AppError({ code: 'bad_response', message: `${t.host} asked for a two-factor code but sent no challenge to answer.` });
    }
    return { kind: 'challenge', challengeToken: c.challenge_token, expiresIn: c.expires_in ?? 300 };
  }
  return { kind: 'tokens', tokens: toPair(parseAnswer(TokenPairSchema, data, t, 'a token pair', where)) };
}

export function toMe(m: v.InferOutput<typeof MeSchema>): Me {
  const demo = m.demo_mode;
  return {
    username: m.username,
    fullname: m.fullname ?? '',
    email: m.email ?? '',
    avatarUrl: m.avatar_url ?? null,
    superAdmin: m.super_admin === true,
    access: m.access ?? {},
    contentEditor: m.content_editor ?? '',
    cmsVersion: m.grav_version ?? m.cms_version ?? null,
    adminVersion: m.admin_version ?? null,
    ...(demo
      ? { demoMode: { enabled: demo.enabled, writable: demo.writable ?? [], resetInterval: demo.reset_interval ?? null, secondsUntilReset: demo.seconds_until_reset ?? null } }
      : {}),
  };
}

export const cmsAuth = {
  async setupStatus(t: Transport): Promise<SetupStatus> {
    const r = await t.call({ path: '/auth/setup', auth: false });
    const d = parseAnswer(v.object({ setup_required: v.boolean(), password_policy: v.optional(v.unknown()) }), r.data, t, 'a setup status', 'GET /auth/setup');
    // the rules only help the form say them before the site does: rules that do not read are left out
    const policy = d.password_policy == null ? null : v.safeParse(PolicySchema, d.password_policy);
    if (!policy?.success) return { setupRequired: d.setup_required };
    return { setupRequired: d.setup_required, passwordPolicy: { minLength: policy.output.min_length, rules: policy.output.rules ?? [] } };
  },

  async setup(t: Transport, body: { username: string; password: string; email: string; fullname?: string; title?: string }): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/setup', body, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair', 'POST /auth/setup'));
  },

  async token(t: Transport, username: string, password: string): Promise<TokenAnswer> {
    const r = await t.call({ method: 'POST', path: '/auth/token', body: { username, password }, auth: false });
    return tokenAnswer(r.data, t, 'POST /auth/token');
  },

  async verify2fa(t: Transport, challengeToken: string, code: string): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/2fa/verify', body: { challenge_token: challengeToken, code }, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair', 'POST /auth/2fa/verify'));
  },

  async refresh(t: Transport, refreshToken: string): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/refresh', body: { refresh_token: refreshToken }, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair', 'POST /auth/refresh'));
  },

  /**
   * Revokes the refresh token, and the access token the call is sent with: the real service
   * revokes the one presented in `X-API-Token` too (AuthController::revoke), so `t` should carry
   * the session's current access token (the spec's server ignores it).
   */
  async revoke(t: Transport, refreshToken: string): Promise<void> {
    await t.call({ method: 'POST', path: '/auth/revoke', body: { refresh_token: refreshToken }, timeoutMs: 8000 });
  },

  async forgot(t: Transport, email: string): Promise<string> {
    const r = await t.call({ method: 'POST', path: '/auth/forgot-password', body: { email }, auth: false });
    return parseAnswer(v.object({ message: v.string() }), r.data, t, 'an answer', 'POST /auth/forgot-password').message;
  },

  async reset(t: Transport, body: { username: string; token: string; password: string }): Promise<string> {
    const r = await t.call({ method: 'POST', path: '/auth/reset-password', body, auth: false });
    return parseAnswer(v.object({ message: v.string() }), r.data, t, 'an answer', 'POST /auth/reset-password').message;
  },

  async me(t: Transport): Promise<Me> {
    const call: CallOptions = { path: '/me' };
    const r = await request(t, call);
    return toMe(parseAnswer(MeSchema, r.data, t, 'an account description', callName(call)));
  },
};
