import { isRequestMessage, type HostMessage } from '../contract/protocol';
import type { ErrorInfo } from '../contract/errors';
import type { HostEndpoint } from './host-types';

const CANNOT_SEND: ErrorInfo = { code: 'internal', message: 'Something went wrong inside Sitedesk. The action was not completed.' };

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
    /** Never rejects: a transport that throws (an answer it cannot carry, a port gone) is this call's problem only. */
    async receive(raw: unknown): Promise<void> {
      if (!isRequestMessage(raw)) return; // not ours: a malformed frame gets no answer and changes nothing
      const result = await host.invoke(raw.channel, raw.input);
      if (!open) return;
      try {
        send({ id: raw.id, ...result });
      } catch (err) {
        console.error(`Sitedesk could not send the answer to ${raw.channel}:`, err);
        try {
          send({ id: raw.id, ok: false, error: CANNOT_SEND });
        } catch {
          // the transport is gone; the page fails its calls when it notices
        }
      }
    },
    close(): void {
      open = false;
      unsubscribe();
    },
  };
}
