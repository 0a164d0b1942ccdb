import { Type, type Static } from 'typebox';
import { EmptyRequest, Field, Own, ResponseOf, Ruuid } from '../../schemas/common.js';
import { NotRef } from '../../schemas/record-kinds.js';

/**
 * Request and response schemas of the integration operations. Settings fields are the specification's
 * (SmartSensorSettings, ChatSettings, BadgeSettings, VideoAnalyticsSettings) under the request names of the
 * reference catalogue (haloSettings, mattermostSettings, geneaSettings, lumeoSettings, serviceNowSettings).
 * Identifier fields take any string: one that is not a record of the caller's organization is answered in
 * `failedGuids`, not refused.
 */
// An identifier field: its handler answers one that names no record of the organization in failedGuids.
const Id = NotRef('handler', Type.String({ maxLength: 100 }));
const Text = (maxLength = 1000) => Type.String({ maxLength });
export const Secret = (description: string) =>
  Type.String({ maxLength: 4096, description: `${description} (secret: answered masked, e.g. ****abcd; send the masked value back to keep it)` });

export const enabling = {
  enabled: Field(Type.Boolean()),
  enabledTimestampMs: Field(Type.Integer({ description: 'epoch ms; set to the time of enabling unless given' })),
  enablingUser: Field(Text(200)),
  enablingUserUuid: Field(NotRef('handler', Ruuid({ description: 'the enabling user; set to the caller unless given' }))),
};

export const SMART_SENSOR_ALERTS = [
  'alertAgression',
  'alertCO',
  'alertCO2',
  'alertGunshot',
  'alertHelp',
  'alertMasking',
  'alertTHC',
  'alertTamper',
  'alertTemp',
  'alertVOC',
  'alertVape',
] as const;

export const SmartSensorSettings = Type.Object({
  ...enabling,
  ...Object.fromEntries(SMART_SENSOR_ALERTS.map((a) => [a, Field(Type.Boolean())])),
  saveClips: Field(Type.Boolean()),
  savedClipDurationMs: Field(Type.Integer({ minimum: 1000, maximum: 600_000, description: 'length of the clip saved for an alert' })),
  triggerNotification: Field(Type.Boolean()),
  sensorName: Field(Text(200)),
  sensorToCamerasMap: Field(
    Type.Record(Type.String({ maxLength: 200 }), Type.Array(Id, { maxItems: 100 }), { description: 'sensor id to the cameras its alerts are raised on' }),
  ),
  url: Field(Text(2000)),
});
export type SmartSensorSettings = Static<typeof SmartSensorSettings> & Partial<Record<(typeof SMART_SENSOR_ALERTS)[number], boolean | null>>;

export const ChatSettings = Type.Object({
  ...enabling,
  channel: Field(Text(200)),
  webhookUrl: Field(Type.String({ maxLength: 2000, description: 'the chat incoming-webhook URL policy alerts are posted to' })),
});
export type ChatSettings = Static<typeof ChatSettings>;

export const DoorInfo = Type.Object({
  assignedCameraList: Field(Type.Array(Id, { maxItems: 100 })),
  clipDuration: Field(Type.Integer({ minimum: 1, maximum: 600, description: 'seconds of clip saved for a badge event' })),
  doorName: Field(Text(200)),
  leadingSeconds: Field(Type.Integer({ minimum: 0, maximum: 600, description: 'seconds of clip before the event' })),
  locationUuid: Field(NotRef('handler', Id)),
  remoteUnlock: Field(Type.Boolean()),
});
export type DoorInfo = Static<typeof DoorInfo>;

const badgeFields = {
  ...enabling,
  alertUnauthorizedFaces: Field(Type.Boolean()),
  apiToken: Field(Secret("the badge system's API token")),
  createSeekPoints: Field(Type.Boolean()),
  doorInfoMap: Field(Type.Record(Type.String({ maxLength: 200 }), DoorInfo, { description: "the badge system's door id to its door" })),
  identifyFacesFromBadge: Field(Type.Boolean()),
  migrated: Field(Type.Boolean()),
  platformToken: Field(Secret('RUUID-formatted token')),
  saveClips: Field(Type.Boolean()),
  webhookSignatureSecret: Field(Secret('HMAC-SHA256 key of the inbound badge webhook')),
  webhookUuid: Field(
    NotRef(
      'created',
      Type.String({ pattern: '^[A-Za-z0-9_-]{16,64}$', description: 'names the inbound webhook (POST /webhooks/badge/{webhookUuid}); generated when absent' }),
    ),
  ),
};
/** The spec's BadgeSettings fields that the catalogue's GeneaSettings and GeneaType lack: answered as Gatehouse's own. */
const badgeOwn = {
  migrated: Field(Own(Type.Boolean(), "the spec's BadgeSettings")),
  platformToken: Field(Own(Secret('RUUID-formatted token'), "the spec's BadgeSettings (the catalogue's rhombusToken)")),
};
/** Badge settings as answered. */
export const BadgeSettingsRecord = Type.Object({ ...badgeFields, ...badgeOwn });
/** Badge settings as sent: the reference catalogue's `rhombusToken` is accepted for platformToken. */
export const BadgeSettings = Type.Object({ ...badgeFields, rhombusToken: Field(Secret("the reference catalogue's name of platformToken")) });
export type BadgeSettings = Static<typeof BadgeSettings>;

