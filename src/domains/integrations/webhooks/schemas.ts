import { Type, type Static } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { Secret, WebhookSettings } from '../schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/**
 * Schemas of the organization's webhooks: the classic one-URL webhook (webhookSettings, in ../schemas.ts),
 * the V2 webhook URLs (IWebhooksType of the reference catalogue) and the automation tools' event
 * subscriptions (subscribeZapierWebhook).
 */
const Url = Type.String({ maxLength: 2000 });

export const UpdateWebhookIntegrationRequest = Type.Object({ webhookSettings: Field(WebhookSettings) });

export const WebhookInfo = Type.Object({
  webhookDisabled: Field(Type.Boolean({ description: 'no deliveries while true; set by the server when the receiver answers 410' })),
  webhookSecret: Field(Secret('the Standard Webhooks signing secret of this URL')),
});
export type WebhookInfo = Static<typeof WebhookInfo>;

const webhookMaps = {
  activityWebhooks: Field(Type.Record(Url, Type.String({ maxLength: 4096 }), { description: 'URL to its signing secret (older form of activityWebhooksV2)' })),
  activityWebhooksV2: Field(Type.Record(Url, WebhookInfo, { description: 'URLs that receive every policy alert' })),
  diagnosticWebhooks: Field(
    Type.Record(Url, Type.String({ maxLength: 4096 }), { description: 'URL to its signing secret (older form of diagnosticWebhooksV2)' }),
  ),
  diagnosticWebhooksV2: Field(Type.Record(Url, WebhookInfo, { description: 'URLs that receive every device diagnostic' })),
};

const AuditEvent = Type.Object({
  enabledTimestampMs: Field(Type.Integer()),
  integrationAuditEvent: Field(Type.Union([Type.Literal('UPDATE'), Type.Literal('DELETE')])),
  user: Field(Type.String()),
  userUuid: Field(Ruuid()),
});

/** The V2 webhooks as answered (WebhooksType): secrets masked. */
export const WebhooksIntegration = Type.Object({
  integration: Field(Type.String()),
  enabled: Field(Type.Boolean()),
  orgUuid: Field(Ruuid()),
  userUuid: Field(Ruuid()),
  integrationAuditMap: Field(Type.Record(Type.String(), AuditEvent)),
  ...webhookMaps,
});

/** The V2 webhooks as sent: the whole set of URLs; the integration fields are accepted and ignored. */
export const WebhooksInput = Type.Object({
  ...webhookMaps,
  enabled: Field(Type.Boolean({ description: 'false disables every URL' })),
  integration: Field(Type.String({ maxLength: 50 })),
  integrationAuditMap: Field(Type.Record(Type.String(), Type.Unknown())),
  orgUuid: Field(NotRef('callerOrg', Type.String({ maxLength: 100 }))),
  userUuid: Field(NotRef('handler', Type.String({ maxLength: 100 }))),
});
export type WebhooksInput = Static<typeof WebhooksInput>;

export const UpdateWebhookIntegrationV2Request = Type.Object({
  webhookUrl: Field(Type.String({ maxLength: 2000, description: 'adds this URL (or changes its webhookDisabled); its secret is answered once' })),
  isDiagnostic: Field(Type.Boolean({ description: 'webhookUrl receives device diagnostics rather than policy alerts' })),
  disabled: Field(Type.Boolean({ description: "webhookUrl's webhookDisabled" })),
  updatedWebhookSettings: Field(WebhooksInput),
});
export type UpdateWebhookIntegrationV2Request = Static<typeof UpdateWebhookIntegrationV2Request>;

export const UpdateWebhookIntegrationV2Response = ResponseOf({
  webhookSecret: Field(Type.String({ description: 'the signing secret generated for a new URL: answered this once, never again' })),
});

export const GetWebhookIntegrationResponse = ResponseOf({ orgIntegrationV2: Field(WebhooksIntegration) });

export const ZAP_KINDS = ['BUTTON_EVENTS', 'DOOR_SENSOR_EVENTS', 'ENVIRONMENTAL_SENSOR_EVENTS', 'RULE_EVENTS'] as const;
export type ZapKind = (typeof ZAP_KINDS)[number];
export const DOOR_STATES = ['OPEN', 'CLOSED', 'AJAR'] as const;

const Threshold = (what: string) => Field(Type.Number({ description: what }));
export const SubscribeZapierWebhookRequest = Type.Object({
  hookUrl: Field(Type.String({ maxLength: 2000, description: 'where the matching events are posted (required)' })),
  zapEnum: Field(StringEnum(ZAP_KINDS, 'which events (required)')),
  // Devices, doors or rules, of the kind the zap's events are of: its handler checks each against the organization.
  uuids: Field(
    NotRef(
      'handler',
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 1000,
        uniqueItems: true,
        description: 'only events of these devices, doors or rules; empty or absent: all',
      }),
    ),
  ),
  doorState: Field(StringEnum(DOOR_STATES, 'DOOR_SENSOR_EVENTS: only changes to this state')),
  tempLowerThreshold: Threshold('ENVIRONMENTAL_SENSOR_EVENTS: deliver when the temperature (°C) is below'),
  tempUpperThreshold: Threshold('ENVIRONMENTAL_SENSOR_EVENTS: deliver when the temperature (°C) is above'),
  humidityLowerThreshold: Threshold('ENVIRONMENTAL_SENSOR_EVENTS: deliver when the relative humidity (%) is below'),
  humidityUpperThreshold: Threshold('ENVIRONMENTAL_SENSOR_EVENTS: deliver when the relative humidity (%) is above'),
  backoffSec: Field(Type.Integer({ minimum: 0, maximum: 86_400, description: 'at most one delivery per this many seconds' })),
});
export type SubscribeZapierWebhookRequest = Static<typeof SubscribeZapierWebhookRequest>;

export const SubscribeZapierWebhookResponse = ResponseOf({ webhookId: Field(Ruuid({ description: 'names the subscription for unsubscribeZapierWebhook' })) });

export const UnsubscribeZapierWebhookRequest = Type.Object({ webhookId: Field(NotRef('external', Type.String({ maxLength: 100 }))) });
