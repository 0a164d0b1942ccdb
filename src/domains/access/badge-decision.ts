import type { ReadSource } from '../../store/reader.js';
import { findLocation } from '../devices/service.js';
import { findSchedule } from '../schedules/service.js';
import { isInsideSchedule } from '../schedules/week-minutes.js';
import type { CredentialRecord } from './credentials.service.js';
import { isLockedDown } from './lockdown.service.js';
import { userMayOpen, type DoorRecord } from './service.js';

/** Why a presentation was granted or refused, in the order the rules are checked. */
export const BADGE_REASONS = [
  'UNKNOWN_CREDENTIAL',
  'CREDENTIAL_REVOKED',
  'CREDENTIAL_SUSPENDED',
  'CREDENTIAL_UNASSIGNED',
  'CREDENTIAL_NOT_YET_VALID',
  'CREDENTIAL_EXPIRED',
  'LOCATION_LOCKED_DOWN',
  'NO_ACCESS_AT_DOOR',
  'OUTSIDE_SCHEDULE',
  'GRANTED',
] as const;
export type BadgeReason = (typeof BADGE_REASONS)[number];

/** The decision in the reference's terms (AccessControlAuthenticationResultEnumType and friends), and why. */
export interface BadgeDecision {
  granted: boolean;
  reason: BadgeReason;
  authenticationResult: 'ACCEPTED' | 'REJECTED';
  authorizationResult: 'ALLOWED' | 'DENIED' | 'DISABLED' | 'NA';
  authDecisionSource: 'ACCESS_GRANT' | 'ACCESS_REVOCATION' | 'LOCKDOWN' | 'CONFIG' | 'UNKNOWN';
  lockedDown: boolean;
}

const refused = (
  reason: BadgeReason,
  authorizationResult: BadgeDecision['authorizationResult'],
  authDecisionSource: BadgeDecision['authDecisionSource'],
  lockedDown: boolean,
): BadgeDecision => ({
  granted: false,
  reason,
  authenticationResult: 'ACCEPTED',
  authorizationResult,
  authDecisionSource,
  lockedDown,
});

/**
 * Decides a credential presented at a door at `atMs`. An unknown credential fails authentication. A known
 * one is DISABLED unless it is ACTIVE and inside its date window; then it is DENIED while the door's location
 * is locked down, when its holder has no access at the door, or outside the door's schedule (read on the
 * wall clock of the location's time zone); otherwise ALLOWED.
 */
export async function decideBadge(source: ReadSource, door: DoorRecord, credential: CredentialRecord | null, atMs: number): Promise<BadgeDecision> {
  const lockedDown = await isLockedDown(source, door.orgUuid, door.locationUuid);
  if (!credential) {
    return {
      granted: false,
      reason: 'UNKNOWN_CREDENTIAL',
      authenticationResult: 'REJECTED',
      authorizationResult: 'NA',
      authDecisionSource: 'UNKNOWN',
      lockedDown,
    };
  }
  switch (credential.workflowStatus) {
    case 'REVOKED':
      return refused('CREDENTIAL_REVOKED', 'DISABLED', 'ACCESS_REVOCATION', lockedDown);
    case 'SUSPENDED':
      return refused('CREDENTIAL_SUSPENDED', 'DISABLED', 'CONFIG', lockedDown);
    case 'UNASSIGNED':
      return refused('CREDENTIAL_UNASSIGNED', 'DISABLED', 'CONFIG', lockedDown);
    case 'ACTIVE':
      break;
  }
  const atSec = Math.floor(atMs / 1000);
  if (credential.startDateEpochSecInclusive !== null && atSec < credential.startDateEpochSecInclusive)
    return refused('CREDENTIAL_NOT_YET_VALID', 'DISABLED', 'CONFIG', lockedDown);
  if (credential.endDateEpochSecExclusive !== null && atSec >= credential.endDateEpochSecExclusive)
    return refused('CREDENTIAL_EXPIRED', 'DISABLED', 'CONFIG', lockedDown);
  if (lockedDown) return refused('LOCATION_LOCKED_DOWN', 'DENIED', 'LOCKDOWN', lockedDown);
  if (!credential.userUuid || !(await userMayOpen(source, door, credential.userUuid)))
    return refused('NO_ACCESS_AT_DOOR', 'DENIED', 'ACCESS_GRANT', lockedDown);
  if (door.scheduleUuid !== null) {
    const schedule = await findSchedule(source, door.orgUuid, door.scheduleUuid);
    const location = await findLocation(source, door.orgUuid, door.locationUuid);
    if (!schedule || !location || !isInsideSchedule(schedule.intervalList, atMs, location.tz))
      return refused('OUTSIDE_SCHEDULE', 'DENIED', 'ACCESS_GRANT', lockedDown);
  }
  return { granted: true, reason: 'GRANTED', authenticationResult: 'ACCEPTED', authorizationResult: 'ALLOWED', authDecisionSource: 'ACCESS_GRANT', lockedDown };
}