export const VideoAnalyticsSettings = Type.Object({
  ...enabling,
  integration: Field(Text(50)),
  integrationAuditMap: Field(Type.Record(Type.String(), Type.Unknown(), { description: 'accepted and ignored: the audit map is kept by the server' })),
  orgUuid: Field(NotRef('callerOrg', Id)),
  userUuid: Field(NotRef('handler', Id)),
});
export type VideoAnalyticsSettings = Static<typeof VideoAnalyticsSettings>;
/** Video-analytics settings as listed: the spec's fields that the catalogue's LumeoSettings lacks are Gatehouse's own. */
const VideoAnalyticsSettingsRecord = Type.Object({
  ...enabling,
  integration: Field(Own(Text(50), "the spec's VideoAnalyticsSettings")),
  orgUuid: Field(Own(Ruuid(), "the spec's VideoAnalyticsSettings")),
  userUuid: Field(Own(Ruuid(), "the spec's VideoAnalyticsSettings")),
});

export const TicketingSettings = Type.Object({
  ...enabling,
  instanceUrl: Field(Type.String({ maxLength: 2000 })),
  username: Field(Text(200)),
  password: Field(Secret('the ticketing system password')),
});
export type TicketingSettings = Static<typeof TicketingSettings>;

/** The classic organization webhook: every policy alert and diagnostic is posted to webhookUrl. */
export const WebhookSettings = Type.Object({
  ...enabling,
  webhookUrl: Field(Type.String({ maxLength: 2000, description: 'where policy alerts and device diagnostics are posted' })),
  webhookSecret: Field(Secret('signs every delivery per Standard Webhooks; whsec_ + base-64 key, or any text used as the key')),
});
export type WebhookSettings = Static<typeof WebhookSettings>;

const settingsBody = <K extends string, S extends ReturnType<typeof Type.Object>>(name: K, settings: S) =>
  Type.Object({ [name]: Field(settings) } as { [P in K]: ReturnType<typeof Field<S>> });

export const UpdateSmartSensorIntegrationRequest = settingsBody('haloSettings', SmartSensorSettings);
export const UpdateChatIntegrationRequest = settingsBody('mattermostSettings', ChatSettings);
export const UpdateBadgeIntegrationRequest = settingsBody('geneaSettings', BadgeSettings);
export const UpdateVideoAnalyticsIntegrationRequest = settingsBody('lumeoSettings', VideoAnalyticsSettings);
export const UpdateTicketingIntegrationRequest = settingsBody('serviceNowSettings', TicketingSettings);

/** The integration-update response of the specification. */
export const IntegrationUpdateResponse = ResponseOf(
  {
    authError: Field(Type.Boolean({ description: 'the third-party system refused the credentials; the integration stays disabled' })),
    failedGuids: Field(
      Type.Array(Type.String(), { description: "identifiers in the settings that are not records of the caller's organization; left out, the rest applied" }),
    ),
    misconfiguredDoors: Field(Type.Array(Type.String(), { description: 'door names assigned to more than one location' })),
  },
  'Integration-update response',
);

export const BaseIntegrationRequest = EmptyRequest;

const AuditEvent = Type.Object({
  enabledTimestampMs: Field(Type.Integer()),
  integrationAuditEvent: Field(Type.Union([Type.Literal('UPDATE'), Type.Literal('DELETE')])),
  user: Field(Type.String()),
  userUuid: Field(Ruuid()),
});
const AuditMap = Field(Type.Record(Type.String(), AuditEvent));

export const GetSmartSensorIntegrationResponse = ResponseOf({ haloSettings: Field(SmartSensorSettings) });
export const GetChatIntegrationResponse = ResponseOf({ mattermostSettings: Field(ChatSettings) });
export const GetTicketingIntegrationResponse = ResponseOf({ serviceNowSettings: Field(TicketingSettings) });

