import { Type, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, Own, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { BADGE_REASONS } from './door-events/badge-decision.js';
import { CATALOGUE_CREDENTIAL_TYPE, CREDENTIAL_TYPES, CREDENTIAL_TYPE_NAMES } from './credentials/credential-formats.js';
import { DOOR_EVENT_PAGE, DOOR_EVENT_TYPES } from './door-events/service.js';
import { UNLOCK_ERROR_TYPES } from './doors/relay.service.js';
import { NotRef, RefUuid } from '../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const WORKFLOW_STATUSES = ['ACTIVE', 'UNASSIGNED', 'SUSPENDED', 'REVOKED'] as const;
const EpochSec = (description: string) => Type.Integer({ description });

// ---- Credentials ----

export const AccessControlCredential = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    userUuid: Field(Ruuid()),
    type: Field(StringEnum(Object.values(CATALOGUE_CREDENTIAL_TYPE), "the catalogue's type name")),
    value: Field(
      Type.String({ description: 'decoded value: facility:card (company:card for Corporate 1000), the decimal raw 64-bit number, the hex, or the PIN' }),
    ),
    lowercaseHexValue: Field(Type.String()),
    note: Field(Type.String()),
    workflowStatus: Field(StringEnum(WORKFLOW_STATUSES)),
    startDateEpochSecInclusive: Field(EpochSec('epoch seconds, inclusive')),
    endDateEpochSecExclusive: Field(EpochSec('epoch seconds, exclusive')),
    lastUsedAtMillis: Field(EpochMs()),
    lastUsedAccessControlledDoorUuid: Field(Ruuid()),
    lastUsedLocationUuid: Field(Ruuid()),
    managedCredUuid: Field(Ruuid()),
    facilityCode: Field(Type.Integer()),
    cardNumber: Field(Type.Integer()),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: 'Access control credential' },
);

const CredentialResponse = ResponseOf({ credential: Field(AccessControlCredential) });
const CredentialListResponse = ResponseOf({ credentials: Field(Type.Array(AccessControlCredential)) });
const CredentialUuidRequest = Type.Object({ credentialUuid: NotRef('handler', Ruuid()) });

export const CreateAccessControlCredentialByHexValueAndTypeRequest = Type.Object({
  credentialType: StringEnum(
    CREDENTIAL_TYPE_NAMES,
    "the specification's type names; the reference catalogue's (RHOMBUS_SECURE_CSN, HID_CORP1000_STD_35, ...) are aliases",
  ),
  hexValue: Type.String({ minLength: 1, maxLength: 128, description: 'hexadecimal value of the credential (the digits of a PIN_CODE)' }),
  littleEndian: Opt(Type.Boolean({ description: 'the hex lists its bytes least significant first' })),
  numValueBits: Opt(Type.Integer({ minimum: 1, maximum: 256, description: 'bits of the value (Wiegand: the frame length)' })),
  startDateEpochSecInclusive: Opt(EpochSec('epoch seconds, inclusive')),
  endDateEpochSecExclusive: Opt(EpochSec('epoch seconds, exclusive')),
  userUuid: Opt(RefUuid('user', { notFound: true })),
});
export const CreateAccessControlCredentialByHexValueAndTypeResponse = CredentialResponse;

export const CredentialQueryFilter = Type.Object({
  credTypeFilter: Opt(Type.Array(StringEnum(CREDENTIAL_TYPE_NAMES), { maxItems: 50 })),
  workflowStatusFilter: Opt(Type.Array(StringEnum(WORKFLOW_STATUSES), { maxItems: 10 })),
  lastUsedAccessControlledDoorUuidFilter: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 1000 }))),
  lastUsedLocationUuidFilter: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 1000 }))),
  lastUsedAfterFilter: Opt(EpochMs('last used after (exclusive), epoch milliseconds')),
  lastUsedBeforeFilter: Opt(EpochMs('last used before (exclusive), epoch milliseconds')),
});

export const FindAccessControlCredentialByOrgRequest = Type.Object({ filter: Opt(CredentialQueryFilter) });
export const FindAccessControlCredentialByOrgResponse = CredentialListResponse;
export const FindAccessControlCredentialByUserRequest = Type.Object({ userUuid: RefUuid('user', { notFound: true }), filter: Opt(CredentialQueryFilter) });
export const FindAccessControlCredentialByUserResponse = CredentialListResponse;
export const CredentialTransitionRequest = CredentialUuidRequest;
export const CredentialTransitionResponse = CredentialResponse;
export const DeleteAccessControlCredentialRequest = CredentialUuidRequest;
export const DeleteAccessControlCredentialResponse = ResponseOf({});

