import type { ErrorCode, ErrorInfo } from '../../electron/contract/errors';

/**
 * The renderer's form of the contract's `{ok: false, error}`: thrown by `invoke` so callers can
 * use try/catch, and carrying everything the Host said (code, status, per-field messages…).
 */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number | undefined;
  readonly detail: string | undefined;
  /** The site's own word for a refusal (`suppressed`, `segment_in_use`), when it named one. */
  readonly reason: string | undefined;
  /** Seconds to wait before trying again (rate limits). */
  readonly retryAfter: number | undefined;
  /** Field name → message, to show next to that field. */
  readonly fields: Record<string, string> | undefined;

  constructor(info: ErrorInfo) {
    super(info.message);
    this.code = info.code;
    this.status = info.status;
    this.detail = info.detail;
    this.reason = info.reason;
    this.retryAfter = info.retryAfter;
    this.fields = info.fields;
  }

  /** The site did not answer (no connection, or no answer in time), as the Host's `isUnreachable` says it. */
  get unreachable(): boolean {
    return this.code === 'network' || this.code === 'timeout';
  }

  get hasFields(): boolean {
    return this.fields !== undefined && Object.keys(this.fields).length > 0;
  }

  toInfo(): ErrorInfo {
    const info: ErrorInfo = { code: this.code, message: this.message };
    if (this.status !== undefined) info.status = this.status;
    if (this.detail !== undefined) info.detail = this.detail;
    if (this.reason !== undefined) info.reason = this.reason;
    if (this.retryAfter !== undefined) info.retryAfter = this.retryAfter;
    if (this.fields !== undefined) info.fields = this.fields;
    return info;
  }

  /** Any thrown value as an AppError (a bug in the renderer becomes `internal`). */
  static from(err: unknown): AppError {
    if (err instanceof AppError) return err;
    const message = err instanceof Error && err.message ? err.message : 'Something went wrong.';
    return new AppError({ code: 'internal', message });
  }
}

/** A person-readable sentence for any thrown value. */
export function errorMessage(err: unknown): string {
  return AppError.from(err).message;
}
