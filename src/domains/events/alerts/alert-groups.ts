/**
 * Grouping of policy alerts, newest first: an alert joins the current group when it is at most
 * GROUP_WINDOW_MS older than the previous (newer) alert and the group has fewer than GROUP_MAX alerts;
 * otherwise it starts a new group. Groups are cut greedily from the newest alert backwards, so where a
 * group ends depends only on the alerts newer than it, never on where a page happens to stop.
 *
 * Paging keeps the groups stable: a page ends only at a group boundary, so the next page (which starts
 * after the cursor, the last alert of the previous page) starts a fresh group exactly where one big page
 * would. The cursor stays the specification's (lastTimestampMs, lastUuid) pair; no grouping state needs
 * to travel in it.
 */
export const GROUP_WINDOW_MS = 2 * 60 * 1000;
export const GROUP_MAX = 50;

export interface Timed {
  timestampMs: number;
}

export interface Group<T extends Timed> {
  startTime: number;
  endTime: number;
  policyAlerts: T[];
}

/** Groups alerts given newest first (by timestamp, then uuid, both descending). */
export function groupAlerts<T extends Timed>(alerts: readonly T[]): Group<T>[] {
  const groups: Group<T>[] = [];
  let current: Group<T> | null = null;
  for (const alert of alerts) {
    const joins = current !== null && current.endTime - alert.timestampMs <= GROUP_WINDOW_MS && current.policyAlerts.length < GROUP_MAX;
    if (joins) {
      current!.policyAlerts.push(alert);
      current!.endTime = alert.timestampMs;
    } else {
      current = { startTime: alert.timestampMs, endTime: alert.timestampMs, policyAlerts: [alert] };
      groups.push(current);
    }
  }
  return groups;
}

/** How many alerts to read for a page of at most `maxResults`: enough to close the first group, plus one to look past the page. */
export const rowsToRead = (maxResults: number) => Math.max(maxResults, GROUP_MAX) + 1;

/**
 * The page of whole groups out of `rows` (newest first, read with a limit of `rowsToRead(maxResults)`):
 * groups are taken while their alerts add up to at most `maxResults`, and the first group always (so a
 * page always makes progress). A group is taken only when it is known to be closed: another row follows
 * it, or the rows ran out before the limit (the end of the device's history).
 */
export function pageOfGroups<T extends Timed>(rows: readonly T[], maxResults: number): Group<T>[] {
  const exhausted = rows.length < rowsToRead(maxResults);
  const groups = groupAlerts(rows);
  const page: Group<T>[] = [];
  let count = 0;
  let seen = 0;
  for (const group of groups) {
    seen += group.policyAlerts.length;
    const closed = exhausted || seen < rows.length;
    if (!closed) break;
    if (page.length > 0 && count + group.policyAlerts.length > maxResults) break;
    page.push(group);
    count += group.policyAlerts.length;
  }
  return page;
}
