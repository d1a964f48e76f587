/**
 * One store site's rate-limit budget as the store reports it, and the Host's promise not to hammer:
 * after a 429, calls to that store are refused locally until its Retry-After has passed (the
 * renderer counts down and tries once more). A store that answers without any budget headers (the
 * real Petstore has no limits) is recorded once as `reported: false`, so the renderer knows it has
 * answered and that there is no meter to show.
 */
import type { RateBudget } from '../contract/store';
import { budgetFromHeaders } from '../api/store/limits';
import { retryAfterSeconds } from '../api/errors';
import { AppError } from '../base/app-error';

export class BudgetTracker {
  private budget: RateBudget | null = null;

  constructor(
    private readonly siteId: string,
    private readonly now: () => number,
    private readonly emit: (b: RateBudget) => void,
  ) {}

  private blockedUntil(): number | null {
    const at = this.budget?.blockedUntil ? Date.parse(this.budget.blockedUntil) : NaN;
    return Number.isNaN(at) || at <= this.now() ? null : at;
  }

  current(): RateBudget | null {
    if (!this.budget) return null;
    return this.blockedUntil() === null && this.budget.blockedUntil ? { ...this.budget, blockedUntil: null } : { ...this.budget };
  }

  /** Every answer of the store passes here (the site's fetch is wrapped). */
  observe(status: number, headers: Headers): void {
    const now = this.now();
    const reported = budgetFromHeaders(headers, now);
    let blocked = this.blockedUntil();
    if (status === 429) blocked = now + (retryAfterSeconds(headers.get('retry-after'), now) ?? 60) * 1000;
    else if (status < 400) blocked = null;
    const before = this.budget;
    const firstAnswer = !before && status < 400;
    if (!reported && status !== 429 && !firstAnswer && blocked === (before?.blockedUntil ? Date.parse(before.blockedUntil) : null)) return;
    const minute = reported ? reported.minute : (before?.minute ?? null);
    const day = reported ? reported.day : (before?.day ?? null);
    const plan = reported?.plan ?? before?.plan ?? null;
    this.budget = {
      siteId: this.siteId,
      reported: reported !== null || (before?.reported ?? false),
      plan,
      unlimited: plan !== null && minute === null && day === null,
      minute,
      day,
      blockedUntil: blocked === null ? null : new Date(blocked).toISOString(),
      updatedAt: new Date(now).toISOString(),
    };
    this.emit(this.current()!);
  }

  /** Throws rate_limited (with the seconds left) while the store asked to wait. */
  guard(siteName: string): void {
    const until = this.blockedUntil();
    if (until === null) return;
    const retryAfter = Math.max(1, Math.ceil((until - this.now()) / 1000));
    throw new AppError({
      code: 'rate_limited',
      status: 429,
      retryAfter,
      message: `${siteName} asked Sitedesk to slow down; nothing was sent. Try again in ${retryAfter} s.`,
    });
  }

  reset(): void {
    this.budget = null;
  }
}
