import { Type } from 'typebox';
import { EmptyRequest, Field, Own, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { CAMERA_CONFIG_FIELDS } from '../devices/cameras/camera-details.schemas.js';
import { ALERT_DEVICE_TYPES } from '../events/alerts/schemas.js';
import { ListedUser } from '../orgs/users/schemas.js';
import { NotRef } from '../../schemas/record-kinds.js';

/** The reference's partner client. */
export const PartnerClient = Type.Object({
  clientOrgUuid: Field(Ruuid()),
  clientOrgName: Field(Type.String()),
  authorityUuid: Field(Ruuid()),
  clientAccessAllowed: Field(Type.Boolean()),
  createdAtMillis: Field(Type.Integer()),
  totalLocations: Field(Type.Integer()),
  totalCameras: Field(Type.Integer()),
  totalAudioGateways: Field(Type.Integer()),
  totalBadgeReaders: Field(Type.Integer()),
  totalClimateSensors: Field(Type.Integer()),
});

export const GetClientsRequest = EmptyRequest;
/** The clients again, with `name` and `orgUuid`, as the platform's CLI reads them (client-calls.md). */
const CliPartnerClient = Type.Object({ ...PartnerClient.properties, orgUuid: Field(Ruuid()), name: Field(Type.String()) });
export const GetClientsResponse = ResponseOf({
  clients: Field(Type.Array(PartnerClient)),
  partnerClients: Field(Own(Type.Array(CliPartnerClient), "the platform's CLI resolves --partner-org by partnerClients[].name and .orgUuid")),
});

const Opt = Field;
const Str = Type.String();
const Int = Type.Integer();

export const PartnerDevice = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Str),
  serialNumber: Field(Str),
  type: Field(StringEnum(ALERT_DEVICE_TYPES)),
  createdAtMillis: Field(Int),
  deleted: Field(Type.Boolean()),
  pending: Field(Type.Boolean()),
  mummified: Field(Type.Boolean()),
});

export const ClientOrgRequest = Type.Object({ orgUuid: NotRef('otherOrg', Ruuid()) });
export const GetClientDevicesResponse = ResponseOf({
  devices: Field(
    Type.Array(Type.Object({ device: Field(PartnerDevice), partnerControlledHardware: Field(Type.Boolean()), reassignable: Field(Type.Boolean()) })),
  ),
});
export const AllClientDevicesRequest = EmptyRequest;
export const AllClientDevicesResponse = ResponseOf({ listOfAllClientDevices: Field(Type.Array(PartnerDevice)) });

const Counts = Type.Object({ connectedCount: Field(Int), operationalCount: Field(Int), totalCount: Field(Int) });
const CountsByType = Type.Record(Type.String(), Counts);
export const StatusMapRequest = EmptyRequest;
export const StatusMapResponse = ResponseOf({ clientDeviceStatusMap: Field(Type.Record(Type.String(), CountsByType)) });

export const ClientSummaryRequest = Type.Object({ clientOrgUuid: NotRef('otherOrg', Ruuid()) });
export const ClientSummaryResponse = ResponseOf({
  accountOwner: Field(ListedUser),
  clientDeviceStatusMap: Field(CountsByType),
  locationCount: Field(Int),
  recentPolicyAlertCount: Field(Type.Integer({ description: 'policy alerts of the last 24 hours' })),
  manuallySendLicenseExpirationEmailEnabled: Field(Type.Boolean()),
});

const Customizations = Type.Object({
  forceLowBandwidthOnAllCameras: Opt(Type.Boolean()),
  inactivityTimeout: Opt(Type.Integer({ minimum: 0, maximum: 10_080, description: 'minutes' })),
});
export const CustomizeClientRequest = Type.Object({ clientOrgUuid: NotRef('otherOrg', Ruuid()), customizations: Opt(Customizations) });
export const CustomizationsResponse = ResponseOf({ customizations: Field(Customizations) });
const configProperties = Object.fromEntries(Object.entries(CAMERA_CONFIG_FIELDS).map(([k, v]) => [k, Opt(v)]));
export const CustomizeClientDeviceRequest = Type.Object({
  clientOrgUuid: NotRef('otherOrg', Ruuid()),
  clientDeviceUuid: NotRef('handler', Ruuid()),
  configUpdate: Opt(
    Type.Object(configProperties, { additionalProperties: false, description: "settings of the client's camera (as camera/updateConfig takes them)" }),
  ),
  customizations: Opt(Customizations),
});

