import { Type, type Static } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/**
 * Alert monitoring threat cases: a policy alert at a location whose alert monitoring is on opens one; the
 * location's people then cancel or dismiss it (with the location's monitoring pin) or escalate it to an alarm.
 */
export const THREAT_CASE_STATUSES = [
  'INITIATED',
  'REQUESTED',
  'FOLLOW_ON',
  'ESCALATED',
  'PSAP_CONTACTED',
  'VERIFIED',
  'DISMISSED',
  'CANCELLED',
  'UNVERIFIABLE',
  'TIMEOUT',
  'ERROR',
  'CLOSED',
] as const;
export type ThreatCaseStatus = (typeof THREAT_CASE_STATUSES)[number];
const Status = StringEnum(THREAT_CASE_STATUSES, 'threat case status');

const TimelineEvent = Type.Object({
  type: StringEnum(['ALERT', 'DELAYED_ALERT', 'USER', 'SERVICE_PROVIDER', 'ERROR', 'PANIC_BUTTON', 'ACCESS_CONTROL_INTEGRATION', 'UNKNOWN'] as const),
  timestampSec: Type.Integer(),
  alertUuid: Field(Ruuid()),
  userUuid: Field(Ruuid()),
  message: Field(Type.String()),
});

export const ThreatCase = Type.Object({
  uuid: Ruuid(),
  orgUuid: Ruuid(),
  locationUuid: Ruuid(),
  locationName: Type.String(),
  deviceUuid: Ruuid(),
  policyAlertUuid: Ruuid(),
  policyAlertUuids: Type.Array(Ruuid()),
  status: Status,
  createdAtMillis: Type.Integer(),
  submissionTimestampMs: Type.Integer(),
  deleted: Type.Boolean(),
  timelineEventList: Type.Array(TimelineEvent),
});
export type ThreatCaseRecord = Static<typeof ThreatCase>;

export const GetThreatCaseRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
export const GetThreatCaseResponse = ResponseOf({ threatCase: Field(ThreatCase) });

export const THREAT_CASE_PAGE = { default: 100, max: 1000 };
export const GetThreatCasesRequest = Type.Object({
  statusFilter: Field(Type.Array(Status, { maxItems: THREAT_CASE_STATUSES.length })),
  locationFilter: Field(NotRef('filter', Type.Array(Ruuid(), { maxItems: 1000 }))),
  deviceFilter: Field(NotRef('filter', Type.Array(Ruuid(), { maxItems: 1000 }))),
  afterTimestampMs: Field(Type.Integer({ minimum: 0 })),
  beforeTimestampMs: Field(Type.Integer({ minimum: 0 })),
  maxPageSize: Field(Type.Integer({ minimum: 1, maximum: THREAT_CASE_PAGE.max })),
  maxResults: Field(Type.Integer({ minimum: 1, maximum: THREAT_CASE_PAGE.max })),
  lastEvaluatedKey: Field(Type.String({ maxLength: 200 })),
  lastTimestampMs: Field(Type.Integer()),
  lastUuid: Field(NotRef('cursor', Type.String({ maxLength: 64 }))),
  mostRecent: Field(Type.Boolean()),
});
export type GetThreatCasesInput = Static<typeof GetThreatCasesRequest>;
export const GetThreatCasesResponse = ResponseOf({ threatCases: Field(Type.Array(ThreatCase)), lastEvaluatedKey: Field(Type.String()) });

export const DeleteThreatCasesRequest = Type.Object({ threatCaseUuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000 })) });
export const DeleteThreatCasesByStatusRequest = Type.Object({ status: Status });
export const EmptyResponse = ResponseOf({});

const Pin = Type.String({ maxLength: 32, description: "the location's monitoring pin" });
export const CancelThreatCaseRequest = Type.Object({ uuid: NotRef('subject', Ruuid()), pin: Pin });
export const DismissThreatCaseRequest = Type.Object({ uuid: NotRef('subject', Ruuid()), pin: Pin, orgUuid: Field(NotRef('callerOrg', Ruuid())) });
export const EscalateThreatCaseRequest = Type.Object({ uuid: NotRef('subject', Ruuid()), orgUuid: Field(NotRef('callerOrg', Ruuid())) });
export const ThreatCaseOutcomeResponse = ResponseOf({ success: Field(Type.Boolean()) });
