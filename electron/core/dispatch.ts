/**
 * The Host's boundary for contract calls: one function that checks a call's input against its
 * channel's schema, runs the handler and answers a Result, whatever happened.
 */
import * as v from 'valibot';
import { BROKEN_TEXT, brokenTextPath, channels, isChannelName, type ErrorInfo, type Result } from '../contract';
import { isAppError } from '../base/app-error';
import type { Handlers } from '../base/handlers';
import { fieldErrors } from '../common/field-errors';
import { storageFault } from '../db/faults';

export type { Handlers };

export type Log = (level: 'info' | 'warn' | 'error', message: string, extra?: Record<string, unknown>) => void;

export interface Dispatcher {
  invoke(channel: string, input: unknown): Promise<Result<unknown>>;
  /**
   * Refuses new calls and waits (at most `waitMs`) for those running to answer. The Host drains
   * before it closes the database: a removal waiting on the keychain when the app quits would
   * otherwise find the file closed and be half done (its secrets gone, its row still there).
   */
  drain(waitMs: number): Promise<void>;
}

const CLOSING: ErrorInfo = { code: 'host_unavailable', message: 'Sitedesk is closing, so this was not done. It will be there when Sitedesk starts again.' };

/**
 * The boundary: the input is checked against the channel's schema (and its text for broken
 * characters, contract/text.ts) before any service sees it;
 * every outcome, thrown or not, becomes a Result. Inputs are never logged (they may hold secrets).
 */
export function createDispatcher(handlers: Handlers, log: Log): Dispatcher {
  let running = 0;
  let closing = false;
  const idle = new Set<() => void>();
  const settle = () => {
    if (running === 0) for (const wake of [...idle]) wake();
  };

  async function invoke(channel: string, input: unknown): Promise<Result<unknown>> {
    if (closing) return { ok: false, error: CLOSING };
    running++;
    try {
      return await answer(channel, input);
    } finally {
      running--;
      settle();
    }
  }

  function drain(waitMs: number): Promise<void> {
    closing = true;
    if (running === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        idle.delete(done);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(done, waitMs);
      idle.add(done);
    });
  }

  return { invoke, drain };

  async function answer(channel: string, input: unknown): Promise<Result<unknown>> {
    if (!isChannelName(channel)) {
      return { ok: false, error: { code: 'unknown_channel', message: `There is no channel named “${channel}”.` } };
    }
    // text no URL or UTF-8 can carry is refused for every channel here, one rule for all their strings
    const broken = brokenTextPath(input);
    if (broken) {
      const fields = Object.defineProperty({}, broken.join('.') || '_', { value: BROKEN_TEXT, enumerable: true }) as Record<string, string>;
      return { ok: false, error: { code: 'invalid_input', message: 'Some fields need attention.', fields } };
    }
    const parsed = v.safeParse(channels[channel].input, input);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.issues);
      return { ok: false, error: { code: 'invalid_input', message: 'Some fields need attention.', fields } };
    }
    try {
      const handler = handlers[channel] as (i: unknown) => unknown;
      return { ok: true, value: await handler(parsed.output) };
    } catch (err) {
      if (isAppError(err)) {
        if (err.code === 'internal' || err.code === 'database' || err.code === 'disk_full' || err.code === 'keychain') {
          log('warn', `${channel} failed`, { code: err.code, detail: err.info.detail });
        }
        return { ok: false, error: err.info };
      }
      // a write outside the database (SQLite's own go through db/guard.ts) that found the disk full
      if (storageFault(err) === 'full') {
        log('warn', `${channel} failed`, { code: 'disk_full' });
        return { ok: false, error: { code: 'disk_full', message: 'A disk Sitedesk writes to is full, so this could not be saved. Nothing was lost; free some space and try again.' } };
      }
      log('error', `${channel} crashed`, { error: err instanceof Error ? err.stack : String(err) });
      const error: ErrorInfo = { code: 'internal', message: 'Something went wrong inside Sitedesk. The action was not completed.' };
      return { ok: false, error };
    }
  }
}
