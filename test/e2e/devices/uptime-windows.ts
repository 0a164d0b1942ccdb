export interface UptimeWindow {
  startSeconds: number;
  durationSeconds: number;
}

/**
 * Uptime windows as two reads of the same history must agree on them: the closed ones whole, the last (still open,
 * so it grows with the clock between the reads) by its start only.
 */
export const closedWindowsAndLastStart = (windows: UptimeWindow[]) =>
  windows.map((w, i) => (i === windows.length - 1 ? w.startSeconds : [w.startSeconds, w.durationSeconds]));
