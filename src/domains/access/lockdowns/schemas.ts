import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, type RecordKind, RefUuid } from '../../../schemas/record-kinds.js';
import { LOCKDOWN_TRIGGERS } from './model.js';
import { DOOR_LOCKDOWN_STATES, LOCKDOWN_ORIGINATORS } from './model.js';
import { LOCKDOWN_EVENT_PAGE } from './service.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Uuids = (max = 1000) => Type.Array(Ruuid(), { maxItems: max, uniqueItems: true });
const RefUuids = (kind: RecordKind) => Type.Array(RefUuid(kind), { maxItems: 1000, uniqueItems: true });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const DoorLockdownState = StringEnum(DOOR_LOCKDOWN_STATES);
/** A location of the organization, refused in the platform's words ("Location not found"). */
const LocationUuid = RefUuid('location', { notFound: true });
const LocationRequest = Type.Object({ locationUuid: LocationUuid });
const PlanUuid = RefUuid('lockdownPlan', { notFound: 'Lockdown plan {id}' });

// ---- Plans ----

const UsersAndGroups = { userUuids: Opt(RefUuids('user')), groupUuids: Opt(RefUuids('accessGroup')) };
const NotificationPlan = Type.Object({ ...UsersAndGroups, rhombusKeyNotificationMessage: Opt(Type.String({ maxLength: 1000 })) });
const TestPlan = Type.Object({ doorStateOverrideEnabled: Opt(Type.Boolean()), userAccessOverrideEnabled: Opt(Type.Boolean()) });
const DoorStateMap = Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), DoorLockdownState, {
  additionalProperties: false,
  description: "each door's state while the plan is active, by door uuid",
});

/** What a plan may be given, on create and update. */
const planFields = {
  name: Opt(Name),
  defaultLockdownState: Opt(DoorLockdownState),
  doorLockdownStateMap: Opt(DoorStateMap),
  physicalAccess: Opt(Type.Object(UsersAndGroups, { description: 'who keeps physical access while the plan is active' })),
  activationPlan: Opt(NotificationPlan),
  deactivationPlan: Opt(NotificationPlan),
  testPlan: Opt(TestPlan),
  description: Opt(Type.String({ maxLength: 1000, description: "what the plan is for, beyond the catalogue's plan: the platform's MCP server reads it" })),
};

const UsersAndGroupsAnswer = Type.Object({ userUuids: Field(Type.Array(Ruuid())), groupUuids: Field(Type.Array(Ruuid())) });
const NotificationAnswer = Type.Object({ ...UsersAndGroupsAnswer.properties, rhombusKeyNotificationMessage: Field(Type.String()) });

export const LockdownPlan = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    name: Field(Type.String()),
    type: Field(StringEnum(['ORG_LOCKDOWN', 'LOCATION_LOCKDOWN'] as const)),
    locationUuid: Field(Ruuid()),
    scopeUuid: Field(Ruuid()),
    defaultLockdownState: Field(DoorLockdownState),
    doorLockdownStateMap: Field(Type.Record(Type.String(), DoorLockdownState)),
    physicalAccess: Field(UsersAndGroupsAnswer),
    activationPlan: Field(NotificationAnswer),
    deactivationPlan: Field(NotificationAnswer),
    testPlan: Field(Type.Object({ doorStateOverrideEnabled: Field(Type.Boolean()), userAccessOverrideEnabled: Field(Type.Boolean()) })),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
    // Beyond the catalogue's plan: the platform's MCP server reads both (client-calls.md).
    description: Field(Own(Type.String(), "what the plan is for ('' when not given)")),
    active: Field(Own(Type.Boolean(), 'whether the plan is in force at its location now')),
  },
  { description: 'A location lockdown plan' },
);
const PlanResponse = ResponseOf({ lockdownPlan: Field(LockdownPlan) });
const PlansResponse = ResponseOf({ lockdownPlans: Field(Type.Array(LockdownPlan)) });

export const CreateLocationLockdownPlanRequest = Type.Object({
  lockdownPlan: Type.Object({
    ...planFields,
    name: Name,
    locationUuid: LocationUuid,
    type: Opt(StringEnum(['LOCATION_LOCKDOWN'] as const, 'only location lockdowns are kept')),
  }),
});
export const CreateLocationLockdownPlanResponse = PlanResponse;
export const UpdateLocationLockdownPlanRequest = Type.Object({ lockdownPlanUuid: PlanUuid, ...planFields });
export const UpdateLocationLockdownPlanResponse = PlanResponse;
export const LockdownPlanUuidRequest = Type.Object({ lockdownPlanUuid: PlanUuid });
export const GetLockdownPlanResponse = PlanResponse;
export const DeleteLockdownPlanResponse = ResponseOf({ lockdownPlanUuid: Field(Ruuid()), orgUuid: Field(Ruuid()) });
export const FindLockdownPlansRequest = Type.Object({});
export const FindLockdownPlansResponse = PlansResponse;
export const FindLockdownPlansByLocationRequest = LocationRequest;
export const FindLockdownPlansByLocationResponse = PlansResponse;

// ---- States and events ----

export const LocationLockdownState = Type.Object(
  {
    orgUuid: Field(Ruuid()),
    locationUuid: Field(Ruuid()),
    state: Field(StringEnum(['STANDARD_SECURITY', 'LOCKED_DOWN'] as const)),
    activeLockdownPlans: Field(
      Type.Array(
        Type.Object({ lockdownPlanUuid: Field(Ruuid()), scope: Field(StringEnum(['ORG_LOCKDOWN', 'LOCATION_LOCKDOWN'] as const)), scopeUuid: Field(Ruuid()) }),
      ),
    ),
    followingTestPlan: Field(Type.Boolean({ description: "test mode: an activation overrides only what the plans' testPlan enables" })),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
    stateChangedAtMillis: Field(EpochMs()),
  },
  { description: "A location's lockdown state" },
);
const StateResponse = ResponseOf({ state: Field(LocationLockdownState) });

