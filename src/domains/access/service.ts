import type { LocationUsageCheck } from '../devices/locations/service.js';
import { firstByName } from '../../store/by-name.js';
import { facetId, newRuuid } from '../../ids.js';
import { fromDbBool, toDbBool } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../bus/write.js';
import * as store from './store.js';
import type { RecordFinder } from '../../records/references.js';
import { orgUuidsIn } from '../../store/org-uuids.js';
import type { DoorAccessState, DoorPosition, DoorStateSource, DoorsTable, LockState } from './tables.js';

export const DEFAULT_UNLOCK_DURATION_MS = 5000;
export const DOOR_PAGE = { default: 100, max: 1000 };

/** A door as the services hold it (the REST API answers it as `doorAnswer` shapes it). */
export interface DoorRecord {
  uuid: string;
  orgUuid: string;
  locationUuid: string;
  name: string;
  hasLock: boolean;
  scheduleUuid: string | null;
  controllerUuid: string | null;
  cameraUuids: string[];
  unlockDurationMs: number;
  position: DoorPosition;
  lockState: LockState;
  /** When an unlocked door relocks; null while locked. */
  relockAtMillis: number | null;
  controllerOnline: boolean;
  createdAtMillis: number;
  updatedAtMillis: number;
  /** The door's state when no schedule, exception or lockdown says otherwise (door-state.ts). */
  defaultState: DoorAccessState;
  /** The schedules during which the door is UNLOCKED, or ACCESS_CONTROLLED. */
  unlockedScheduleUuid: string | null;
  controlledScheduleUuid: string | null;
  /** Why the relay is held unlocked; null when it is not held (locked, or unlocked for an unlock duration). */
  heldSource: DoorStateSource | null;
  /** When the door's expected state next changes; the scheduler re-applies it then. */
  stateCheckAtMillis: number | null;
  /** The expected state last applied, what decided it, and when (door-state.ts). */
  accessState: DoorAccessState;
  accessStateSource: DoorStateSource;
  accessStateAtMillis: number | null;
}

export function toDoorRecord(row: DoorsTable, cameraUuids: string[]): DoorRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    locationUuid: row.location_uuid,
    name: row.name,
    hasLock: fromDbBool(row.has_lock) ?? false,
    scheduleUuid: row.schedule_uuid,
    controllerUuid: row.controller_device_uuid,
    cameraUuids,
    unlockDurationMs: row.unlock_duration_ms,
    position: row.position,
    lockState: row.lock_state,
    relockAtMillis: row.relock_at_ms === null ? null : Number(row.relock_at_ms),
    controllerOnline: fromDbBool(row.controller_online) ?? false,
    createdAtMillis: Number(row.created_at_ms),
    updatedAtMillis: Number(row.updated_at_ms),
    defaultState: row.default_state,
    unlockedScheduleUuid: row.unlocked_schedule_uuid,
    controlledScheduleUuid: row.controlled_schedule_uuid,
    heldSource: row.held_source,
    stateCheckAtMillis: row.state_check_at_ms === null ? null : Number(row.state_check_at_ms),
    accessState: row.access_state,
    accessStateSource: row.access_state_source,
    accessStateAtMillis: row.access_state_at_ms === null ? null : Number(row.access_state_at_ms),
  };
}

/**
 * A door as the platform's clients read it (the catalogue's AccessControlledDoorType names): the controller
 * is `ownerDeviceUuid`, the cameras `associatedCameras` (facet ids `<camera>.v0`), the unlock time
 * `unlockTimeSec` (whole seconds, rounded up), its state schedules `doorStateToScheduleUuidMap`. The REST answers and the DOOR changes on the
 * stream both carry it.
 */
