/**
 * The entities the events domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { NotificationMuteRecord } from './alerts/notification-mutes.service.js';
import type { PolicyAlertRecord } from './alerts/schemas.js';
import type { ClipGroupRecord } from './clip-groups/schemas.js';
import type { SavedClipRecord } from './clips/schemas.js';
import type { RunningAverageReset } from './reports/running-average.service.js';
import type { CrossingRecord } from './reports/service.js';
import type { CustomEventRecord, PromptConfigurationRecord } from './scene-queries/schemas.js';
import type { SharedClipGroupRecord } from './shared-clip-groups/schemas.js';
import type { ThreatCaseRecord } from './threat-cases/schemas.js';
import type { SharedTimelapseGroupRecord, TimelapseClipRecord } from './timelapses/schemas.js';
import type { VehicleEventRecord, VehicleRecord } from './vehicles/schemas.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    POLICY_ALERT: PolicyAlertRecord; // a policy alert
    THREAT_CASE: ThreatCaseRecord; // an alert monitoring threat case opened, settled or deleted
    SAVED_CLIP: SavedClipRecord; // a saved clip
    SHARED_CLIP_GROUP: SharedClipGroupRecord; // a shared clip group (a link to saved clips)
    CLIP_GROUP: ClipGroupRecord; // a clip group (a folder of saved clips; UPDATE too when one of its clips is deleted)
    THRESHOLD_CROSSING: CrossingRecord; // a line-crossing count
    RUNNING_AVERAGE: RunningAverageReset; // a running average (getRunningAverage) started again
    VEHICLE: VehicleRecord; // a vehicle of the organization's list (the entity id is its plate)
    VEHICLE_EVENT: VehicleEventRecord; // a licence plate seen by a camera
    NOTIFICATION_MUTE: NotificationMuteRecord; // a device's notifications muted for a while (DELETE: the mute ended)
    PROMPT_CONFIGURATION: PromptConfigurationRecord; // a scene-query prompt (what to ask of which cameras)
    CUSTOM_EVENT: CustomEventRecord; // a prompt's answer on a camera (a custom event)
    TIMELAPSE_CLIP: TimelapseClipRecord; // a timelapse of cameras over a span, and its render's progress
    SHARED_TIMELAPSE_GROUP: SharedTimelapseGroupRecord; // a shared timelapse group (a link to timelapses)
  }
}
