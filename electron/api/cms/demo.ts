/**
 * A CMS site's demo mode (document 2 "Demo mode"; the real DemoController and DemoManager's
 * statusPayload, recording 58): the status, the baseline capture and the reset, each answering
 * `{captured|reset, message, status}`. A write answered with `X-Invalidates: demo:status` says
 * the status changed: it is read again (the answer's own copy is kept if that read fails).
 * Tolerant: a field left out is unknown; `last_reset` as epoch seconds or ISO text.
 */
import * as v from 'valibot';
import type { DemoActionResult, DemoStatus } from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, request } from './envelope';

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : null);
const count = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? Math.round(x) : null);
const strings = (x: unknown): string[] => (Array.isArray(x) ? x.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : []);
const timeOf = (x: unknown): string | null => (typeof x === 'number' && x > 0 ? new Date(x * 1000).toISOString() : text(x));

/** The status object as the site sends it, read at `readAt`. */
export function demoStatusOf(raw: unknown, readAt: Date): DemoStatus {
  const d = isPlainObject(raw) ? raw : {};
  return {
    baselineExists: d.baseline_exists === true,
    writable: strings(d.writable),
    roots: strings(d.roots),
    resetInterval: count(d.reset_interval),
    resetOnRequest: d.reset_on_request !== false,
    resetOnSchedule: d.reset_on_schedule !== false,
    lastReset: timeOf(d.last_reset),
    secondsUntilReset: count(d.seconds_until_reset),
    readAt: readAt.toISOString(),
  };
}

/** Whether an answer's `X-Invalidates` names the demo status. */
const invalidatesStatus = (headers: Headers): boolean =>
  (headers.get('x-invalidates') ?? '')
    .split(',')
    .map((s) => s.trim())
    .includes('demo:status');

export const cmsDemo = {
  async status(t: Transport, now: () => Date = () => new Date()): Promise<DemoStatus> {
    const call: CallOptions = { path: '/demo/status' };
    const r = await request(t, call);
    return demoStatusOf(parseAnswer(v.looseObject({}), r.data, t, 'the demo mode status', callName(call)), now());
  },

  /** POST /demo/baseline or /demo/reset: `done` is the answer's `captured` or `reset`. */
  async act(t: Transport, action: 'baseline' | 'reset', now: () => Date = () => new Date()): Promise<DemoActionResult> {
    const call: CallOptions = { method: 'POST', path: `/demo/${action}`, timeoutMs: 5 * 60_000 };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, action === 'baseline' ? 'the demo baseline capture' : 'the demo reset', callName(call)) as Record<string, unknown>;
    const flag = action === 'baseline' ? d.captured : d.reset;
    let status = demoStatusOf(d.status, now());
    if (invalidatesStatus(r.headers)) status = await cmsDemo.status(t, now).catch(() => status);
    return { done: flag === true, message: text(d.message), status };
  },
};
