import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, Own, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { NotRef, RefUuid } from '../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** The search's page: default and most (the platform's clients ask 200 by default; it answers at most 1000). */
export const ACCESS_EVENT_PAGE = { default: 200, maximum: 1000 } as const;

/** The platform's newer public spec (eventSearchV2), not in the catalogue: the request of searchIntegrationAccessEvents. */
export const SearchIntegrationAccessEventsRequest = Type.Object({
  locationUuids: Opt(Type.Array(RefUuid('location', { notFound: 'Location {id}' }), { maxItems: 500 })),
  deviceUuids: Opt(NotRef('handler', Type.Array(Type.Union([Ruuid(), FacetId()]), { maxItems: 500, description: 'the cameras that saw the events' }))),
  cardholderQuery: Opt(Type.String({ minLength: 1, maxLength: 200, description: "part of the cardholder's name, any case" })),
  badgeStatus: Opt(Type.String({ minLength: 1, maxLength: 50, description: 'e.g. Active or Lost, any case' })),
  badgeType: Opt(Type.String({ minLength: 1, maxLength: 50, description: 'any case' })),
  area: Opt(Type.String({ minLength: 1, maxLength: 200, description: 'part of the area entered, any case' })),
  anomalyOnly: Opt(
    Type.Boolean({ description: 'only anomalies: a badge not Active used, access granted and no entry made, or a face that is not the holder’s' }),
  ),
  entryMade: Opt(Type.Boolean()),
  afterMs: Opt(Type.Integer({ minimum: 0, description: 'inclusive' })),
  beforeMs: Opt(Type.Integer({ minimum: 0, description: 'inclusive' })),
  limit: Opt(Type.Integer({ minimum: 1, maximum: ACCESS_EVENT_PAGE.maximum, description: `default ${ACCESS_EVENT_PAGE.default}` })),
  activityTypes: Opt(
    Type.Array(Type.String({ pattern: '^[A-Z0-9_]{1,64}$' }), {
      maxItems: 50,
      description: 'only events of these activities; Gatehouse’s badge integration records BADGE_AUTHORIZED and BADGE_UNAUTHORIZED',
    }),
  ),
  lastTimestampMs: Opt(Type.Integer({ description: 'pagination cursor (with lastUuid): the last event of the previous page (Gatehouse addition)' })),
  lastUuid: Opt(NotRef('cursor', Ruuid())),
});
export type SearchIntegrationAccessEventsRequest = Static<typeof SearchIntegrationAccessEventsRequest>;

/** One event as a camera's seekpoint, with what the badge system told of it. */
export const IntegrationAccessEvent = Type.Object({
  uuid: Field(Ruuid({ description: 'the seekpoint: the pagination cursor with timestampMs (Gatehouse addition)' })),
  orgUuid: Field(Ruuid()),
  locationUuid: Field(Ruuid()),
  deviceUuid: Field(Ruuid({ description: 'the camera that saw the event; null when the door has none' })),
  timestampMs: Field(EpochMs()),
  objectType: Field(StringEnum(['BADGE_AUTHORIZED', 'BADGE_UNAUTHORIZED'])),
  customDisplayName: Field(Type.String()),
  customDescription: Field(Type.String({ description: "the cardholder's name (older clients read it here)" })),
  cardholderName: Field(Type.String()),
  badgeStatus: Field(Type.String()),
  badgeType: Field(Type.String()),
  areaEntering: Field(Type.String()),
  areaExiting: Field(Type.String()),
  entryMade: Field(Type.Boolean()),
  alert: Field(Type.Boolean({ description: 'an anomaly' })),
  badgeEventUuid: Field(Ruuid({ description: 'the badge event (Gatehouse addition)' })),
  eventType: Field(Type.String({ description: "the badge system's event type (Gatehouse addition)" })),
  doorName: Field(Type.String({ description: 'Gatehouse addition' })),
});
export type IntegrationAccessEventRecord = Static<typeof IntegrationAccessEvent>;
export const SearchIntegrationAccessEventsResponse = ResponseOf({ events: Field(Type.Array(IntegrationAccessEvent)) });

export const GetIntegrationDiagnosticEventsRequest = Type.Object({
  timestampMsAfter: Opt(Type.Integer({ minimum: 0, description: 'inclusive; default a week before timestampMsBefore' })),
  timestampMsBefore: Opt(Type.Integer({ minimum: 0, description: 'exclusive; default now' })),
});
/** Why Gatehouse answers a failure's cause beside the catalogue's fields (docs/events.md). */
const DIAGNOSTIC_CAUSE = 'the cause of the failed delivery, which the catalogue records do not carry';
export const IntegrationDiagnosticEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  integration: Field(
    Type.String({ description: 'IntegrationEnum: WEBHOOKS, ZAPIER, or UNKNOWN for the chat integration (the enumeration has no name for it)' }),
  ),
  activity: Field(Type.String({ description: 'DiagnosticActivityEnum: EXTERNAL_WEBHOOK_FAILURE, NOTIFICATION_FAILURE' })),
  thirdPartyDeviceId: Field(Type.String({ description: 'the target: the webhook endpoint or integration' })),
  thirdPartyDeviceName: Field(Type.String({ description: "the target's URL (the chat integration's host only)" })),
  timestamp: Field(Type.String({ format: 'date-time' })),
  statusCode: Field(Own(Type.Integer({ description: 'the answer of the failed attempt, null when there was none' }), DIAGNOSTIC_CAUSE)),
  error: Field(Own(Type.String({ description: 'why the attempt failed' }), DIAGNOSTIC_CAUSE)),
  deliveryUuid: Field(Own(Ruuid({ description: 'the delivery of the delivery log' }), DIAGNOSTIC_CAUSE)),
});
export const GetIntegrationDiagnosticEventsResponse = ResponseOf({ integrationDiagnosticEvents: Field(Type.Array(IntegrationDiagnosticEvent)) });
