import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { fail } from '../../errors.js';
import { orgRecords } from '../../records/org-records.js';
import type { Activity } from '../../schemas/activities.js';
import type { ReadSource } from '../../store/reader.js';
import { write, type WriteScope } from '../../bus/write.js';
import type { RecordCleaner } from '../../records/references.js';
import type { DeviceReferenceCleaner } from '../devices/device-references.js';

/**
 * Windows of time laid over the alert policies: a pause silences every policy alert of a device, a location or
 * a component composite (a door) for its window; an addendum makes extra activities raise alerts on a camera
 * (or the cameras of a location) for its window, whatever its policy's schedules say. Each is one org record,
 * owned by what it applies to.
 */

/** What a window applies to, as the operations name it. */
export type WindowScope = 'DEVICE' | 'LOCATION' | 'COMPONENT_COMPOSITE';

export interface PolicyPauseRecord {
  uuid: string;
  orgUuid: string;
  scope: WindowScope;
  targetUuid: string;
  timestampSec: number;
  durationSecs: number;
}

export interface PolicyAddendumRecord extends PolicyPauseRecord {
  activities: Activity[];
}

const pauses = orgRecords({ entity: 'POLICY_PAUSE', label: 'Policy pause', ownerOf: (r) => r.targetUuid });
const addendums = orgRecords({ entity: 'POLICY_ADDENDUM', label: 'Policy addendum', ownerOf: (r) => r.targetUuid });

type WriteDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** The longest window: a year. */
const MAX_DURATION_SEC = 366 * 86_400;

export interface WindowInput {
  targetUuids: readonly string[];
  /** When it starts, epoch seconds; now when not given. */
  scheduledTimestampSec?: number | null;
  durationSec?: number | null;
}

/** A window names at least one target; each is the organization's device, location or door, resolved at the edge (RefUuid). */
function checkTargets(uuids: readonly string[], field: string): void {
  if (uuids.length === 0) throw fail('INVALID_VALUE', `${field}: give at least one`);
}

function windowOf(w: WriteScope, input: WindowInput): { timestampSec: number; durationSecs: number } {
  const durationSecs = input.durationSec ?? null;
  if (durationSecs === null || durationSecs <= 0 || durationSecs > MAX_DURATION_SEC)
    throw fail('INVALID_VALUE', `durationSec: give the window's length, 1..${MAX_DURATION_SEC} seconds`);
  return { timestampSec: input.scheduledTimestampSec ?? Math.floor(w.nowMs / 1000), durationSecs };
}

/** `pauseAlertPolicyFor…`: one pause per target, each announced. */
export async function pausePolicies(deps: WriteDeps, ctx: CallerContext, scope: WindowScope, field: string, input: WindowInput): Promise<void> {
  await write(deps, ctx, async (w) => {
    checkTargets(input.targetUuids, field);
    const window = windowOf(w, input);
    for (const targetUuid of new Set(input.targetUuids)) await pauses.insert(w, { orgUuid: ctx.orgUuid, scope, targetUuid, ...window });
  });
}

/** `createPolicyAddendum…`: one addendum per target, with the activities it adds. */
export async function addAddendums(
  deps: WriteDeps,
  ctx: CallerContext,
  scope: WindowScope,
  field: string,
  input: WindowInput & { activities?: Activity[] | null },
): Promise<void> {
  const activities = [...new Set(input.activities ?? [])];
  if (activities.length === 0) throw fail('INVALID_VALUE', 'activities: give at least one');
  await write(deps, ctx, async (w) => {
    checkTargets(input.targetUuids, field);
    const window = windowOf(w, input);
    for (const targetUuid of new Set(input.targetUuids)) await addendums.insert(w, { orgUuid: ctx.orgUuid, scope, targetUuid, activities, ...window });
  });
}

