import { isRequestMessage, type HostMessage } from '../contract/protocol';
import type { HostEndpoint } from './host-types';

/**
 * One renderer connection over any message transport. Both the MessagePort (Electron) and the
 * WebSocket bridge (browser mode) feed raw messages in and get HostMessages out.
 */
export function serveConnection(host: HostEndpoint, send: (message: HostMessage) => void) {
  let open = true;
  const unsubscribe = host.onEvent((event, payload) => {
    if (open) send({ event, payload });
  });
  return {
    async receive(raw: unknown): Promise<void> {
      if (!isRequestMessage(raw)) return; // not ours: a malformed frame gets no answer and changes nothing
      const result = await host.invoke(raw.channel, raw.input);
      if (open) send({ id: raw.id, ...result });
    },
    close(): void {
      open = false;
      unsubscribe();
    },
  };
}
