import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { deviceOfFacet } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { findDevice, findDevices } from '../../devices/service.js';
import { doorAnswer, type DoorAnswer } from '../service.js';
import { applyDoorState } from './door-state.js';
import * as store from './store.js';
import { decodePageKey, pageOf } from '../../../store/page-key.js';
import { createDoor, DOOR_PAGE, findDoor, findDoors, type DoorRecord } from '../service.js';
import type { DoorAccessState } from '../tables.js';
import { forgetRecord } from '../../../records/references.js';

type DoorDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;
type DeleteDoorDeps = DoorDeps & Pick<Deps, 'recordCleaners'>;

/** The fields of a door that its create and update operations take (the platform's AccessControlledDoorType names). */
export interface DoorFields {
  name?: string | null;
  associatedCameras?: string[] | null;
  unlockTimeSec?: number | null;
  defaultState?: DoorAccessState | null;
  doorStateToScheduleUuidMap?: Partial<Record<DoorAccessState, string | null>> | null;
  /** Gatehouse's: the schedule during which the door's access rules admit (null: always). */
  scheduleUuid?: string | null;
}

/** The door's cameras (facet ids or RUUIDs) as camera uuids of the organization. */
async function cameraUuidsOf(w: WriteScope, refs: readonly string[]): Promise<string[]> {
  const uuids = [...new Set(refs.map((ref) => deviceOfFacet(ref) ?? ref))];
  const found = await findDevices(w, w.actor.orgUuid, uuids, ['CAMERA']);
  const missing = uuids.find((u) => !found.has(u));
  if (missing) throw fail('NOT_FOUND', `Camera ${missing}`);
  return uuids.sort();
}

/** The door's fields checked against the organization, as columns (undefined: left as they are); its schedules are checked at the edge. */
async function checkedFields(w: WriteScope, fields: DoorFields) {
  if (fields.name !== undefined && fields.name !== null && !fields.name.trim()) throw fail('INVALID_VALUE', 'name: must not be empty');
  const map = fields.doorStateToScheduleUuidMap;
  return {
    name: fields.name?.trim() || undefined,
    cameraUuids: fields.associatedCameras == null ? undefined : await cameraUuidsOf(w, fields.associatedCameras),
    unlockDurationMs: fields.unlockTimeSec == null ? undefined : fields.unlockTimeSec * 1000,
    defaultState: fields.defaultState ?? undefined,
    scheduleUuid: fields.scheduleUuid,
    unlockedScheduleUuid: map === undefined ? undefined : (map?.UNLOCKED ?? null),
    controlledScheduleUuid: map === undefined ? undefined : (map?.ACCESS_CONTROLLED ?? null),
  };
}

/**
 * Creates a door at a location of the organization, driven by one of its DOOR_CONTROLLERs (none: the door has
 * no controller, so no remote unlock), closed and locked; it then takes its expected state (a door whose
 * default state is UNLOCKED opens at once).
 */
export async function createAccessControlledDoor(
  deps: DoorDeps,
  ctx: CallerContext,
  input: { accessControlledDoor: DoorFields & { locationUuid: string; ownerDeviceUuid?: string | null } },
): Promise<DoorAnswer> {
  const d = input.accessControlledDoor;
  if (!d.name?.trim()) throw fail('INVALID_VALUE', 'accessControlledDoor.name: required');
  return write(deps, ctx, async (w) => {
    if (d.ownerDeviceUuid && !(await findDevice(w, ctx.orgUuid, d.ownerDeviceUuid, ['DOOR_CONTROLLER']))) throw fail('NOT_FOUND', 'Door controller');
    const f = await checkedFields(w, d);
    const door = await createDoor(w, {
      name: f.name!,
      locationUuid: d.locationUuid,
      hasLock: true,
      scheduleUuid: f.scheduleUuid ?? null,
      controllerUuid: d.ownerDeviceUuid ?? null,
      cameraUuids: f.cameraUuids ?? [],
      unlockDurationMs: f.unlockDurationMs,
      defaultState: f.defaultState,
      unlockedScheduleUuid: f.unlockedScheduleUuid,
      controlledScheduleUuid: f.controlledScheduleUuid,
    });
    return doorAnswer(await applyDoorState(w, door));
  });
}

