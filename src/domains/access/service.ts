import type { CallerContext } from '../../context.js';
import type { Deps } from '../../deps.js';
import { newRuuid } from '../../ids.js';
import { fromDbBool, toDbBool } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../store/write.js';
import { doorAnswer, type DoorAnswer } from './door-answer.js';
import { decodePageKey, encodePageKey } from './page-key.js';
import * as store from './store.js';
import type { DoorPosition, DoorsTable, LockState } from './tables.js';

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
    createdAtMillis: row.created_at_ms,
    updatedAtMillis: row.updated_at_ms,
  };
}

/** What a door is made of. Every uuid must be a record of the writer's organization: the caller checks them. */
export interface DoorInput {
  name: string;
  locationUuid: string;
  hasLock: boolean;
  scheduleUuid: string | null;
  controllerUuid: string | null;
  cameraUuids: string[];
  /** Users allowed through the door. */
  userUuids: string[];
  unlockDurationMs?: number;
}

/** Creates a door, closed and locked, with its cameras and the users allowed through it. */
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
  };
  const cameraUuids = [...new Set(input.cameraUuids)].sort();
  await store.insertDoor(w.tx, row);
  await store.insertDoorCameras(w.tx, orgUuid, row.uuid, cameraUuids);
  await store.insertDoorAccess(w.tx, orgUuid, row.uuid, [...new Set(input.userUuids)]);
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

/** A door by uuid alone, whatever its organization: how the simulator, standing in for the door's devices, names it. */
export async function findDoorOfDevice(source: ReadSource, uuid: string): Promise<DoorRecord | null> {
  const row = await store.findDoorByUuid(dbOf(source), uuid);
  return row ? withCameras(source, row) : null;
}

/** The users allowed through a door of the organization (empty for a door it lacks). */
export async function listDoorUsers(source: ReadSource, orgUuid: string, doorUuid: string): Promise<string[]> {
  const db = dbOf(source);
  return (await store.findDoor(db, orgUuid, doorUuid)) ? store.listDoorUserUuids(db, doorUuid) : [];
}

export async function userMayOpen(source: ReadSource, door: DoorRecord, userUuid: string): Promise<boolean> {
  return store.hasDoorAccess(dbOf(source), door.uuid, userUuid);
}

/** The organization's doors by name, a page at a time. */
export async function listDoors(
  deps: Pick<Deps, 'store'>,
  ctx: Pick<CallerContext, 'orgUuid'>,
  input: { lastEvaluatedKey?: string | null; maxPageSize?: number | null },
): Promise<{ accessControlledDoors: DoorAnswer[]; lastEvaluatedKey: string | null }> {
  const limit = Math.min(input.maxPageSize ?? DOOR_PAGE.default, DOOR_PAGE.max);
  const after = input.lastEvaluatedKey ? decodePageKey(input.lastEvaluatedKey, ['string', 'string'] as const) : null;
  const rows = await store.listDoorsPage(deps.store.db, ctx.orgUuid, after && { name: after[0], uuid: after[1] }, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    accessControlledDoors: (await withCamerasOfPage(deps, page)).map(doorAnswer),
    lastEvaluatedKey: rows.length > limit && last ? encodePageKey([last.name, last.uuid]) : null,
  };
}

/** The state of a door that its devices and unlocks change. */
export type DoorStatePatch = Partial<Pick<DoorRecord, 'position' | 'lockState' | 'controllerOnline' | 'relockAtMillis'>>;

/** Changes a door's state in the write and raises the DOOR change; answers the door as it now is. */
export async function changeDoorState(w: WriteScope, door: DoorRecord, patch: DoorStatePatch): Promise<DoorRecord> {
  await store.updateDoorState(w.tx, door.orgUuid, door.uuid, {
    ...(patch.position !== undefined ? { position: patch.position } : {}),
    ...(patch.lockState !== undefined ? { lock_state: patch.lockState } : {}),
    ...(patch.controllerOnline !== undefined ? { controller_online: toDbBool(patch.controllerOnline)! } : {}),
    ...(patch.relockAtMillis !== undefined ? { relock_at_ms: patch.relockAtMillis } : {}),
    updated_at_ms: w.nowMs,
  });
  const updated: DoorRecord = { ...door, ...patch, updatedAtMillis: w.nowMs };
  w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'UPDATE', update: doorAnswer(updated) });
  return updated;
}

/** How many doors stand at a location (deleting the location is refused while any do). */
export async function countDoorsAt(source: ReadSource, locationUuid: string): Promise<number> {
  return store.countDoorsAt(dbOf(source), locationUuid);
}
