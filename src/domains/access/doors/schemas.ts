import { Type, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { AccessControlledDoor } from '../schemas.js';
import { DOOR_PAGE } from '../service.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const DoorState = StringEnum(['UNLOCKED', 'ACCESS_CONTROLLED'] as const);
const PageKey = Type.String({ maxLength: 512, description: 'lastEvaluatedKey of the previous page' });
const pageFields = {
  lastEvaluatedKey: Opt(PageKey),
  maxPageSize: Opt(Type.Integer({ minimum: 1, maximum: DOOR_PAGE.max, description: `default ${DOOR_PAGE.default}` })),
};

/** The fields of a door that create and update take (others of the platform's door type are accepted and ignored). */
const doorFields = {
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  associatedCameras: Opt(NotRef('handler', Type.Array(FacetId({ description: 'a camera of the door, as a facet id (<camera>.v0)' }), { maxItems: 100 }))),
  unlockTimeSec: Opt(Type.Integer({ minimum: 1, maximum: 3600, description: 'how long an unlock lasts' })),
  defaultState: Opt(DoorState),
  doorStateToScheduleUuidMap: Opt(
    Type.Object(
      { UNLOCKED: Opt(RefUuid('schedule')), ACCESS_CONTROLLED: Opt(RefUuid('schedule')) },
      { additionalProperties: false, description: 'the schedules of each state' },
    ),
  ),
  scheduleUuid: Opt(RefUuid('schedule', "Gatehouse's: the schedule during which the door's access rules admit (null: always)")),
};

const DoorResponse = ResponseOf({ accessControlledDoor: Field(AccessControlledDoor) });
const DoorsPageResponse = ResponseOf({ accessControlledDoors: Field(Type.Array(AccessControlledDoor)), lastEvaluatedKey: Field(Type.String()) });

export const CreateAccessControlledDoorRequest = Type.Object({
  accessControlledDoor: Type.Object({
    ...doorFields,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    locationUuid: RefUuid('location', { notFound: true }),
    ownerDeviceUuid: Opt(RefUuid('device', { description: "the door's DOOR_CONTROLLER (none: no remote unlock)", notFound: 'Door controller' })),
  }),
});
export const CreateAccessControlledDoorResponse = DoorResponse;
export const UpdateAccessControlledDoorRequest = Type.Object({ accessControlledDoorUuid: RefUuid('door', { notFound: true }), ...doorFields });
export const UpdateAccessControlledDoorResponse = DoorResponse;
export const DoorUuidRequest = Type.Object({ accessControlledDoorUuid: RefUuid('door', { notFound: true }) });
export const DeleteAccessControlledDoorResponse = DoorResponse;

export const DoorLabelRequest = Type.Object({ accessControlledDoorUuid: Ruuid(), label: Type.String({ minLength: 1, maxLength: 100 }) });
export const DoorLabelResponse = ResponseOf({});
export const GetAccessControlledDoorLabelsForOrgRequest = Type.Object({});
export const GetAccessControlledDoorLabelsForOrgResponse = ResponseOf({
  accessControlledDoorLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'labels by door uuid' })),
});

export const FindAccessControlledDoorsRequest = Type.Object(pageFields);
export const FindAccessControlledDoorsResponse = DoorsPageResponse;
export const FindAccessControlledDoorsByLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), ...pageFields });
export const FindAccessControlledDoorsByLocationResponse = DoorsPageResponse;
export const FindAccessControlledDoorsByOwnerDeviceRequest = Type.Object({ ownerDeviceUuid: RefUuid('device', { notFound: true }) });
export const FindAccessControlledDoorsByOwnerDeviceResponse = ResponseOf({ accessControlledDoors: Field(Type.Array(AccessControlledDoor)) });

export const AccessControlledDoorShadow = Type.Object(
  {
    componentCompositeUuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    ownerDeviceUuid: Field(Ruuid()),
    type: Field(StringEnum(['AccessControlledDoorShadow', 'AccessControlledElevatorLandingShadow'] as const)),
    state: Field(
      Type.Object({
        state: Field(DoorState),
        source: Field(
          StringEnum(['DEFAULT_STATE', 'SCHEDULE', 'SCHEDULE_EXCEPTION', 'FIRST_IN', 'DOOR_STATE_OVERRIDE', 'LOCKDOWN', 'PRIVACY', 'UNKNOWN'] as const),
        ),
        stateUpdateEventTimestampMs: Field(EpochMs()),
      }),
    ),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: "A door's shadow: its access state and what decided it" },
);
export const FindAccessControlledDoorShadowsRequest = Type.Object(pageFields);
export const FindAccessControlledDoorShadowsByLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), ...pageFields });
export const FindAccessControlledDoorShadowsResponse = ResponseOf({
  shadows: Field(Type.Array(AccessControlledDoorShadow)),
  lastEvaluatedKey: Field(Type.String()),
});
export const FindMinimalStateAccessControlledDoorsRequest = Type.Object(pageFields);
export const FindMinimalStateAccessControlledDoorsByLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), ...pageFields });
export const FindMinimalStateAccessControlledDoorsResponse = ResponseOf({
  accessControlledDoors: Field(Type.Array(Type.Object({ door: Field(AccessControlledDoor), shadow: Field(AccessControlledDoorShadow) }))),
  lastEvaluatedKey: Field(Type.String()),
});
