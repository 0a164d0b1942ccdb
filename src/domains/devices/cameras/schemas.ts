import { Type } from 'typebox';
import { Field, Own, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { DEVICE_STATUSES } from '../tables.js';
import { UptimeWindows } from './camera-details.schemas.js';

const DeviceStatus = Type.Enum(DEVICE_STATUSES);

/** The reference's MinimalDeviceStateType, with the fields Gatehouse keeps (the MAC address as defaultInterfaceMac). */
export const MinimalCameraState = Type.Object({
  uuid: Field(Ruuid()),
  name: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  connectionStatus: Field(DeviceStatus),
  healthStatus: Field(DeviceStatus),
  healthStatusDetails: Field(Type.String({ description: 'DISCONNECTED when the connection is RED, NONE when healthy' })),
  firmwareVersion: Field(Type.String({ description: "'' while the camera has not reported one" })),
  serialNumber: Field(Type.String({ description: "'' while unknown" })),
  hwVariation: Field(Type.String({ description: "the hardware model the camera registered as; '' while unknown" })),
  supportedFacets: Field(Type.Array(Type.String(), { description: 'facet suffixes, e.g. v0: the device facet ids are <uuid>.<facet>' })),
  facetNameMap: Field(Type.Record(Type.String(), Type.String())),
  defaultInterfaceMac: Field(Type.String()),
  lanAddresses: Field(Type.Array(Type.String(), { description: 'the addresses the camera answers on its local network; empty while unknown' })),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  directionRadians: Field(Type.Number({ description: 'where the camera points, as set by updateDetails' })),
  liveStreamShared: Field(Type.Boolean({ description: 'whether a shared live stream of the camera is open (not expired)' })),
  mummified: Field(Type.Boolean()),
  createdAtMillis: Field(Type.Integer()),
});

export const GetMinimalCameraStateListRequest = Type.Object({
  includeMummified: Field(Type.Boolean({ description: 'accepted; no camera is mummified here' })),
});
export const GetMinimalCameraStateListResponse = ResponseOf({
  cameraStates: Field(Type.Array(MinimalCameraState)),
  uptimeWindows: Field(
    Own(
      Type.Record(Type.String(), UptimeWindows, { description: 'camera uuid -> its online windows of the last day, from its connection history' }),
      'the platform MCP server reads it (client-calls.md)',
    ),
  ),
});

export const DeleteThirdPartyCameraDiscoveryRequest = Type.Object({
  thirdPartyCameraMacAddress: Type.String({ maxLength: 64, description: 'MAC address, in any usual spelling (00:11:22:aa:bb:cc, 00-11-..., 0011.22aa.bbcc)' }),
});
/** `{}` on success (the specification's answer); the envelope on failure. */
export const DeleteThirdPartyCameraDiscoveryResponse = ResponseOf({});
