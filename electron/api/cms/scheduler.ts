/**
 * A CMS site's scheduler (document 2, "Scheduler"; the real SchedulerController): jobs, status,
 * history (paged under `meta.pagination` on the real service), and a run answering `job_states`
 * as a map of job id to `{state, last-run}` (epoch seconds), read into rows. Tolerant: a job or row
 * that cannot be read is left out, never the whole answer.
 */
import * as v from 'valibot';
import type { JobRun, JobStatus, SchedulerRunResult, SchedulerStatus } from '../../contract';
import { isPlainObject } from '../../contract';
import type { CallOptions, Transport } from '../transport';
import { parseAnswer } from '../parse';
import { callName, listCall, nextPage, request } from './envelope';

const text = (x: unknown): string | null => (typeof x === 'string' && x.trim() ? x.trim() : null);
const count = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);
const STATUSES = new Set<JobStatus>(['success', 'failure', 'pending', 'unknown']);
const statusOf = (x: unknown): JobStatus => (typeof x === 'string' && STATUSES.has(x as JobStatus) ? (x as JobStatus) : x === 'failed' || x === 'error' ? 'failure' : 'unknown');
/** ISO text as sent, or epoch seconds made ISO. */
const timeOf = (x: unknown): string | null => (typeof x === 'number' && x > 0 ? new Date(x * 1000).toISOString() : text(x));

export interface RawJob {
  id: string;
  command: string | null;
  expression: string;
  enabled: boolean;
  status: JobStatus;
  lastRun: string | null;
  error: string | null;
}

function runOf(raw: unknown): JobRun | null {
  if (!isPlainObject(raw) || !text(raw.job_id)) return null;
  return { jobId: text(raw.job_id)!, status: statusOf(raw.status), lastRun: timeOf(raw.last_run), error: text(raw.error) };
}

export const cmsScheduler = {
  async jobs(t: Transport): Promise<RawJob[]> {
    const call: CallOptions = { path: '/scheduler/jobs' };
    const r = await request(t, call);
    return parseAnswer(v.array(v.unknown()), r.data, t, 'the scheduled jobs', callName(call)).flatMap((raw): RawJob[] => {
      if (!isPlainObject(raw) || !text(raw.id)) return [];
      return [{ id: text(raw.id)!, command: text(raw.command), expression: text(raw.expression) ?? '', enabled: raw.enabled !== false, status: statusOf(raw.status), lastRun: timeOf(raw.last_run), error: text(raw.error) }];
    });
  },

  async status(t: Transport): Promise<SchedulerStatus> {
    const call: CallOptions = { path: '/scheduler/status' };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the scheduler status', callName(call)) as Record<string, unknown>;
    const crontab = d.crontab_status === 'not_installed' || d.crontab_status === 'installed' || d.crontab_status === 'error' ? d.crontab_status : 'unknown';
    const h = isPlainObject(d.health) ? d.health : null;
    return {
      crontab,
      cronCommand: text(d.cron_command),
      schedulerCommand: text(d.scheduler_command),
      whoami: text(d.whoami),
      health: h ? { status: text(h.status), message: text(h.message), lastRun: text(h.last_run), lastRunAgeS: count(h.last_run_age), failedJobs24h: count(h.failed_jobs_24h), jobsDue: count(h.jobs_due) } : null,
      webhookInstalled: d.webhook_installed === true,
      webhookEnabled: d.webhook_enabled === true,
    };
  },

  async history(t: Transport, q: { page: number; perPage: number }): Promise<{ items: JobRun[]; total: number | null; page: number; perPage: number; next: number | null }> {
    const call: CallOptions = { path: '/scheduler/history', query: { page: String(q.page), per_page: String(q.perPage) } };
    const { data, paging } = await listCall(t, call, 'the scheduler history');
    const rows = parseAnswer(v.array(v.unknown()), data, t, 'the scheduler history', callName(call));
    const items = rows.map(runOf).filter((x): x is JobRun => x !== null);
    return { items, total: paging.total, page: paging.page ?? q.page, perPage: paging.perPage ?? q.perPage, next: nextPage(paging, q, rows.length) };
  },

  async run(t: Transport, force: boolean): Promise<SchedulerRunResult> {
    const call: CallOptions = { method: 'POST', path: '/scheduler/run', body: { force }, timeoutMs: 5 * 60_000 };
    const r = await request(t, call);
    const d = parseAnswer(v.looseObject({}), r.data, t, 'the scheduler run', callName(call)) as Record<string, unknown>;
    const raw = d.job_states;
    const states: JobRun[] = isPlainObject(raw)
      ? Object.entries(raw).flatMap(([jobId, s]) => (isPlainObject(s) ? [{ jobId, status: statusOf(s.state), lastRun: timeOf(s['last-run']), error: text(s.error) }] : []))
      : [];
    return { message: text(d.message), forced: d.forced === true, states };
  },
};
