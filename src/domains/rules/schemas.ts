import { Type, type Static } from 'typebox';
import { EmptyRequest, EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { ALERT_DEVICE_TYPES } from '../events/alerts/schemas.js';
import { NotRef, RefUuid } from '../../schemas/record-kinds.js';

/** The platform's ButtonPressEnum: what a rule is triggered by and what a press reports. */
export const BUTTON_PRESSES = ['NONE', 'SINGLE', 'DOUBLE', 'LONG', 'INITIAL_PRESS', 'LONG_RELEASE'] as const;
export type ButtonPress = (typeof BUTTON_PRESSES)[number];
export const INTEGRATIONS = [
  'AVIGILON_ALTA',
  'BRIVO',
  'BUTTERFLY_MX',
  'DEVICE_INTEGRATION',
  'DICE',
  'ENVOY',
  'FLIC',
  'GENEA',
  'GOOGLE',
  'GUEST_MANAGEMENT',
  'INFORMACAST',
  'INNER_RANGE',
  'KISI',
  'LUMEO',
  'MICROSOFT_TEAMS',
  'OMNIALERT',
  'OPENAI',
  'OPENTECH_ALLIANCE',
  'PIMLOC',
  'PLACE_OS',
  'PRODATAKEY',
  'SHELLY',
  'TOAST',
  'WEBHOOKS',
  'ZAPIER',
  'RAPTOR',
  'NINEONEONE_CELLULAR',
  'SLACK',
  'APERIO',
  'PAR_POS',
  'UNKNOWN',
] as const;
export const DOOR_SYSTEMS = ['BRIVO', 'OPENPATH', 'KISI', 'PLACEOS', 'GENEA', 'PDK', 'INNER_RANGE', 'RHOMBUS', 'UNKNOWN'] as const;
export const ACCESS_STATES = ['UNLOCKED', 'ACCESS_CONTROLLED'] as const;
export const EXPIRATION_STRATEGIES = ['TIME_DELAY', 'TIME_OF_DAY_LOCAL', 'NONE'] as const;
export const RELAY_OUTPUT_TYPES = ['TRANSIENT', 'STEADY'] as const;
export const RELAY_STATES = ['ACTIVE', 'INACTIVE', 'UNKNOWN'] as const;

const str = (maxLength = 2000) => Field(Type.String({ maxLength }));
const int = (minimum = 0, maximum = 2_147_483_647) => Field(Type.Integer({ minimum, maximum }));
const bool = () => Field(Type.Boolean());
const ruuid = () => Field(Ruuid());
// The ids of an action that checkRuleReferences resolves (rule-references.ts), by device kind, before a rule is kept.
const checked = () => Field(NotRef('handler', Ruuid()));
/** A button of the organization: a foreign or made-up id is refused at the edge, another device by the service, both "Button not found". */
const Button = (description?: string) => RefUuid('device', { notFound: 'Button', ...(description ? { description } : {}) });
const list = <T extends Parameters<typeof Type.Array>[0]>(item: T, maxItems = 50) => Field(Type.Array(item, { maxItems }));
const Headers = Field(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 4000 }), { description: 'HTTP header name to value' }));
const secret = (what: string) => Field(Type.String({ maxLength: 2000, description: `${what}: write-only, kept encrypted, answered masked` }));

export const WebhookAction = Type.Object({
  webhookUrl: str(),
  headers: Headers,
  oauthUrl: str(),
  oauthClientId: Field(NotRef('external', Type.String({ maxLength: 2000 }))),
  oauthClientSecret: secret('client secret'),
  oauthGrantType: str(100),
  oauthScope: str(),
});

