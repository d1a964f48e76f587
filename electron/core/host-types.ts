import type { EventName, EventPayload, Result } from '../contract';

export type EventListener = (name: EventName, payload: unknown) => void;

/** What a transport (MessagePort in Electron, WebSocket in browser mode) needs from the Host. */
export interface HostEndpoint {
  /** Validate `input` against the channel's schema, run the handler, answer a Result. Never throws. */
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  /** Every event the Host emits, to every connection. Returns an unsubscribe function. */
  onEvent(listener: EventListener): () => void;
  /** Lets the shell publish events of its own (updater status) through the same path. */
  emit<K extends EventName>(name: K, payload: EventPayload<K>): void;
}
