/**
 * Calling the Host's channels from a Host test, and reaching the CMS sandbox past the Host (as
 * another editor, or another app, does).
 */
import type { ChannelInput, ChannelName, ChannelOutput, ErrorInfo } from '../../electron/contract';
import type { Host } from '../../electron/core/host';
import { Transport } from '../../electron/api/transport';
import type { CmsSandbox } from '../sandbox/cms/server';

/**
 * `call` answers a channel's value; an error answer throws, with the Host's code, message and
 * fields on the thrown error. `fails` answers the error of a call that must fail. `host` is read
 * at each call, so a test may open the Host again (a restart).
 */
export function hostCalls(host: () => Host) {
  return {
    async call<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ChannelOutput<K>> {
      const r = await host().invoke(channel, input);
      if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.message}`), r.error);
      return r.value as ChannelOutput<K>;
    },
    async fails<K extends ChannelName>(channel: K, input: ChannelInput<K>): Promise<ErrorInfo> {
      const r = await host().invoke(channel, input);
      if (r.ok) throw new Error(`${channel} should have failed`);
      return r.error;
    },
  };
}

/** The sandbox's API signed in with the admin's API key, not through the Host. */
export function adminApi(cms: CmsSandbox): Transport {
  return new Transport({
    baseUrl: cms.url,
    fetch,
    credentials: { headers: async () => ({ 'X-API-Key': cms.seeded!.adminApiKey! }), unauthorized: async () => false },
  });
}
