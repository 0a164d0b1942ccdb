import { firstByName } from '../../store/by-name.js';
import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords, type OrgRecords } from '../../records/org-records.js';
import type { Activity } from '../../schemas/activities.js';
import type { ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import { listDevices } from '../devices/service.js';
import type { Static } from 'typebox';
import type { AccessControlledDoorPolicy, CameraPolicy, CameraTrigger, DoorPolicy, PolicyInput } from './schemas.js';
import { findSchedule, findSchedulesByUuids } from '../schedules/service.js';
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
  scheduledTriggers: Array<StoredScheduledTrigger<T, X>>;
}

export type CameraPolicyRecord = PolicyRecord<CameraTrigger>;
export type DoorPolicyRecord = PolicyRecord<Activity, { ajarThresholdSec: number | null }>;
export type AccessControlledDoorPolicyRecord = PolicyRecord<Activity>;

type PolicyEntity = 'CAMERA_POLICY' | 'DOOR_POLICY' | 'ACCESS_CONTROLLED_DOOR_POLICY';
type AnyPolicy = PolicyRecord<unknown>;
/** A policy as answered, by family. */
export type PolicyAnswer<E extends PolicyEntity> = E extends 'CAMERA_POLICY'
  ? Static<typeof CameraPolicy>
  : E extends 'DOOR_POLICY'
    ? Static<typeof DoorPolicy>
    : Static<typeof AccessControlledDoorPolicy>;
type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** Checks a policy about to be kept: a name, and every schedule it names one of the organization's. */
async function checkPolicy<P extends AnyPolicy>(w: WriteScope, policy: P): Promise<P> {
  const name = policy.name?.trim();
  if (!name) throw fail('INVALID_VALUE', 'policy.name: required');
  const uuids = policy.scheduledTriggers.map((t) => t.scheduleUuid);
  const schedules = await findSchedulesByUuids(w, w.actor.orgUuid, uuids);
  const missing = uuids.findIndex((uuid) => !schedules.has(uuid));
  if (missing >= 0) throw fail('NOT_FOUND', `policy.scheduledTriggers[${missing}].scheduleUuid: Schedule ${uuids[missing]}`);
  return { ...policy, name };
}

/** A camera policy is not deleted while a camera of the organization follows it. */
async function camerasFollowing(w: WriteScope, policy: CameraPolicyRecord): Promise<void> {
  const cameras = (await listDevices(w, w.actor.orgUuid, ['CAMERA'])).filter((c) => c.attributes.policyUuid === policy.uuid);
  if (cameras.length > 0) throw fail('CONFLICT', `Camera policy "${policy.name}" is in use by ${cameras.map((c) => `camera "${c.name}"`).join(', ')}`);
}

const records = {
  CAMERA_POLICY: orgRecords({ entity: 'CAMERA_POLICY', label: 'Camera policy', nameOf: (r) => r.name, check: checkPolicy, beforeDelete: camerasFollowing }),
  DOOR_POLICY: orgRecords({ entity: 'DOOR_POLICY', label: 'Door policy', nameOf: (r) => r.name, check: checkPolicy }),
  ACCESS_CONTROLLED_DOOR_POLICY: orgRecords({
    entity: 'ACCESS_CONTROLLED_DOOR_POLICY',
    label: 'Access controlled door policy',
    nameOf: (r) => r.name,
    check: checkPolicy,
  }),
};