/** The reference's IBaseIntegrationType members that Gatehouse keeps: GENEA (badge) and LUMEO (video analytics). */
const BaseIntegration = {
  integration: Field(Type.String()),
  enabled: Field(Type.Boolean()),
  orgUuid: Field(Ruuid()),
  userUuid: Field(Ruuid()),
  integrationAuditMap: AuditMap,
};
/** enabled aside, the enabling fields are not in the catalogue's V2 types. */
const { enabledTimestampMs: _stamp, enablingUser: _by, enablingUserUuid: _byUuid, ...badgeV2Fields } = badgeFields;
export const BadgeIntegrationV2 = Type.Object({
  ...BaseIntegration,
  ...badgeV2Fields,
  ...badgeOwn,
  tokenValid: Field(Type.Boolean()),
  misconfiguredDoors: Field(Type.Array(Type.String())),
});
export const VideoAnalyticsIntegrationV2 = Type.Object(BaseIntegration);
export const GetBadgeIntegrationResponse = ResponseOf({ orgIntegrationV2: Field(BadgeIntegrationV2) });
export const GetVideoAnalyticsIntegrationResponse = ResponseOf({ orgIntegrationV2: Field(VideoAnalyticsIntegrationV2) });

/** The settings of the kinds modelled in full, as getOrgIntegrations answers them (the partners' are added by partners/listing.ts). */
export const ORG_INTEGRATIONS = {
  orgUuid: Field(Ruuid()),
  haloSettings: Field(SmartSensorSettings),
  mattermostSettings: Field(ChatSettings),
  geneaSettings: Field(BadgeSettingsRecord),
  lumeoSettings: Field(VideoAnalyticsSettingsRecord),
  serviceNowSettings: Field(TicketingSettings),
  webhookSettings: Field(WebhookSettings),
};
/** The same, as getOrgIntegrationsV2 names them. */
export const ORG_INTEGRATIONS_V2 = { GENEA: Field(BadgeIntegrationV2), LUMEO: Field(VideoAnalyticsIntegrationV2) };

export const Delivery = Type.Object({
  deliveryUuid: Ruuid({ description: 'the stable delivery id, sent with every attempt as x-gatehouse-delivery-id' }),
  kind: Type.String(),
  targetUrl: Type.String(),
  status: Type.Union([Type.Literal('PENDING'), Type.Literal('IN_FLIGHT'), Type.Literal('DELIVERED'), Type.Literal('FAILED')]),
  attempts: Type.Integer(),
  nextAttemptAtMs: Field(Type.Integer()),
  lastStatusCode: Field(Type.Integer()),
  lastError: Field(Type.String()),
  createdAtMs: Type.Integer(),
  deliveredAtMs: Field(Type.Integer()),
  attemptLog: Field(
    Type.Array(
      Type.Object({
        attempt: Type.Integer({ description: '1 for the first attempt' }),
        atMs: Type.Integer(),
        durationMs: Type.Integer(),
        statusCode: Field(Type.Integer({ description: "the receiver's answer; null when there was none" })),
        error: Field(Type.String({ description: 'why the attempt failed (HTTP status, timeout, refused address)' })),
      }),
      { description: 'every attempt made, oldest first' },
    ),
  ),
});
export const GetDeliveryLogRequest = Type.Object({
  maxResults: Field(Type.Integer({ minimum: 1, maximum: 500, description: 'default 50, at most 500' })),
  lastDeliveryId: Field(Type.Integer({ minimum: 1, description: "the previous page's lastDeliveryId" })),
  kind: Field(Type.String({ maxLength: 100, description: 'only deliveries of this kind, e.g. CHAT_POLICY_ALERT' })),
});
export const GetDeliveryLogResponse = ResponseOf({
  deliveries: Field(Type.Array(Delivery)),
  lastDeliveryId: Field(Type.Integer({ description: 'cursor of the next page; null on the last page' })),
});

export const SMART_SENSOR_EVENT_TYPES = ['VAPE', 'THC', 'GUNSHOT', 'AGGRESSION', 'HELP', 'CO', 'CO2', 'VOC', 'TEMP', 'TAMPER', 'MASKING'] as const;
export type SmartSensorEventType = (typeof SMART_SENSOR_EVENT_TYPES)[number];

export const SmartSensorEventRequest = Type.Object({
  sensorId: NotRef('external', Type.String({ minLength: 1, maxLength: 200, description: 'a key of sensorToCamerasMap' })),
  eventType: Type.Union(SMART_SENSOR_EVENT_TYPES.map((t) => Type.Literal(t))),
  timestampMs: Field(Type.Integer({ minimum: 0 })),
  value: Field(Type.Number({ description: 'the reading behind the event, when there is one' })),
});
export const SmartSensorEventResponse = ResponseOf({
  policyAlertUuids: Field(Type.Array(Ruuid())),
  savedClipUuids: Field(Type.Array(Ruuid())),
  ignored: Field(Type.Boolean({ description: 'true when the integration is off, the alert type is disabled or the sensor is not mapped' })),
});
