import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { RefUuid, NotRef } from '../../../schemas/record-kinds.js';
import { PLATFORM_DEVICE_TYPES } from '../../../schemas/device-types.js';

export const PRODUCT_TYPES = ['DEVICE', 'ALERT_MONITORING', 'ACCESS_CONTROL', 'LICENSE_USAGE'] as const;
export const LICENSE_TYPES = ['STARTER', 'STANDARD', 'ENTERPRISE', 'LEGACY'] as const;
export const LICENSE_FAMILIES = ['CAMERA', 'CAMERA_MS', 'VIDEO_INTERCOM', 'AUDIO_GATEWAY', 'ENVIRONMENTAL_SENSOR', 'ENVIRONMENTAL_GATEWAY'] as const;
export const ADD_ONS = ['CLOUD_ARCHIVING', 'PERCEPTION', 'POSE', 'BEHAVIOR', 'VEHICLE', 'PEOPLE', 'PPE', 'PEOPLE_ANALYTICS'] as const;
export const DEVICE_TYPES = PLATFORM_DEVICE_TYPES;

const DateTime = () => Type.String({ format: 'date-time' });
/** The fields every kind of license answers. */
const common = {
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  claimKeyUuid: Field(Ruuid()),
  priorClaimKeyUuid: Field(Ruuid()),
  productCode: Field(Type.String()),
  productType: Field(StringEnum([...PRODUCT_TYPES, 'UNKNOWN'])),
  state: Field(StringEnum(['CLAIMED', 'RENEWED', 'PENDING_RETURN', 'NOT_RENEWED', 'EXPIRED', 'PERMANENTLY_EXPIRED'])),
  trial: Field(Type.Boolean()),
  createdOn: Field(DateTime()),
  updatedOn: Field(DateTime()),
  firstAssignedDate: Field(DateTime()),
  maxDeleteDate: Field(DateTime()),
};

export const DeviceLicense = Type.Object({
  ...common,
  deviceType: Field(StringEnum(DEVICE_TYPES)),
  deviceUuid: Field(Ruuid()),
  licenseFamily: Field(StringEnum(LICENSE_FAMILIES)),
  licenseType: Field(StringEnum(LICENSE_TYPES)),
  features: Field(Type.Array(Type.Object({ name: Field(Type.String()), enabled: Field(Type.Boolean()) }))),
});
export const UsageLicense = Type.Object({
  ...common,
  addOnLicenseType: Field(StringEnum([...ADD_ONS, 'UNKNOWN'])),
  license: Field(StringEnum([...ADD_ONS, 'UNKNOWN'])),
  deviceType: Field(StringEnum(DEVICE_TYPES)),
  deviceUuid: Field(Ruuid()),
  licenseFamily: Field(StringEnum(LICENSE_FAMILIES)),
  cloudArchiveDays: Field(Type.Integer()),
});
export const DoorLicense = Type.Object({ ...common, doorUuid: Field(Ruuid()) });
export const AlertMonitoringLicense = Type.Object({
  ...common,
  licenseType: Field(StringEnum(LICENSE_TYPES)),
  locationUuid: Field(Ruuid()),
  deviceUuids: Field(Type.Array(Ruuid())),
  allowedDeviceCount: Field(Type.Integer()),
});

const licenseUuid = NotRef('handler', Field(Ruuid({ description: 'a license of the organization' })));
export const AssignDeviceLicenseRequest = Type.Object({
  licenseUuid,
  deviceUuid: Field(RefUuid('device', { description: 'a device of the organization', notFound: 'Device {id}' })),
});
export const AssignDoorLicenseRequest = Type.Object({
  licenseUuid,
  doorUuid: Field(RefUuid('door', { description: 'an access-controlled door of the organization', notFound: 'Door {id}' })),
});
export const AssignAlertMonitoringLicenseRequest = Type.Object({ licenseUuid, locationUuid: Field(RefUuid('location')) });
export const GetLicensesRequest = Type.Object({ optionalDeviceTypeFilter: Field(StringEnum(DEVICE_TYPES)) });
export const ClientOrgRequest = Type.Object({ orgUuid: NotRef('otherOrg', Field(Ruuid({ description: 'a client organization of the partner' }))) });
export const EmptyRequest = Type.Object({});

export const DeviceLicenseAnswer = ResponseOf({ deviceLicense: Field(DeviceLicense) });
export const UsageLicenseAnswer = ResponseOf({ licenseUsage: Field(UsageLicense) });
export const DoorLicenseAnswer = ResponseOf({ acuDoorLicense: Field(DoorLicense) });
export const AlertMonitoringLicenseAnswer = ResponseOf({ alertMonitoringLicense: Field(AlertMonitoringLicense) });
export const DeviceLicensesAnswer = ResponseOf({ deviceLicenses: Field(Type.Array(DeviceLicense)) });
export const UsageLicensesAnswer = ResponseOf({ licenses: Field(Type.Array(UsageLicense)) });
export const DoorLicensesAnswer = ResponseOf({ acuDoorLicenses: Field(Type.Array(DoorLicense)) });
export const AlertMonitoringLicensesAnswer = ResponseOf({ alertMonitoringLicenses: Field(Type.Array(AlertMonitoringLicense)) });