export function doorAnswer(door: DoorRecord) {
  const { controllerUuid, cameraUuids, unlockDurationMs, unlockedScheduleUuid, controlledScheduleUuid, ...rest } = door;
  return {
    ...rest,
    type: 'AccessControlledDoor' as const,
    ownerDeviceUuid: controllerUuid,
    associatedCameras: cameraUuids.map((camera) => facetId(camera)),
    unlockTimeSec: Math.ceil(unlockDurationMs / 1000),
    // A door without a lock always stands unlocked.
    defaultState: door.hasLock ? door.defaultState : ('UNLOCKED' as const),
    doorStateToScheduleUuidMap: {
      ...(unlockedScheduleUuid ? { UNLOCKED: unlockedScheduleUuid } : {}),
      ...(controlledScheduleUuid ? { ACCESS_CONTROLLED: controlledScheduleUuid } : {}),
    },
  };
}

export type DoorAnswer = ReturnType<typeof doorAnswer>;

/** What a door is made of. Every uuid must be a record of the writer's organization: the caller checks them. */
export interface DoorInput {
  name: string;
  locationUuid: string;
  hasLock: boolean;
  scheduleUuid: string | null;
  controllerUuid: string | null;
  cameraUuids: string[];
  unlockDurationMs?: number;
  defaultState?: DoorAccessState;
  unlockedScheduleUuid?: string | null;
  controlledScheduleUuid?: string | null;
}

/** Creates a door, closed and locked, with its cameras (who may open it is for grants: grants.service.ts). */
export async function createDoor(w: WriteScope, input: DoorInput): Promise<DoorRecord> {
  const orgUuid = w.actor.orgUuid;
  const row: DoorsTable = {
    uuid: newRuuid(),
    org_uuid: orgUuid,
    location_uuid: input.locationUuid,
    name: input.name,
    has_lock: toDbBool(input.hasLock)!,
    schedule_uuid: input.scheduleUuid,
    controller_device_uuid: input.controllerUuid,
    unlock_duration_ms: input.unlockDurationMs ?? DEFAULT_UNLOCK_DURATION_MS,
    position: 'CLOSED',
    lock_state: 'LOCKED',
    controller_online: toDbBool(input.controllerUuid !== null)!,
    relock_at_ms: null,
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
    default_state: input.defaultState ?? 'ACCESS_CONTROLLED',
    unlocked_schedule_uuid: input.unlockedScheduleUuid ?? null,
    controlled_schedule_uuid: input.controlledScheduleUuid ?? null,
    held_source: null,
    state_check_at_ms: null,
    access_state: 'ACCESS_CONTROLLED',
    access_state_source: 'DEFAULT_STATE',
    access_state_at_ms: null,
  };
  const cameraUuids = [...new Set(input.cameraUuids)].sort();
  await store.insertDoor(w.tx, row);
  await store.insertDoorCameras(w.tx, orgUuid, row.uuid, cameraUuids);
  const record = toDoorRecord(row, cameraUuids);
  w.change({ entity: 'DOOR', entityUuid: row.uuid, deviceUuid: input.controllerUuid, type: 'CREATE', update: doorAnswer(record) });
  return record;
}

async function withCameras(source: ReadSource, row: DoorsTable): Promise<DoorRecord> {
  return toDoorRecord(row, await store.listDoorCameraUuids(dbOf(source), row.uuid));
}

/** Doors with their cameras: one query for the whole page, whatever its size. */
async function withCamerasOfPage(source: ReadSource, rows: DoorsTable[]): Promise<DoorRecord[]> {
  const cameras = await store.listCameraUuidsOfDoors(
    dbOf(source),
    rows.map((r) => r.uuid),
  );
  return rows.map((row) => toDoorRecord(row, cameras.get(row.uuid) ?? []));
}

/** A door of the organization; null for a missing one or another organization's. */
export async function findDoor(source: ReadSource, orgUuid: string, uuid: string): Promise<DoorRecord | null> {
  const row = await store.findDoor(dbOf(source), orgUuid, uuid);
  return row ? withCameras(source, row) : null;
}

