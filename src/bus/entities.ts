/**
 * Every entity the stream carries, by name, with the record its change events hold (`update`: the record as
 * the REST API returns it). `w.change()` (src/store/write.ts) is typed by this map, so an unknown entity name
 * or a payload of the wrong shape does not compile. Adding an entity is one line here (docs/streaming.md's
 * list is regenerated from it by `npm run coverage`, and a test checks it).
 */
import type { CredentialRecord } from '../domains/access/credentials/service.js';
import type { UnauthorizedBadgeRecord } from '../domains/access/door-events/door-devices.service.js';
import type { ComponentEventRecord } from '../domains/access/door-events/service.js';
import type { LocationLockdownRecord } from '../domains/access/lockdowns/service.js';
import type { DoorAnswer } from '../domains/access/doors/door-answer.js';
import type { ElevatorLandingLabels } from '../domains/devices/elevators/service.js';
import type { FootageBoxesChange } from '../domains/devices/cameras/footage-boxes.service.js';
import type { LocationMonitoringChange } from '../domains/devices/monitoring/service.js';
import type { CameraDetails } from '../domains/devices/cameras/camera-details.service.js';
import type { DeviceStateRecord } from '../domains/devices/device-reads/device-events.service.js';
import type { DeviceRecord, DiscoveryRecord, LocationRecord } from '../domains/devices/service.js';
import type { VideoWallRecord } from '../domains/devices/video-walls/service.js';
import type { PolicyAlertRecord } from '../domains/events/alerts/schemas.js';
import type { Rule, RulesEventRecord } from '../domains/rules/general/schemas.js';
import type { RulePauseRecord } from '../domains/rules/general/service.js';
import type { AccessControlledDoorPolicyRecord, CameraPolicyRecord, DoorPolicyRecord } from '../domains/schedules/policies.service.js';
import type { SavedClipRecord } from '../domains/events/clips/schemas.js';
import type { SharedClipGroupRecord } from '../domains/events/shared-clip-groups/schemas.js';
import type { ClipGroupRecord } from '../domains/events/clip-groups/schemas.js';
import type { CrossingRecord } from '../domains/events/reports/service.js';
import type { RunningAverageReset } from '../domains/events/reports/running-average.service.js';
import type { FaceMatchmakerRecord, PersonRecord } from '../domains/faces/records.js';
import type { BadgeEventRecord, SeekPointRecord } from '../domains/integrations/badge-events.service.js';
import type { IntegrationChangeRecord } from '../domains/integrations/settings.js';
import type { NotificationRecord } from '../domains/integrations/smart-sensor-events.service.js';
import type { EndpointRecord } from '../domains/integrations/webhooks/endpoints.service.js';
import type { ShipmentRecord } from '../domains/internal/service.js';
import type { UserRecord } from '../domains/orgs/service.js';
import type { UserView } from '../domains/orgs/users/service.js';
import type { PermissionGroupRecord } from '../domains/permissions/service.js';
import type { LocationView } from '../domains/devices/locations/service.js';
import type { DeviceCommandRecord } from '../domains/rules/actions/device-commands.js';
import type { IntegrationCommandRecord } from '../domains/rules/actions/integrations.js';
import type { LiveNotificationRecord } from '../domains/rules/actions/live-notification.js';
import type { ButtonEvent, ButtonRule, RuleFiring } from '../domains/rules/schemas.js';
import type { ScheduleRecord } from '../domains/schedules/service.js';
import type { VehicleEventRecord, VehicleRecord } from '../domains/events/vehicles/schemas.js';
import type { DoorLabelsChange } from '../domains/access/doors/door-labels.service.js';
import type { AccessRuleRecord } from '../domains/access/grants/service.js';
import type { AccessGroupRecord, GroupMembersChange } from '../domains/access/groups/service.js';
import type { FaceEventRecord } from '../domains/faces/face-events.schemas.js';
import type { ThreatCaseRecord } from '../domains/events/threat-cases/schemas.js';
// orgs (issue 18, finished)
import type { UserSettingsRecord } from '../domains/orgs/users/user-settings.js';
import type { OrgSettingsRecord, OrgView } from '../domains/orgs/settings/service.js';
import type { CloudArchivingRecord } from '../domains/orgs/cloud-archiving/service.js';
import type { SamlSettingsRecord, ScimSettingsRecord } from '../domains/orgs/sso/service.js';
import type { OrgNotificationTemplateRecord } from '../domains/orgs/notifications/service.js';
import type { NotificationSnoozeRecord } from '../domains/orgs/notifications/snoozes.service.js';
import type { UserNotificationRecord } from '../domains/orgs/notifications/notify.js';
import type { UserMetadataFieldRecord, UserMetadataTemplateRecord } from '../domains/orgs/users/user-metadata.service.js';
import type { PartnerClientSettingsRecord } from '../domains/orgs/partner-clients/service.js';
import type { PartnerPermissionGroupRecord } from '../domains/permissions/partner-group-records.js';
// access-lockdown (issue 21): lockdowns, schedule exceptions, guest passes, door labels, guests
import type { LocationLockdownEventRecord, LockdownPlanRecord, LockdownRuleRecord } from '../domains/access/lockdowns/model.js';
import type { DoorScheduleExceptionRecord } from '../domains/access/exceptions/model.js';
import type { GuestPassRecord } from '../domains/access/guest-passes/model.js';
import type { GuestActivityRecord, GuestRecord } from '../domains/guests/guests.model.js';
// events in full (issue 20, finished): mutes, face matching, scene-query prompts and custom events
import type { NotificationMuteRecord } from '../domains/events/alerts/notification-mutes.service.js';
import type { FaceMatchingConfigRecord } from '../domains/faces/face-matching.service.js';
import type { CustomEventRecord, PromptConfigurationRecord } from '../domains/events/scene-queries/schemas.js';
// devices in full (issue 19): alert monitoring pins
import type { AlertMonitoringPinRecord } from '../domains/devices/monitoring/monitoring-pins.service.js';
// timeline reads: custom seekpoints
import type { CustomSeekpointRecord } from '../domains/timeline/custom-seekpoints.js';
// media (issue 19): shared live video, raw HTTP streams, timelapses
import type { SharedLiveVideoStreamRecord, SharedVideoWallRecord } from '../domains/devices/live-shares/schemas.js';
import type { RawHttpStreamRecord } from '../domains/devices/live-shares/raw-http-streams.schemas.js';
import type { SharedTimelapseGroupRecord, TimelapseClipRecord } from '../domains/events/timelapses/schemas.js';