async function doorOf(w: WriteScope, uuid: string): Promise<DoorRecord> {
  const door = await findDoor(w, w.actor.orgUuid, uuid);
  if (!door) throw fail('NOT_FOUND', 'Door');
  return door;
}

/** Changes the fields given of a door (a list given replaces the door's); the door then takes its expected state. */
export async function updateAccessControlledDoor(
  deps: DoorDeps,
  ctx: CallerContext,
  input: DoorFields & { accessControlledDoorUuid: string },
): Promise<DoorAnswer> {
  return write(deps, ctx, async (w) => {
    const door = await doorOf(w, input.accessControlledDoorUuid);
    const f = await checkedFields(w, input);
    await store.updateDoorConfig(w.tx, ctx.orgUuid, door.uuid, {
      name: f.name,
      schedule_uuid: f.scheduleUuid,
      unlock_duration_ms: f.unlockDurationMs,
      default_state: f.defaultState,
      unlocked_schedule_uuid: f.unlockedScheduleUuid,
      controlled_schedule_uuid: f.controlledScheduleUuid,
      updated_at_ms: w.nowMs,
    });
    if (f.cameraUuids) await store.replaceDoorCameras(w.tx, ctx.orgUuid, door.uuid, f.cameraUuids);
    const updated = (await findDoor(w, ctx.orgUuid, door.uuid))!;
    const applied = await applyDoorState(w, updated);
    // applyDoorState announces the door only when its state moved; a change of its fields is announced here.
    if (applied === updated) w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'UPDATE', update: doorAnswer(updated) });
    return doorAnswer(applied);
  });
}

/**
 * Deletes a door with its events and labels. The records that name it forget it first, while their links to it
 * are still there (grants, exceptions, guest passes, rules, pauses, snoozes, licenses), each change announced.
 * Answers it as it was.
 */
export async function deleteAccessControlledDoor(deps: DeleteDoorDeps, ctx: CallerContext, input: { accessControlledDoorUuid: string }): Promise<DoorAnswer> {
  return write(deps, ctx, async (w) => {
    const door = await doorOf(w, input.accessControlledDoorUuid);
    await forgetRecord(deps, w, 'door', door.uuid);
    await store.deleteDoor(w.tx, ctx.orgUuid, door.uuid);
    const answer = doorAnswer(door);
    w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'DELETE', update: answer });
    return answer;
  });
}

/** The door shadow (the platform's AccessControlledDoorShadow): its access state as last applied, and why. */
export function doorShadow(door: DoorRecord) {
  return {
    componentCompositeUuid: door.uuid,
    orgUuid: door.orgUuid,
    ownerDeviceUuid: door.controllerUuid,
    type: 'AccessControlledDoorShadow' as const,
    state: { state: door.accessState, source: door.accessStateSource, stateUpdateEventTimestampMs: door.accessStateAtMillis },
    createdAtMillis: door.createdAtMillis,
    updatedAtMillis: door.updatedAtMillis,
  };
}

export interface DoorPageInput {
  locationUuid?: string | null;
  ownerDeviceUuid?: string | null;
  lastEvaluatedKey?: string | null;
  maxPageSize?: number | null;
}

/** A page of the organization's doors by name, of a location or a controller when given (another organization's: not found). */
export async function pageDoors(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: DoorPageInput,
): Promise<{ doors: DoorRecord[]; lastEvaluatedKey: string | null }> {
  const limit = Math.min(input.maxPageSize ?? DOOR_PAGE.default, DOOR_PAGE.max);
  const after = input.lastEvaluatedKey ? decodePageKey(input.lastEvaluatedKey, ['string', 'string'] as const) : null;
  const rows = await store.pageDoors(deps.store.db, ctx.orgUuid, {
    locationUuid: input.locationUuid ?? undefined,
    controllerUuid: input.ownerDeviceUuid ?? undefined,
    after: after && { name: after[0], uuid: after[1] },
    limit: limit + 1,
  });
  const { page, lastEvaluatedKey } = pageOf(rows, limit, (r) => [r.name, r.uuid]);
  return {
    doors: await findDoors(
      deps,
      ctx.orgUuid,
      page.map((r) => r.uuid),
    ),
    lastEvaluatedKey,
  };
}
