import { Type } from 'typebox';
import { EmptyRequest, EpochMs, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { RefUuid, NotRef } from '../../../schemas/record-kinds.js';
import { FullCameraState } from '../cameras/camera-details.schemas.js';
import { GetAudioGatewayUptimeWindowsRequest, GetAudioGatewayUptimeWindowsResponse } from '../device-reads/schemas.js';

/** Relays and NVRs and the third-party cameras behind them (issue 34); shapes from the reference catalogue. */

const Str = Type.String();
const Mac = Type.String({ minLength: 12, maxLength: 17, description: 'a MAC address, in any usual spelling' });
const RtspUrl = Type.String({ minLength: 8, maxLength: 2000, description: 'rtsp://host[:port]/path' });
const Secret = Type.String({ maxLength: 200 });
export const URL_STATUSES = ['UNKNOWN', 'NOT_REACHABLE', 'NOT_AUTHENTICATED', 'NOT_SUPPORTED', 'GOOD'] as const;
const UrlStatus = StringEnum(URL_STATUSES);

// --- NVRs ---

export const NvrUuidRequest = Type.Object({ nvruuid: NotRef('subject', Ruuid({ description: 'The NVR' })) });
export const RebootNvrRequest = Type.Object({ nvrUuid: NotRef('subject', Ruuid({ description: 'The NVR' })) });
export const RebootNvrResponse = ResponseOf({ result: Field(StringEnum(['REBOOT_SENT', 'DEVICE_OFFLINE'] as const)) });
export const UnregisterNvrResponse = ResponseOf({ responseStatus: Field(StringEnum(['SUCCESS', 'DEVICE_NOT_FOUND'] as const)) });
export const UpdateFirmwareResponse = ResponseOf({
  status: Field(StringEnum(['ALREADY_ON_THE_LATEST_FIRMWARE', 'UPDATE_STARTED', 'UNABLE_TO_REACH_DEVICE', 'FIRMWARE_UPDATE_ALREADY_IN_PROGESS'] as const)),
});

const NvrDetails = Type.Object({
  uuid: Field(Str),
  name: Field(Str),
  description: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  hwVariation: Field(Str),
  type: Field(Str),
  policyUuid: Field(Str),
  floorNumber: Field(Type.Integer()),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  directionRadians: Field(Type.Number()),
  facetNameMap: Field(Type.Record(Type.String(), Type.String())),
  deleted: Field(Type.Boolean()),
  pending: Field(Type.Boolean()),
  mummified: Field(Type.Boolean()),
  createdAtMillis: Field(EpochMs()),
});
export const GetNvrDetailsRequest = Type.Object({
  nvruuids: NotRef('filter', Field(Type.Array(Ruuid(), { maxItems: 1000, description: 'The NVRs; all of them when absent' }))),
});
export const GetNvrDetailsResponse = ResponseOf({ nvrs: Field(Type.Array(NvrDetails)) });

export const GetFullNvrStateRequest = Type.Object({ nvruuid: NotRef('subject', Ruuid({ description: 'The NVR' })), force: Field(Type.Boolean()) });
export const GetFullNvrStateResponse = ResponseOf({ fullNVRState: Field(FullCameraState) });

const MinimalDeviceState = {
  uuid: Field(Str),
  name: Field(Str),
  locationUuid: Field(Str),
  serialNumber: Field(Str),
  hwVariation: Field(Str),
  connectionStatus: Field(Str),
  healthStatus: Field(Str),
  firmwareVersion: Field(Str),
  firmwareUpdateInProgress: Field(Type.Boolean()),
  defaultInterfaceMac: Field(Str),
  floorNumber: Field(Type.Integer()),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  policyUuid: Field(Str),
  mummified: Field(Type.Boolean()),
  createdAtMillis: Field(EpochMs()),
};
export const GetMinimalNvrStatesResponse = ResponseOf({
  nvrstates: Field(
    Type.Array(
      Type.Object({ ...MinimalDeviceState, numThirdPartyCamerasAssigned: Field(Type.Integer()), numThirdPartyCamerasSupported: Field(Type.Integer()) }),
    ),
  ),
});

export const UpdateNvrRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'The NVR' })),
  name: Field(Type.String({ maxLength: 200 })),
  description: Field(Type.String({ maxLength: 2000 })),
  locationUuid: Field(RefUuid('location')),
  floorNumber: Field(Type.Integer({ minimum: -200, maximum: 500 })),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  directionRadians: Field(Type.Number()),
  nameUpdated: Field(Type.Boolean()),
  descriptionUpdated: Field(Type.Boolean()),
  locationUuidUpdated: Field(Type.Boolean()),
  floorNumberUpdated: Field(Type.Boolean()),
  latitudeUpdated: Field(Type.Boolean()),
  longitudeUpdated: Field(Type.Boolean()),
  directionRadiansUpdated: Field(Type.Boolean()),
});
export const EmptyResponse = ResponseOf({});

