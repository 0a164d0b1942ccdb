import { Type, type Static, type TSchema } from 'typebox';
import { ActivityEnum } from '../../schemas/activities.js';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { Schedule } from '../schedules/schemas.js';

/**
 * Camera, door and access-controlled door policies (the reference's Policy family): which activities raise
 * policy alerts, and during which schedules. A request names its schedules by uuid; an answer carries each
 * schedule in full.
 */
const MAX_SCHEDULED_TRIGGERS = 100;
const MAX_TRIGGERS = 200;
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Labels = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 500 });

/** A camera trigger: an activity, with the thresholds and labels some activities read. */
export const CameraTrigger = Type.Object({
  activity: ActivityEnum,
  threshold: Field(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  faceAlertLabelSet: Field(Labels),
  faceAlertUnidentified: Field(Type.Boolean()),
  faceAllowedLabelSet: Field(Labels),
  vehicleAlertLabelSet: Field(Labels),
  vehicleAlertUnidentified: Field(Type.Boolean()),
  vehicleAllowedLabelSet: Field(Labels),
});
export type CameraTrigger = Static<typeof CameraTrigger>;

const AjarSec = Type.Integer({ minimum: 0, maximum: 86_400 });

/** A policy in a request: its schedules by uuid, each with the triggers active during it. */
function minimalPolicy<T extends TSchema, X extends Record<string, TSchema>>(trigger: T, extra: X) {
  const scheduledTrigger = Type.Object({ scheduleUuid: Field(Ruuid()), triggerSet: Field(Type.Array(trigger, { maxItems: MAX_TRIGGERS })), ...extra });
  const fields = { orgUuid: Field(Ruuid()), scheduledTriggers: Field(Type.Array(scheduledTrigger, { maxItems: MAX_SCHEDULED_TRIGGERS })) };
  return {
    create: Type.Object({ policy: Type.Object({ ...fields, uuid: Field(Ruuid()), name: Field(Name) }) }),
    update: Type.Object({ policy: Type.Object({ ...fields, uuid: Ruuid(), name: Field(Name) }) }),
  };
}

/** A policy as answered: each scheduled trigger with its schedule in full. */
function policyAnswer<T extends TSchema, X extends Record<string, TSchema>, D extends Record<string, TSchema>>(trigger: T, extra: X, defaults: D) {
  const scheduledTrigger = Type.Object({ schedule: Field(Schedule), triggerSet: Field(Type.Array(trigger)), ...extra });
  return Type.Object({
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    name: Field(Type.String()),
    scheduledTriggers: Field(Type.Array(scheduledTrigger)),
    ...defaults,
  });
}

const doorExtra = { ajarThresholdSec: Field(AjarSec) };

export const CameraPolicy = policyAnswer(CameraTrigger, {}, { defaultTriggers: Field(Type.Array(CameraTrigger)) });
export const DoorPolicy = policyAnswer(ActivityEnum, doorExtra, { defaultTriggers: Field(Type.Array(ActivityEnum)), defaultAjarThresholdSec: Field(AjarSec) });
export const AccessControlledDoorPolicy = policyAnswer(ActivityEnum, {}, {});

const camera = minimalPolicy(CameraTrigger, {});
const door = minimalPolicy(ActivityEnum, doorExtra);
const accessControlledDoor = minimalPolicy(ActivityEnum, {});

export const CreateCameraPolicyRequest = camera.create;
export const UpdateCameraPolicyRequest = camera.update;
export const CreateDoorPolicyRequest = door.create;
export const UpdateDoorPolicyRequest = door.update;
export const CreateAccessControlledDoorPolicyRequest = accessControlledDoor.create;
export const UpdateAccessControlledDoorPolicyRequest = accessControlledDoor.update;
export type PolicyInput = Static<typeof CreateDoorPolicyRequest>['policy'] | Static<typeof CreateCameraPolicyRequest>['policy'];

export const CreatePolicyResponse = ResponseOf({ policyUuid: Field(Ruuid()) });
export const DeletePolicyRequest = Type.Object({ policyUuid: Ruuid() });
export const PolicyEnvelope = ResponseOf({});
export const GetPoliciesRequest = EmptyRequest;
export const GetCameraPoliciesResponse = ResponseOf({ policies: Field(Type.Array(CameraPolicy)) });
export const GetDoorPoliciesResponse = ResponseOf({ policies: Field(Type.Array(DoorPolicy)) });
export const GetAccessControlledDoorPoliciesResponse = ResponseOf({ policies: Field(Type.Array(AccessControlledDoorPolicy)) });

export const GetPoliciesUsingScheduleRequest = Type.Object({ scheduleUuid: Ruuid() });
/** The policy families Gatehouse keeps are listed; the others (audio, climate, ...) are always empty lists. */
const Unkept = Field(Type.Array(Type.Object({})));
export const GetPoliciesUsingScheduleResponse = ResponseOf({
  cameraPolicyList: Field(Type.Array(CameraPolicy)),
  doorPolicyList: Field(Type.Array(DoorPolicy)),
  accessControlledDoorPolicyList: Field(Type.Array(AccessControlledDoorPolicy)),
  audioPolicyList: Unkept,
  climatePolicyList: Unkept,
  occupancyPolicyList: Unkept,
  proximityPolicyList: Unkept,
  videoIntercomPolicyList: Unkept,
});
