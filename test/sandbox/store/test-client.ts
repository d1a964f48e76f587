/**
 * The test client of the store sandbox (the shared JsonClient, ../test-client.ts): the
 * administrator's Enterprise key unless told otherwise (so tests are never rate-limited by
 * accident), a login session's token, or nothing; and the login itself.
 */
import { JsonClient, type Reply } from '../test-client';
import type { StoreSandbox } from './server';

export type { Reply };

export type StoreAuth = { apiKey: string } | { bearer: string } | { none: true };

export class StoreClient extends JsonClient {
  constructor(
    readonly sb: StoreSandbox,
    private readonly auth: StoreAuth = { apiKey: sb.seeded!.keys.enterprise },
  ) {
    super();
  }

  protected get baseUrl(): string {
    return this.sb.url;
  }

  /** The same client acting with another credential. */
  as(auth: StoreAuth): StoreClient {
    return new StoreClient(this.sb, auth);
  }

  protected authHeaders(): Record<string, string> {
    if ('apiKey' in this.auth) return { api_key: this.auth.apiKey };
    if ('bearer' in this.auth) return { Authorization: `Bearer ${this.auth.bearer}` };
    return {};
  }

  /** GET /user/login; answers the session token (after `session:`, spec and Petstore alike) with the reply. */
  async login(username: string, password: string): Promise<{ token: string; reply: Reply }> {
    const reply = await this.as({ none: true }).get(`/user/login?${new URLSearchParams({ username, password })}`);
    return { token: /session:\s*(\S+)$/i.exec(reply.text)?.[1] ?? '', reply };
  }
}