export const NvrUptimeRequest = GetAudioGatewayUptimeWindowsRequest;
export const NvrUptimeResponse = GetAudioGatewayUptimeWindowsResponse;

// --- Discoveries and RTSP endpoints ---

export const ExecuteDiscoveryRequest = Type.Object({
  deviceFilter: NotRef('filter', Field(Type.Array(Ruuid(), { maxItems: 1000, description: 'The relays and NVRs to scan with; all of them when absent' }))),
  locationFilter: Field(Type.Array(RefUuid('location'), { maxItems: 1000, description: 'Only relays and NVRs at these locations' })),
});

const RtspEndpoint = Type.Object({
  uuid: Field(Str),
  rtspUrl: Field(Str),
  username: Field(Str),
  password: Field(Type.String({ description: 'always masked' })),
  source: Field(StringEnum(['USER', 'ONVIF'] as const)),
  lastRtspUrlStatus: Field(UrlStatus),
});
export const GetRtspEndpointsRequest = Type.Object({ discoveredCameraMacAddress: Mac });
export const GetRtspEndpointsResponse = ResponseOf({ rtspEndpoints: Field(Type.Array(RtspEndpoint)) });

const Discovered = {
  macAddress: Field(Str),
  ipAddress: Field(Str),
  manufacturer: Field(Str),
  model: Field(Str),
  codec: Field(Str),
  orgUuid: Field(Str),
};
export const FindUnassignedResponse = ResponseOf({
  discoveries: Field(Type.Array(Type.Object({ ...Discovered, unassignedRtspEndpoints: Field(Type.Array(RtspEndpoint)) }))),
});

const DiscoveredCamera = Type.Object({
  ...Discovered,
  name: Field(Str),
  username: Field(Str),
  password: Field(Type.String({ description: 'always masked' })),
  rtspEndpoints: Field(Type.Array(Type.Omit(RtspEndpoint, ['username', 'password']))),
  lastVisibleMs: Field(Type.Record(Type.String(), Type.Integer())),
  createdOn: Field(Str),
  updatedOn: Field(Str),
});
export const DiscoveredCameraResponse = ResponseOf({ result: Field(DiscoveredCamera), rtspUrlStatus: Field(UrlStatus) });
const credentials = {
  username: Field(Type.String({ maxLength: 200 })),
  password: Field(Secret),
  trySavedCredentials: Field(Type.Boolean()),
};
export const ManualDiscoverRequest = Type.Object({ locationUuid: Field(RefUuid('location')), rtspUrl: RtspUrl, ...credentials });
export const AuthenticateRequest = Type.Object({
  thirdPartyCameraMacAddress: Mac,
  locationUuid: Field(RefUuid('location')),
  rtspUrl: Field(RtspUrl),
  ...credentials,
});

// --- Assignment ---

