/**
 * The entities the policies domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type {
  AccessControlledDoorPolicyRecord,
  AudioPolicyRecord,
  CameraPolicyRecord,
  ClimatePolicyRecord,
  DoorPolicyRecord,
  OccupancyPolicyRecord,
  ProximityPolicyRecord,
  VideoIntercomPolicyRecord,
} from './service.js';
import type { PolicyAddendumRecord, PolicyPauseRecord } from './windows.service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    CAMERA_POLICY: CameraPolicyRecord; // a camera policy (its schedules by uuid)
    DOOR_POLICY: DoorPolicyRecord; // a door policy (its schedules by uuid)
    ACCESS_CONTROLLED_DOOR_POLICY: AccessControlledDoorPolicyRecord; // an access controlled door policy
    AUDIO_POLICY: AudioPolicyRecord; // an audio policy: sound activities and their thresholds, per schedule
    CLIMATE_POLICY: ClimatePolicyRecord; // a climate policy: reading thresholds, per schedule
    OCCUPANCY_POLICY: OccupancyPolicyRecord; // an occupancy policy
    PROXIMITY_POLICY: ProximityPolicyRecord; // a proximity (tag) policy
    VIDEO_INTERCOM_POLICY: VideoIntercomPolicyRecord; // a video intercom (doorbell camera) policy
    POLICY_PAUSE: PolicyPauseRecord; // a window in which a device's, location's or door's policy alerts are silenced
    POLICY_ADDENDUM: PolicyAddendumRecord; // a window in which more activities raise alerts on a device or location
  }
}