/** Deletes windows of a scope by uuid; one of another scope or organization is not found. */
async function deleteWindows(deps: WriteDeps, ctx: CallerContext, kind: 'pause' | 'addendum', scope: WindowScope, uuids: readonly string[]) {
  const records = kind === 'pause' ? pauses : addendums;
  await write(deps, ctx, async (w) => {
    for (const uuid of uuids) {
      const found = await records.find(w, ctx.orgUuid, uuid);
      if (!found || found.scope !== scope) throw fail('NOT_FOUND', `${records.kind.label} ${uuid}`);
      await records.delete(w, uuid);
    }
  });
}

export const deletePause = (deps: WriteDeps, ctx: CallerContext, scope: WindowScope, uuid: string) => deleteWindows(deps, ctx, 'pause', scope, [uuid]);
export const deleteAddendums = (deps: WriteDeps, ctx: CallerContext, scope: WindowScope, uuids: readonly string[]) =>
  deleteWindows(deps, ctx, 'addendum', scope, uuids);

/** A deleted location's pauses and addendums are over (`deps.recordCleaners.location`): each deleted and announced. */
export const policyWindowsForget: RecordCleaner = async (w, targetUuid) => {
  for (const records of [pauses, addendums]) for (const r of await records.listByOwner(w, w.actor.orgUuid, targetUuid)) await records.delete(w, r.uuid);
};

/** A deleted device's pauses and addendums likewise (`deps.deviceReferences`). */
export const policyWindowsForgetDevice: DeviceReferenceCleaner = (w, device) => policyWindowsForget(w, device.uuid);

const endSec = (r: PolicyPauseRecord) => r.timestampSec + r.durationSecs;
const covers = (r: PolicyPauseRecord, atMs: number) => r.timestampSec * 1000 <= atMs && atMs < endSec(r) * 1000;

/** The windows not yet over, by target, as the platform's ScheduledIntervalType lists them. */
function byTarget(records: readonly PolicyPauseRecord[], scope: WindowScope, nowMs: number) {
  const map: Record<string, Array<{ uuid: string; timestampSec: number; durationSecs: number }>> = {};
  for (const r of records)
    if (r.scope === scope && endSec(r) * 1000 > nowMs)
      (map[r.targetUuid] ??= []).push({ uuid: r.uuid, timestampSec: r.timestampSec, durationSecs: r.durationSecs });
  return map;
}

/** `getPolicyPauseSettings`. */
export async function pauseSettings(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  const all = await pauses.list(deps, ctx.orgUuid);
  const now = deps.clock.now();
  return {
    policiesPausedForDevicesMap: byTarget(all, 'DEVICE', now),
    policiesPausedForLocationsMap: byTarget(all, 'LOCATION', now),
    policiesPausedForComponentCompositesMap: byTarget(all, 'COMPONENT_COMPOSITE', now),
  };
}

/** `getPolicyAddendums`. */
export async function addendumSettings(deps: Pick<Deps, 'store' | 'clock'>, ctx: CallerContext) {
  const all = await addendums.list(deps, ctx.orgUuid);
  const now = deps.clock.now();
  return { deviceAddendumsMap: byTarget(all, 'DEVICE', now), locationAddendumsMap: byTarget(all, 'LOCATION', now) };
}

/** What an alert is about: its device (a camera, a sensor, a door) and the device's location. */
export interface AlertSubject {
  uuid: string;
  locationUuid: string | null;
}

const owners = (subject: AlertSubject) => [subject.uuid, ...(subject.locationUuid ? [subject.locationUuid] : [])];

/** Whether a pause of the device (or the door it is), or of its location, covers the instant. */
export async function policiesPausedAt(source: ReadSource, orgUuid: string, subject: AlertSubject, atMs: number): Promise<boolean> {
  return (await pauses.list(source, orgUuid, { ownerUuids: owners(subject) })).some((p) => covers(p, atMs));
}

/** The activities that the addendums of the device or its location add at the instant. */
export async function addendumActivitiesAt(source: ReadSource, orgUuid: string, subject: AlertSubject, atMs: number): Promise<Set<Activity>> {
  const active = (await addendums.list(source, orgUuid, { ownerUuids: owners(subject) })).filter((a) => covers(a, atMs));
  return new Set(active.flatMap((a) => a.activities));
}
