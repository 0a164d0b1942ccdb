/**
 * The entities the access domain announces on the stream, merged into the bus's typed map (src/bus/entities.ts):
 * one line each, `NAME: RecordType; // what it is`. docs/streaming.md's list is generated from these files.
 */
import type { ComponentRecord } from './components/service.js';
import type { ComponentShadowRecord } from './components/schemas.js';
import type { DevicePortConfigRecord } from './components/ports.service.js';
import type { CredentialAnswer } from './credentials/model.js';
import type { UnauthorizedBadgeRecord } from './door-events/door-devices.service.js';
import type { ComponentEventRecord } from './door-events/service.js';
import type { DoorAnswer } from './service.js';
import type { DoorControllerRuleRecord } from './door-controllers/rules.schemas.js';
import type { DoorLabelsChange } from './doors/door-labels.service.js';
import type { DoorScheduleExceptionRecord } from './exceptions/model.js';
import type { AccessRuleRecord } from './grants/service.js';
import type { AccessGroupRecord, GroupMembersChange } from './groups/service.js';
import type { GuestPassRecord } from './guest-passes/model.js';
import type { LocationLockdownEventRecord, LockdownPlanRecord, LockdownRuleRecord } from './lockdowns/model.js';
import type { LocationLockdownRecord } from './lockdowns/service.js';
import type { LicenseRecord } from './licenses/service.js';

declare module '../../bus/entities.js' {
  interface ChangeEntities {
    ACCESS_CONTROL_CREDENTIAL: CredentialAnswer; // a credential (card, PIN, ...), as answers carry it
    COMPONENT_EVENT: ComponentEventRecord; // a door event (badge-in, unlock, relock, ...)
    DOOR: DoorAnswer; // an access-controlled door
    DOOR_CONTROLLER_RULE: DoorControllerRuleRecord; // a rule a door controller runs on its own
    LOCATION_LOCKDOWN: LocationLockdownRecord; // a location's lockdown
    UNAUTHORIZED_BADGE: UnauthorizedBadgeRecord; // a refused badge
    ACCESS_CONTROL_GROUP: AccessGroupRecord; // an access control group
    ACCESS_CONTROL_GROUP_MEMBERS: GroupMembersChange; // users joining (CREATE) or leaving (DELETE) a group
    LOCATION_ACCESS_GRANT: AccessRuleRecord; // a location access grant
    LOCATION_ACCESS_REVOCATION: AccessRuleRecord; // a location access revocation
    DOOR_LABELS: DoorLabelsChange; // a door's labels
    LICENSE: LicenseRecord; // a license, issued or (re)assigned to a device, door or location
    LOCKDOWN_PLAN: LockdownPlanRecord; // a location lockdown plan
    LOCKDOWN_RULE: LockdownRuleRecord; // a rule that activates a location's lockdown
    LOCATION_LOCKDOWN_EVENT: LocationLockdownEventRecord; // a lockdown activated or deactivated
    DOOR_SCHEDULE_EXCEPTION: DoorScheduleExceptionRecord; // a door schedule exception (holiday, event day)
    COMPONENT: ComponentRecord; // a hardware component of a device (reader, relay, input, request-to-exit, ...)
    COMPONENT_SHADOW: ComponentShadowRecord; // the state a component last reported
    DEVICE_PHYSICAL_PORT_CONFIG: DevicePortConfigRecord; // a device's boards and ports as its components use them
    GUEST_PASS: GuestPassRecord; // a guest pass (its value never carried)
  }
}
