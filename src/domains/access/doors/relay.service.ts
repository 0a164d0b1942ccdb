import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { systemActor } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import { doorAnswer } from '../service.js';
import { lockdownRefusal } from '../lockdowns/service.js';
import { recordDoorEvent, type ComponentEventRecord, type DoorEventDetails } from '../door-events/service.js';
import { changeDoorState, findDoor, type DoorRecord } from '../service.js';
import * as store from '../store.js';

/** What caused a relay change, carried by its events. */
export type RelayCause = Pick<DoorEventDetails, 'correlationId' | 'userUuid' | 'originator' | 'apiTokenUuid'>;

export interface RelayChange {
  door: DoorRecord;
  events: ComponentEventRecord[];
}

/**
 * Opens a door's lock relay at `atMs` until `atMs` + the door's unlock duration (or a later relock already
 * set). Records the UNLOCKED event when the door was locked; the relock time is persisted on the door, and
 * the relock scheduler (relock-scheduler.ts) locks it when due.
 */
export async function unlockRelay(w: WriteScope, door: DoorRecord, atMs: number, cause: RelayCause): Promise<RelayChange> {
  const events: ComponentEventRecord[] = [];
  if (door.lockState === 'LOCKED') events.push(await recordDoorEvent(w, door, atMs, { type: 'DoorRelayStateChangeEvent', newState: 'UNLOCKED', ...cause }));
  // A door held unlocked without end (a default state, a lockdown) stays so; otherwise the later relock wins.
  const relockAtMs = door.heldSource !== null && door.relockAtMillis === null ? null : Math.max(atMs + door.unlockDurationMs, door.relockAtMillis ?? 0);
  return { door: await changeDoorState(w, door, { lockState: 'UNLOCKED', relockAtMillis: relockAtMs }), events };
}

/** Locks a door's relay at once (a lockdown), cancelling its pending relock. */
export async function lockRelay(w: WriteScope, door: DoorRecord, atMs: number, cause: RelayCause): Promise<RelayChange> {
  if (door.lockState === 'LOCKED') return { door, events: [] };
  const event = await recordDoorEvent(w, door, atMs, { type: 'DoorRelayStateChangeEvent', newState: 'LOCKED', ...cause });
  return { door: await changeDoorState(w, door, { lockState: 'LOCKED', relockAtMillis: null, heldSource: null }), events: [event] };
}

/**
 * Relocks a door whose relock is due at `dueAtMs`, recording the LOCKED event at that time. Answers false
 * when nothing was due at that time any more (relocked by another instance, re-unlocked until later).
 */
export async function relockDoor(deps: Pick<Deps, 'store' | 'bus' | 'clock'>, pending: PendingRelock): Promise<boolean> {
  return write(deps, systemActor(pending.orgUuid, 'door.relock'), async (w) => {
    if (!(await store.relockIfDue(w.tx, pending.doorUuid, pending.relockAtMs, w.nowMs))) return false;
    const door = (await findDoor(w, pending.orgUuid, pending.doorUuid))!;
    await recordDoorEvent(w, door, pending.relockAtMs, { type: 'DoorRelayStateChangeEvent', newState: 'LOCKED' });
    w.change({ entity: 'DOOR', entityUuid: door.uuid, deviceUuid: door.controllerUuid, type: 'UPDATE', update: doorAnswer(door) });
    return true;
  });
}

export interface PendingRelock {
  orgUuid: string;
  doorUuid: string;
  relockAtMs: number;
}

/** Every door that waits for its relock, in every organization: what a starting instance re-arms. */
export async function listPendingRelocks(deps: Pick<Deps, 'store'>): Promise<PendingRelock[]> {
  return (await store.listPendingRelocks(deps.store.db)).map((r) => ({ orgUuid: r.org_uuid, doorUuid: r.uuid, relockAtMs: r.relock_at_ms }));
}

export const UNLOCK_ERROR_TYPES = ['DOOR_NOT_CONFIGURED_WITH_LOCK', 'FAILED_SENDING_ACU_UNLOCK_REQUEST'] as const;
export type UnlockErrorType = (typeof UNLOCK_ERROR_TYPES)[number];
export type UnlockResult = { type: 'SUCCESS' } | { type: 'ERROR'; errorType: UnlockErrorType; errorMsg: string };

/**
 * Unlocks a door of the caller's organization for its unlock duration. A door without a lock, or whose
 * controller is offline, answers ERROR with the reason; another organization's door is not found.
 */
export async function unlockAccessControlledDoor(
  deps: Pick<Deps, 'store' | 'bus' | 'clock'>,
  ctx: CallerContext,
  input: { accessControlledDoorUuid: string },
): Promise<UnlockResult> {
  return write(deps, ctx, async (w): Promise<UnlockResult> => {
    const door = await findDoor(w, ctx.orgUuid, input.accessControlledDoorUuid);
    if (!door) throw fail('NOT_FOUND', 'Door');
    if (!door.hasLock) return { type: 'ERROR', errorType: 'DOOR_NOT_CONFIGURED_WITH_LOCK', errorMsg: `Door ${door.name} has no lock` };
    if (!door.controllerOnline) {
      return { type: 'ERROR', errorType: 'FAILED_SENDING_ACU_UNLOCK_REQUEST', errorMsg: `The controller of door ${door.name} is offline` };
    }
    const lockedDown = await lockdownRefusal(w, door);
    if (lockedDown) return { type: 'ERROR', errorType: 'FAILED_SENDING_ACU_UNLOCK_REQUEST', errorMsg: lockedDown };
    await unlockRelay(w, door, w.nowMs, { correlationId: newRuuid(), userUuid: ctx.userUuid, originator: { type: 'API_TOKEN' }, apiTokenUuid: ctx.apiKeyId });
    return { type: 'SUCCESS' };
  });
}