// ---- Doors ----

export const AccessControlledDoor = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    locationUuid: Field(Ruuid()),
    name: Field(Type.String()),
    scheduleUuid: Field(
      Own(Ruuid({ description: 'the schedule during which access rules admit; null means always' }), "the door's create and update take it (Gatehouse's)"),
    ),
    type: Field(StringEnum(['AccessControlledDoor', 'AccessControlledElevator', 'AccessControlledElevatorLanding'] as const)),
    ownerDeviceUuid: Field(Ruuid({ description: 'the DOOR_CONTROLLER device driving the door' })),
    associatedCameras: Field(Type.Array(FacetId({ description: 'a camera of the door, as a facet id (<camera>.v0)' }), { uniqueItems: true })),
    unlockTimeSec: Field(Type.Integer({ description: 'how long an unlock lasts, in whole seconds (rounded up)' })),
    defaultState: Field(StringEnum(['UNLOCKED', 'ACCESS_CONTROLLED'] as const, "the door's state when no schedule, exception or lockdown says otherwise")),
    doorStateToScheduleUuidMap: Field(
      Type.Object(
        { UNLOCKED: Field(Ruuid()), ACCESS_CONTROLLED: Field(Ruuid()) },
        { description: 'the schedules during which the door is UNLOCKED, or ACCESS_CONTROLLED' },
      ),
    ),
    position: Field(Own(StringEnum(['OPEN', 'CLOSED', 'AJAR', 'FORCED_OPEN'] as const), "the console's door list shows it")),
    lockState: Field(Own(StringEnum(['LOCKED', 'UNLOCKED'] as const), "the console's door list shows it")),
    relockAtMillis: Field(Own(EpochMs('when the unlocked door relocks'), "the console's door list shows it")),
    controllerOnline: Field(Own(Type.Boolean(), "the console's door list shows it")),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: 'Access controlled door' },
);

const PageKey = Type.String({ maxLength: 512, description: 'lastEvaluatedKey of the previous page' });

export const UnlockAccessControlledDoorRequest = Type.Object({ accessControlledDoorUuid: RefUuid('door', { notFound: true }) });
export const UnlockAccessControlledDoorResponse = ResponseOf({
  type: Field(StringEnum(['SUCCESS', 'ERROR'] as const)),
  errorType: Field(StringEnum(UNLOCK_ERROR_TYPES, 'why an ERROR unlock failed')),
});

// ---- Door events ----

export const ComponentEventFields = {
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  locationUuid: Field(Ruuid()),
  componentCompositeUuid: Field(Ruuid({ description: 'the door' })),
  componentUuid: Field(Ruuid({ description: "the component: Gatehouse keeps a door's events as the door's (its uuid)" })),
  ownerDeviceUuid: Field(Ruuid({ description: "the door's controller" })),
  correlationId: Field(Type.String({ description: 'the uuid of the event that caused this one' })),
  type: Field(StringEnum(DOOR_EVENT_TYPES)),
  timestampMs: Field(EpochMs()),
  createdAtMs: Field(EpochMs()),
  newState: Field(Type.String({ description: 'relay: UNLOCKED | LOCKED; door position: OPEN | CLOSED | AJAR | FORCED_OPEN; request-to-exit: ACTIVE' })),
  state: Field(StringEnum(['STANDARD_SECURITY', 'LOCKED_DOWN'] as const, "a lockdown state event's: the location's lockdown state")),
  credentialUuid: Field(Ruuid()),
  credentialHexValue: Field(Type.String()),
  credentialValue: Field(Type.String()),
  credentialValueLengthBits: Field(Type.Integer()),
  credSource: Field(Type.String()),
  authenticationResult: Field(StringEnum(['ACCEPTED', 'REJECTED', 'ERROR', 'NA'] as const)),
  authorizationResult: Field(StringEnum(['ALLOWED', 'DENIED', 'DISABLED', 'ERROR', 'NA'] as const)),
  authDecisionSource: Field(Type.String()),
  accessGrantOrRevocationUuid: Field(Ruuid({ description: 'the grant that admitted the badge-in, or the revocation that refused it' })),
  activeDoorLockdownState: Field(StringEnum(['LOCKED_DOWN', 'ACCESS_CONTROLLED', 'UNLOCKED', 'UNKNOWN'] as const)),
  originator: Field(
    Own(
      Type.Object({
        type: Field(Type.String()),
        userUuid: Field(Ruuid({ description: "a USER originator's user (a badge-in's holder)" })),
        tokenUuid: Field(Ruuid({ description: "an API_TOKEN originator's key (a remote unlock)" })),
      }),
      'who caused the event; the catalogue names it on badge-ins and door state changes, not on the relay change a remote unlock makes (findComponentEventsByApiToken finds those)',
    ),
  ),
};
export const ComponentEvent = Type.Object(ComponentEventFields, { description: 'A door event (the reference ComponentEventType family, by type)' });

