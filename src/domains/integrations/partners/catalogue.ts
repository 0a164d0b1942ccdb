import { SECRET_TYPES, type FieldType } from './fields.js';

/**
 * The integration partners whose settings the one engine (engine.ts) serves: per partner, the operations of
 * the platform's catalogue that read, write and delete its settings, and its settings fields, written by us
 * from the catalogue's field names and types (fields.ts says what each type means). Every partner's settings
 * are one integration record per organization (kind = the key below), shared by its V1 and V2 operations.
 * Adding a partner is adding an entry here (docs/integrations.md).
 */

/** One operation on a partner's settings. */
export interface SettingsOp {
  verb: 'update' | 'get' | 'delete';
  path: string;
  /** The catalogue's operationId when it is not the path's last segment (`Dep` for an un-prefixed twin). */
  operationId?: string;
  /** The operation this deprecated path is the older name of. */
  successor?: string;
  /** update: the request property the settings come in; null when they come at the top of the body. */
  body?: string | null;
  /** update: other request fields the catalogue lists beside the settings (read and validated, not kept). */
  extra?: Readonly<Record<string, FieldType>>;
  /** get: `v2` answers {orgIntegrationV2: ...}; a name answers {<name>: settings}. */
  answer?: string;
}

export interface PartnerSpec {
  /** How answers and messages name the partner. */
  title: string;
  /** The catalogue's IntegrationEnum name (the V2 answers' `integration`). */
  integration: string;
  /** The property of getOrgIntegrations' answer that holds the settings; absent: the catalogue's listing has none, and it is left out. */
  listedAs?: string;
  fields: Readonly<Record<string, FieldType>>;
  /**
   * The fields each read answers, from the catalogue's answer types; a stored field not named is never answered
   * (answers.ts). `settings`: its settings object (OrgIntegrationsType's field under listedAs, or its get's named
   * answer); `v2`: its V2 type beside IBaseIntegrationType's fields (absent: no V2 answer, and the V2 listing
   * leaves it out).
   */
  answers: { settings?: readonly string[]; v2?: readonly string[] };
  ops: readonly SettingsOp[];
  /**
   * The server generates, on the first save, the token that names the partner's inbound webhook (answered by the
   * update and the read, as the badge integration's webhookUuid is).
   */
  generatesWebhookToken?: boolean;
}

const P = '/api/integrations';
const ac = (name: string) => `${P}/accessControl/${name}`;
const im = (name: string) => `${P}/incidentManagement/${name}`;
const iot = (name: string) => `${P}/IoT/${name}`;
const sm = (name: string) => `${P}/serviceManagement/${name}`;
const st = (name: string) => `${P}/storage/${name}`;

const update = (path: string, body: string | null, more: Partial<SettingsOp> = {}): SettingsOp => ({ verb: 'update', path, body, ...more });
const get = (path: string, answer = 'v2', more: Partial<SettingsOp> = {}): SettingsOp => ({ verb: 'get', path, answer, ...more });
const remove = (path: string, more: Partial<SettingsOp> = {}): SettingsOp => ({ verb: 'delete', path, ...more });
/** The un-prefixed, deprecated twin of an operation (`/api/integrations/deleteAmtIntegration`), as the catalogue names it. */
const twin = (op: SettingsOp): SettingsOp => {
  const name = op.path.split('/').at(-1)!;
  return { ...op, path: `${P}/${name}`, operationId: `${name}Dep`, successor: op.path };
};
/** The ops of a path and its deprecated twin. */
const withTwin = (op: SettingsOp) => [op, twin(op)];

/** The fields of every badge-style access-control partner (a door map whose badge events mark footage). */
const badge = {
  alertUnauthorizedFaces: 'bool',
  createSeekPoints: 'bool',
  doorInfoMap: 'doors',
  identifyFacesFromBadge: 'bool',
  saveClips: 'bool',
  rhombusToken: 'secret',
} as const;
/** A settings answer with the enabling fields (the catalogue's settings types have them, Noonlight's aside). */
const withEnabling = (...names: string[]) => ['enabled', 'enabledTimestampMs', 'enablingUser', 'enablingUserUuid', ...names];
const badgeV2 = { ...badge, badgeAuthDisablesAlarmMonitoring: 'bool', indexFaces: 'bool' } as const;

