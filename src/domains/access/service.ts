import { newRuuid } from '../../ids.js';
import { fromDbBool, toDbBool } from '../../store/columns.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import type { WriteScope } from '../../store/write.js';
import * as store from './store.js';
import type { DoorPosition, DoorsTable, LockState } from './tables.js';

export const DEFAULT_UNLOCK_DURATION_MS = 5000;

/** A door as the REST API returns it. */
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
    created_at_ms: w.nowMs,
    updated_at_ms: w.nowMs,
  };
  const cameraUuids = [...new Set(input.cameraUuids)].sort();
  await store.insertDoor(w.tx, row);
  await store.insertDoorCameras(w.tx, orgUuid, row.uuid, cameraUuids);
  await store.insertDoorAccess(w.tx, orgUuid, row.uuid, [...new Set(input.userUuids)]);
  const record = toDoorRecord(row, cameraUuids);
  w.change({ entity: 'DOOR', entityUuid: row.uuid, deviceUuid: input.controllerUuid, type: 'CREATE', update: record });
  return record;
}

/** A door of the organization; null for a missing one or another organization's. */
export async function findDoor(source: ReadSource, orgUuid: string, uuid: string): Promise<DoorRecord | null> {
  const db = dbOf(source);
  const row = await store.findDoor(db, orgUuid, uuid);
  return row ? toDoorRecord(row, await store.listDoorCameraUuids(db, row.uuid)) : null;
}

/** The users allowed through a door of the organization (empty for a door it lacks). */
export async function listDoorUsers(source: ReadSource, orgUuid: string, doorUuid: string): Promise<string[]> {
  const db = dbOf(source);
  return (await store.findDoor(db, orgUuid, doorUuid)) ? store.listDoorUserUuids(db, doorUuid) : [];
}