export const ReassignRequest = Type.Object({
  serialNumbers: Opt(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 1000 })),
  sourceOrgUuid: NotRef('otherOrg', Ruuid()),
  targetOrgUuid: NotRef('otherOrg', Ruuid()),
});
export const ReassignResponse = ResponseOf({
  statuses: Field(Type.Record(Type.String(), Type.Object({ status: Field(StringEnum(['SUCCESS', 'FAILURE'] as const)), message: Field(Str) }))),
});

export const SendLicenseEmailRequest = Type.Object({ orgUuid: NotRef('otherOrg', Ruuid()), manuallySendLicenseExpirationEmail: Type.Boolean() });
export const PartnerClientEnvelope = ResponseOf({});

export const ShipmentsRequest = Type.Object({
  clientOrgUuid: Opt(NotRef('otherOrg', Ruuid({ description: 'one client; absent: every client' }))),
  startTimeSec: Opt(Type.Integer({ minimum: 0, maximum: 32_503_680_000 })),
  endTimeSec: Opt(Type.Integer({ minimum: 0, maximum: 32_503_680_000 })),
});
export const ShipmentsResponse = ResponseOf({
  customerShipmentList: Field(
    Type.Array(
      Type.Object({
        uuid: Field(Ruuid()),
        'rhombus-orgUuid': Field(Ruuid()),
        'rhombus-partnerOrgUuid': Field(Ruuid()),
        'rhombus-salesForceOpportunityId': Field(Str),
        'rhombus-customerEmails': Field(Str),
        'ait-carrierTrackingNumber': Field(Str),
        'ait-shippedItems': Field(Type.Array(Type.Object({ partNumber: Field(Str), quantityShipped: Field(Int) }))),
        shipmentCategory: Field(Str),
        shipmentState: Field(Str),
        shipmentEmailState: Field(Str),
        lastStateUpdateSec: Field(Int),
      }),
    ),
  ),
});

const Token = {
  tokenUuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  displayName: Field(Str),
  authType: Field(StringEnum(['API_TOKEN', 'CERT'] as const)),
  clientType: Field(Str),
  permissionGroupUuid: Field(Ruuid()),
  clientDetails: Field(Type.Record(Type.String(), Type.String())),
};
export const TokensRequest = EmptyRequest;
export const TokensResponse = ResponseOf({ apiTokens: Field(Type.Array(Type.Object({ ...Token, hashed: Field(Type.Boolean()) }))) });
export const ApplicationsResponse = ResponseOf({ applications: Field(Type.Array(Type.Object(Token))) });
export const RevokeTokenRequest = Type.Object({ tokenUuid: NotRef('handler', Ruuid()) });

export const AvailableHardwareRequest = EmptyRequest;
export const AvailableHardwareResponse = ResponseOf({
  controlledHardwareList: Field(Type.Array(Type.Object({ serialNumber: Field(Str), macAddress: Field(Str), deviceType: Field(Str), deviceModel: Field(Str) }))),
});
export const RegisterCameraRequest = Type.Object({
  orgUuid: NotRef('otherOrg', Ruuid({ description: 'the client organization' })),
  serialNumber: Type.String({ minLength: 1, maxLength: 64, description: "a camera of the partner's available hardware" }),
  locationUuid: Type.Optional(NotRef('handler', Ruuid({ description: "a location of the client (checked in the client's organization)" }))),
  wifiSsid: Type.Optional(Type.String({ maxLength: 64 })),
  wifiPsk: Type.Optional(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 64, description: 'the Wi-Fi key, kept sealed and never answered' })),
});
export const RegisterDealRequest = Type.Object({ details: Type.Optional(Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 10_000 }))) });
export const RegisterDealResponse = ResponseOf({ clients: Field(Type.Array(PartnerClient)) });
export const GetDealsResponse = ResponseOf({
  deals: Field(Type.Array(Type.Object({ uuid: Field(Ruuid()), details: Field(Type.Record(Type.String(), Type.String())), createdAtMillis: Field(Int) }))),
});
