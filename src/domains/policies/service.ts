import { firstByName } from '../../store/by-name.js';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords, type OrgRecords } from '../../records/org-records.js';
import type { Activity } from '../../schemas/activities.js';
import type { ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import { listDevices } from '../devices/service.js';
import type { CameraTrigger, PolicyInput, ThresholdTrigger } from './schemas.js';
import { findSchedulesByUuids } from '../schedules/service.js';
import { scheduleCovers } from '../schedules/strategies.js';
import type { ScheduleUse } from '../schedules/schedule-usage.js';

/**
 * Camera, door and access-controlled door policies: per schedule, the activities that raise policy alerts
 * while the schedule covers the moment. Kept with the org-records kit (one JSON record each); a request and
 * the stream carry schedules by uuid, an answer carries them in full.
 */

/** A scheduled trigger as kept: the schedule's uuid, the triggers active during it, and the family's extras. */
export type StoredScheduledTrigger<T, X = unknown> = { scheduleUuid: string; triggerSet: T[] } & X;

export interface PolicyRecord<T, X = unknown> {
  uuid: string;
  orgUuid: string;
  name: string;
  /** The newer families' free text (audio, climate, occupancy, proximity, video intercom). */
  description?: string | null;
  /** Climate policies: per activity, the seconds after an alert during which it raises no other. */
  backoffAlertSecs?: Record<string, number> | null;
  scheduledTriggers: Array<StoredScheduledTrigger<T, X>>;
}

export type CameraPolicyRecord = PolicyRecord<CameraTrigger>;
export type DoorPolicyRecord = PolicyRecord<Activity, { ajarThresholdSec: number | null }>;
export type AccessControlledDoorPolicyRecord = PolicyRecord<Activity>;
export type AudioPolicyRecord = PolicyRecord<ThresholdTrigger>;
export type ClimatePolicyRecord = PolicyRecord<ThresholdTrigger>;
export type OccupancyPolicyRecord = PolicyRecord<Activity, { occupancyThresholdSec?: number | null; vacancyThresholdSec?: number | null }>;
export type ProximityPolicyRecord = PolicyRecord<{ activity: Activity; locationUuids?: string[] | null }, { departureThresholdSec?: number | null }>;
export type VideoIntercomPolicyRecord = PolicyRecord<{ activity: Activity } & Record<string, unknown>>;

export type PolicyEntity =
  | 'CAMERA_POLICY'
  | 'DOOR_POLICY'
  | 'ACCESS_CONTROLLED_DOOR_POLICY'
  | 'AUDIO_POLICY'
  | 'CLIMATE_POLICY'
  | 'OCCUPANCY_POLICY'
  | 'PROXIMITY_POLICY'
  | 'VIDEO_INTERCOM_POLICY';
type AnyPolicy = PolicyRecord<unknown>;
/** A policy as answered (its schedules in full); each family's exact shape is its schema's in schemas.ts. */
export type PolicyAnswer = Record<string, unknown>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** Checks a policy about to be kept: a name (its schedules are the organization's: RefUuid('schedule'), checked at the edge). */
async function checkPolicy<P extends AnyPolicy>(_w: WriteScope, policy: P): Promise<P> {
  const name = policy.name?.trim();
  if (!name) throw fail('INVALID_VALUE', 'policy.name: required');
  return { ...policy, name };
}

/** A policy family's devices follow it by their `policyUuid`: one of them is not deleted while a device does. */
const devicesFollowing =
  ({ kinds, noun }: Followers, label: string) =>
  async (w: WriteScope, policy: AnyPolicy): Promise<void> => {
    const devices = (await listDevices(w, w.actor.orgUuid, kinds as never)).filter((d) => d.attributes.policyUuid === policy.uuid);
    if (devices.length > 0) throw fail('CONFLICT', `${label} "${policy.name}" is in use by ${devices.map((d) => `${noun} "${d.name}"`).join(', ')}`);
  };

/** The devices that follow a family's policies, and how a message names one. */
interface Followers {
  kinds: readonly string[];
  noun: string;
}

const byActivity = (t: unknown) => (t as { activity: string }).activity;
const asKey = (t: unknown) => t as string;

/**
 * Every family: how errors name its policies, how a trigger given twice is recognized, which devices follow
 * it (deleting a followed policy is refused), and the defaults its answers carry.
 */
const FAMILIES: Record<
  PolicyEntity,
  {
    label: string;
    triggerKey: (trigger: unknown) => string;
    followers?: Followers;
    defaults?: object;
    admits?: (trigger: unknown, seen: DeviceActivity) => boolean;
  }
> = {
  CAMERA_POLICY: {
    label: 'Camera policy',
    triggerKey: byActivity,
    followers: { kinds: ['CAMERA'], noun: 'camera' },
    defaults: { defaultTriggers: [] },
    admits: (t, seen) => atLeast((t as CameraTrigger).threshold, seen.numHumans),
  },
  DOOR_POLICY: { label: 'Door policy', triggerKey: asKey, defaults: { defaultTriggers: [], defaultAjarThresholdSec: null } },
  ACCESS_CONTROLLED_DOOR_POLICY: { label: 'Access controlled door policy', triggerKey: asKey },
  AUDIO_POLICY: {
    label: 'Audio policy',
    triggerKey: byActivity,
    followers: { kinds: ['AUDIO_GATEWAY'], noun: 'audio gateway' },
    defaults: { defaultTriggers: [] },
  },
  CLIMATE_POLICY: {
    label: 'Climate policy',
    triggerKey: byActivity,
    followers: { kinds: ['ENVIRONMENTAL_SENSOR'], noun: 'climate sensor' },
    defaults: { defaultTriggers: [] },
  },
  OCCUPANCY_POLICY: { label: 'Occupancy policy', triggerKey: asKey, followers: { kinds: ['OCCUPANCY_SENSOR'], noun: 'occupancy sensor' } },
  PROXIMITY_POLICY: {
    label: 'Proximity policy',
    triggerKey: byActivity,
    followers: { kinds: ['BLE_TRACKER'], noun: 'proximity tag' },
    // A trigger naming locations fires only for a tag at one of them.
    admits: (t, seen) => {
      const at = (t as { locationUuids?: string[] | null }).locationUuids;
      return !at?.length || (seen.locationUuid !== null && at.includes(seen.locationUuid));
    },
  },
  VIDEO_INTERCOM_POLICY: {
    label: 'Video intercom policy',
    triggerKey: byActivity,
    followers: { kinds: ['DOORBELL_CAMERA'], noun: 'doorbell camera' },
    admits: (t, seen) => atLeast((t as { peopleCountThreshold?: number | null }).peopleCountThreshold, seen.numHumans),
  },
};

/** A people-count threshold is reached (or not compared: no threshold, or no count given). */
const atLeast = (threshold: number | null | undefined, count: number | null | undefined) => threshold == null || count == null || count >= threshold;
/** The activity a trigger names: the trigger itself (door, occupancy) or its `activity`. */
const activityOf = (t: unknown) => (typeof t === 'string' ? t : byActivity(t)) as Activity;

function familyRecords<E extends PolicyEntity>(entity: E) {
  const { label, followers } = FAMILIES[entity];
  return orgRecords({
    entity,
    label,
    nameOf: (r: AnyPolicy) => r.name,
    check: checkPolicy,
    ...(followers ? { beforeDelete: devicesFollowing(followers, label) } : {}),
  } as never) as unknown as OrgRecords<E>;
}

const records = Object.fromEntries((Object.keys(FAMILIES) as PolicyEntity[]).map((e) => [e, familyRecords(e)])) as {
  [E in PolicyEntity]: OrgRecords<E>;
};

const kit = (entity: PolicyEntity) =>
  records[entity] as unknown as OrgRecords<PolicyEntity> & {
    list(source: ReadSource, orgUuid: string): Promise<AnyPolicy[]>;
  };

/** Drops the members given as null, so that a kept trigger holds only what was set. */
const compact = <T>(value: T): T =>
  typeof value === 'object' && value !== null ? (Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as T) : value;

/** The scheduled triggers of a request as kept: each names its schedule; a trigger given twice is kept once. */
function storedTriggers(entity: PolicyEntity, given: NonNullable<PolicyInput['scheduledTriggers']>): AnyPolicy['scheduledTriggers'] {
  return given.map((t, i) => {
    const { scheduleUuid, triggerSet, ...extra } = t as { scheduleUuid?: string | null; triggerSet?: unknown[] | null } & Record<string, unknown>;
    if (!scheduleUuid) throw fail('INVALID_VALUE', `policy.scheduledTriggers[${i}].scheduleUuid: required`);
    const byKey = new Map((triggerSet ?? []).map((trigger) => [FAMILIES[entity].triggerKey(trigger), compact(trigger)]));
    return { ...extra, scheduleUuid, triggerSet: [...byKey.values()] };
  });
}

/** The family's policy-level fields a request gives (null or absent: left as they are). */
function policyFields(input: PolicyInput): Partial<AnyPolicy> {
  return {
    ...(input.description != null ? { description: input.description } : {}),
    ...(input.backoffAlertSecs != null ? { backoffAlertSecs: input.backoffAlertSecs } : {}),
  };
}

/** The body's orgUuid, when given, must be the caller's (another organization answers as unknown). */
function checkOrg(ctx: CallerContext, input: PolicyInput): void {
  if (input.orgUuid != null && input.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
}

/** `create…Policy`: a new policy of the caller's organization; answers its uuid. */
export async function createPolicy(deps: WriteDeps, ctx: CallerContext, entity: PolicyEntity, input: PolicyInput): Promise<string> {
  checkOrg(ctx, input);
  const scheduledTriggers = storedTriggers(entity, input.scheduledTriggers ?? []);
  const created = await kit(entity).create(deps, ctx, { orgUuid: ctx.orgUuid, name: input.name ?? '', ...policyFields(input), scheduledTriggers } as never);
  return created.uuid;
}

/** A camera policy made in a write (a site file's `cameraPolicies`); its schedules are the organization's. */
export async function insertCameraPolicy(
  w: WriteScope,
  input: { name: string; scheduledTriggers: Array<{ scheduleUuid: string; triggerSet: CameraTrigger[] }> },
): Promise<string> {
  const scheduledTriggers = storedTriggers('CAMERA_POLICY', input.scheduledTriggers);
  return (await kit('CAMERA_POLICY').insert(w, { orgUuid: w.actor.orgUuid, name: input.name, scheduledTriggers } as never)).uuid;
}

/** The organization's camera policies, name to uuid (a site file seeded again finds them by name). */
export async function cameraPolicyUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName(await kit('CAMERA_POLICY').list(source, orgUuid));
}

/** `update…Policy`: sets the name and the scheduled triggers when given. */
export async function updatePolicy(deps: WriteDeps, ctx: CallerContext, entity: PolicyEntity, input: PolicyInput & { uuid: string }): Promise<void> {
  if (input.orgUuid != null && input.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', `${FAMILIES[entity].label} ${input.uuid}`);
  const patch = {
    ...(input.name != null ? { name: input.name } : {}),
    ...policyFields(input),
    ...(input.scheduledTriggers != null ? { scheduledTriggers: storedTriggers(entity, input.scheduledTriggers) } : {}),
  };
  await kit(entity).update(deps, ctx, input.uuid, patch as never);
}

/** `delete…Policy`: refused for a camera policy that a camera follows. */
export async function deletePolicy(deps: WriteDeps, ctx: CallerContext, entity: PolicyEntity, uuid: string): Promise<void> {
  await kit(entity).remove(deps, ctx, uuid);
}

/** Policies as answered: each scheduled trigger carries its schedule in full (one query for all of them). */
async function answers(source: ReadSource, orgUuid: string, entity: PolicyEntity, policies: readonly AnyPolicy[]): Promise<PolicyAnswer[]> {
  const schedules = await findSchedulesByUuids(
    source,
    orgUuid,
    policies.flatMap((p) => p.scheduledTriggers.map((t) => t.scheduleUuid)),
  );
  return policies.map((policy) => {
    const scheduledTriggers = policy.scheduledTriggers.map(({ scheduleUuid, ...rest }) => ({ ...rest, schedule: schedules.get(scheduleUuid) ?? null }));
    return { ...policy, scheduledTriggers, ...FAMILIES[entity].defaults };
  });
}

/** `get…Policies`: every policy of the family of the caller's organization, by name. */
export async function getPolicies(deps: Pick<Deps, 'store'>, ctx: CallerContext, entity: PolicyEntity): Promise<PolicyAnswer[]> {
  return answers(deps, ctx.orgUuid, entity, await kit(entity).list(deps, ctx.orgUuid));
}

const usesSchedule = (scheduleUuid: string) => (policy: AnyPolicy) => policy.scheduledTriggers.some((t) => t.scheduleUuid === scheduleUuid);

async function policiesOn(source: ReadSource, orgUuid: string, entity: PolicyEntity, scheduleUuid: string): Promise<AnyPolicy[]> {
  return (await kit(entity).list(source, orgUuid)).filter(usesSchedule(scheduleUuid));
}

/** `getPoliciesUsingSchedule`: the policies of each kept family that name the schedule. */
export async function getPoliciesUsingSchedule(deps: Pick<Deps, 'store'>, ctx: CallerContext, scheduleUuid: string) {
  const list = async (entity: PolicyEntity) => answers(deps, ctx.orgUuid, entity, await policiesOn(deps, ctx.orgUuid, entity, scheduleUuid));
  return {
    cameraPolicyList: await list('CAMERA_POLICY'),
    doorPolicyList: await list('DOOR_POLICY'),
    accessControlledDoorPolicyList: await list('ACCESS_CONTROLLED_DOOR_POLICY'),
    audioPolicyList: await list('AUDIO_POLICY'),
    climatePolicyList: await list('CLIMATE_POLICY'),
    occupancyPolicyList: await list('OCCUPANCY_POLICY'),
    proximityPolicyList: await list('PROXIMITY_POLICY'),
    videoIntercomPolicyList: await list('VIDEO_INTERCOM_POLICY'),
  };
}

/** The policies that name a schedule, for the schedules domain's usage check (deps.scheduleUsage). */
export async function policiesUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  const uses: ScheduleUse[] = [];
  for (const entity of Object.keys(records) as PolicyEntity[])
    for (const policy of await policiesOn(source, orgUuid, entity, scheduleUuid))
      uses.push({ kind: 'alertPolicy', uuid: policy.uuid, label: `${FAMILIES[entity].label.toLowerCase()} "${policy.name}"` });
  return uses;
}

/** A camera policy of the organization, or null (also for another organization's uuid). */
export async function findCameraPolicy(source: ReadSource, orgUuid: string, uuid: string): Promise<CameraPolicyRecord | null> {
  return records.CAMERA_POLICY.find(source, orgUuid, uuid);
}

/** The record finder of a family's kind (cameraPolicy, climatePolicy, ...; src/records/references.ts): which of the uuids name its policies of the organization. */
export const policyFinder =
  (entity: PolicyEntity) =>
  async (source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<ReadonlySet<string>> => {
    const found = await Promise.all(uuids.map((uuid) => kit(entity).find(source, orgUuid, uuid)));
    return new Set(found.filter((p) => p !== null).map((p) => p.uuid));
  };

/** What a device saw, as the alert-raising code asks the policy the device follows about it. */
export interface DeviceActivity {
  /** The device's policy (its `policyUuid`). */
  policyUuid: string;
  deviceKind: string;
  /** The device's location (a proximity trigger may name locations), or null. */
  locationUuid: string | null;
  activities: readonly Activity[];
  atMs: number;
  /** The time zone of the device's location (schedules are wall-clock weeks). */
  timeZone: string;
  /** The people counted, which a camera's threshold or an intercom's people count is compared with. */
  numHumans?: number | null;
}

/** The policy family a device of the kind follows (by its `policyUuid`), if any. */
export const policyFamilyOf = (deviceKind: string): PolicyEntity | null =>
  (Object.keys(FAMILIES) as PolicyEntity[]).find((e) => FAMILIES[e].followers?.kinds.includes(deviceKind)) ?? null;

/** The triggers of a policy whose schedules cover the moment. */
async function triggersAt<T>(source: ReadSource, orgUuid: string, policy: PolicyRecord<T>, atMs: number, timeZone: string): Promise<T[]> {
  const schedules = await findSchedulesByUuids(
    source,
    orgUuid,
    policy.scheduledTriggers.map((t) => t.scheduleUuid),
  );
  return policy.scheduledTriggers.flatMap(({ scheduleUuid, triggerSet }) => {
    const schedule = schedules.get(scheduleUuid);
    return schedule && scheduleCovers(schedule, atMs, timeZone) ? triggerSet : [];
  });
}

/**
 * The activities that raise a policy alert on a device that follows a policy of its kind's family (camera,
 * audio, occupancy, proximity, video intercom): those named by a trigger whose schedule covers the moment and
 * whose conditions (a people count reached, the tag's location) hold; all of them when the policy is gone.
 * An empty answer raises no alert.
 */
export async function policyTriggers(source: ReadSource, orgUuid: string, seen: DeviceActivity): Promise<Activity[]> {
  const entity = policyFamilyOf(seen.deviceKind);
  const policy: AnyPolicy | null = entity ? await kit(entity).find(source, orgUuid, seen.policyUuid) : null;
  if (!entity || !policy) return [...seen.activities];
  const admits = FAMILIES[entity].admits ?? (() => true);
  const active = new Set((await triggersAt(source, orgUuid, policy, seen.atMs, seen.timeZone)).filter((t) => admits(t, seen)).map(activityOf));
  return seen.activities.filter((a) => active.has(a));
}

/**
 * What a climate policy holds at an instant: per activity of a trigger whose schedule covers it, its threshold.
 * Null when the sensor follows no policy of the organization (its own thresholds apply then).
 */
export async function climatePolicyThresholds(
  source: ReadSource,
  orgUuid: string,
  policyUuid: string,
  atMs: number,
  timeZone: string,
): Promise<Map<Activity, number> | null> {
  const policy = await records.CLIMATE_POLICY.find(source, orgUuid, policyUuid);
  if (!policy) return null;
  const thresholds = new Map<Activity, number>();
  for (const t of await triggersAt(source, orgUuid, policy, atMs, timeZone))
    if (typeof t.threshold === 'number' && !thresholds.has(t.activity)) thresholds.set(t.activity, t.threshold);
  return thresholds;
}
