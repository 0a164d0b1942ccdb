import { Type } from 'typebox';
import { Alias, Field, Own, ResponseOf, Ruuid } from '../../schemas/common.js';
import { AUDIT_PAGE } from './service.js';
import { NotRef } from '../../schemas/record-kinds.js';

const Actions = Type.Array(
  Type.String({
    minLength: 3,
    maxLength: 100,
    description: "the catalogue's action (e.g. DELETE_LOCATION, UNKNOWN), or the trail's <ENTITY>_<ACTION> (e.g. LOCATION_CREATE)",
  }),
  { maxItems: 100 },
);

const feedFilters = {
  includeActions: Field(Actions),
  excludeActions: Field(Actions),
  timestampMsAfter: Alias(Field(Type.Integer({ minimum: 0 })), ['startTimeMs']),
  timestampMsBefore: Alias(Field(Type.Integer({ minimum: 0 })), ['endTimeMs']),
  maxPageSize: Field(Type.Integer({ minimum: 1, maximum: AUDIT_PAGE.max, description: `default ${AUDIT_PAGE.default}` })),
  lastEvaluatedKey: Field(Type.String({ maxLength: 200, description: 'from the previous page: the next (older) page' })),
};

export const AuditEvent = Type.Object({
  uuid: Field(Type.String()),
  orgUuid: Field(Ruuid()),
  timestamp: Field(Type.String({ format: 'date-time' })),
  action: Field(Type.String({ description: "the catalogue's AuditActionEnum; UNKNOWN where it has no name for the trail's action" })),
  displayText: Field(Type.String()),
  principalType: Field(Type.String()),
  principalUuid: Field(Type.String()),
  principalName: Field(Type.String()),
  targetUuid: Field(Type.String()),
  targetName: Field(Type.String()),
  clientType: Field(Type.String()),
  failure: Field(Type.Boolean()),
  sourceIp: Field(Type.String({ description: "the request's client address; empty for writes made off REST" })),
  userAgent: Field(Type.String({ description: "the request's User-Agent; empty when none was sent" })),
  sourceCity: Field(Type.String({ description: "the address's city (GeoLite2, offline); empty for loopback, private and unknown addresses" })),
  sourceState: Field(Type.String({ description: 'its region code (e.g. CA); empty when unknown' })),
  sourceCountry: Field(Type.String({ description: 'its ISO country code; empty when unknown' })),
});

export const GetAuditFeedRequest = Type.Object(feedFilters);
export const GetAuditFeedForPrincipalRequest = Type.Object({ ...feedFilters, principalUuid: NotRef('handler', Ruuid()) });
export const GetAuditFeedForTargetRequest = Type.Object({ ...feedFilters, targetUuid: NotRef('handler', Type.String({ minLength: 1, maxLength: 100 })) });
export const GetAuditFeedResponse = ResponseOf({
  auditEvents: Field(Type.Array(AuditEvent)),
  lastEvaluatedKey: Field(
    Own(Type.String(), 'Gatehouse pages the feed (maxPageSize, lastEvaluatedKey: README, docs/org-structure.md): the cursor of the next page'),
  ),
});
