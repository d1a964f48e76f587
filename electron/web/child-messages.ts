/**
 * What browser mode's server (electron/web/supervisor.ts) and its Host child process
 * (electron/web/host-child.ts) say to each other over Node's IPC channel. Each page's WebSocket is
 * a numbered line; its frames cross as the text the page sent, parsed only by the Host.
 */

/** Server → Host. */
export type ToHostChild =
  | { type: 'open'; line: number }
  | { type: 'frame'; line: number; frame: string }
  | { type: 'close'; line: number }
  /** Close the database cleanly and exit. */
  | { type: 'shutdown' };

/** Host → server. */
export type FromHostChild =
  /** The Host is open; `secrets` says where tokens are kept. */
  | { type: 'ready'; secrets: { mode: 'keychain' | 'memory'; reason?: string | undefined } }
  /** The Host could not start; the process exits next. */
  | { type: 'failed'; message: string }
  | { type: 'frame'; line: number; frame: string };

const isObject = (m: unknown): m is Record<string, unknown> => typeof m === 'object' && m !== null;
const isLine = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

export function readToHostChild(m: unknown): ToHostChild | null {
  if (!isObject(m)) return null;
  if (m.type === 'shutdown') return { type: 'shutdown' };
  if ((m.type === 'open' || m.type === 'close') && isLine(m.line)) return { type: m.type, line: m.line };
  if (m.type === 'frame' && isLine(m.line) && typeof m.frame === 'string') return { type: 'frame', line: m.line, frame: m.frame };
  return null;
}

export function readFromHostChild(m: unknown): FromHostChild | null {
  if (!isObject(m)) return null;
  if (m.type === 'frame' && isLine(m.line) && typeof m.frame === 'string') return { type: 'frame', line: m.line, frame: m.frame };
  if (m.type === 'failed' && typeof m.message === 'string') return { type: 'failed', message: m.message };
  if (m.type === 'ready' && isObject(m.secrets) && (m.secrets.mode === 'keychain' || m.secrets.mode === 'memory')) {
    return { type: 'ready', secrets: { mode: m.secrets.mode, reason: typeof m.secrets.reason === 'string' ? m.secrets.reason : undefined } };
  }
  return null;
}
