/** The error half of every answer. The Host produces it; the renderer turns it into an AppError. */
export type ErrorCode =
  | 'invalid_input' // the input failed the channel's schema; `fields` says where
  | 'not_found'
  | 'duplicate' // a unique value is taken (a site name…); `fields` says which
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'rate_limited' // `retryAfter` in seconds
  | 'network' // the server could not be reached
  | 'timeout'
  | 'tls' // the server's certificate was refused
  | 'bad_response' // the server answered something that is not what the API promises
  | 'http' // any other HTTP error status; `status` holds it
  | 'database' // the local database cannot be used; `detail` says why
  | 'disk_full' // the disk holding the data folder is full: the write was not made; it may be made again once there is space
  | 'keychain' // the OS keychain refused
  | 'unknown_channel'
  | 'host_unavailable' // the renderer lost its Host (restart in progress)
  | 'internal';

export interface ErrorInfo {
  code: ErrorCode;
  /** One sentence a person can act on. Never holds a secret. */
  message: string;
  status?: number;
  detail?: string;
  /**
   * The site's own word for what refused it, when its problem names one (`code` of a problem
   * details body: `suppressed`, `note_required`, `segment_in_use`), for a screen to branch on; the
   * words are `message`.
   */
  reason?: string;
  /** Seconds to wait before trying again (429). */
  retryAfter?: number;
  /** Field name (dotted path for nested input) → message, shown next to that field. */
  fields?: Record<string, string>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };
