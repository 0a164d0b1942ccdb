import { Type, type Static } from 'typebox';
import { ActivityEnum } from '../../../schemas/activities.js';
import { Alias, EmptyRequest, Field, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ActionOutcome, RuleAction, RuleFilters } from '../schemas.js';
import { NotRef, RefUuid, type RecordKind } from '../../../schemas/record-kinds.js';

/** The general rule engine's shapes (the reference's Rules and Rules records families). */
export const RULE_TYPES = [
  'BUTTON_DEFINED',
  'USER_DEFINED',
  'DOORBELL_CAMERA_DEFINED',
  'DOOR_CONTROLLER_DEFINED',
  'LOCKDOWN_PLAN_DEFINED',
  'CUSTOM_LLM_DEFINED',
] as const;
export const TRIGGER_TYPES = [
  'DEVICE_ACTIVITY_EVENT',
  'AUDIT_EVENT',
  'DIAGNOSTIC_EVENT',
  'ALERT_MONITORING_EVENT',
  'BADGE_INTEGRATION_EVENT',
  'SCHEDULED_EVENT',
  'VISION_LLM_EVENT',
  'RECURRING_EVENT',
  'LOCATION_LOCKDOWN_ACTIVATED_EVENT',
  'LOCATION_LOCKDOWN_DEACTIVATED_EVENT',
  'BUTTON_INTEGRATION_EVENT',
  'CUSTOM_LLM_EVENT',
] as const;
export const CONJUNCTIONS = ['AND', 'OR', 'UNKNOWN'] as const;

const Uuids = Field(Type.Array(Ruuid(), { maxItems: 500 }));
/** The records of a kind a trigger names: kept with the rule, so the edge checks each against the organization. */
const RefUuids = (kind: RecordKind) => Field(Type.Array(RefUuid(kind), { maxItems: 500 }));

/** A rule trigger: the device activity trigger's fields (the only type the engine evaluates; see docs/policies.md). */
export const RuleTrigger = Type.Object({
  type: StringEnum(TRIGGER_TYPES),
  activityEvent: Field(Type.Object({ activityEvent: ActivityEnum })),
  deviceUuids: RefUuids('device'),
  locationUuids: RefUuids('location'),
  componentCompositeUuids: RefUuids('door'),
  // A hardware component (its input, request-to-exit, relay, reader), whose changes of state the trigger hears.
  componentUuids: RefUuids('component'),
  deviceLabels: Field(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
});
export type RuleTrigger = Static<typeof RuleTrigger>;

export const Rule = Type.Object({
  uuid: Field(NotRef('subject', Ruuid())),
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
  ownerUuid: Field(NotRef('handler', Ruuid())),
  name: Field(Type.String({ maxLength: 200 })),
  ruleType: Field(StringEnum(RULE_TYPES)),
  conjunction: Field(StringEnum(CONJUNCTIONS)),
  triggers: Field(Type.Array(RuleTrigger, { maxItems: 20 })),
  ruleFilters: Field(RuleFilters),
  action: Field(RuleAction),
});
export type Rule = Static<typeof Rule>;

export const CreateRuleRequest = Type.Object({ rule: Rule });
export const CreateRuleResponse = ResponseOf({ ruleUuid: Field(Ruuid()) });
export const UpdateRuleRequest = Type.Object({ ruleUpdate: Type.Object({ ...Rule.properties, uuid: NotRef('subject', Ruuid()) }) });
export const DeleteRuleRequest = Type.Object({ ruleUuid: NotRef('handler', Ruuid()) });
export const RuleEnvelope = ResponseOf({});
export const GetRulesForOrgRequest = EmptyRequest;
export const GetRulesResponse = ResponseOf({ rules: Field(Type.Array(Rule)) });
export const GetRulesFilteredRequest = Type.Object({
  associatedUuids: Field(NotRef('filter', Type.Array(Ruuid(), { maxItems: 500 }))),
  ruleTypeFilter: Field(Type.Array(StringEnum(RULE_TYPES), { maxItems: RULE_TYPES.length })),
});

const MAX_PAUSE_SECS = 366 * 86_400;
export const PauseRuleRequest = Type.Object({
  ruleUuid: NotRef('handler', Ruuid()),
  durationSec: Type.Integer({ minimum: 1, maximum: MAX_PAUSE_SECS }),
  scheduledTimestampSec: Field(Type.Integer({ minimum: 0, description: 'when the pause starts (epoch seconds); default now' })),
});
export const PauseInterval = Type.Object({ uuid: Field(Ruuid()), timestampSec: Field(Type.Integer()), durationSecs: Field(Type.Integer()) });
export const GetRulePauseSettingsRequest = EmptyRequest;
export const GetRulePauseSettingsResponse = ResponseOf({ rulesPausedMap: Field(Type.Record(Type.String(), Type.Array(PauseInterval))) });
export const DeleteRulePauseSettingRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });

/** A device event a rule fired on, as its record keeps it. */
export const DeviceEventRecord = Type.Object({
  activities: Field(Type.Array(ActivityEnum)),
  deviceUuid: Field(Ruuid()),
  componentCompositeUuid: Field(Ruuid()),
  eventUuid: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  timestampMs: Field(Type.Integer()),
});

/** A firing of a rule: what it fired on and what each action did (actionOutcomes is Gatehouse's full list). */
export const RulesEventRecord = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  ruleUuid: Field(Ruuid()),
  triggeredTimestampMs: Field(Type.Integer()),
  deviceEventRecords: Field(Type.Array(DeviceEventRecord)),
  webhookActionStatuses: Field(Type.Record(Type.String(), Type.Boolean())),
  alertActionRecord: Field(Type.Object({ policyAlertUuid: Field(Ruuid()), status: Field(Type.String()) })),
  liveNotificationActionRecord: Field(Type.Object({ status: Field(Type.String()) })),
  actionOutcomes: Field(Own(Type.Array(ActionOutcome), 'what each action of the firing did (docs/policies.md), which the catalogue records by kind')),
});
export type RulesEventRecord = Static<typeof RulesEventRecord>;

export const EVENT_RECORD_PAGE = { default: 100, maximum: 1000 } as const;
export const GetRulesEventRecordsRequest = Type.Object({
  associatedUuids: NotRef('handler', Alias(Uuids, ['ruleUuid'])),
  startTime: Field(Type.Integer({ minimum: 0 })),
  endTime: Field(Type.Integer({ minimum: 0 })),
});
export const GetLatestRulesEventRecordsRequest = Type.Object({
  associatedUuids: Field(NotRef('filter', Type.Array(Ruuid(), { maxItems: 500 }))),
  ruleUuid: Field(NotRef('handler', Ruuid())),
  n: Field(Type.Integer({ minimum: 1, maximum: EVENT_RECORD_PAGE.maximum })),
});
export const RulesEventRecordsResponse = ResponseOf({ rulesEventRecords: Field(Type.Array(RulesEventRecord)) });
export const DeleteRulesEventRecordRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
