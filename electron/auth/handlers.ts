/** The `auth.*` channels (contract/auth.ts) on the CMS sites' sessions: sign-in, two-factor, sign-out, password reset. */
import type { authChannels } from '../contract';
import type { HandlersOf, Lazy } from '../base/handlers';
import type { SessionManager } from '../sites/sessions';

export function authHandlers(sessions: Lazy<SessionManager>): HandlersOf<typeof authChannels> {
  return {
    'auth.sessions': () => sessions().all(),
    'auth.setupStatus': ({ siteId }) => sessions().get(siteId).setupStatus(),
    'auth.setup': ({ siteId, ...body }) => sessions().get(siteId).setup(body),
    'auth.signIn': ({ siteId, username, password }) => sessions().get(siteId).signIn(username, password),
    'auth.verify2fa': ({ siteId, code }) => sessions().get(siteId).verify2fa(code),
    'auth.cancel2fa': ({ siteId }) => {
      const session = sessions().get(siteId);
      session.cancelChallenge();
      return session.info();
    },
    'auth.signOut': async ({ siteId }) => {
      const { info, revoked } = await sessions().get(siteId).signOut();
      return { ...info, revoked };
    },
    'auth.refreshMe': ({ siteId }) => sessions().get(siteId).refreshMe(),
    'auth.forgotPassword': async ({ siteId, email }) => ({ message: await sessions().get(siteId).forgotPassword(email) }),
    'auth.resetPassword': async ({ siteId, username, token, password }) => ({
      message: await sessions().get(siteId).resetPassword(username, token, password),
    }),
  };
}
