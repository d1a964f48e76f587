/**
 * The CMS authentication routes (document 1, "Authentication endpoints") and GET /me. Answers are
 * checked at this boundary: a malformed one becomes a bad_response error, never a half-read value.
 * Both the spec's shapes and the real service's (a `user` object in the pair, extra fields) are accepted.
 */
import * as v from 'valibot';
import type { Me } from '../../contract';
import { AppError } from '../../core/app-error';
import type { Transport } from '../transport';
import { parseAnswer } from '../parse';

const TokenPairSchema = v.object({
  access_token: v.pipe(v.string(), v.minLength(1)),
  refresh_token: v.pipe(v.string(), v.minLength(1)),
  token_type: v.optional(v.string()),
  expires_in: v.optional(v.pipe(v.number(), v.minValue(0))),
});

const ChallengeSchema = v.object({
  requires_2fa: v.literal(true),
  challenge_token: v.optional(v.string()),
  expires_in: v.optional(v.number()),
});

const AccessSchema: v.GenericSchema<Me['access']> = v.record(v.string(), v.union([v.boolean(), v.lazy(() => AccessSchema)]));

const MeSchema = v.object({
  username: v.string(),
  fullname: v.optional(v.nullable(v.string()), ''),
  email: v.optional(v.nullable(v.string()), ''),
  avatar_url: v.optional(v.nullable(v.string()), null),
  super_admin: v.optional(v.boolean(), false),
  access: v.optional(AccessSchema, {}),
  content_editor: v.optional(v.nullable(v.string()), ''),
  cms_version: v.optional(v.nullable(v.string()), null),
  admin_version: v.optional(v.nullable(v.string()), null),
});

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Access token lifetime in seconds (1 hour when the server does not say). */
  expiresIn: number;
}

export type TokenAnswer = { kind: 'tokens'; tokens: TokenPair } | { kind: 'challenge'; challengeToken: string; expiresIn: number };


const toPair = (p: v.InferOutput<typeof TokenPairSchema>): TokenPair => ({
  accessToken: p.access_token,
  refreshToken: p.refresh_token,
  expiresIn: p.expires_in ?? 3600,
});

function tokenAnswer(data: unknown, t: Transport): TokenAnswer {
  if (typeof data === 'object' && data !== null && (data as { requires_2fa?: unknown }).requires_2fa === true) {
    const c = parseAnswer(ChallengeSchema, data, t, 'a two-factor challenge');
    if (!c.challenge_token) {
      throw new AppError({ code: 'bad_response', message: `${t.host} asked for a two-factor code but sent no challenge to answer.` });
    }
    return { kind: 'challenge', challengeToken: c.challenge_token, expiresIn: c.expires_in ?? 300 };
  }
  return { kind: 'tokens', tokens: toPair(parseAnswer(TokenPairSchema, data, t, 'a token pair')) };
}

export const toMe = (m: v.InferOutput<typeof MeSchema>): Me => ({
  username: m.username,
  fullname: m.fullname ?? '',
  email: m.email ?? '',
  avatarUrl: m.avatar_url ?? null,
  superAdmin: m.super_admin,
  access: m.access,
  contentEditor: m.content_editor ?? '',
  cmsVersion: m.cms_version ?? null,
  adminVersion: m.admin_version ?? null,
});

export const cmsAuth = {
  async setupStatus(t: Transport): Promise<boolean> {
    const r = await t.call({ path: '/auth/setup', auth: false });
    return parseAnswer(v.object({ setup_required: v.boolean() }), r.data, t, 'a setup status').setup_required;
  },

  async setup(t: Transport, body: { username: string; password: string; email: string; fullname?: string; title?: string }): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/setup', body, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair'));
  },

  async token(t: Transport, username: string, password: string): Promise<TokenAnswer> {
    const r = await t.call({ method: 'POST', path: '/auth/token', body: { username, password }, auth: false });
    return tokenAnswer(r.data, t);
  },

  async verify2fa(t: Transport, challengeToken: string, code: string): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/2fa/verify', body: { challenge_token: challengeToken, code }, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair'));
  },

  async refresh(t: Transport, refreshToken: string): Promise<TokenPair> {
    const r = await t.call({ method: 'POST', path: '/auth/refresh', body: { refresh_token: refreshToken }, auth: false });
    return toPair(parseAnswer(TokenPairSchema, r.data, t, 'a token pair'));
  },

  async revoke(t: Transport, refreshToken: string): Promise<void> {
    await t.call({ method: 'POST', path: '/auth/revoke', body: { refresh_token: refreshToken }, auth: false, timeoutMs: 8000 });
  },

  async forgot(t: Transport, email: string): Promise<string> {
    const r = await t.call({ method: 'POST', path: '/auth/forgot-password', body: { email }, auth: false });
    return parseAnswer(v.object({ message: v.string() }), r.data, t, 'an answer').message;
  },

  async reset(t: Transport, body: { username: string; token: string; password: string }): Promise<string> {
    const r = await t.call({ method: 'POST', path: '/auth/reset-password', body, auth: false });
    return parseAnswer(v.object({ message: v.string() }), r.data, t, 'an answer').message;
  },

  async me(t: Transport): Promise<Me> {
    const r = await t.call({ path: '/me' });
    return toMe(parseAnswer(MeSchema, r.data, t, 'an account description'));
  },
};
