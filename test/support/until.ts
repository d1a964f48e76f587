/**
 * Polls `what` until `ok` holds, for Host tests that wait on a state the Host reaches by itself
 * (a mirror run ending, a site coming back); fails with the last value seen after `ms`.
 */
export async function until<T>(what: () => Promise<T>, ok: (x: T) => boolean, ms = 30_000, everyMs = 25): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const x = await what();
    if (ok(x)) return x;
    if (Date.now() > end) throw new Error(`timed out waiting; last: ${JSON.stringify(x)}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
