/**
 * The public authentication endpoints (spec section 4, "Authentication endpoints"): first-run
 * setup, password login with the 2FA challenge step, refresh with rotation, revoke, and the
 * forgot/reset password pair. Status codes as the spec lists them; bodies as the real service
 * sends them (`{data: …}`, problem+json errors).
 *
 * Where the real Grav API plugin differs, the real flavour follows it
 * (getgrav/grav-plugin-api:classes/Api/Controllers/AuthController.php, SetupController.php,
 * Services/PasswordPolicyService.php, AbstractApiController.php finalizeAuthenticatedUser();
 * recordings 02–07): every missing field is a 422 (the plugin's ValidationException); GET
 * /auth/setup also sends the password policy, and setup checks Grav's default password rule and
 * username characters (dots allowed); a login names the account by username or email, and an
 * account without API access or a disabled one is refused with 403; logout also revokes the access
 * token sent with it; reset-password names missing fields (then one vague 422 for every bad link)
 * and ends every token issued before the reset.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fieldProblem, HttpProblem, json, readBody, requireFields, type Router } from '../http';
import { grants, isSuper } from './access';
import { USERNAME_RE, type Account } from './accounts';
import type { CmsContext } from './context';
import { rateLimitHeaders, tooMany, type LimitName, type LimitState } from './limits';
import { tokenPair } from './profile';
import { realAccessToken } from './credentials';
import { verifyTotp } from './totp';
import { userRef } from './users/serialize';

const NEUTRAL_FORGOT = 'If an account exists for that email, a reset link has been sent.';
const VAGUE_RESET = 'Invalid or expired reset link.';
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NO_STORE = { 'Cache-Control': 'no-store' };

type Body = Record<string, unknown>;

const str = (body: Body, field: string): string => (typeof body[field] === 'string' ? (body[field] as string) : '');
const clientIp = (req: IncomingMessage): string => req.socket.remoteAddress ?? 'unknown';

/** 400 naming every field that is absent, blank or not text (the real flavour's wire makes it a 422). */
const requireText = (body: Body, fields: string[]) => requireFields(body, fields, 400, { text: true });

/** Grav's default `system.pwd_regex` and the policy the plugin derives from it (recording 02). */
const PWD_REGEX = '(?=.*\\d)(?=.*[a-z])(?=.*[A-Z]).{8,}';
const PASSWORD_POLICY = {
  regex: PWD_REGEX,
  min_length: 8,
  rules: [
    { id: 'length', label: 'At least 8 characters', pattern: '.{8,}' },
    { id: 'digit', label: 'At least one number', pattern: '\\d' },
    { id: 'lowercase', label: 'At least one lowercase letter', pattern: '[a-z]' },
    { id: 'uppercase', label: 'At least one uppercase letter', pattern: '[A-Z]' },
  ],
};
/** Grav's user name rule: letters, digits, dots, hyphens, underscores, no leading dot (3–64 long here). */
const REAL_USERNAME_RE = /^(?!\.)[A-Za-z0-9._-]{3,64}$/;

