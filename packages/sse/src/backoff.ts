export interface BackoffOptions {
  /** Upper bound of the exponential part, unless the base itself is larger. */
  maxDelay: number;
  /** Fraction of the delay added at random on top (0 = none). */
  jitter: number;
  /** Source of randomness in [0, 1). */
  random: () => number;
}

/** Largest delay `setTimeout` honours; larger ones fire at once. */
export const MAX_TIMER_DELAY = 2 ** 31 - 1;

/**
 * Delay before the `attempt`-th consecutive reconnect (1-based): the base
 * (the server's `retry:` reconnection time, else the configured default),
 * doubled for each further failed attempt, capped at `maxDelay` but never below
 * the base the server asked for, then up to `jitter` times itself added at
 * random so that many clients dropped together do not return together.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#reestablish-the-connection
 */
export function backoffDelay(attempt: number, base: number, options: BackoffOptions): number {
  const cap = Math.max(options.maxDelay, base);
  const exponential = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  const delay = exponential + exponential * options.jitter * options.random();
  return Math.min(Math.max(0, delay), MAX_TIMER_DELAY);
}
