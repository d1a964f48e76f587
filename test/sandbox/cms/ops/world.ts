/**
 * The site's operations state (scheduler, dashboard, demo mode) of one sandbox, and their knobs:
 * options at start (`ops` of startCmsSandbox), `sandbox.ops` while running, or
 * `POST /__sandbox/ops` (controls.ts). Demo mode registers its reset job with the scheduler
 * while a baseline exists and scheduled resets are on, as the plugin's onSchedulerInitialized does.
 */
import type { CmsContext } from '../context';
import { Dashboard } from './dashboard';
import { DemoMode, type DemoKnobs } from './demo';
import { DEMO_RESET_JOB, Scheduler, type SchedulerKnobs } from './scheduler';

export interface OpsKnobs {
  scheduler: Partial<SchedulerKnobs>;
  demo: Partial<DemoKnobs>;
}

export class OpsWorld {
  readonly scheduler: Scheduler;
  readonly dashboard: Dashboard;
  readonly demo: DemoMode;

  constructor(ctx: CmsContext, knobs: Partial<OpsKnobs> = {}) {
    this.scheduler = new Scheduler(() => ctx.clock.now(), knobs.scheduler ?? {}, ctx.flavor);
    this.dashboard = new Dashboard(ctx);
    this.demo = new DemoMode(ctx, knobs.demo ?? {});
    this.scheduler.register(
      DEMO_RESET_JOB,
      () => (this.demo.knobs.resetOnSchedule && this.demo.baselineExists() ? Scheduler.demoResetJob(this.demo.interval()) : null),
      () => this.demo.scheduledReset(),
    );
  }
}
