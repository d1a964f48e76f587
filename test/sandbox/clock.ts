/**
 * The sandbox's sense of time. Everything that expires (tokens, challenges, reset links, TOTP
 * steps, rate-limit windows) reads it, so a test moves time forward instead of waiting.
 */
export class Clock {
  /** Added to the real time, in milliseconds. */
  offsetMs = 0;

  /** Epoch milliseconds, offset applied. */
  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Epoch seconds, offset applied (what JWT `iat`/`exp` and X-RateLimit-Reset use). */
  nowSec(): number {
    return Math.floor(this.now() / 1000);
  }

  /** Sets the offset outright (0 = real time). */
  set(offsetMs: number): void {
    this.offsetMs = offsetMs;
  }

  /** Moves time forward (or back, with a negative value). */
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
