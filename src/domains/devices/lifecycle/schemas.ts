import { Type } from 'typebox';
import { FacetId, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { Description, Floor, Latitude, Longitude, Name, UpdateCameraDetailsV2Request } from '../cameras/camera-details.schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** Details updates, deletes and reboots of devices other than cameras' own (issue 19); shapes from the catalogue. */
const Bool = Type.Boolean();
export const DeviceId = Type.Union([Ruuid(), FacetId()]);
/** The device a read or delete acts on: its handler finds it, of its class, in the organization. */
export const SubjectDeviceId = NotRef('subject', DeviceId);

// The fields a sensor shares with a camera's flagged update; a camera's own (custom data, direction, policy) are left out.
const {
  customData: _customData,
  customDataUpdated: _customDataUpdated,
  directionRadians: _directionRadians,
  directionRadiansUpdated: _directionRadiansUpdated,
  policyUuid: _policyUuid,
  policyUuidUpdated: _policyUuidUpdated,
  ...sharedDetails
} = UpdateCameraDetailsV2Request.properties;

/** The flagged details update every sensor and gateway takes: a field is set when its `<field>Updated` is true. */
export const UpdateDeviceDetailsRequest = Type.Object({
  ...sharedDetails,
  associatedCameras: Field(NotRef('handler', Type.Array(DeviceId, { maxItems: 100, description: 'cameras by uuid or facet id, each of the organization' }))),
  associatedCamerasUpdated: Field(Bool),
  policyUuid: Field(NotRef('handler', Ruuid({ description: 'accepted only as null: a sensor follows no policy here' }))),
  policyUuidUpdated: Field(Bool),
  subLocationsHierarchyKey: Field(Type.Object({ locationUuids: Field(NotRef('handler', Type.Array(Ruuid(), { maxItems: 20 }))) })),
  subLocationsHierarchyKeyUpdated: Field(Bool),
  deleted: Field(Bool),
  deletedUpdated: Field(Bool),
});
/** The fields of a sensor's details update, in the order they are set. */
export const DEVICE_DETAIL_FIELDS = [
  'name',
  'description',
  'locationUuid',
  'floorNumber',
  'latitude',
  'longitude',
  'associatedCameras',
  'policyUuid',
  'deleted',
] as const;

/** A proximity tag's details update: no location or placement (a tag moves), an image instead. */
export const UpdateProximitySensorDetailsRequest = Type.Object({
  uuid: NotRef('subject', Ruuid()),
  name: Field(Name),
  nameUpdated: Field(Bool),
  description: Field(Description),
  descriptionUpdated: Field(Bool),
  imageUrl: Field(Type.String({ maxLength: 2000, pattern: '^https?://\\S+$', description: 'an http(s) URL of a picture of the tagged asset' })),
  imageUrlUpdated: Field(Bool),
  policyUuid: Field(NotRef('handler', Ruuid({ description: 'accepted only as null: a tag follows no policy here' }))),
  policyUuidUpdated: Field(Bool),
  deletedUpdated: Field(Bool),
});
export const PROXIMITY_DETAIL_FIELDS = ['name', 'description', 'imageUrl', 'policyUuid'] as const;

export const RESPONSE_STATUSES = [
  'BASIC_AUTH_FAILED',
  'PASSWORD_MISMATCH',
  'SAME_PASSWORD',
  'USER_EXISTS',
  'USER_NOT_FOUND',
  'DEVICE_NOT_FOUND',
  'POLICY_NOT_FOUND',
  'LOCATION_NOT_FOUND',
  'ORG_NOT_FOUND',
  'BAD_INPUT',
  'SUCCESS',
  'PASSWORD_TOO_SHORT',
] as const;
const Mummify = Field(Type.Boolean({ description: 'accepted; nothing of a deleted device is kept either way' }));
/** A delete request: the device's id under the operation's own field name. */
export const DeleteDeviceRequest = <K extends string>(idField: K) =>
  Type.Object({ ...({ [idField]: NotRef('subject', Ruuid()) } as Record<K, ReturnType<typeof Ruuid>>), mummify: Mummify });
export const DeleteDeviceResponse = ResponseOf({ responseStatus: Field(StringEnum(RESPONSE_STATUSES)) });

export const REBOOT_RESULTS = ['REBOOT_SENT', 'DEVICE_OFFLINE'] as const;
export const RebootEnvironmentalGatewayRequest = Type.Object({ environmentalGatewayUuid: NotRef('handler', Ruuid()) });
export const RebootDeviceResponse = ResponseOf({ result: Field(StringEnum(REBOOT_RESULTS)) });

/** A button's details: every field given is set (the catalogue's request has no `<field>Updated` flags). */
export const BUTTON_MODES = ['PANIC', 'PROGRAMMABLE', 'DOORBELL', 'NONE'] as const;
export const UpdateButtonDetailsRequest = Type.Object({
  sensorUuid: NotRef('subject', Ruuid()),
  name: Field(Name),
  description: Field(Description),
  locationUuid: Field(RefUuid('location')),
  floorNumber: Field(Floor),
  latitude: Field(Latitude),
  longitude: Field(Longitude),
  associatedCameras: NotRef('handler', Field(Type.Array(DeviceId, { maxItems: 100, description: 'cameras by uuid or facet id, each of the organization' }))),
  buttonMode: Field(StringEnum(BUTTON_MODES)),
});

const EmergencyContact = Type.Object({
  name: Field(Type.String({ maxLength: 200 })),
  phoneNumber: Field(Type.String({ maxLength: 40, pattern: '^[+0-9 ()./-]*$' })),
});
export const UpdateButtonConfigRequest = Type.Object({
  configUpdate: Type.Object({
    deviceUuid: NotRef('subject', Ruuid()),
    orgUuid: NotRef('callerOrg', Field(Ruuid())),
    button_test_mode_enabled: Field(Type.Boolean({ description: 'presses are reported but fire no rule while on' })),
    button_emergency_onsite_contact: Field(EmergencyContact),
    lastModified: Field(Type.Integer({ description: 'accepted; the server stamps its own time' })),
  }),
});
