/**
 * Ids Sitedesk chooses for the pets and orders it creates. A store may make none up: the real
 * Swagger Petstore stores a pet sent without id only while it holds no pets (and then breaks),
 * and an order sent without one becomes order 0, overwriting the previous order 0. So every
 * create carries an id of its own, and it must not clash with any other, ever.
 *
 * Why this shape: the id has to be unique across app restarts and across several people's
 * computers creating in the same store, without any shared counter. So it is the time, in
 * milliseconds since 2024-01-01 UTC, times 4096, plus 12 random bits:
 * - 41 bits of milliseconds last until 2093, and 41 + 12 = 53 bits stay within
 *   Number.MAX_SAFE_INTEGER (2^53 − 1), so JSON and JavaScript carry the id exactly; that is far
 *   inside a Java long (2^63 − 1), which is what the store keeps;
 * - two computers clash only when they create in the same millisecond AND draw the same 12 bits
 *   (1 in 4096 for that one millisecond); a restart cannot repeat an id because time has moved on;
 *   within one run ids only ever grow, so a clock set back cannot repeat one either;
 * - an id is at least 4096 · (ms since 2024), far above the small ids stores number their own
 *   records with (the demo data's 1 to 10, a spec store's next free number), and never 0.
 */
import { randomInt } from 'node:crypto';

const EPOCH_MS = Date.UTC(2024, 0, 1);
const RANDOM_BITS = 12;
const SPAN = 2 ** RANDOM_BITS;

/** The id for the millisecond `nowMs` with the random part `random` (0 to 4095). */
export function idAt(nowMs: number, random: number): number {
  const ms = Math.floor(nowMs) - EPOCH_MS;
  if (ms <= 0) throw new RangeError('The computer’s clock is set before 2024; Sitedesk cannot make an id from it.');
  const id = ms * SPAN + (random % SPAN);
  if (!Number.isSafeInteger(id)) throw new RangeError('The computer’s clock is set past 2093; Sitedesk cannot make a safe id from it.');
  return id;
}

/** Ids for one run of the app: from the clock and chance, always growing. */
export class IdMaker {
  private last = 0;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly random: () => number = () => randomInt(SPAN),
  ) {}

  next(): number {
    const id = Math.max(idAt(this.now(), this.random()), this.last + 1);
    if (!Number.isSafeInteger(id)) throw new RangeError('Sitedesk ran out of safe ids.');
    this.last = id;
    return id;
  }
}