const assignment = {
  discoveredCameraMacAddress: Mac,
  locationUuid: RefUuid('location'),
  name: Field(Type.String({ maxLength: 200 })),
  rtspUrl: Field(RtspUrl),
};
export const AssignToNvrRequest = Type.Object({ ...assignment, nvruuid: NotRef('handler', Ruuid({ description: 'The NVR that records the camera' })) });
export const AssignToRelayCameraRequest = Type.Object(assignment);
export const AssignResponse = ResponseOf({ deviceUuid: Field(Str) });
export const UnassignRequest = Type.Object({
  thirdPartyCameraUuid: NotRef('subject', Field(Ruuid({ description: 'The third-party camera' }))),
  thirdPartyCameraMacAddress: Field(Mac),
  rtspUrl: Field(RtspUrl),
});

const ThirdPartyCamera = Type.Object({
  ...MinimalDeviceState,
  rtspUrl: Field(Str),
  manufacturer: Field(Str),
  model: Field(Str),
  codec: Field(Str),
  assignedNVRUuid: Field(Str),
  assignedRelayCameraUuid: Field(Str),
  discoveredByDeviceUuid: Field(Str),
  lastRtspUrlStatus: Field(UrlStatus),
  lastVisibleMs: Field(EpochMs()),
});
/** An NVR's cameras answer as the catalogue's camera record (CameraType); how each is reached is in the state list below. */
const AssignedCamera = Type.Pick(Type.Object(MinimalDeviceState), [
  'uuid',
  'name',
  'locationUuid',
  'serialNumber',
  'hwVariation',
  'floorNumber',
  'latitude',
  'longitude',
  'policyUuid',
  'mummified',
  'createdAtMillis',
]);
export const AssignedCamerasResponse = ResponseOf({ assignedCameras: Field(Type.Array(AssignedCamera)) });
export const ThirdPartyCameraStatesResponse = ResponseOf({ thirdPartyCameraStateList: Field(Type.Array(ThirdPartyCamera)) });

// --- PTZ ---

const Permyriad = Type.Integer({ minimum: -10000, maximum: 10000 });
export const PtzMoveRequest = Type.Object({
  thirdPartyCameraUuid: NotRef('subject', Ruuid({ description: 'The third-party camera' })),
  xmovementPermyriad: Field(Permyriad),
  ymovementPermyriad: Field(Permyriad),
  zmovementPermyriad: Field(Permyriad),
});
export const PtzStatusRequest = Type.Object({ thirdPartyCameraUuid: NotRef('subject', Ruuid({ description: 'The third-party camera' })) });
export const PtzStatusResponse = ResponseOf({
  xpositionPermyriad: Field(Type.Integer()),
  ypositionPermyriad: Field(Type.Integer()),
  zpositionPermyriad: Field(Type.Integer()),
});

// --- Saved passwords ---

export const CreatePasswordRequest = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 200 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
  notes: Field(Type.String({ maxLength: 2000 })),
});
export const CreatePasswordResponse = ResponseOf({ passwordUuid: Field(Str) });
export const PasswordUuidRequest = Type.Object({ passwordUuid: NotRef('subject', Ruuid({ description: 'The saved password' })) });
export const ListPasswordsRequest = EmptyRequest;
export const ListPasswordsResponse = ResponseOf({
  passwords: Field(Type.Array(Type.Object({ uuid: Field(Str), orgUuid: Field(Str), username: Field(Str), password: Field(Str), notes: Field(Str) }))),
});

/** `gatehouse simulate relay-discovery`: a relay or NVR reports a camera it found on its network. */
export const SimulateRelayDiscoveryBody = Type.Object(
  {
    device: Ruuid({ description: 'the relay camera or NVR that found it' }),
    mac: Mac,
    ip: Type.Optional(Type.String({ maxLength: 64 })),
    manufacturer: Type.Optional(Type.String({ maxLength: 200 })),
    model: Type.Optional(Type.String({ maxLength: 200 })),
    codec: Type.Optional(Type.String({ maxLength: 40 })),
    rtsp: Type.Optional(Type.String({ maxLength: 2000, description: 'an RTSP URL the camera offers (ONVIF)' })),
    at: Type.Optional(Type.Integer({ description: 'when, epoch milliseconds (default now)' })),
  },
  { additionalProperties: false },
);
export const SimulateRelayDiscoveryResponse = ResponseOf({ macAddress: Field(Str), created: Field(Type.Boolean()) });