export const RuleAction = Type.Object(
  {
    alertAction: bool(),
    liveNotificationAction: bool(),
    activateLocationLockdown: Field(Type.Object({ locationLockdownPlanUuid: Field(RefUuid('lockdownPlan')), locationUuid: checked() })),
    audioPlaybackActions: list(
      // The clip is one of the gateway's own library, which Gatehouse does not keep.
      Type.Object({
        audioClipUuid: Field(NotRef('external', Ruuid())),
        audioGateways: list(NotRef('handler', Ruuid())),
        loopDurationSec: int(),
        playCount: int(),
      }),
    ),
    cancelLoopingAudioPlaybackAction: Field(
      Type.Object({ _audioDevices: list(NotRef('handler', FacetId())), audioDevices: list(NotRef('handler', FacetId())) }),
    ),
    changeComponentCompositeAccessStateActions: list(
      Type.Object({
        accessState: Field(StringEnum(ACCESS_STATES)),
        alwaysCreateOverrideIfNoFirstIn: bool(),
        componentCompositeUuid: checked(),
        expirationStrategy: Field(StringEnum(EXPIRATION_STRATEGIES)),
        expireTimeDelaySeconds: int(0, 7 * 86_400),
        expireTimeOfDayLocalSeconds: int(0, 86_399),
        useFirstInRulesIfPossible: bool(),
        version: int(),
      }),
    ),
    connectAudioDeviceToPhoneNumberAction: Field(
      Type.Object({
        audioDeviceUuid: checked(),
        deviceType: Field(StringEnum(ALERT_DEVICE_TYPES)),
        doorUuid: checked(),
        optionalGreeting: str(),
        phoneNumber: str(40),
      }),
    ),
    customActions: list(Type.Object({ headers: Headers, path: str() })),
    customLLMActions: list(
      Type.Object({
        deviceActivityEvents: Field(Type.Record(Type.String(), Type.Unknown())),
        deviceFacetUuids: list(NotRef('handler', FacetId())),
        orgUuid: checked(),
        promptUuid: Field(RefUuid('prompt')),
        timestampMs: Field(EpochMs()),
      }),
    ),
    enableDisableAudioRecordActions: list(Type.Object({ audioDeviceUuid: checked(), enable: bool() })),
    integrationCommandActions: list(Type.Object({ commandPayload: str(20_000), delaySecs: int(0, 3600), integration: Field(StringEnum(INTEGRATIONS)) })),
    integrationNotificationActions: list(Type.Object({ integration: Field(StringEnum(INTEGRATIONS)), notificationEntity: str(), notificationTarget: str() })),
    remoteDoorUnlockActions: list(
      Type.Object({
        doorId: Field(NotRef('handler', Type.String({ maxLength: 200 }))),
        placeId: Field(NotRef('external', Type.String({ maxLength: 200 }))),
        system: Field(StringEnum(DOOR_SYSTEMS)),
      }),
    ),
    thirdPartyAudioPlaybackAction: Field(
      Type.Object({
        audioFileName: str(),
        ipAddress: str(100),
        loopDurationSec: int(),
        password: secret('password'),
        playCount: int(),
        proxyDeviceUuid: checked(),
        username: str(200),
      }),
    ),
    triggerComponentRelayActions: list(
      Type.Object({
        componentUuid: checked(),
        outputType: Field(StringEnum(RELAY_OUTPUT_TYPES)),
        overrideRelayDurationMs: int(0, 86_400_000),
        overrideRelayDurationSec: int(0, 86_400),
        ownerDeviceUuid: checked(),
        state: Field(StringEnum(RELAY_STATES)),
        version: int(),
      }),
    ),
    webhookActions: list(WebhookAction),
  },
  { description: 'What a rule does when it fires; every action runs independently of the others.' },
);
export type RuleAction = Static<typeof RuleAction>;

export const RuleFilters = Type.Object({
  scheduleUuids: Field(
    Type.Array(RefUuid('schedule', { notFound: '{path}: schedule' }), { maxItems: 50, description: 'at least one must contain the press; none: always' }),
  ),
  triggerBackoffSecs: int(0, 30 * 86_400),
});

export const ButtonRule = Type.Object({
  ruleUuid: Field(NotRef('subject', Ruuid())),
  ruleName: str(200),
  sensorUuid: checked(),
  triggerPress: Field(StringEnum(BUTTON_PRESSES)),
  ruleFilters: Field(RuleFilters),
  action: Field(RuleAction),
});
export type ButtonRule = Static<typeof ButtonRule>;

