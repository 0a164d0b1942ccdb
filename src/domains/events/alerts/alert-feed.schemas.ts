import { Type, type Static, type TSchema } from 'typebox';
import { Alias, EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ALERT_GROUP_PAGE, policyAlertListFields, PolicyAlertGroup, PolicyAlertV2, PolicyAlertV2Kept } from './schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** Schemas of the policy-alert feed beyond the device groups: org and location groups, V1 list, single reads, counts, dismissal, expiry, device health. */

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const groupCursor = {
  lastTimestampMs: Opt(Type.Integer({ description: 'pagination cursor: timestampMs of the last alert of the previous page; required together with lastUuid' })),
  lastUuid: Opt(
    NotRef('cursor', Ruuid({ description: 'pagination cursor: uuid of the last alert of the previous page; required together with lastTimestampMs' })),
  ),
  maxResults: Opt(
    Type.Integer({
      minimum: 1,
      maximum: ALERT_GROUP_PAGE.maximum,
      description: `Maximum number of alerts (not groups) in the page: default ${ALERT_GROUP_PAGE.default}, maximum ${ALERT_GROUP_PAGE.maximum}. A page holds whole groups only.`,
    }),
  ),
};

export const GetPolicyAlertGroupsV2Request = Type.Object(groupCursor);
export type GetPolicyAlertGroupsV2Request = Static<typeof GetPolicyAlertGroupsV2Request>;
export const GetPolicyAlertGroupsForLocationRequest = Type.Object({
  locationUuid: RefUuid('location', { description: 'location to query', notFound: true }),
  ...groupCursor,
});
export type GetPolicyAlertGroupsForLocationRequest = Static<typeof GetPolicyAlertGroupsForLocationRequest>;
export const PolicyAlertGroupsResponse = ResponseOf({ policyAlertGroups: Field(Type.Array(PolicyAlertGroup)) });

export const GetPolicyAlertsRequest = Type.Object({
  accessControlledDoorFilter: Opt(
    NotRef(
      'filter',
      Type.Array(Ruuid(), { maxItems: 1000, description: 'only alerts of these access-controlled doors (ACCESS_CONTROLLED_DOOR_POLICY_ALERT)' }),
    ),
  ),
  ...policyAlertListFields,
});
export type GetPolicyAlertsRequest = Static<typeof GetPolicyAlertsRequest>;
export const GetPolicyAlertsResponse = ResponseOf({ policyAlerts: Field(Type.Array(PolicyAlertV2)) });

export const GetPolicyAlertRequest = Type.Object({ policyAlertUuid: NotRef('handler', Ruuid()) });
export const GetPolicyAlertResponse = ResponseOf({ policyAlert: Field(PolicyAlertV2) });

export const ALERT_COUNT_CAP = { default: 1000, maximum: 100_000 } as const;
export const GetPolicyAlertCountRequest = Type.Object({
  maxResultsSize: Opt(
    Type.Integer({
      minimum: 1,
      maximum: ALERT_COUNT_CAP.maximum,
      description: `count at most this many alerts: default ${ALERT_COUNT_CAP.default}, maximum ${ALERT_COUNT_CAP.maximum}`,
    }),
  ),
});
export const GetPolicyAlertCountResponse = ResponseOf({
  count: Field(Type.Integer({ description: 'alerts in the feed (not dismissed), at most maxResultsSize' })),
});

export const DismissPolicyAlertRequest = Type.Object({
  alertUuid: NotRef('handler', Alias(Ruuid({ description: 'the alert to dismiss' }), ['policyAlertUuid'])),
});
export const DismissPolicyAlertsRequest = Type.Object({
  alertUuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000, uniqueItems: true })),
});
export const DismissAllPolicyAlertsForDeviceRequest = Type.Object({
  deviceUuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000, uniqueItems: true })),
});
export const DismissResponse = ResponseOf({});

export const UnSavePolicyAlertV2Request = Type.Object({
  alertUuid: Ruuid({ description: 'the saved alert' }),
  savedClipUuid: Opt(Ruuid({ description: "the clip saved from it; when given, it must be that alert's clip" })),
});

export const EXPIRING_PAGE = { default: 100, maximum: 1000 } as const;
export const GetExpiringPolicyAlertsRequest = Type.Object({
  withinMs: Opt(Type.Integer({ minimum: 1, maximum: 30 * 86_400_000, description: 'alerts that expire within this long from now: default one day' })),
  lastExpiresAtMs: Opt(Type.Integer({ description: 'pagination cursor (with lastUuid): expiresAtMs of the last alert of the previous page' })),
  lastUuid: Opt(NotRef('cursor', Ruuid())),
  maxResults: Opt(
    Type.Integer({ minimum: 1, maximum: EXPIRING_PAGE.maximum, description: `default ${EXPIRING_PAGE.default}, maximum ${EXPIRING_PAGE.maximum}` }),
  ),
});
export type GetExpiringPolicyAlertsRequest = Static<typeof GetExpiringPolicyAlertsRequest>;
export const GetExpiringPolicyAlertsResponse = ResponseOf({ policyAlerts: Field(Type.Array(PolicyAlertV2Kept)) });

export const UNHEALTHY_SYMPTOMS = ['POLICY_NOT_ASSIGNED', 'DOWN', 'SLOW_INTERNET'] as const;
export type UnhealthySymptom = (typeof UNHEALTHY_SYMPTOMS)[number];
export const UnhealthyDeviceAlert = Type.Object({
  uuid: Field(Type.String({ description: 'stable for the device and symptom: <deviceUuid>.<symptom>' })),
  deviceUuid: Field(Type.String()),
  orgUuid: Field(Type.String()),
  symptom: Field(StringEnum(UNHEALTHY_SYMPTOMS)),
  timestamp: Field(EpochMs("when the device's status last changed")),
});
export type UnhealthyDeviceAlert = Static<typeof UnhealthyDeviceAlert>;
export const GetUnhealthyDeviceAlertsResponse = ResponseOf({ unhealthyDeviceAlerts: Field(Type.Array(UnhealthyDeviceAlert)) });
