/**
 * The typed contract client: the only way the renderer talks to the Host.
 *
 *   const sites = await invoke('sites.list');            // channels without input
 *   const site = await invoke('sites.add', draft);       // input checked against the contract's type
 *   const off = on('sites.changed', (list) => …);        // typed payloads
 *
 * `invoke` resolves with the channel's output or throws an AppError. A person's request that the
 * site's rate limit holds back waits and goes out again by itself (rate-wait.svelte.ts).
 */
import type { ChannelInput, ChannelName, ChannelOutput, EventName, EventPayload } from '../../electron/contract/index';
import { AppError } from './errors';
import { heldSite, rateWaits } from './rate-wait.svelte';
import { createTransport, type Transport, type TransportSetup } from './transport';

let transport: Transport | null = null;

/** Picks and starts the transport once. Call before mounting the app. */
export function initClient(): TransportSetup {
  const setup = createTransport();
  if (setup.ok) transport = setup.transport;
  return setup;
}

/** Replace the transport (tests, previews). */
export function setTransport(next: Transport): void {
  transport = next;
}

/** Browser mode, after the Host kept stopping: ask for it to be started again. */
export function retryHost(): void {
  transport?.retryHost?.();
}

/** `[input?]` for channels whose input may be omitted (schema `v.optional(…)`), `[input]` otherwise. */
export type InvokeArgs<K extends ChannelName> = undefined extends ChannelInput<K> ? [input?: ChannelInput<K>] : [input: ChannelInput<K>];

export async function invoke<K extends ChannelName>(channel: K, ...args: InvokeArgs<K>): Promise<ChannelOutput<K>> {
  if (!transport) throw new AppError({ code: 'host_unavailable', message: 'Sitedesk is not connected yet.' });
  const input = args.length > 0 ? args[0] : {};
  for (let tries = 1; ; tries++) {
    const result = await transport.invoke(channel, input);
    if (result.ok) return result.value as ChannelOutput<K>;
    const siteId = result.error.code === 'rate_limited' ? heldSite(channel, input, result.error.retryAfter, tries) : null;
    if (siteId === null) throw new AppError(result.error);
    await rateWaits.hold(siteId, result.error.retryAfter);
  }
}

export function on<K extends EventName>(event: K, callback: (payload: EventPayload<K>) => void): () => void {
  if (!transport) return () => {};
  return transport.on(event, callback as (payload: unknown) => void);
}
