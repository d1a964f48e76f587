/**
 * Demo mode (document 2, "Demo mode" and its state table; getgrav/grav-plugin-api:Demo/DemoManager.php,
 * Middleware/DemoModeMiddleware.php): a baseline copy of the writable content roots, restored
 * lazily by the first API request once `reset_interval` minutes passed since the last reset, by
 * the scheduler's `api-demo-reset` job, or on demand. Baseline and state live in the data folder
 * (`demo/`). The `writableRoot` knob false makes the roots missing, so nothing can be captured.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CmsContext } from '../context';

export interface DemoKnobs {
  /** permissions a demo account may still write (`plugins.api.demo.writable`) */
  writable: string[];
  /** minutes between resets (default 30; 0 or less means 30, as in the plugin) */
  resetInterval: number;
  resetOnRequest: boolean;
  resetOnSchedule: boolean;
  /** the content roots exist and can be copied (default true); false: `captured: false` */
  writableRoot: boolean;
}

export const DEFAULT_DEMO_KNOBS: DemoKnobs = { writable: ['api.pages.write', 'api.media.write'], resetInterval: 30, resetOnRequest: true, resetOnSchedule: true, writableRoot: true };

type Root = 'pages' | 'media' | 'data';

/** The roots a permission maps to (api.media.write covers page media, so pages too). */
function rootsOf(permission: string): Root[] {
  if (permission === 'api.pages.write') return ['pages'];
  if (permission === 'api.media.write') return ['pages', 'media'];
  if (permission.startsWith('api.flex')) return ['data'];
  return [];
}

interface DemoStateFile {
  baseline_at?: number;
  last_reset?: number;
}

export class DemoMode {
  readonly knobs: DemoKnobs;
  private readonly dir: string;
  /** how many resets ran (tests read it) */
  resets = 0;

  constructor(
    private readonly ctx: CmsContext,
    knobs: Partial<DemoKnobs>,
  ) {
    this.knobs = { ...DEFAULT_DEMO_KNOBS, ...knobs, writable: [...(knobs.writable ?? DEFAULT_DEMO_KNOBS.writable)] };
    this.dir = join(ctx.dataDir, 'demo');
  }

  private abs(root: Root): string {
    if (root === 'pages') return this.ctx.content.root;
    if (root === 'media') return this.ctx.site.media.root;
    return join(this.ctx.dataDir, 'flex-data');
  }

  /** The writable roots that exist, in the plugin's order. */
  roots(): Root[] {
    if (!this.knobs.writableRoot) return [];
    const out = new Set<Root>();
    for (const p of this.knobs.writable) for (const r of rootsOf(p)) out.add(r);
    // pages and media are written on first use: they exist for this site, seeded or not
    return [...out].filter((r) => r !== 'data' || existsSync(this.abs(r)));
  }

  private get baselineDir(): string {
    return join(this.dir, 'baseline');
  }

  baselineExists(): boolean {
    return existsSync(join(this.dir, 'baseline.done'));
  }

  private readState(): DemoStateFile {
    try {
      return JSON.parse(readFileSync(join(this.dir, 'state.json'), 'utf8')) as DemoStateFile;
    } catch {
      return {};
    }
  }

  private writeState(s: DemoStateFile): void {
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(join(this.dir, 'state.json'), JSON.stringify(s, null, 2));
  }

  interval(): number {
    return this.knobs.resetInterval > 0 ? this.knobs.resetInterval : 30;
  }

  lastReset(): number | null {
    const v = this.readState().last_reset;
    return typeof v === 'number' ? v : null;
  }

  secondsUntilReset(): number | null {
    if (!this.baselineExists()) return null;
    const last = this.lastReset();
    if (last === null) return 0;
    return Math.max(0, last + this.interval() * 60 - this.ctx.clock.nowSec());
  }