/** The organization's doors among the uuids, in the order asked; unknown and foreign uuids are left out. */
/** The organization's doors, name to uuid (a site file seeded again finds its doors by name). */
export async function doorUuidsByName(source: ReadSource, orgUuid: string): Promise<Map<string, string>> {
  return firstByName(await store.listDoorNames(dbOf(source), orgUuid));
}

export async function findDoors(source: ReadSource, orgUuid: string, uuids: readonly string[]): Promise<DoorRecord[]> {
  const rows = await store.findDoors(dbOf(source), orgUuid, [...new Set(uuids)]);
  const byUuid = new Map((await withCamerasOfPage(source, rows)).map((d) => [d.uuid, d]));
  return [...new Set(uuids)].flatMap((uuid) => byUuid.get(uuid) ?? []);
}

/** A door by uuid alone, whatever its organization: how the simulator, standing in for the door's devices, names it. */
export async function findDoorOfDevice(source: ReadSource, uuid: string): Promise<DoorRecord | null> {
  const row = await store.findDoorByUuid(dbOf(source), uuid);
  return row ? withCameras(source, row) : null;
}

/** The state of a door that its devices and unlocks change. */
export type DoorStatePatch = Partial<
  Pick<
    DoorRecord,
    | 'position'
    | 'lockState'
    | 'controllerOnline'
    | 'relockAtMillis'
    | 'heldSource'
    | 'stateCheckAtMillis'
    | 'accessState'
    | 'accessStateSource'
    | 'accessStateAtMillis'
  >
>;

/** Changes a door's state in the write and raises the DOOR change; answers the door as it now is. */
export async function changeDoorState(w: WriteScope, door: DoorRecord, patch: DoorStatePatch): Promise<DoorRecord> {
  await store.updateDoorState(w.tx, door.orgUuid, door.uuid, {
    ...(patch.position !== undefined ? { position: patch.position } : {}),
    ...(patch.lockState !== undefined ? { lock_state: patch.lockState } : {}),
    ...(patch.controllerOnline !== undefined ? { controller_online: toDbBool(patch.controllerOnline)! } : {}),
    ...(patch.relockAtMillis !== undefined ? { relock_at_ms: patch.relockAtMillis } : {}),
    ...(patch.heldSource !== undefined ? { held_source: patch.heldSource } : {}),
    ...(patch.stateCheckAtMillis !== undefined ? { state_check_at_ms: patch.stateCheckAtMillis } : {}),
    ...(patch.accessState !== undefined ? { access_state: patch.accessState } : {}),
    ...(patch.accessStateSource !== undefined ? { access_state_source: patch.accessStateSource } : {}),
    ...(patch.accessStateAtMillis !== undefined ? { access_state_at_ms: patch.accessStateAtMillis } : {}),
    updated_at_ms: w.nowMs,
  });
  const updated: DoorRecord = { ...door, ...patch, updatedAtMillis: w.nowMs };
  w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'UPDATE', update: doorAnswer(updated) });
  return updated;
}

/** The organization's doors at a location, by uuid. */
export async function listDoorsAt(source: ReadSource, orgUuid: string, locationUuid: string): Promise<DoorRecord[]> {
  return withCamerasOfPage(source, await store.listDoorsAtLocation(dbOf(source), orgUuid, locationUuid));
}

/** How many doors stand at a location (deleting the location is refused while any do). */
export async function countDoorsAt(source: ReadSource, locationUuid: string): Promise<number> {
  return store.countDoorsAt(dbOf(source), locationUuid);
}

/** A location with doors may not be deleted (src/domains/devices/locations/service.ts). */
export const doorsAtLocation: LocationUsageCheck = async (source, _orgUuid, locationUuid) => {
  const doors = await countDoorsAt(source, locationUuid);
  return doors ? `${doors} door(s)` : null;
};

/** The record finder of kind door (src/records/references.ts). */
export const findDoorUuids: RecordFinder = (source, orgUuid, uuids) => orgUuidsIn(dbOf(source), 'doors', orgUuid, uuids);
