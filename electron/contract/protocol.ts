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

/**
 * The largest message either side sends: browser mode's socket closes on a bigger frame, and
 * nothing the app sends needs more (files travel in 4 MB pieces). The renderer's peer refuses a
 * bigger request before sending it, with a clear error, so the connection is never dropped for it.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/** Whether a frame is over `max` bytes in UTF-8 (counted only when its length leaves a doubt). */
export function frameTooLarge(frame: string, max = MAX_MESSAGE_BYTES): boolean {
  if (frame.length * 3 <= max) return false;
  if (frame.length > max) return true;
  let bytes = 0;
  for (let i = 0; i < frame.length; i++) {
    const c = frame.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < frame.length) {
      bytes += 4; // a surrogate pair: one four-byte character
      i++;
    } else bytes += 3;
    if (bytes > max) return true;
  }
  return false;
}

/** The answer to a request too large to send. */
export const messageTooLarge = (channel: string): ErrorInfo => ({
  code: 'invalid_input',
  message: `This request is more than 64 MB, more than Sitedesk sends in one message, so it was not sent (${channel}). Send less at once.`,
});
