/**
 * The wire protocol, the same over Electron's MessagePort and browser mode's WebSocket:
 *   renderer → Host  {id, channel, input}
 *   Host → renderer  {id, ok: true, value} | {id, ok: false, error}   (answers)
 *                    {event, payload}                                 (events)
 */
import type { ErrorInfo } from './errors';

export interface RequestMessage {
  id: number;
  channel: string;
  input: unknown;
}

export type ResponseMessage = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorInfo };

export interface EventMessage {
  event: string;
  payload: unknown;
}

export type HostMessage = ResponseMessage | EventMessage;

export function isRequestMessage(m: unknown): m is RequestMessage {
  if (typeof m !== 'object' || m === null) return false;
  const r = m as Record<string, unknown>;
  return typeof r.id === 'number' && Number.isSafeInteger(r.id) && typeof r.channel === 'string';
}

export function isEventMessage(m: unknown): m is EventMessage {
  return typeof m === 'object' && m !== null && typeof (m as Record<string, unknown>).event === 'string';
}

/**
 * Browser mode: why the server closed a page's WebSocket. `restarting`: the Host stopped and is
 * being restarted (the page reconnects by itself). `stopped`: the Host keeps stopping and is not
 * restarted again until the page asks (it reconnects with `retry=1`).
 */
export const BRIDGE_CLOSE = { restarting: 1012, stopped: 4001 } as const;
