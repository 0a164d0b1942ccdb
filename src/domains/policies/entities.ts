/**
 * The entities the policies domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { AccessControlledDoorPolicyRecord, CameraPolicyRecord, DoorPolicyRecord } from './service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    CAMERA_POLICY: CameraPolicyRecord; // a camera policy (its schedules by uuid)
    DOOR_POLICY: DoorPolicyRecord; // a door policy (its schedules by uuid)
    ACCESS_CONTROLLED_DOOR_POLICY: AccessControlledDoorPolicyRecord; // an access controlled door policy
  }
}
