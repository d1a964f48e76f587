/**
 * What browser mode's server (electron/web/supervisor.ts) and its Host child process
 * (electron/web/host-child.ts) say to each other over Node's IPC channel. Each page's WebSocket is
 * a numbered line; its frames cross as the text the page sent, parsed only by the Host.
 */

import { originOf } from '../common/csp';

/** What the Host asks of the session's secrets the server keeps when there is no keychain. */
export type SecretOp = 'get' | 'set' | 'delete' | 'deleteByPrefix';

/** Server → Host. */
export type ToHostChild =
  | { type: 'open'; line: number }
  | { type: 'frame'; line: number; frame: string }
  | { type: 'close'; line: number }
  /** The answer to a `secret` request: the secret for `get` (null when none), null otherwise. */
  | { type: 'secret-answer'; id: number; value: string | null }
  /** Close the database cleanly and exit. */
  | { type: 'shutdown' };

/** Host → server. */
export type FromHostChild =
  /** The Host is open; `secrets` says where tokens are kept. */
  | { type: 'ready'; secrets: { mode: 'keychain' | 'memory'; reason?: string | undefined } }
  /** The Host could not start; the process exits next. */
  | { type: 'failed'; message: string }
  | { type: 'frame'; line: number; frame: string }
  /** Session-only secrets live in the server, so they outlive a Host restart. `key`: an account or a prefix. */
  | { type: 'secret'; id: number; op: SecretOp; key: string; value?: string }
  /** The configured sites' origins (the page's image policy), at start and whenever the site list changes. */
  | { type: 'image-origins'; origins: string[] };

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;
const isLine = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

export function readToHostChild(m: unknown): ToHostChild | null {
  if (!isObject(m)) return null;
  if (m.type === 'shutdown') return { type: 'shutdown' };
  if ((m.type === 'open' || m.type === 'close') && isLine(m.line)) return { type: m.type, line: m.line };
  if (m.type === 'frame' && isLine(m.line) && typeof m.frame === 'string') return { type: 'frame', line: m.line, frame: m.frame };
  if (m.type === 'secret-answer' && isLine(m.id) && (typeof m.value === 'string' || m.value === null)) return { type: 'secret-answer', id: m.id, value: m.value };
  return null;
}

const SECRET_OPS: readonly string[] = ['get', 'set', 'delete', 'deleteByPrefix'] satisfies SecretOp[];

export function readFromHostChild(m: unknown): FromHostChild | null {
  if (!isObject(m)) return null;
  if (m.type === 'frame' && isLine(m.line) && typeof m.frame === 'string') return { type: 'frame', line: m.line, frame: m.frame };
  if (m.type === 'failed' && typeof m.message === 'string') return { type: 'failed', message: m.message };
  if (m.type === 'image-origins' && Array.isArray(m.origins) && m.origins.every((o) => typeof o === 'string' && originOf(o) === o)) {
    return { type: 'image-origins', origins: m.origins as string[] };
  }
  if (m.type === 'secret' && isLine(m.id) && typeof m.op === 'string' && SECRET_OPS.includes(m.op) && typeof m.key === 'string') {
    if (m.op === 'set' && typeof m.value !== 'string') return null;
    return { type: 'secret', id: m.id, op: m.op as SecretOp, key: m.key, ...(typeof m.value === 'string' ? { value: m.value } : {}) };
  }
  if (m.type === 'ready' && isObject(m.secrets) && (m.secrets.mode === 'keychain' || m.secrets.mode === 'memory')) {
    return { type: 'ready', secrets: { mode: m.secrets.mode, reason: typeof m.secrets.reason === 'string' ? m.secrets.reason : undefined } };
  }
  return null;
}