export function registerAuthRoutes(router: Router, ctx: CmsContext): void {
  const real = ctx.flavor === 'real';
  // the real service's replies carry `no-store, max-age=0` already (real-wire.ts)
  const noStore = real ? {} : NO_STORE;
  /** Applies a bucket: headers on the response, a 429 when limited. `null` bucket: nothing. */
  const limit = (res: ServerResponse, name: LimitName, op: 'attempt' | 'check' | 'fail', key: string, detail: string): LimitState | null => {
    const limiter = ctx.limits.get(name);
    if (!limiter) return null;
    const s = limiter[op](`${name}:${key}`);
    // the real login limiter (the login plugin's) reports nothing: the headers stay the general bucket's
    if (!real) rateLimitHeaders(res, s);
    if (s.limited) throw tooMany(s, detail);
    return s;
  };
  const clearLimit = (name: LimitName, key: string) => ctx.limits.get(name)?.clear(`${name}:${key}`);

  /** May this account sign in to the API at all? (super, api.access or admin.login) */
  const mayUseApi = (a: Account) => isSuper(a.access) || grants(a.access, 'api.access') || grants(a.access, 'admin.login');

  router.on('GET', '/auth/setup', (_req, res) => {
    const setupRequired = ctx.accounts.count() === 0;
    json(res, 200, { data: real ? { setup_required: setupRequired, password_policy: PASSWORD_POLICY } : { setup_required: setupRequired } });
  });

  router.on('POST', '/auth/setup', async (req, res) => {
    limit(res, 'setup', 'attempt', clientIp(req), 'Too many setup attempts. Try again later.');
    if (ctx.accounts.count() > 0) throw new HttpProblem(409, 'Conflict', 'Setup has already been completed.');
    const body = await readBody(req);
    if (real) {
      await realSetup(res, body);
      return;
    }

    const username = str(body, 'username');
    const password = str(body, 'password');
    const email = str(body, 'email').trim();
    const errors: { field: string; message: string }[] = [];
    if (!username.trim()) errors.push({ field: 'username', message: "The 'username' field is required." });
    else if (!USERNAME_RE.test(username))
      errors.push({ field: 'username', message: 'Username must be 3-64 characters and contain only letters, numbers, hyphens, and underscores.' });
    if (!password) errors.push({ field: 'password', message: "The 'password' field is required." });
    else if (password.length < 8) errors.push({ field: 'password', message: 'Password must be at least 8 characters.' });
    if (!email) errors.push({ field: 'email', message: "The 'email' field is required." });
    else if (!EMAIL_RE.test(email)) errors.push({ field: 'email', message: 'A valid email address is required.' });
    for (const f of ['fullname', 'title']) {
      if (body[f] !== undefined && body[f] !== null && typeof body[f] !== 'string') errors.push({ field: f, message: `The '${f}' field must be a string.` });
    }
    if (errors.length) {
      const detail = errors.length === 1 ? errors[0]!.message : `Invalid fields: ${errors.map((e) => e.field).join(', ')}`;
      throw fieldProblem(400, detail, errors);
    }
    const account = await ctx.accounts.create({
      username,
      password,
      email,
      fullname: str(body, 'fullname').trim() || username,
      title: str(body, 'title').trim() || 'Administrator',
      access: { site: { login: true }, api: { super: true } },
    });
    setupEvents(account);
    json(res, 200, { data: tokenPair(ctx, account) }, NO_STORE);
  });

  /** The real service's setup checks, one problem at a time, in its order. */
  const realSetup = async (res: ServerResponse, body: Body) => {
    requireText(body, ['username', 'password', 'email']);
    const username = String(body.username);
    const password = String(body.password);
    const email = String(body.email);
    if (!REAL_USERNAME_RE.test(username) || username.includes('..')) {
      throw fieldProblem(422, 'Invalid username format.', [
        { field: 'username', message: 'Username must be 3-64 characters and contain only letters, numbers, periods, hyphens, and underscores (and cannot start with a period).' },
      ]);
    }
    if (!EMAIL_RE.test(email)) throw fieldProblem(422, 'Invalid email address.', [{ field: 'email', message: 'A valid email address is required.' }]);
    if (!new RegExp(`^(?:${PWD_REGEX})$`).test(password)) {
      throw fieldProblem(422, 'Password does not meet the required policy.', [{ field: 'password', message: 'Password does not meet the required policy.' }]);
    }
    const account = await ctx.accounts.create({
      username,
      password,
      email,
      fullname: typeof body.fullname === 'string' ? body.fullname : username,
      title: typeof body.title === 'string' ? body.title : 'Administrator',
      access: { site: { login: true }, api: { super: true } },
    });
    setupEvents(account);
    json(res, 200, { data: tokenPair(ctx, account) });
  };

  /** The first account is a user write like any other, and completes the setup. */
  const setupEvents = (account: Account) => {
    ctx.events.record('onApiUserCreated', { user: userRef(account) });
    ctx.events.record('onApiSetupComplete', { user: userRef(account) });
  };

  router.on('POST', '/auth/token', async (req, res) => {
    const body = await readBody(req);
    requireText(body, ['username', 'password']);
    const username = str(body, 'username');
    limit(res, 'login', 'check', username, 'Too many login attempts. Try again later.');
    // the real service's login plugin also finds the account by its email
    const name = real && !ctx.accounts.get(username) ? (ctx.accounts.findByEmail(username)?.username ?? username) : username;
    const account = await ctx.accounts.authenticate(name, str(body, 'password'));
    // document 1's login events (the audit trail records them)
    const loginFailed = (reason: string) => ctx.events.record('onApiUserLoginFailure', { username, reason, ip: clientIp(req) });
    if (!account) {
      limit(res, 'login', 'fail', username, '');
      loginFailed('password');
      throw new HttpProblem(401, 'Unauthorized', 'Invalid username or password.');
    }
    if (!mayUseApi(account)) loginFailed('no_api_access');
    else if (account.state === 'disabled') loginFailed('disabled');
    if (real) {
      // the password was right: the real service then refuses with 403, API access checked first
      if (!mayUseApi(account)) throw new HttpProblem(403, 'Forbidden', 'API access is not enabled for this user.');
      if (account.state === 'disabled') throw new HttpProblem(403, 'Forbidden', 'This user account is disabled.');
    }
    if (account.state === 'disabled') throw new HttpProblem(401, 'Unauthorized', 'This user account is disabled.');
    if (!mayUseApi(account)) throw new HttpProblem(401, 'Unauthorized', 'API access is not enabled for this user.');

    if (account.twofa_enabled && account.twofa_secret) {
      // the password was right, but the login only counts once the code verifies
      const challenge = ctx.tokens.issue('challenge', account.username, ctx.settings.challengeTtl);
      json(res, 200, { data: { requires_2fa: true, challenge_token: challenge.token, expires_in: ctx.settings.challengeTtl, token_type: 'Challenge' } }, noStore);
      return;
    }
    clearLimit('login', username);
    ctx.events.record('onApiUserLogin', { user: userRef(account), method: 'password', ip: clientIp(req) });
    json(res, 200, { data: tokenPair(ctx, account) }, noStore);
  });

  router.on('POST', '/auth/2fa/verify', async (req, res) => {
    const body = await readBody(req);
    requireText(body, ['challenge_token', 'code']);
    const claims = ctx.tokens.verify(str(body, 'challenge_token'), 'challenge');
    const account = claims && ctx.accounts.get(claims.sub);
    if (!claims || !account) throw new HttpProblem(401, 'Unauthorized', 'Invalid or expired challenge token.');
    limit(res, 'twofa', 'check', account.username, 'Too many failed 2FA attempts. Try again later.');
    if (account.state === 'disabled') throw new HttpProblem(403, 'Forbidden', 'This user account is disabled.');
    const code = str(body, 'code').replace(/\s/g, '');
    if (!account.twofa_secret || !verifyTotp(account.twofa_secret, code, ctx.clock.now())) {
      limit(res, 'twofa', 'fail', account.username, '');
      ctx.events.record('onApiUserLoginFailure', { username: account.username, reason: '2fa', ip: clientIp(req) });
      throw new HttpProblem(401, 'Unauthorized', 'Invalid 2FA code.');
    }
    ctx.tokens.revoke(claims.jti); // single use
    clearLimit('twofa', account.username);
    clearLimit('login', account.username);
    ctx.events.record('onApiUserLogin', { user: userRef(account), method: '2fa', ip: clientIp(req) });
    json(res, 200, { data: tokenPair(ctx, account) }, noStore);
  });

  router.on('POST', '/auth/refresh', async (req, res) => {
    const body = await readBody(req);
    requireText(body, ['refresh_token']);
    const claims = ctx.tokens.verify(str(body, 'refresh_token'), 'refresh');
    const account = claims && ctx.accounts.get(claims.sub);
    const stale = real && claims !== null && claims.iat < (account?.api_tokens_valid_after ?? 0);
    if (!claims || !account || account.state === 'disabled' || stale) throw new HttpProblem(401, 'Unauthorized', 'Invalid or expired refresh token.');
    ctx.tokens.revoke(claims.jti); // rotation: the presented token is spent
    json(res, 200, { data: tokenPair(ctx, account) }, noStore);
  });

  router.on('POST', '/auth/revoke', async (req, res) => {
    const body = await readBody(req);
    requireText(body, ['refresh_token']);
    const claims = ctx.tokens.decode(str(body, 'refresh_token'));
    if (claims) ctx.tokens.revoke(claims.jti);
    // the real service also kills the access token the logout was sent with (GHSA-m8g9-wxhx-6f86)
    if (real) ctx.tokens.revokeAccess(realAccessToken(req));
    const account = claims && ctx.accounts.get(claims.sub);
    if (account) ctx.events.record('onApiUserLogout', { user: userRef(account), ip: clientIp(req) });
    res.writeHead(204).end();
  });

  router.on('POST', '/auth/forgot-password', async (req, res) => {
    const body = await readBody(req);
    requireText(body, ['email']);
    const neutral = () => json(res, 200, { data: { message: NEUTRAL_FORGOT } });
    const email = str(body, 'email').trim();
    const account = EMAIL_RE.test(email) ? ctx.accounts.findByEmail(email) : null;
    if (!account) return neutral();

    // per account (`pw_resets`); only the 429 itself may tell, never the headers of a 200
    const limiter = ctx.limits.get('forgot');
    if (limiter) {
      const s = limiter.attempt(`forgot:${account.username}`);
      if (s.limited) throw tooMany(s, `Too many password reset requests. Try again in ${Math.ceil(s.retryAfter / 60)} minutes.`);
    }
    const token = randomBytes(16).toString('hex');
    await ctx.accounts.update(account.username, { reset: `${token}::${ctx.clock.nowSec() + ctx.settings.resetTtl}` });
    const base = adminBaseUrl(ctx, req, body.admin_base_url);
    const link = `${base}/reset?user=${encodeURIComponent(account.username)}&token=${encodeURIComponent(token)}`;
    ctx.mail.send({
      to: account.email,
      username: account.username,
      subject: 'Password reset',
      text: `Hello ${account.fullname},\n\nUse this link to choose a new password:\n${link}\n\nIf you did not ask for this, ignore this mail.\n`,
      link,
      token,
      sentAt: ctx.clock.now(),
    });
    neutral();
  });

  router.on('POST', '/auth/reset-password', async (req, res) => {
    const body = await readBody(req);
    // the real service names missing fields; the documents want one vague answer for everything
    if (real) requireText(body, ['username', 'token', 'password']);
    const vague = () => new HttpProblem(400, 'Bad Request', VAGUE_RESET);
    const username = str(body, 'username');
    const token = str(body, 'token');
    const password = str(body, 'password');
    if (!username.trim() || !token.trim() || !password) throw vague();
    limit(res, 'reset', 'attempt', username, 'Too many attempts. Try again later.');

    const account = ctx.accounts.get(username);
    const [good = '', expires = '0'] = (account?.reset ?? '').split('::');
    const tokenOk = good.length > 0 && good.length === token.length && timingSafeEqual(Buffer.from(good), Buffer.from(token));
    if (!account || !tokenOk || ctx.clock.nowSec() > Number(expires)) throw vague();

    // the real service ends every token issued before the reset
    await ctx.accounts.update(account.username, { password, reset: null, ...(real ? { api_tokens_valid_after: ctx.clock.nowSec() } : {}) });
    ctx.events.record('onApiPasswordReset', { user: userRef(account), ip: clientIp(req) });
    clearLimit('reset', username);
    json(res, 200, { data: { message: 'Password reset successfully.' } });
  });
}

/** Where the reset link points: the client's admin address, else its Origin/Referer, else the site. */
function adminBaseUrl(ctx: CmsContext, req: IncomingMessage, given: unknown): string {
  const ok = (u: string) => {
    try {
      const url = new URL(u);
      return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
    } catch {
      return null;
    }
  };
  if (typeof given === 'string' && ok(given)) return given.replace(/\/+$/, '');
  const origin = typeof req.headers.origin === 'string' ? ok(req.headers.origin) : null;
  if (origin) return origin.origin;
  const referer = typeof req.headers.referer === 'string' ? ok(req.headers.referer) : null;
  if (referer) return referer.origin;
  return ctx.origin;
}
