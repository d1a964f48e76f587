/**
 * The Host's error: every layer below the composition root throws it, so it sits at the bottom
 * (base/) with nothing of the Host under it. It carries the contract's ErrorInfo as it will reach
 * the renderer.
 */
import type { ErrorCode, ErrorInfo } from '../contract';

/** Thrown anywhere in the Host; the dispatcher turns it into the `{ok:false,error}` answer. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly info: ErrorInfo;

  constructor(info: ErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = 'AppError';
    this.code = info.code;
    this.info = info;
  }

  static fields(fields: Record<string, string>, message = 'Some fields need attention.'): AppError {
    return new AppError({ code: 'invalid_input', message, fields });
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/**
 * The site did not answer (no connection, or no answer in time): the one test for "fall back to the
 * copy" or "offline". It narrows to the two codes, so an AppError it says no to stays an AppError.
 */
export const isUnreachable = (e: unknown): e is AppError & { code: 'network' | 'timeout' } => isAppError(e) && (e.code === 'network' || e.code === 'timeout');

/** How long a write whose answer was lost is remembered, for the same write asked again. */
export const UNCERTAIN_MS = 15 * 60_000;

/**
 * An error after which the site may have done the write all the same: no answer, a late, cut or
 * unreadable one, a 5xx. The same write asked again must first find out, or say so.
 */
export const mayHaveArrived = (err: unknown): boolean =>
  isAppError(err) && (err.code === 'network' || err.code === 'timeout' || err.code === 'bad_response' || (err.code === 'http' && (err.info.status ?? 0) >= 500));

/** For a delete: the site answers "not found", so the thing is gone, as asked (an earlier answer lost, another admin first). */
export function goneAlready(err: unknown): void {
  if (!(isAppError(err) && err.code === 'not_found')) throw err;
}