export const GetRulesForButtonRequest = Type.Object({
  sensorUuid: Type.Optional(Nullable(Button('the button; null: every button rule of the organization'))),
});
export const GetRulesForButtonResponse = ResponseOf({ rules: Field(Type.Array(ButtonRule)) });

export const CreateRuleForButtonRequest = Type.Object({ rule: ButtonRule });
export type CreateRuleForButtonRequest = Static<typeof CreateRuleForButtonRequest>;
export const CreateRuleForButtonResponse = ResponseOf({ ruleUuid: Field(Ruuid()) });

export const DeleteRuleForButtonRequest = Type.Object({
  ruleUuid: RefUuid('buttonRule', { notFound: 'Rule' }),
  sensorUuid: Type.Optional(Nullable(NotRef('handler', Ruuid()))),
});
export const DeleteRuleForButtonResponse = ResponseOf({});

export const GetButtonRulesForOrgRequest = EmptyRequest;
export const GetButtonRulesForOrgResponse = ResponseOf({ buttonUuidToRulesMap: Field(Type.Record(Type.String(), Type.Array(ButtonRule))) });

export const BUTTON_EVENT_PAGE = { default: 100, maximum: 1000 } as const;
export const GetButtonPressEventsForSensorRequest = Type.Object({
  sensorUuid: Button(),
  createdAfterMs: Type.Optional(Nullable(EpochMs())),
  createdBeforeMs: Type.Optional(Nullable(EpochMs())),
  limit: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: BUTTON_EVENT_PAGE.maximum, default: BUTTON_EVENT_PAGE.default }))),
});
export type GetButtonPressEventsForSensorRequest = Static<typeof GetButtonPressEventsForSensorRequest>;
export const ButtonEvent = Type.Object({
  uuid: ruuid(),
  orgUuid: ruuid(),
  locationUuid: ruuid(),
  componentUuid: ruuid(),
  ownerDeviceUuid: ruuid(),
  type: str(100),
  buttonPress: Field(StringEnum(BUTTON_PRESSES)),
  pressDurationMillis: Field(Type.Integer()),
  timestampMs: Field(Type.Integer()),
  createdAtMs: Field(Type.Integer()),
});
export type ButtonEvent = Static<typeof ButtonEvent>;
export const GetButtonPressEventsForSensorResponse = ResponseOf({ events: Field(Type.Array(ButtonEvent)) });

export const MinimalButtonState = Type.Object({
  sensorUuid: ruuid(),
  name: str(),
  locationUuid: ruuid(),
  serialNumber: str(),
  firmwareVersion: str(),
  health: str(),
  createdAtMillis: Field(Type.Integer()),
  associatedCameras: list(FacetId(), 1000),
  buttonMode: str(),
  floorNumber: Field(Type.Integer()),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  testModeEnabled: Field(Type.Boolean()),
  buttonEmergencyOnsiteContact: Field(Type.Object({ name: str(), phoneNumber: str() })),
});
export const GetMinimalButtonStateListResponse = ResponseOf({ states: Field(Type.Array(MinimalButtonState)) });

export const ActionOutcome = Type.Object({
  action: Type.String({ description: 'the action field, with its index for lists: webhookActions[0]' }),
  status: StringEnum(['SUCCESS', 'FAILED', 'QUEUED'] as const),
  detail: Field(Type.String()),
});
export type ActionOutcome = Static<typeof ActionOutcome>;
export const RuleFiring = Type.Object({
  uuid: Type.String(),
  ruleUuid: Type.String(),
  sensorUuid: Type.String(),
  pressUuid: Type.String(),
  firedAtMs: Type.Integer(),
  outcomes: Type.Array(ActionOutcome),
});
export type RuleFiring = Static<typeof RuleFiring>;
export const GetRuleFiringsForButtonRequest = Type.Object({
  sensorUuid: Button(),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: BUTTON_EVENT_PAGE.maximum, default: BUTTON_EVENT_PAGE.default })),
});
export const GetRuleFiringsForButtonResponse = ResponseOf({ firings: Field(Type.Array(RuleFiring)) });

export const WebhookSigningSecretResponse = ResponseOf({
  secret: Field(Type.String({ description: 'whsec_ followed by the base-64 key, as Standard Webhooks spells it' })),
});