/** How each family reads a trigger of a request, and names its policies in messages. */
const FAMILIES: Record<PolicyEntity, { what: string; triggerKey: (trigger: unknown) => string }> = {
  CAMERA_POLICY: { what: 'camera policy', triggerKey: (t) => (t as CameraTrigger).activity },
  DOOR_POLICY: { what: 'door policy', triggerKey: (t) => t as string },
  ACCESS_CONTROLLED_DOOR_POLICY: { what: 'access controlled door policy', triggerKey: (t) => t as string },
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

/** The body's orgUuid, when given, must be the caller's (another organization answers as unknown). */
function checkOrg(ctx: CallerContext, input: PolicyInput): void {
  if (input.orgUuid != null && input.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', 'Organization');
}

/** `create…Policy`: a new policy of the caller's organization; answers its uuid. */
export async function createPolicy(deps: WriteDeps, ctx: CallerContext, entity: PolicyEntity, input: PolicyInput): Promise<string> {
  checkOrg(ctx, input);
  const scheduledTriggers = storedTriggers(entity, input.scheduledTriggers ?? []);
  const created = await kit(entity).create(deps, ctx, { orgUuid: ctx.orgUuid, name: input.name ?? '', scheduledTriggers } as never);
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
  if (input.orgUuid != null && input.orgUuid !== ctx.orgUuid) throw fail('NOT_FOUND', `${records[entity].kind.label} ${input.uuid}`);
  const patch = {
    ...(input.name != null ? { name: input.name } : {}),
    ...(input.scheduledTriggers != null ? { scheduledTriggers: storedTriggers(entity, input.scheduledTriggers) } : {}),
  };
  await kit(entity).update(deps, ctx, input.uuid, patch as never);
}

/** `delete…Policy`: refused for a camera policy that a camera follows. */
export async function deletePolicy(deps: WriteDeps, ctx: CallerContext, entity: PolicyEntity, uuid: string): Promise<void> {
  await kit(entity).remove(deps, ctx, uuid);
}

/** Policies as answered: each scheduled trigger carries its schedule in full (one query for all of them). */
async function answers<E extends PolicyEntity>(
  source: ReadSource,
  orgUuid: string,
  entity: E,
  policies: readonly AnyPolicy[],
): Promise<Array<PolicyAnswer<E>>> {
  const schedules = await findSchedulesByUuids(
    source,
    orgUuid,
    policies.flatMap((p) => p.scheduledTriggers.map((t) => t.scheduleUuid)),
  );
  return policies.map((policy) => {
    const scheduledTriggers = policy.scheduledTriggers.map(({ scheduleUuid, ...rest }) => ({ ...rest, schedule: schedules.get(scheduleUuid) ?? null }));
    const defaults =
      entity === 'CAMERA_POLICY' ? { defaultTriggers: [] } : entity === 'DOOR_POLICY' ? { defaultTriggers: [], defaultAjarThresholdSec: null } : {};
    return { uuid: policy.uuid, orgUuid: policy.orgUuid, name: policy.name, scheduledTriggers, ...defaults } as PolicyAnswer<E>;
  });
}

/** `get…Policies`: every policy of the family of the caller's organization, by name. */
export async function getPolicies<E extends PolicyEntity>(deps: Pick<Deps, 'store'>, ctx: CallerContext, entity: E): Promise<Array<PolicyAnswer<E>>> {
  return answers(deps, ctx.orgUuid, entity, await kit(entity).list(deps, ctx.orgUuid));
}

const usesSchedule = (scheduleUuid: string) => (policy: AnyPolicy) => policy.scheduledTriggers.some((t) => t.scheduleUuid === scheduleUuid);

async function policiesOn(source: ReadSource, orgUuid: string, entity: PolicyEntity, scheduleUuid: string): Promise<AnyPolicy[]> {
  return (await kit(entity).list(source, orgUuid)).filter(usesSchedule(scheduleUuid));
}

/** `getPoliciesUsingSchedule`: the policies of each kept family that name the schedule. */
export async function getPoliciesUsingSchedule(deps: Pick<Deps, 'store'>, ctx: CallerContext, scheduleUuid: string) {
  if (!(await findSchedule(deps, ctx.orgUuid, scheduleUuid))) throw fail('NOT_FOUND', 'Schedule');
  const list = async <E extends PolicyEntity>(entity: E) => answers(deps, ctx.orgUuid, entity, await policiesOn(deps, ctx.orgUuid, entity, scheduleUuid));
  return {
    cameraPolicyList: await list('CAMERA_POLICY'),
    doorPolicyList: await list('DOOR_POLICY'),
    accessControlledDoorPolicyList: await list('ACCESS_CONTROLLED_DOOR_POLICY'),
    audioPolicyList: [],
    climatePolicyList: [],
    occupancyPolicyList: [],
    proximityPolicyList: [],
    videoIntercomPolicyList: [],
  };
}

/** The policies that name a schedule, for the schedules domain's usage check (deps.scheduleUsage). */
export async function policiesUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  const uses: ScheduleUse[] = [];
  for (const entity of Object.keys(records) as PolicyEntity[])
    for (const policy of await policiesOn(source, orgUuid, entity, scheduleUuid))
      uses.push({ kind: 'alertPolicy', uuid: policy.uuid, label: `${FAMILIES[entity].what} "${policy.name}"` });
  return uses;
}

/** A camera policy of the organization, or null (also for another organization's uuid). */
export async function findCameraPolicy(source: ReadSource, orgUuid: string, uuid: string): Promise<CameraPolicyRecord | null> {
  return records.CAMERA_POLICY.find(source, orgUuid, uuid);
}

/** Which of the uuids name camera policies of the organization (the record finder of kind cameraPolicy, src/records/references.ts). */
export async function findCameraPolicyUuids(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<ReadonlySet<string>> {
  const found = await Promise.all(uuids.map((uuid) => findCameraPolicy(source, orgUuid, uuid)));
  return new Set(found.filter((p) => p !== null).map((p) => p.uuid));
}

/** What a camera saw, as the alert-raising code asks the camera's policy about it. */
export interface CameraActivity {
  /** The camera's policy (its `policyUuid`), or null. */
  policyUuid: string | null;
  activities: readonly Activity[];
  atMs: number;
  /** The time zone of the camera's location (schedules are wall-clock weeks). */
  timeZone: string;
  /** The people counted, which a trigger's threshold is compared with. */
  numHumans?: number | null;
}

/**
 * The activities that raise a policy alert on the camera: all of them when the camera follows no policy; else those named by a scheduled trigger whose schedule covers the moment (and whose
 * threshold, when it has one and the alert counts people, is reached). An empty answer raises no alert.
 */
export async function cameraPolicyTriggers(source: ReadSource, orgUuid: string, seen: CameraActivity): Promise<Activity[]> {
  const policy = seen.policyUuid ? await findCameraPolicy(source, orgUuid, seen.policyUuid) : null;
  if (!policy) return [...seen.activities];
  const schedules = await findSchedulesByUuids(
    source,
    orgUuid,
    policy.scheduledTriggers.map((t) => t.scheduleUuid),
  );
  const reached = (trigger: CameraTrigger) => trigger.threshold == null || seen.numHumans == null || seen.numHumans >= trigger.threshold;
  const active = new Set<Activity>();
  for (const { scheduleUuid, triggerSet } of policy.scheduledTriggers) {
    const schedule = schedules.get(scheduleUuid);
    if (!schedule || !scheduleCovers(schedule, seen.atMs, seen.timeZone)) continue;
    for (const trigger of triggerSet) if (reached(trigger)) active.add(trigger.activity);
  }
  return seen.activities.filter((a) => active.has(a));
}