/** A person's labels, as the stream announces a change of them. */
export interface PersonLabelsChange {
  personUuid: string;
  labels: string[];
}

/** A user as its DELETE change carries it. */
export type DeletedUser = UserView & { deleted?: boolean };

/** One line per entity: `NAME: RecordType; // domain: what it is`. */
export interface ChangeEntities {
  ACCESS_CONTROL_CREDENTIAL: CredentialRecord; // access: a credential (card, PIN, ...)
  AUDIO_GATEWAY: DeviceRecord; // devices: an audio gateway added
  BADGE_EVENT: BadgeEventRecord; // integrations: a badge event from a badge integration
  BUTTON: DeviceRecord; // devices: a button added
  BUTTON_EVENT: ButtonEvent; // rules: a button press
  BUTTON_RULE: ButtonRule | { ruleUuid: string; sensorUuid: string }; // rules: a button rule (on DELETE: its ids)
  BUTTON_RULE_FIRING: RuleFiring; // rules: a rule's firing and its actions' outcomes
  AUDIO_STATE: DeviceStateRecord; // devices: an audio gateway's minimal state or config
  BADGE_READER: DeviceRecord; // devices: a badge reader added
  BLE_TRACKER: DeviceRecord; // devices: a proximity tag added
  CAMERA: DeviceRecord | CameraDetails; // devices: a camera added, or its details updated
  CAMERA_STATE: DeviceStateRecord; // devices: a camera's minimal state (connection, reboot)
  CAMERA_USER_CONFIG: DeviceStateRecord; // devices: a camera's config or AI thresholds
  CLIMATE_STATE: DeviceStateRecord; // devices: a climate sensor's or environmental gateway's minimal state
  COMPONENT_SEEKPOINT: DeviceStateRecord; // devices: a doorbell camera's component event
  CUSTOM_SEEKPOINT: CustomSeekpointRecord; // timeline: a named mark on a camera's footage or a door's timeline
  DEVICE: DeviceStateRecord | DeviceRecord; // devices: a device's features, or its connection
  DOORBELL_CAMERA: DeviceRecord; // devices: a doorbell camera added
  DOOR_SENSOR: DeviceRecord; // devices: a door sensor added
  DOOR_STATE: DeviceStateRecord; // devices: a door sensor's minimal state
  ENVIRONMENTAL_GATEWAY: DeviceRecord; // devices: an environmental gateway added
  KEYPAD: DeviceRecord | DeviceStateRecord; // devices: a keypad added, or its config
  OCCUPANCY_SENSOR: DeviceRecord; // devices: an occupancy sensor added
  OCCUPANCY_STATE: DeviceStateRecord; // devices: an occupancy sensor's minimal state
  PROXIMITY_STATE: DeviceStateRecord; // devices: a proximity tag's minimal state
  COMPONENT_EVENT: ComponentEventRecord; // access: a door event (badge-in, unlock, relock, ...)
  DEVICE_COMMAND: DeviceCommandRecord; // rules: a command to a device
  DOOR: DoorAnswer; // access: an access-controlled door
  DOOR_CONTROLLER: DeviceRecord; // devices: a door controller added
  ELEVATOR_LANDING: DeviceRecord | ElevatorLandingLabels; // devices: a landing added, or its labels
  ENVIRONMENTAL_SENSOR: DeviceRecord; // devices: an environmental sensor added
  FACE_EVENT: FaceEventRecord; // faces: a face seen by a camera (a known person or not)
  FACE_MATCHMAKER: FaceMatchmakerRecord; // faces: a face of a person
  FOOTAGE_BOUNDING_BOX: FootageBoxesChange; // devices: boxes drawn on a camera's footage
  INTEGRATION: IntegrationChangeRecord; // integrations: an integration's public settings
  INTEGRATION_COMMAND: IntegrationCommandRecord; // rules: a command to a third-party integration
  LIVE_NOTIFICATION: LiveNotificationRecord; // rules: a live notification of a rule's firing
  LOCATION: LocationRecord | LocationView | LocationMonitoringChange; // devices: a location, or its alarm monitoring
  LOCATION_LOCKDOWN: LocationLockdownRecord; // access: a location's lockdown
  NOTIFICATION: NotificationRecord; // integrations: a notification about a policy alert
  PERSON: PersonRecord; // faces: a person
  PERSON_LABELS: PersonLabelsChange; // faces: a person's labels
  POLICY_ALERT: PolicyAlertRecord; // events: a policy alert
  THREAT_CASE: ThreatCaseRecord; // events: an alert monitoring threat case opened, settled or deleted
  RELAY: DeviceRecord; // devices: a relay added
  SAVED_CLIP: SavedClipRecord; // events: a saved clip
  SCHEDULE: ScheduleRecord; // schedules: a schedule
  SEEK_POINT: SeekPointRecord; // integrations: a labelled moment of a camera's footage
  SHARED_CLIP_GROUP: SharedClipGroupRecord; // events: a shared clip group (a link to saved clips)
  CLIP_GROUP: ClipGroupRecord; // events: a clip group (a folder of saved clips; UPDATE too when one of its clips is deleted)
  SHIPMENT: ShipmentRecord; // internal: a hardware shipment
  THIRD_PARTY_CAMERA_DISCOVERY: DiscoveryRecord; // devices: a discovered third-party camera
  THRESHOLD_CROSSING: CrossingRecord; // events: a line-crossing count
  RUNNING_AVERAGE: RunningAverageReset; // events: a running average (getRunningAverage) started again
  UNAUTHORIZED_BADGE: UnauthorizedBadgeRecord; // access: a refused badge
  PERMISSION_GROUP: PermissionGroupRecord; // permissions: a permission group and its rights
  USER: UserRecord | DeletedUser; // orgs: a user (on DELETE: marked deleted)
  VEHICLE: VehicleRecord; // events: a vehicle of the organization's list (the entity id is its plate)
  VEHICLE_EVENT: VehicleEventRecord; // events: a licence plate seen by a camera
  VIDEO_WALL: VideoWallRecord; // devices: a video wall
  WEBHOOK_ENDPOINT: EndpointRecord; // integrations: an organization webhook URL or subscription (secret masked)
  // orgs (issue 18, finished): settings, notifications, partner groups and clients
  ORG: OrgView; // orgs: the organization (its name or team name changed)
  ORG_SETTINGS: OrgSettingsRecord; // orgs: the organization's settings (profile, sign-in, firmware, AI, audio and LLM policies)
  SAML_SETTINGS: SamlSettingsRecord; // orgs: a SAML sign-in registration
  SCIM_SETTINGS: ScimSettingsRecord; // orgs: SCIM provisioning settings (never the token)
  CLOUD_ARCHIVING_CONFIG: CloudArchivingRecord; // orgs: a cloud archiving config of the organization, a location or a device
  USER_SETTINGS: UserSettingsRecord; // orgs: a user's notification, sign-in and Rhombus Key settings
  ORG_NOTIFICATION_TEMPLATE: OrgNotificationTemplateRecord; // orgs: the notification settings of users who set none
  NOTIFICATION_SNOOZE: NotificationSnoozeRecord; // orgs: a user's pause of notifications (all, a device, a location, a door)
  USER_NOTIFICATION: UserNotificationRecord; // orgs: a notification sent to a user about a policy alert
  USER_METADATA_TEMPLATE: UserMetadataTemplateRecord; // orgs: a custom field of the organization's users
  USER_METADATA_FIELD: UserMetadataFieldRecord; // orgs: a user's value of a custom field
  PARTNER_PERMISSION_GROUP: PartnerPermissionGroupRecord; // permissions: a partner permission group
  PARTNER_CLIENT_SETTINGS: PartnerClientSettingsRecord; // orgs: a partner's customizations of a client organization
  // Access groups and grants (issue 21):
  ACCESS_CONTROL_GROUP: AccessGroupRecord; // access: an access control group
  ACCESS_CONTROL_GROUP_MEMBERS: GroupMembersChange; // access: users joining (CREATE) or leaving (DELETE) a group
  LOCATION_ACCESS_GRANT: AccessRuleRecord; // access: a location access grant
  LOCATION_ACCESS_REVOCATION: AccessRuleRecord; // access: a location access revocation
  DOOR_LABELS: DoorLabelsChange; // access: a door's labels
  // access-lockdown (issue 21): lockdowns, schedule exceptions, guest passes, door labels, guests
  LOCKDOWN_PLAN: LockdownPlanRecord; // access: a location lockdown plan
  LOCKDOWN_RULE: LockdownRuleRecord; // access: a rule that activates a location's lockdown
  LOCATION_LOCKDOWN_EVENT: LocationLockdownEventRecord; // access: a lockdown activated or deactivated
  DOOR_SCHEDULE_EXCEPTION: DoorScheduleExceptionRecord; // access: a door schedule exception (holiday, event day)
  GUEST_PASS: GuestPassRecord; // access: a guest pass (its value never carried)
  GUEST: GuestRecord; // guests: a guest of the organization
  GUEST_ACTIVITY: GuestActivityRecord; // guests: a guest checked in, out, or updated
  // policies-rules (issue 21 item 5, issue 20 item 6): policies and the general rule engine
  CAMERA_POLICY: CameraPolicyRecord; // schedules: a camera policy (its schedules by uuid)
  DOOR_POLICY: DoorPolicyRecord; // schedules: a door policy (its schedules by uuid)
  ACCESS_CONTROLLED_DOOR_POLICY: AccessControlledDoorPolicyRecord; // schedules: an access controlled door policy
  RULE: Rule; // rules: a rule of the general engine (secrets masked)
  RULE_PAUSE: RulePauseRecord; // rules: a pause of a rule
  RULES_EVENT_RECORD: RulesEventRecord; // rules: a rule's firing (button rules too) and its actions' outcomes
  // events in full (issue 20, finished): mutes, face matching, scene-query prompts and custom events
  NOTIFICATION_MUTE: NotificationMuteRecord; // events: a device's notifications muted for a while (DELETE: the mute ended)
  FACE_MATCHING_CONFIG: FaceMatchingConfigRecord; // faces: the organization's face-matching threshold
  PROMPT_CONFIGURATION: PromptConfigurationRecord; // events: a scene-query prompt (what to ask of which cameras)
  CUSTOM_EVENT: CustomEventRecord; // events: a prompt's answer on a camera (a custom event)
  // media (issue 19): shared live video, raw HTTP streams, timelapses
  SHARED_LIVE_VIDEO_STREAM: SharedLiveVideoStreamRecord; // devices: a key-less link to a camera's live video
  SHARED_VIDEO_WALL: SharedVideoWallRecord; // devices: a key-less link to a video wall's live video
  RAW_HTTP_STREAM: RawHttpStreamRecord; // devices: a raw HTTP stream of a camera (the entity id is its path; its secret masked)
  TIMELAPSE_CLIP: TimelapseClipRecord; // events: a timelapse of cameras over a span, and its render's progress
  SHARED_TIMELAPSE_GROUP: SharedTimelapseGroupRecord; // events: a shared timelapse group (a link to timelapses)
  // devices in full (issue 19)
  ALERT_MONITORING_PIN: AlertMonitoringPinRecord; // devices: a custom alert monitoring pin of a location (never its value)
}

export type EntityName = keyof ChangeEntities;
