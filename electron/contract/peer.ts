/**
 * The renderer side of the protocol, independent of the transport: numbers requests, matches
 * answers, fans out events. Used by the preload (MessagePort) and by browser mode (WebSocket).
 */
import type { ErrorInfo, Result } from './errors';
import { isEventMessage, messageTooLarge, type HostMessage, type RequestMessage } from './protocol';

declare function queueMicrotask(callback: () => void): void;

export type EventCallback = (payload: unknown) => void;

export interface Peer {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  on(event: string, callback: EventCallback): () => void;
  /** Feed every message that arrives from the Host. */
  receive(message: unknown): void;
  /** The transport broke: answer every pending call with this error. */
  failPending(error: ErrorInfo): void;
  /** Deliver a locally generated event (the transport's own connection state). */
  dispatch(event: string, payload: unknown): void;
}

/**
 * `send` hands a request to the transport; it answers `'too_large'` for a message over
 * MAX_MESSAGE_BYTES (it measures it as it encodes it), and the call is answered with a clear error
 * at once, nothing sent.
 */
export function createPeer(send: (message: RequestMessage) => void | 'too_large'): Peer {
  let nextId = 1;
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Map<string, Set<EventCallback>>();

  const dispatch = (event: string, payload: unknown) => {
    for (const cb of listeners.get(event) ?? []) {
      try {
        cb(payload);
      } catch (err) {
        // one broken listener must not starve the others; surface it asynchronously
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  };

  return {
    invoke(channel, input) {
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        try {
          if (send({ id, channel, input }) === 'too_large') {
            pending.delete(id);
            resolve({ ok: false, error: messageTooLarge(channel) });
          }
        } catch {
          pending.delete(id);
          resolve({ ok: false, error: { code: 'host_unavailable', message: 'Sitedesk lost its connection to the background service.' } });
        }
      });
    },
    on(event, callback) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(callback);
      return () => set.delete(callback);
    },
    receive(message) {
      if (isEventMessage(message)) return dispatch(message.event, message.payload);
      const m = message as HostMessage & { id?: unknown };
      if (typeof m !== 'object' || m === null || typeof m.id !== 'number') return;
      const resolve = pending.get(m.id);
      if (!resolve) return;
      pending.delete(m.id);
      resolve('ok' in m && m.ok ? { ok: true, value: m.value } : { ok: false, error: (m as { error: ErrorInfo }).error });
    },
    failPending(error) {
      for (const resolve of pending.values()) resolve({ ok: false, error });
      pending.clear();
    },
    dispatch,
  };
}