const StateUpdatedAt = Opt(EpochMs('the state updatedAtMillis the caller saw: another answers OPTIMISTIC_CONCURRENCY and changes nothing'));
export const ActivateLockdownForLocationRequest = Type.Object({
  locationUuid: LocationUuid,
  lockdownPlanUuids: Opt(NotRef('handler', Uuids(100))),
  stateUpdatedAtMillis: StateUpdatedAt,
});
export const ActivateLockdownForLocationResponse = ResponseOf({
  result: Field(StringEnum(['SUCCESS', 'INVALID_LOCKDOWN_PLANS', 'OPTIMISTIC_CONCURRENCY'] as const)),
  state: Field(LocationLockdownState),
});
export const DeactivateLockdownForLocationRequest = Type.Object({ locationUuid: LocationUuid, stateUpdatedAtMillis: StateUpdatedAt });
export const DeactivateLockdownForLocationResponse = ResponseOf({
  result: Field(StringEnum(['SUCCESS', 'OPTIMISTIC_CONCURRENCY'] as const)),
  state: Field(LocationLockdownState),
});
export const LocationLockdownRequest = LocationRequest;
export const LocationLockdownStateResponse = StateResponse;
export const DeleteLocationLockdownStateResponse = ResponseOf({});
export const FindLocationLockdownStatesRequest = Type.Object({
  stateFilter: Opt(Type.Array(StringEnum(['STANDARD_SECURITY', 'LOCKED_DOWN'] as const), { maxItems: 2 })),
});
export const FindLocationLockdownStatesResponse = ResponseOf({ states: Field(Type.Array(LocationLockdownState)) });

export const LockdownEvent = Type.Object({
  orgUuid: Field(Ruuid()),
  locationUuid: Field(Ruuid()),
  type: Field(StringEnum(['LOCKDOWN_ACTIVATED', 'LOCKDOWN_DEACTIVATED'] as const)),
  followingTestPlan: Field(Type.Boolean()),
  originator: Field(Type.Object({ type: Field(StringEnum(LOCKDOWN_ORIGINATORS)) })),
  lockdownPlanUuids: Field(
    Own(
      Type.Array(Ruuid(), { description: 'the plans activated, or those the deactivation ended' }),
      'the clients activate and deactivate plans by lockdownPlanUuids; the event names which',
    ),
  ),
  stateChangedAtMillis: Field(EpochMs()),
  createdAtMillis: Field(EpochMs()),
});
export const FindLocationLockdownEventsRequest = Type.Object({
  locationUuid: LocationUuid,
  createdAfterMs: Opt(EpochMs('exclusive')),
  createdBeforeMs: Opt(EpochMs('exclusive')),
  limit: Opt(Type.Integer({ minimum: 1, maximum: LOCKDOWN_EVENT_PAGE.max, description: `newest first; default ${LOCKDOWN_EVENT_PAGE.default}` })),
});
export const FindLocationLockdownEventsResponse = ResponseOf({ events: Field(Type.Array(LockdownEvent)) });

// ---- Rules ----

const RuleFilters = Type.Object({
  scheduleUuids: Opt(Type.Array(RefUuid('schedule'), { maxItems: 50, uniqueItems: true })),
  triggerBackoffSecs: Opt(Type.Integer({ minimum: 0, maximum: 86_400 })),
});
const ActivateAction = Type.Object({
  locationLockdownPlanUuid: RefUuid('lockdownPlan', { notFound: 'Lockdown plan {id} of the location' }),
  locationUuid: Opt(NotRef('handler', Ruuid())),
});

export const LockdownRule = Type.Object({
  ruleUuid: Field(Ruuid()),
  ruleName: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  triggerActivity: Field(StringEnum(LOCKDOWN_TRIGGERS)),
  ruleFilters: Field(Type.Object({ scheduleUuids: Field(Type.Array(Ruuid())), triggerBackoffSecs: Field(Type.Integer()) })),
  action: Field(Type.Object({ activateLocationLockdown: Field(Type.Object({ locationLockdownPlanUuid: Field(Ruuid()), locationUuid: Field(Ruuid()) })) })),
});
export const CreateLockdownRuleForLocationRequest = Type.Object({
  rule: Type.Object({
    ruleUuid: Opt(NotRef('handler', Ruuid({ description: 'a rule of the location to update; absent: a new rule' }))),
    ruleName: Opt(Type.String({ maxLength: 200 })),
    locationUuid: LocationUuid,
    triggerActivity: StringEnum(LOCKDOWN_TRIGGERS, 'the activity at the location that fires the rule'),
    ruleFilters: Opt(RuleFilters),
    action: Type.Object({ activateLocationLockdown: ActivateAction }, { description: 'a lockdown rule activates one of its location plans' }),
  }),
});
export const CreateLockdownRuleForLocationResponse = ResponseOf({ ruleUuid: Field(Ruuid()) });
export const GetLockdownRulesForLocationRequest = LocationRequest;
export const GetLockdownRulesForLocationResponse = ResponseOf({ rules: Field(Type.Array(LockdownRule)) });
export const DeleteLockdownRuleForLocationRequest = Type.Object({ locationUuid: LocationUuid, ruleUuid: NotRef('handler', Ruuid()) });
export const DeleteLockdownRuleForLocationResponse = ResponseOf({});
