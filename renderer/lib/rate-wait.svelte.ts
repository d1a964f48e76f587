/**
 * A person's requests to a CMS site that the site's rate limit holds back. The Host paces every
 * request and sits out short waits by itself; a longer one reaches the renderer as `rate_limited`
 * with the seconds the site named (nothing was sent, or the site refused before doing anything).
 * That is not a failure: the request waits here for those seconds, counted down where the person
 * is (RateWaitNotice in the area's bar), and goes out again by itself.
 *
 * Only the person’s work in a site’s areas waits here (pages, blueprints, translations, media, and
 * what the Mailer shows).
 * Sign-in has its own countdown and never sends again on its own; a store keeps its own budget.
 */
import { UNKNOWN_WAIT_S } from './rate-wait-policy';

export { heldSite } from './rate-wait-policy';

class RateWaits {
  /** Per site, when its longest current wait ends (epoch ms). */
  #until = $state<Record<string, number>>({});
  #now = $state(Date.now());
  #timer: ReturnType<typeof setInterval> | null = null;

  /** Whole seconds until the site's held requests go out again; 0 when none waits. */
  secondsFor(siteId: string): number {
    const end = this.#until[siteId];
    return end === undefined ? 0 : Math.max(0, Math.ceil((end - this.#now) / 1000));
  }

  /** Whether any request of the site waits for its rate limit now. */
  waiting(siteId: string): boolean {
    return this.#until[siteId] !== undefined;
  }

  /** Waits the seconds the site named (a second at least), shown for the site meanwhile. */
  hold(siteId: string, retryAfter: number | undefined): Promise<void> {
    const ms = Math.max(1, retryAfter ?? UNKNOWN_WAIT_S) * 1000;
    const end = Date.now() + ms;
    this.#until = { ...this.#until, [siteId]: Math.max(end, this.#until[siteId] ?? 0) };
    this.#tick();
    return new Promise((resolve) =>
      setTimeout(() => {
        // the wait of this site is over once its latest end has passed (another may be longer)
        if ((this.#until[siteId] ?? 0) <= Date.now()) {
          const { [siteId]: _, ...rest } = this.#until;
          this.#until = rest;
        }
        resolve();
      }, ms),
    );
  }

  #tick() {
    this.#now = Date.now();
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.#now = Date.now();
      if (Object.keys(this.#until).length === 0 && this.#timer) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    }, 250);
  }
}

/** The waits of every site, one instance for the window. */
export const rateWaits = new RateWaits();
