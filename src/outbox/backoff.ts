/**
 * The wait before the next attempt after `attempts` failed ones: exponential from `baseDelayMs`, capped at
 * `maxDelayMs`, with "equal jitter" (half fixed, half random) so that deliveries failing together do not
 * retry together. `random` is a parameter so that tests can pin it.
 */
export function retryDelayMs(attempts: number, policy: { baseDelayMs: number; maxDelayMs: number }, random: () => number = Math.random): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * Whether an answer is worth another attempt: server errors, timeouts and rate limits are; any other
 * client error means the request itself is wrong and repeating it would not help.
 */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}
