import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { DEVICE_STATUSES } from '../tables.js';

const DeviceStatus = Type.Enum(DEVICE_STATUSES);

/** The reference's MinimalDeviceStateType, with the fields Gatehouse keeps (and the camera's MAC address). */
export const MinimalCameraState = Type.Object({
  uuid: Field(Ruuid()),
  name: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  connectionStatus: Field(DeviceStatus),
  healthStatus: Field(DeviceStatus),
  healthStatusDetails: Field(Type.String({ description: 'DISCONNECTED when the connection is RED, NONE when healthy' })),
  firmwareVersion: Field(Type.String()),
  serialNumber: Field(Type.String()),
  supportedFacets: Field(Type.Array(Type.String(), { description: 'facet suffixes, e.g. v0: the device facet ids are <uuid>.<facet>' })),
  facetNameMap: Field(Type.Record(Type.String(), Type.String())),
  macAddress: Field(Type.String()),
  defaultInterfaceMac: Field(Type.String()),
  mummified: Field(Type.Boolean()),
  createdAtMillis: Field(Type.Integer()),
});

export const GetMinimalCameraStateListRequest = Type.Object({
  includeMummified: Field(Type.Boolean({ description: 'accepted; no camera is mummified here' })),
});
export const GetMinimalCameraStateListResponse = ResponseOf({ cameraStates: Field(Type.Array(MinimalCameraState)) });

export const DeleteThirdPartyCameraDiscoveryRequest = Type.Object({
  thirdPartyCameraMacAddress: Type.String({ maxLength: 64, description: 'MAC address, in any usual spelling (00:11:22:aa:bb:cc, 00-11-..., 0011.22aa.bbcc)' }),
});
/** `{}` on success (the specification's answer); the envelope on failure. */
export const DeleteThirdPartyCameraDiscoveryResponse = ResponseOf({});