export const FindPaginatedComponentEventsByAccessControlledDoorRequest = Type.Object({
  accessControlledDoorUuid: RefUuid('door', { notFound: true }),
  createdAfterMs: Opt(EpochMs('events after this time (exclusive)')),
  createdBeforeMs: Opt(EpochMs('events before this time (exclusive)')),
  typeFilter: Opt(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'event types (ComponentEventEnumType names)' })),
  userFilter: Opt(NotRef('filter', Type.Array(Ruuid(), { maxItems: 1000 }))),
  maxPageSize: Opt(Type.Integer({ minimum: 1, maximum: DOOR_EVENT_PAGE.max, description: `default ${DOOR_EVENT_PAGE.default}` })),
  lastEvaluatedKey: Opt(PageKey),
  reverseSearch: Opt(Type.Boolean({ description: 'oldest first (default: newest first)' })),
});
export const FindPaginatedComponentEventsByAccessControlledDoorResponse = ResponseOf({
  componentEvents: Field(Type.Array(ComponentEvent)),
  lastEvaluatedKey: Field(Type.String({ description: 'present while more events follow' })),
});

// ---- Simulator (control API) ----

const SimulatedAt = Type.Optional(Type.Integer({ description: 'when it happened, epoch milliseconds (default now)' }));
const DoorRef = Ruuid({ description: 'the door' });

export const SimulateBadgeBody = Type.Object(
  {
    door: DoorRef,
    hex: Type.String({ minLength: 1, maxLength: 128, description: 'the value the reader read, hexadecimal (a PIN: its digits)' }),
    type: Type.Optional(StringEnum(CREDENTIAL_TYPE_NAMES)),
    at: SimulatedAt,
  },
  { additionalProperties: false },
);
export const SimulateBadgeResponse = ResponseOf({
  granted: Field(Type.Boolean()),
  reason: Field(StringEnum(BADGE_REASONS)),
  credentialReceivedEvent: Field(ComponentEvent),
  relayEvents: Field(Type.Array(ComponentEvent)),
  unauthorizedBadge: Field(
    Type.Object({
      uuid: Field(Ruuid()),
      orgUuid: Field(Ruuid()),
      locationUuid: Field(Ruuid()),
      accessControlledDoorUuid: Field(Ruuid()),
      credentialHexValue: Field(Type.String()),
      credentialType: Field(StringEnum(CREDENTIAL_TYPES)),
      timestampMs: Field(EpochMs()),
    }),
  ),
});

export const SimulateDoorBody = Type.Object(
  { door: DoorRef, position: StringEnum(['OPEN', 'CLOSED', 'AJAR', 'FORCED_OPEN'] as const), at: SimulatedAt },
  { additionalProperties: false },
);
export const SimulateDoorResponse = ResponseOf({ event: Field(ComponentEvent), door: Field(AccessControlledDoor) });

export const SimulateRexBody = Type.Object({ door: DoorRef, at: SimulatedAt }, { additionalProperties: false });
export const SimulateRexResponse = ResponseOf({ event: Field(ComponentEvent), relayEvents: Field(Type.Array(ComponentEvent)) });

/** `--online` / `--offline` arrive as `{online: true}` / `{offline: true}`; `{online: false}` is accepted too. */
export const SimulateControllerBody = Type.Object(
  { door: DoorRef, online: Type.Optional(Type.Boolean()), offline: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export const SimulateControllerResponse = ResponseOf({ door: Field(AccessControlledDoor) });
