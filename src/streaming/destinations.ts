/**
 * The destinations a client may subscribe to, and what each carries. Every change of every domain goes
 * through the one change log (src/bus/write.ts), so a new entity (a door, a policy alert) needs no code
 * here: its `w.change(...)` reaches `/topic/change/{orgUuid}` as it is.
 */
export interface Destination {
  topic: 'change';
  orgUuid: string;
}

const CHANGE_PREFIX = '/topic/change/';

/** The destination a subscription names, or null when there is no such destination. */
export function parseDestination(name: string): Destination | null {
  if (name.startsWith(CHANGE_PREFIX)) {
    const orgUuid = name.slice(CHANGE_PREFIX.length);
    return /^[A-Za-z0-9_-]{1,64}$/.test(orgUuid) ? { topic: 'change', orgUuid } : null;
  }
  return null;
}

export const changeDestination = (orgUuid: string): string => CHANGE_PREFIX + orgUuid;
