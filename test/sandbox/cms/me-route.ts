/**
 * GET /me (the current user with the resolved permission map and versions) and the public GET /ping.
 */
import { json, type Router } from '../http';
import type { CmsContext } from './context';
import { authorize } from './credentials';
import { currentUser } from './profile';

export function registerMeRoutes(router: Router, ctx: CmsContext): void {
  router.on('GET', '/ping', (_req, res) => json(res, 200, { data: { pong: true } }));

  router.on('GET', '/me', (req, res, _params, url) => {
    const { account } = authorize(ctx, req, url, 'api.access');
    json(res, 200, { data: currentUser(ctx, account) });
  });
}
