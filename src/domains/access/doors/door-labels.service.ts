import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { dbOf, type ReadSource } from '../../../store/reader.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { touchAccessVersion } from '../access-version.js';
import * as store from './door-labels.store.js';
import { findDoor, type DoorRecord } from '../service.js';

type LabelDeps = Pick<Deps, 'store' | 'bus' | 'clock'>;

/** A door holds at most this many labels. */
export const MAX_LABELS_PER_DOOR = 50;

/** A door's labels as the stream announces a change of them. */
export interface DoorLabelsChange {
  uuid: string;
  orgUuid: string;
  labels: string[];
}

/** A label as doors carry it and grants name it (`doorLabelIds`): trimmed, never empty. */
export function checkedLabel(label: string, path = 'label'): string {
  const trimmed = label.trim();
  if (!trimmed) throw fail('INVALID_VALUE', `${path}: must not be empty`);
  return trimmed;
}

/**
 * Gives a door more labels, in the caller's write: those it has already are passed over. Grants and
 * revocations that name one of the labels then cover the door.
 */
export async function labelDoor(w: WriteScope, door: DoorRecord, labels: readonly string[]): Promise<string[]> {
  const current = await store.listLabelsOfDoor(w.tx, door.uuid);
  const adding = [...new Set(labels.map((l) => checkedLabel(l)))].filter((l) => !current.includes(l));
  if (adding.length === 0) return current;
  if (current.length + adding.length > MAX_LABELS_PER_DOOR) throw fail('NOT_ALLOWED', `A door holds at most ${MAX_LABELS_PER_DOOR} labels`);
  await store.insertDoorLabels(
    w.tx,
    adding.map((label) => ({ door_uuid: door.uuid, org_uuid: door.orgUuid, label, created_at_ms: w.nowMs })),
  );
  return announce(w, door);
}

async function announce(w: WriteScope, door: DoorRecord): Promise<string[]> {
  const labels = await store.listLabelsOfDoor(w.tx, door.uuid);
  w.change({
    entity: 'DOOR_LABELS',
    entityUuid: door.uuid,
    deviceUuid: door.controllerUuid,
    type: 'UPDATE',
    update: { uuid: door.uuid, orgUuid: door.orgUuid, labels },
  });
  await touchAccessVersion(w);
  return labels;
}

async function callersDoor(w: WriteScope, doorUuid: string): Promise<DoorRecord> {
  const door = await findDoor(w, w.actor.orgUuid, doorUuid);
  if (!door) throw fail('NOT_FOUND', 'Door');
  return door;
}

/** `addAccessControlledDoorLabel`: idempotent. */
export async function addDoorLabel(deps: LabelDeps, ctx: CallerContext, input: { accessControlledDoorUuid: string; label: string }): Promise<void> {
  const label = checkedLabel(input.label);
  await write(deps, ctx, async (w) => labelDoor(w, await callersDoor(w, input.accessControlledDoorUuid), [label]));
}

/** `removeAccessControlledDoorLabel`: a label the door does not have is not found. */
export async function removeDoorLabel(deps: LabelDeps, ctx: CallerContext, input: { accessControlledDoorUuid: string; label: string }): Promise<void> {
  const label = checkedLabel(input.label);
  await write(deps, ctx, async (w) => {
    const door = await callersDoor(w, input.accessControlledDoorUuid);
    if (!(await store.listLabelsOfDoor(w.tx, door.uuid)).includes(label)) throw fail('NOT_FOUND', `Label "${label}" of the door`);
    await store.deleteDoorLabel(w.tx, door.uuid, label);
    await announce(w, door);
  });
}

/** `getAccessControlledDoorLabelsForOrg`: door uuid to its labels, for the doors that have any. */
export async function doorLabelsOfOrg(source: ReadSource, orgUuid: string): Promise<Record<string, string[]>> {
  const byDoor: Record<string, string[]> = {};
  for (const row of await store.listOrgDoorLabels(dbOf(source), orgUuid)) (byDoor[row.door_uuid] ??= []).push(row.label);
  return byDoor;
}

export async function labelsOfDoor(source: ReadSource, doorUuid: string): Promise<string[]> {
  return store.listLabelsOfDoor(dbOf(source), doorUuid);
}
