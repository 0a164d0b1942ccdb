import type { ReadSource } from '../../../store/reader.js';
import { findLocation } from '../../devices/service.js';
import { findSchedulesByUuids, type ScheduleRecord } from '../../schedules/service.js';
import { scheduleHolds } from '../../schedules/strategies.js';
import { accessView, rulesForUser, type AccessView, type CompiledRule } from './view.js';

/** Where a credential is presented: a door, or an elevator landing. */
export interface AccessPoint {
  kind: 'DOOR' | 'ELEVATOR_LANDING';
  uuid: string;
  orgUuid: string;
  locationUuid: string;
}

/** What the grants and revocations say of a user at an access point at one instant. */
export interface GrantDecision {
  granted: boolean;
  reason: 'GRANTED' | 'ACCESS_REVOKED' | 'NO_ACCESS_AT_DOOR' | 'OUTSIDE_SCHEDULE';
  authDecisionSource: 'ACCESS_GRANT' | 'ACCESS_REVOCATION';
  /** The grant that admitted, or the revocation that refused; null when no rule decided. */
  accessGrantOrRevocationUuid: string | null;
}

/** Whether a rule covers the access point: it stands at its location and names it, one of its labels, or nothing. */
function covers(rule: CompiledRule, point: AccessPoint, view: AccessView): boolean {
  if (rule.locationUuid !== point.locationUuid) return false;
  if (rule.locationWide) return true;
  if (point.kind === 'ELEVATOR_LANDING') return rule.targets.LANDING.has(point.uuid);
  return rule.targets.DOOR.has(point.uuid) || (view.labelsOfDoor.get(point.uuid) ?? []).some((label) => rule.targets.DOOR_LABEL.has(label));
}

/**
 * Decides a user at an access point at `atMs` from the organization's grants and revocations, directly or
 * through the user's groups. A revocation that covers the point at that minute of the week (on the wall
 * clock of the point's location) refuses; otherwise a grant that covers it then admits; otherwise the
 * user is refused, OUTSIDE_SCHEDULE when a grant covers the point at other times. The first rule by name
 * (then uuid) is the one reported.
 */
export async function decideGrants(source: ReadSource, point: AccessPoint, userUuid: string | null, atMs: number): Promise<GrantDecision> {
  const view = await accessView(source, point.orgUuid);
  const rules = userUuid === null ? [] : rulesForUser(view, userUuid).filter((rule) => covers(rule, point, view));
  // The schedules of every rule in question, and the wall clock they are read on: two queries at most.
  const scheduleUuids = rules.flatMap((r) => (r.scheduleUuid === null ? [] : [r.scheduleUuid]));
  const schedules = scheduleUuids.length ? await findSchedulesByUuids(source, point.orgUuid, scheduleUuids) : new Map<string, ScheduleRecord>();
  const timeZone = scheduleUuids.length ? ((await findLocation(source, point.orgUuid, point.locationUuid))?.tz ?? 'UTC') : 'UTC';
  const holdsNow = (rule: CompiledRule) => rule.scheduleUuid === null || scheduleHolds(schedules.get(rule.scheduleUuid), atMs, timeZone);
  const revocation = rules.find((r) => r.kind === 'REVOCATION' && holdsNow(r));
  if (revocation) return { granted: false, reason: 'ACCESS_REVOKED', authDecisionSource: 'ACCESS_REVOCATION', accessGrantOrRevocationUuid: revocation.uuid };
  const grants = rules.filter((r) => r.kind === 'GRANT');
  const grant = grants.find(holdsNow);
  if (grant) return { granted: true, reason: 'GRANTED', authDecisionSource: 'ACCESS_GRANT', accessGrantOrRevocationUuid: grant.uuid };
  return {
    granted: false,
    reason: grants.length > 0 ? 'OUTSIDE_SCHEDULE' : 'NO_ACCESS_AT_DOOR',
    authDecisionSource: 'ACCESS_GRANT',
    accessGrantOrRevocationUuid: null,
  };
}