  status(): Record<string, unknown> {
    return {
      baseline_exists: this.baselineExists(),
      writable: [...this.knobs.writable],
      roots: this.roots(),
      reset_interval: this.interval(),
      reset_on_request: this.knobs.resetOnRequest,
      reset_on_schedule: this.knobs.resetOnSchedule,
      last_reset: this.lastReset(),
      seconds_until_reset: this.secondsUntilReset(),
    };
  }

  /** Copies the writable roots as the new baseline; false when there is no root to copy. */
  capture(): boolean {
    const roots = this.roots();
    if (roots.length === 0) return false;
    const now = this.ctx.clock.nowSec();
    rmSync(this.baselineDir, { recursive: true, force: true });
    rmSync(join(this.dir, 'baseline.done'), { force: true });
    for (const r of roots) {
      this.prepare(r);
      if (existsSync(this.abs(r))) cpSync(this.abs(r), join(this.baselineDir, r), { recursive: true });
    }
    writeFileSync(join(this.dir, 'baseline.done'), String(now));
    // the timer starts afresh: a baseline just captured is not stale at once
    this.writeState({ ...this.readState(), baseline_at: now, last_reset: now });
    return true;
  }

  /** Writes a root's seeded content first, so the copy holds what the site shows. */
  private prepare(r: Root): void {
    if (r === 'pages') this.ctx.content.ready();
    if (r === 'media') this.ctx.site.media.ready();
  }

  /** Restores the baseline; false without one (or without roots). */
  reset(): boolean {
    if (!this.baselineExists()) return false;
    const roots = this.roots();
    if (roots.length === 0) return false;
    for (const r of roots) {
      const saved = join(this.baselineDir, r);
      if (!existsSync(saved)) continue;
      if (r === 'pages') {
        // through PageFiles so its caches forget the old files
        this.ctx.content.removeFolder(this.ctx.content.root);
        this.ctx.content.copyFolder(saved, this.ctx.content.root);
      } else {
        rmSync(this.abs(r), { recursive: true, force: true });
        cpSync(saved, this.abs(r), { recursive: true });
      }
    }
    this.writeState({ ...this.readState(), last_reset: this.ctx.clock.nowSec() });
    this.resets++;
    return true;
  }

  /** The scheduler's `api-demo-reset` job. */
  scheduledReset(): void {
    const done = this.reset();
    if (done && this.ctx.flavor === 'spec') this.ctx.events.record('onApiDemoReset', { status: this.status(), trigger: 'schedule' });
  }

  /** Whether a baseline exists and its interval ran out. */
  isStale(): boolean {
    return this.baselineExists() && this.secondsUntilReset() === 0;
  }

  /** The lazy reset on an API request; true when it reset. */
  maybeAutoReset(): boolean {
    if (!this.knobs.resetOnRequest || !this.isStale()) return false;
    const done = this.reset();
    // the document fires onApiDemoReset for automatic resets too; the real plugin only for POST /demo/reset
    if (done && this.ctx.flavor === 'spec') this.ctx.events.record('onApiDemoReset', { status: this.status(), trigger: 'request' });
    return done;
  }
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const HARD_DENYLIST = ['/config', '/users', '/groups', '/invitations', '/gpm', '/system', '/backups', '/webhooks', '/audit', '/demo'];
const PERMISSION_CHECKED = ['/pages', '/media', '/blueprint-upload'];
const under = (path: string, prefixes: string[]) => prefixes.some((p) => path === p || path.startsWith(`${p}/`));

/**
 * Whether demo mode refuses a demo account's request before any route runs (the plugin's
 * DemoModeMiddleware): reads pass; writes to the operator areas are refused outright; writes to
 * pages and media are left to the permission check (the `writable` list); any other write is
 * refused, fail-closed. `path` is below the API prefix; public routes (/auth/…) are never refused.
 */
export function demoRefuses(method: string, path: string): boolean {
  if (!MUTATING.has(method.toUpperCase()) || under(path, ['/auth'])) return false;
  if (under(path, HARD_DENYLIST)) return true;
  return !under(path, PERMISSION_CHECKED);
}