export const PARTNERS = {
  AMT: {
    title: 'AMT',
    integration: 'AMT',
    listedAs: 'amtSettings',
    answers: {
      settings: withEnabling(
        'alertUnauthorizedFaces',
        'createSeekPoints',
        'doorInfoMap',
        'email',
        'identifyFacesFromBadge',
        'password',
        'rhombusToken',
        'saveClips',
        'webhookId',
        'webhookSignatureSecret',
      ),
    },
    fields: { ...badge, email: 'text', password: 'secret', webhookId: 'int', webhookSignatureSecret: 'secret' },
    ops: [...withTwin(update(ac('updateAmtIntegration'), 'amtSettings')), ...withTwin(remove(ac('deleteAmtIntegration')))],
  },
  AVIGILON_ALTA: {
    title: 'Avigilon Alta',
    integration: 'AVIGILON_ALTA',
    answers: {
      v2: [
        'alertUnauthorizedFaces',
        'apiToken',
        'badgeAuthDisablesAlarmMonitoring',
        'createSeekPoints',
        'doorInfoMap',
        'doorToCameraMap',
        'doorsValidated',
        'email',
        'eventToWebhookIdMap',
        'eventToWebhookMap',
        'identifyFacesFromBadge',
        'indexFaces',
        'misconfiguredDoors',
        'password',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'tokenValid',
        'webhookId',
      ],
    },
    fields: {
      ...badgeV2,
      apiToken: 'secret',
      doorToCameraMap: 'cameraMap',
      email: 'text',
      password: 'secret',
      refreshToken: 'secret',
      eventToWebhookIdMap: 'intMap',
      eventToWebhookMap: 'records',
      webhookId: 'int',
    },
    ops: [
      update(ac('updateAvigilonAltaIntegrationV2'), 'avigilonAltaSettings'),
      get(ac('getAvigilonAltaIntegration')),
      remove(ac('deleteAvigilonAltaIntegrationV2')),
    ],
  },
  BOULEVARD: {
    title: 'Boulevard',
    integration: 'BOULEVARD',
    // Not listed by getOrgIntegrations; its get answers its settings (the catalogue's IBoulevardType is not defined).
    answers: {
      settings: withEnabling(
        'accessWindowAfterMinutes',
        'accessWindowBeforeMinutes',
        'apiToken',
        'boulevardBusinessId',
        'boulevardLocationToRhombusLocationMap',
      ),
    },
    fields: {
      accessWindowAfterMinutes: 'int',
      accessWindowBeforeMinutes: 'int',
      apiToken: 'secret',
      boulevardBusinessId: 'partnerId',
      boulevardLocationToRhombusLocationMap: 'locationMap',
    },
    ops: [update(ac('updateBoulevardIntegration'), null), get(ac('getBoulevardIntegration'), 'settings'), remove(ac('deleteBoulevardIntegration'))],
  },
  BRIVO: {
    title: 'Brivo',
    integration: 'BRIVO',
    listedAs: 'brivoSettings',
    answers: {
      settings: withEnabling(
        'accessToken',
        'alertUnauthorizedFaces',
        'clientId',
        'clientSecret',
        'createSeekPoints',
        'doorInfoMap',
        'doorToCameraMap',
        'identifyFacesFromBadge',
        'migrated',
        'password',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'username',
        'webhookId',
      ),
      v2: [
        'accessToken',
        'alertUnauthorizedFaces',
        'apiKey',
        'apiToken',
        'badgeAuthDisablesAlarmMonitoring',
        'clientId',
        'clientSecret',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'indexFaces',
        'misconfiguredDoors',
        'password',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'tokenValid',
        'username',
        'version',
        'webhookId',
      ],
    },
    fields: {
      ...badgeV2,
      accessToken: 'secret',
      apiKey: 'secret',
      apiToken: 'secret',
      clientId: 'partnerId',
      clientSecret: 'secret',
      doorToCameraMap: 'cameraMap',
      migrated: 'bool',
      password: 'secret',
      refreshToken: 'secret',
      username: 'text',
      version: 'int',
      webhookId: 'int',
    },
    ops: [
      update(ac('updateBrivoIntegration'), 'brivoSettings'),
      update(ac('updateBrivoIntegrationV2'), 'brivoSettings'),
      get(ac('getBrivoIntegrationV2')),
      remove(ac('deleteBrivoIntegration')),
      remove(ac('deleteBrivoIntegrationV2')),
    ],
  },
  BUTTERFLY_MX: {
    title: 'ButterflyMX',
    integration: 'BUTTERFLY_MX',
    listedAs: 'butterflymxSettings',
    answers: {
      settings: withEnabling('buildingWebhookIdMap', 'createSeekPoints', 'indexFaces', 'migrated', 'panelInfoMap', 'refreshToken', 'rhombusToken', 'saveClips'),
      v2: [
        'alertUnauthorizedFaces',
        'apiToken',
        'badgeAuthDisablesAlarmMonitoring',
        'buildingWebhookIdMap',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'indexFaces',
        'misconfiguredDoors',
        'panelInfoMap',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'tokenValid',
      ],
    },
    fields: { ...badgeV2, apiToken: 'secret', buildingWebhookIdMap: 'textMap', panelInfoMap: 'records', refreshToken: 'secret', migrated: 'bool' },
    ops: [
      update(ac('updateButterflymxIntegration'), 'settings'),
      update(ac('updateButterflymxIntegrationV2'), 'butterflymxSettings'),
      get(ac('getButterflymxIntegrationV2')),
      remove(ac('deleteButterflymxIntegration')),
      remove(ac('deleteButterflymxIntegrationV2')),
    ],
  },
  INNER_RANGE: {
    title: 'Inner Range',
    integration: 'INNER_RANGE',
    answers: { v2: ['apiToken', 'consoleToSettingsMap', 'createSeekPoints', 'doorInfoMap', 'refreshToken', 'skyTunnelSN', 'tokenValid'] },
    fields: {
      apiToken: 'secret',
      consoleToSettingsMap: 'records',
      createSeekPoints: 'bool',
      doorInfoMap: 'records',
      refreshToken: 'secret',
      skyTunnelSN: 'text',
    },
    ops: [update(ac('updateInnerRangeIntegration'), 'innerRangeSettings'), get(ac('getInnerRangeIntegration')), remove(ac('deleteInnerRangeIntegration'))],
  },
  KISI: {
    title: 'Kisi',
    integration: 'KISI',
    listedAs: 'kisiSettings',
    answers: {
      settings: withEnabling(
        'alertUnauthorizedFaces',
        'apiSecretKey',
        'createSeekPoints',
        'defaultOptions',
        'doorInfoMap',
        'doorToCameraMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'migrated',
        'placeId',
        'placeToSettingsMap',
        'rhombusToken',
        'saveClips',
        'webhookId',
      ),
      v2: ['apiSecretKey', 'defaultOptions', 'doorsValidated', 'placeToSettingsMap'],
    },
    fields: {
      ...badge,
      apiSecretKey: 'secret',
      defaultOptions: 'object',
      doorToCameraMap: 'cameraMap',
      migrated: 'bool',
      placeId: 'int',
      placeToSettingsMap: 'records',
      webhookId: 'int',
    },
    ops: [
      update(ac('updateKisiIntegration'), 'kisiSettings', { successor: ac('updateKisiIntegrationV2') }),
      update(ac('updateKisiIntegrationV2'), 'kisiSettings'),
      get(ac('getKisiIntegration'), 'kisiSettings', { successor: ac('getKisiIntegrationV2') }),
      get(ac('getKisiIntegrationV2')),
      remove(ac('deleteKisiIntegration'), { successor: ac('deleteKisiIntegrationV2') }),
      remove(ac('deleteKisiIntegrationV2')),
    ],
  },
  OPENPATH: {
    title: 'Openpath',
    integration: 'OPENPATH',
    listedAs: 'openpathSettings',
    answers: {
      settings: withEnabling(
        'alertUnauthorizedFaces',
        'createSeekPoints',
        'doorInfoMap',
        'doorToCameraMap',
        'email',
        'eventToWebhookIdMap',
        'eventToWebhookMap',
        'identifyFacesFromBadge',
        'migrated',
        'password',
        'rhombusToken',
        'saveClips',
        'webhookId',
      ),
    },
    fields: {
      ...badge,
      doorToCameraMap: 'cameraMap',
      email: 'text',
      password: 'secret',
      eventToWebhookIdMap: 'intMap',
      eventToWebhookMap: 'records',
      migrated: 'bool',
      webhookId: 'int',
    },
    ops: [update(ac('updateOpenpathIntegration'), 'openpathSettings'), remove(ac('deleteOpenpathIntegration'))],
  },
  OPENTECH_ALLIANCE: {
    title: 'OpenTech Alliance',
    integration: 'OPENTECH_ALLIANCE',
    listedAs: 'opentechAllianceSettings',
    answers: { settings: withEnabling('apiKey', 'apiSecret', 'facilityToSettingsMap', 'migrated'), v2: ['apiKey', 'apiSecret', 'facilityToSettingsMap'] },
    fields: { apiKey: 'secret', apiSecret: 'secret', facilityToSettingsMap: 'records', migrated: 'bool' },
    ops: [
      update(ac('updateOpentechAllianceIntegration'), 'opentechAllianceSettings'),
      update(ac('updateOpentechAllianceIntegrationV2'), 'opentechAllianceSettings'),
      get(ac('getOpentechAllianceIntegrationV2')),
      remove(ac('deleteOpentechAllianceIntegration')),
      remove(ac('deleteOpentechAllianceIntegrationV2')),
    ],
  },
  PRODATAKEY: {
    title: 'ProdataKey',
    integration: 'PRODATAKEY',
    listedAs: 'proDataKeySettings',
    answers: {
      settings: withEnabling(
        'alertUnauthorizedFaces',
        'badgeAuthDisablesAlarmMonitoring',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'misconfiguredDoors',
        'ouId',
        'rhombusToken',
        'saveClips',
        'webhookId',
        'webhookSignatureSecret',
      ),
      v2: [
        'alertUnauthorizedFaces',
        'apiToken',
        'badgeAuthDisablesAlarmMonitoring',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'indexFaces',
        'misconfiguredDoors',
        'organizationId',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'systemId',
        'tokenValid',
        'webhookId',
        'webhookSignatureSecret',
      ],
    },
    fields: {
      ...badgeV2,
      apiToken: 'secret',
      organizationId: 'partnerId',
      ouId: 'partnerId',
      refreshToken: 'secret',
      systemId: 'partnerId',
      webhookId: 'partnerId',
      webhookSignatureSecret: 'secret',
    },
    ops: [
      update(ac('updatePdkIntegration'), 'pdkSettings'),
      update(ac('updatePdkIntegrationV2'), 'pdkSettings'),
      get(ac('getPdkIntegration')),
      remove(ac('deletePdkIntegration')),
      remove(ac('deletePdkIntegrationV2')),
    ],
  },
  PLACE_OS: {
    title: 'PlaceOS',
    integration: 'PLACE_OS',
    listedAs: 'placeOsSettings',
    answers: {
      settings: withEnabling(
        'alertUnauthorizedFaces',
        'apiUrl',
        'createSeekPoints',
        'doorInfoMap',
        'identifyFacesFromBadge',
        'migrated',
        'rhombusToken',
        'saveClips',
        'webhookSignatureSecret',
      ),
      v2: [
        'alertUnauthorizedFaces',
        'apiToken',
        'apiUrl',
        'badgeAuthDisablesAlarmMonitoring',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'identifyFacesFromBadge',
        'indexFaces',
        'misconfiguredDoors',
        'refreshToken',
        'rhombusToken',
        'saveClips',
        'tokenValid',
        'triggerNotification',
        'webhookSignatureSecret',
      ],
    },
    fields: {
      ...badgeV2,
      apiToken: 'secret',
      apiUrl: 'url',
      migrated: 'bool',
      refreshToken: 'secret',
      triggerNotification: 'bool',
      webhookSignatureSecret: 'secret',
    },
    ops: [
      update(ac('updatePlaceOsSettings'), 'placeOsSettings'),
      update(ac('updatePlaceOsSettingsV2'), 'placeOsSettings'),
      get(ac('getPlaceOsIntegrationV2')),
      remove(ac('deletePlaceOsIntegration')),
      remove(ac('deletePlaceOsIntegrationV2')),
    ],
  },
  DICE: {
    title: 'Dice',
    integration: 'DICE',
    listedAs: 'diceSettings',
    answers: { settings: withEnabling(), v2: [] },
    fields: {},
    ops: [update(im('updateDiceIntegration'), 'diceSettings'), get(im('getDiceIntegration')), remove(im('deleteDiceIntegration'))],
  },
  EMAIL: {
    title: 'Email',
    integration: 'EMAIL',
    listedAs: 'emailSettings',
    answers: { settings: withEnabling('emailAddresses') },
    fields: { emailAddresses: 'texts' },
    ops: [update(im('updateEmailIntegration'), 'emailSettings'), remove(im('deleteEmailIntegration'))],
  },
  INFORMACAST: {
    title: 'InformaCast',
    integration: 'INFORMACAST',
    answers: { v2: ['apiToken', 'refreshToken', 'tokenValid'] },
    fields: { apiToken: 'secret', refreshToken: 'secret' },
    ops: [update(im('updateInformacastIntegration'), 'informacastSettings'), get(im('getInformacastIntegration')), remove(im('deleteInformacastIntegration'))],
  },
  MICROSOFT_TEAMS: {
    title: 'Microsoft Teams',
    integration: 'MICROSOFT_TEAMS',
    listedAs: 'microsoftTeamsSettings',
    answers: {
      settings: withEnabling('webhookUrl'),
      v2: ['adminConsent', 'allowUserNotifications', 'microsoftTeamSettingsMap', 'microsoftTeamsUserSettingsMap', 'tenantId'],
    },
    fields: {
      adminConsent: 'bool',
      allowUserNotifications: 'bool',
      microsoftTeamSettingsMap: 'records',
      microsoftTeamsUserSettingsMap: 'records',
      tenantId: 'partnerId',
      webhookUrl: 'secretUrl',
    },
    ops: [
      update(im('updateMicrosoftTeamsIntegrationV2'), 'microsoftTeamsSettings', { extra: { teamsToUpdate: 'texts' } }),
      get(im('getMicrosoftTeamsIntegration')),
      remove(im('deleteMicrosoftTeamsIntegrationV2')),
    ],
  },
  OPENAI: {
    title: 'OpenAI',
    integration: 'OPENAI',
    answers: { v2: ['apiToken', 'baseUrl', 'defaultModel', 'refreshToken', 'tokenValid'] },
    fields: { apiToken: 'secret', baseUrl: 'url', defaultModel: 'text', refreshToken: 'secret' },
    ops: [
      ...withTwin(update(im('updateOpenAIIntegration'), 'openAISettings')),
      ...withTwin(get(im('getOpenAIIntegration'))),
      ...withTwin(remove(im('deleteOpenAIIntegration'))),
    ],
  },
  PAGER_DUTY: {
    title: 'PagerDuty',
    integration: 'PAGER_DUTY',
    listedAs: 'pagerDutySettings',
    answers: { settings: withEnabling('allLocationIntegrationKeys', 'integrationKey', 'locationToIntegrationKeysMap') },
    fields: { allLocationIntegrationKeys: 'texts', integrationKey: 'secret', locationToIntegrationKeysMap: 'textsByLocation' },
    ops: [update(im('updatePagerDutyIntegration'), 'pagerDutySettings'), remove(im('deletePagerDutyIntegration'))],
  },
  SLACK: {
    title: 'Slack',
    integration: 'SLACK',
    listedAs: 'slackSettingsV2',
    answers: {
      settings: withEnabling(
        'channelId',
        'channelName',
        'code',
        'orgAccessToken',
        'sendChannelNotifications',
        'sendUserNotifications',
        'userMap',
        'webhookUrl',
      ),
    },
    fields: {
      accessToken: 'secret',
      channel: 'text',
      channelId: 'partnerId',
      channelName: 'text',
      code: 'secret',
      orgAccessToken: 'secret',
      sendChannelNotifications: 'bool',
      sendUserNotifications: 'bool',
      userMap: 'records',
      webhookUrl: 'secretUrl',
    },
    ops: [
      update(im('updateSlackIntegration'), 'slackSettings'),
      update(im('updateSlackIntegrationV2'), 'slackSettingsV2', {
        extra: {
          adminRequest: 'bool',
          requestUrl: 'text',
          revokeUserAccessToken: 'bool',
          rhombusOrgUserUuid: 'user',
          userAssociate: 'bool',
          userRequest: 'bool',
        },
      }),
      remove(im('deleteSlackIntegrationV2')),
    ],
  },
  INTUIFACE: {
    title: 'Intuiface',
    integration: 'INTUIFACE',
    listedAs: 'intuifaceSettings',
    answers: { settings: withEnabling('deviceToTriggerMap') },
    fields: { deviceToTriggerMap: 'records' },
    ops: [update(iot('updateIntuifaceIntegration'), 'settings'), remove(iot('deleteIntuifaceIntegration'))],
  },
  OMNIALERT: {
    title: 'Omnialert',
    integration: 'OMNIALERT',
    answers: { v2: ['associatedCameras', 'saveClips', 'triggerNotification', 'webhookToken'] },
    fields: { associatedCameras: 'cameras', saveClips: 'bool', triggerNotification: 'bool' },
    generatesWebhookToken: true,
    ops: [update(iot('updateOmnialertIntegration'), 'omnialertSettings'), get(iot('getOmnialertIntegration')), remove(iot('deleteOmnialertIntegration'))],
  },
  SHELLY: {
    title: 'Shelly',
    integration: 'SHELLY',
    answers: { v2: ['canSendDiagnosticNotifications', 'diagnosticQuietPeriodSecs', 'shellyDeviceMap', 'thirdPartyDeviceToLocationMap'] },
    fields: {
      canSendDiagnosticNotifications: 'bool',
      diagnosticQuietPeriodSecs: 'int',
      shellyDeviceMap: 'records',
      thirdPartyDeviceToLocationMap: 'locationMap',
    },
    ops: [update(iot('updateShellyIntegration'), 'shellySettings'), get(iot('getShellyIntegration')), remove(iot('deleteShellyIntegration'))],
  },
  ENVOY: {
    title: 'Envoy',
    integration: 'ENVOY',
    listedAs: 'envoySettings',
    answers: {
      settings: withEnabling('createSeekPoints', 'envoyIntegrationInstalled', 'indexFaces', 'locationInfoMap', 'migrated', 'refreshToken', 'saveClips'),
      v2: [
        'alertUnauthorizedFaces',
        'apiToken',
        'badgeAuthDisablesAlarmMonitoring',
        'createSeekPoints',
        'doorInfoMap',
        'doorsValidated',
        'envoyIntegrationInstalled',
        'envoyUserSettingsMap',
        'identifyFacesFromBadge',
        'indexFaces',
        'locationInfoMap',
        'misconfiguredDoors',
        'refreshToken',
        'saveClips',
        'tokenValid',
      ],
    },
    fields: {
      ...badgeV2,
      apiToken: 'secret',
      envoyIntegrationInstalled: 'bool',
      envoyUserSettingsMap: 'records',
      locationInfoMap: 'records',
      migrated: 'bool',
      refreshToken: 'secret',
    },
    ops: [
      update(sm('updateEnvoyIntegration'), 'envoySettings', { successor: sm('updateEnvoyIntegrationV2') }),
      update(sm('updateEnvoyIntegrationV2'), 'envoySettings'),
      get(sm('getEnvoyIntegration')),
      remove(sm('deleteEnvoyIntegration'), { successor: sm('deleteEnvoyIntegrationV2') }),
      remove(sm('deleteEnvoyIntegrationV2')),
    ],
  },
  TOAST: {
    title: 'Toast',
    integration: 'TOAST',
    listedAs: 'toastSettings',
    answers: {
      settings: withEnabling('currentToastRestaurantGuid', 'migrated', 'posInfoMap', 'toastRestaurantInfoMap'),
      v2: ['currentToastRestaurantGuid', 'restaurantSettingsMap'],
    },
    fields: {
      currentToastRestaurantGuid: 'text',
      migrated: 'bool',
      posInfoMap: 'records',
      restaurantSettingsMap: 'records',
      toastRestaurantInfoMap: 'records',
    },
    ops: [
      update(sm('updateToastIntegration'), 'toastSettings', { successor: sm('updateToastIntegrationV2') }),
      update(sm('updateToastIntegrationV2'), 'toastSettings', { extra: { restaurantGuids: 'texts' } }),
      get(sm('getToastIntegration')),
      remove(sm('deleteToastIntegration'), { successor: sm('deleteToastIntegrationV2') }),
      remove(sm('deleteToastIntegrationV2')),
    ],
  },
  AWS: {
    title: 'AWS',
    integration: 'AWS',
    listedAs: 'awsSettings',
    answers: { settings: withEnabling('accessKey', 'bucketName', 'secretKey') },
    fields: { accessKey: 'secret', bucketName: 'text', secretKey: 'secret' },
    ops: [update(st('updateAwsIntegration'), 'awsSettings'), remove(st('deleteAwsIntegration'))],
  },
  BOX: {
    title: 'Box',
    integration: 'BOX',
    listedAs: 'boxSettings',
    answers: { settings: withEnabling('enterpriseId', 'folderId') },
    fields: { enterpriseId: 'partnerId', folderId: 'partnerId' },
    ops: [update(st('updateBoxIntegration'), 'boxSettings'), remove(st('deleteBoxIntegration'))],
  },
  DROPBOX: {
    title: 'Dropbox',
    integration: 'DROPBOX',
    listedAs: 'dropboxSettingsV2',
    answers: { settings: withEnabling('accessToken', 'accountEmail', 'accountName') },
    fields: { accessToken: 'secret', accountEmail: 'text', accountName: 'text' },
    ops: [update(st('updateDropboxIntegration'), 'dropboxSettings'), remove(st('deleteDropboxIntegration'))],
  },
  GOOGLE: {
    title: 'Google',
    integration: 'GOOGLE',
    listedAs: 'googleSettingsV2',
    answers: {
      settings: withEnabling(
        'defaultAlertFolderId',
        'defaultAlertFolderName',
        'defaultFolderId',
        'defaultFolderName',
        'refreshToken',
        'saveAllAlerts',
        'saveClips',
      ),
      v2: [
        'allowUserStorage',
        'apiToken',
        'defaultAlertFolderId',
        'defaultAlertFolderName',
        'defaultFolderId',
        'defaultFolderName',
        'refreshToken',
        'saveAllAlerts',
        'saveClips',
        'tokenValid',
        'userSettingsMap',
      ],
    },
    fields: {
      accountUser: 'text',
      folderId: 'partnerId',
      teamDriveId: 'partnerId',
      allowUserStorage: 'bool',
      apiToken: 'secret',
      defaultAlertFolderId: 'partnerId',
      defaultAlertFolderName: 'text',
      defaultFolderId: 'partnerId',
      defaultFolderName: 'text',
      refreshToken: 'secret',
      saveAllAlerts: 'bool',
      saveClips: 'bool',
      userSettingsMap: 'records',
    },
    ops: [
      update(st('updateGoogleIntegration'), 'googleSettings', { successor: st('updateGoogleIntegrationV2') }),
      update(st('updateGoogleIntegrationV2'), 'googleSettings'),
      get(st('getGoogleIntegration')),
      remove(st('deleteGoogleIntegration'), { successor: st('deleteGoogleIntegrationV2') }),
      remove(st('deleteGoogleIntegrationV2')),
    ],
  },
  OFFICE365: {
    title: 'Office 365',
    integration: 'OFFICE365',
    listedAs: 'office365Settings',
    answers: { settings: withEnabling('driveId', 'tenantId') },
    fields: { driveId: 'partnerId', tenantId: 'partnerId' },
    ops: [update(st('updateOffice365Integration'), 'office365Settings'), remove(st('deleteOffice365Integration'))],
  },
  NOONLIGHT: {
    title: 'Noonlight',
    integration: 'NOONLIGHT',
    listedAs: 'noonlightSettings',
    answers: {
      settings: [
        'acceptedTermsOfService',
        'defaultContactsByLocationMap',
        'defaultDelayByLocationsMap',
        'defaultPromptByLocationsMap',
        'emergencyContactsByLocationsMap',
        'enabled',
        'escalationSettingsByLocationsMap',
        'locationEntryInstructionsMap',
        'pinsByLocationMap',
        'verificationPrompt',
      ],
    },
    fields: {
      acceptedTermsOfService: 'bool',
      defaultContactsByLocationMap: 'contactByLocation',
      defaultDelayByLocationsMap: 'intByLocation',
      defaultPromptByLocationsMap: 'promptThemeByLocation',
      emergencyContactsByLocationsMap: 'recordsByLocation',
      escalationSettingsByLocationsMap: 'recordsByLocation',
      locationEntryInstructionsMap: 'textByLocation',
      pinsByLocationMap: 'recordsByLocation',
      verificationPrompt: 'text',
    },
    ops: [update(`${P}/updateNoonlightSettings`, 'noonlightSettings', { operationId: 'updateNoonlightSettings' })],
  },
  DEVICE_INTEGRATION: {
    title: 'Device',
    integration: 'DEVICE_INTEGRATION',
    answers: { v2: ['deviceSettingsMap'] },
    fields: { deviceSettingsMap: 'records' },
    ops: [
      update(`${P}/updateDeviceIntegration`, 'deviceIntegrationSettings', {
        operationId: 'updateDeviceIntegrationDep',
        extra: { createNewDevice: 'bool', latitude: 'number', longitude: 'number', name: 'text', updateDevice: 'bool', updateDeviceUuid: 'device' },
      }),
      get(`${P}/getDeviceIntegration`, 'v2', { operationId: 'getDeviceIntegrationDep' }),
      remove(`${P}/deleteDeviceIntegration`, { operationId: 'deleteDeviceIntegrationDep' }),
    ],
  },
  // Honeywell access control: no catalogue operation keeps their settings; the platform's CLI provisions their
  // inbound webhooks (honeywell.ts), where their panels post access events.
  HONEYWELL_ONGUARD: {
    title: 'Honeywell OnGuard',
    integration: 'HONEYWELL_ONGUARD',
    answers: {},
    fields: { ...badge, displayName: 'text', presharedSecret: 'secret' },
    generatesWebhookToken: true,
    ops: [],
  },
  HONEYWELL_ELEMENTS: {
    title: 'Honeywell Elements',
    integration: 'HONEYWELL_ELEMENTS',
    answers: {},
    fields: { ...badge, displayName: 'text' },
    generatesWebhookToken: true,
    ops: [],
  },
  HONEYWELL_NETBOX: {
    title: 'Honeywell NetBox',
    integration: 'HONEYWELL_NETBOX',
    answers: {},
    fields: { ...badge, displayName: 'text' },
    generatesWebhookToken: true,
    ops: [],
  },
} as const satisfies Record<string, PartnerSpec>;

export type PartnerKind = keyof typeof PARTNERS;
export const PARTNER_KINDS = Object.keys(PARTNERS) as PartnerKind[];

export const isPartnerKind = (kind: string): kind is PartnerKind => kind in PARTNERS;

/** The secret fields of a partner's settings: those of a secret type. */
export function partnerSecretFields(kind: PartnerKind): string[] {
  const fields: PartnerSpec['fields'] = PARTNERS[kind].fields;
  return Object.entries(fields)
    .filter(([, type]) => SECRET_TYPES.has(type))
    .map(([name]) => name);
}
