/**
 * Milliseconds on the machine's monotonic clock (CLOCK_MONOTONIC, as `process.hrtime`): the same clock in every
 * process, so that a time stamped by a server process can be compared with one read by a subscriber process.
 */
export const monotonicMs = (): number => Number(process.hrtime.bigint()) / 1e6;
