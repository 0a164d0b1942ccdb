import { facetId } from '../../../ids.js';
import type { DoorRecord } from '../service.js';

/**
 * A door as the platform's clients read it (the catalogue's AccessControlledDoorType names): the controller
 * is `ownerDeviceUuid`, the cameras `associatedCameras` (facet ids `<camera>.v0`), the unlock time
 * `unlockTimeSec` (whole seconds, rounded up), its state schedules `doorStateToScheduleUuidMap`. The REST answers and the DOOR changes on the stream both carry it.
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
