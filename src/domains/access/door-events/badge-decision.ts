import type { ReadSource } from '../../../store/reader.js';
import { findLocation } from '../../devices/service.js';
import { findSchedule } from '../../schedules/service.js';
import { scheduleCovers } from '../../schedules/strategies.js';
import { badgeConditionsAt, CONDITION_REASONS, doorStandsUnlocked, lockdownRefuses } from './badge-conditions.js';
import type { CredentialRecord } from '../credentials/model.js';
import { decideGrants } from '../grants/decision.js';
import type { DoorRecord } from '../service.js';

/** Why a presentation was granted or refused, in the order the rules are checked. */
export const BADGE_REASONS = [
  'UNKNOWN_CREDENTIAL',
  'CREDENTIAL_REVOKED',
  'CREDENTIAL_SUSPENDED',
  'CREDENTIAL_UNASSIGNED',
  'CREDENTIAL_NOT_YET_VALID',
  'CREDENTIAL_EXPIRED',
  'LOCATION_LOCKED_DOWN',
  'ACCESS_REVOKED',
  'NO_ACCESS_AT_DOOR',
  'OUTSIDE_SCHEDULE',
  'GRANTED',
  ...CONDITION_REASONS,
] as const;
export type BadgeReason = (typeof BADGE_REASONS)[number];

/** The decision in the reference's terms (AccessControlAuthenticationResultEnumType and friends), and why. */
export interface BadgeDecision {
  granted: boolean;
  reason: BadgeReason;
  authenticationResult: 'ACCEPTED' | 'REJECTED';
  authorizationResult: 'ALLOWED' | 'DENIED' | 'DISABLED' | 'NA';
  authDecisionSource: 'ACCESS_GRANT' | 'ACCESS_REVOCATION' | 'LOCKDOWN' | 'CONFIG' | 'UNKNOWN';
  /** The grant that admitted or the revocation that refused (grants.decision.ts); null otherwise. */
  accessGrantOrRevocationUuid: string | null;
  lockedDown: boolean;
  /** The door's activeDoorLockdownState at the badge-in (badge-conditions.ts). */
  doorState?: 'LOCKED_DOWN' | 'ACCESS_CONTROLLED' | 'UNLOCKED';
}

const doorAsAccessPoint = (door: DoorRecord) => ({ kind: 'DOOR' as const, uuid: door.uuid, orgUuid: door.orgUuid, locationUuid: door.locationUuid });

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
  accessGrantOrRevocationUuid: null,
  lockedDown,
});

/**
 * Decides a credential presented at a door at `atMs`. An unknown credential fails authentication. A known
 * one is DISABLED unless it is ACTIVE and inside its date window; then it is DENIED while the door's location
 * is locked down (but for the plans' exempt users), ALLOWED while the door stands unlocked (a schedule, an
 * exception: badge-conditions.ts), DENIED when no grant for its holder covers the door at that minute or a
 * revocation does (grants.decision.ts), or outside the door's own schedule (both read on the wall clock of the
 * location's time zone); otherwise ALLOWED.
 */
export async function decideBadge(source: ReadSource, door: DoorRecord, credential: CredentialRecord | null, atMs: number): Promise<BadgeDecision> {
  const conditions = await badgeConditionsAt(source, door, atMs);
  const lockedDown = conditions.doorLockdownState === 'LOCKED_DOWN';
  return { ...(await decide(source, door, credential, atMs, conditions, lockedDown)), doorState: conditions.doorLockdownState };
}

async function decide(
  source: ReadSource,
  door: DoorRecord,
  credential: CredentialRecord | null,
  atMs: number,
  conditions: Awaited<ReturnType<typeof badgeConditionsAt>>,
  lockedDown: boolean,
): Promise<BadgeDecision> {
  if (!credential) {
    return {
      granted: false,
      reason: 'UNKNOWN_CREDENTIAL',
      authenticationResult: 'REJECTED',
      authorizationResult: 'NA',
      authDecisionSource: 'UNKNOWN',
      accessGrantOrRevocationUuid: null,
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
  if (lockdownRefuses(conditions, credential.userUuid)) return refused('LOCATION_LOCKED_DOWN', 'DENIED', 'LOCKDOWN', lockedDown);
  if (doorStandsUnlocked(conditions))
    return {
      granted: true,
      reason: 'DOOR_UNLOCKED',
      authenticationResult: 'ACCEPTED',
      authorizationResult: 'ALLOWED',
      authDecisionSource: 'CONFIG',
      accessGrantOrRevocationUuid: null,
      lockedDown,
    };
  const access = await decideGrants(source, doorAsAccessPoint(door), credential.userUuid, atMs);
  if (!access.granted)
    return { ...refused(access.reason, 'DENIED', access.authDecisionSource, lockedDown), accessGrantOrRevocationUuid: access.accessGrantOrRevocationUuid };
  if (door.scheduleUuid !== null) {
    const [schedule, location] = await Promise.all([
      findSchedule(source, door.orgUuid, door.scheduleUuid),
      findLocation(source, door.orgUuid, door.locationUuid),
    ]);
    if (!schedule || !location || !scheduleCovers(schedule, atMs, location.tz)) return refused('OUTSIDE_SCHEDULE', 'DENIED', 'ACCESS_GRANT', lockedDown);
  }
  return {
    granted: true,
    reason: 'GRANTED',
    authenticationResult: 'ACCEPTED',
    authorizationResult: 'ALLOWED',
    authDecisionSource: 'ACCESS_GRANT',
    accessGrantOrRevocationUuid: access.accessGrantOrRevocationUuid,
    lockedDown,
  };
}
