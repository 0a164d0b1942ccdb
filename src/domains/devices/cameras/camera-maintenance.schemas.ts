import { Type } from 'typebox';
import { DeviceRef, EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { RefUuid, NotRef } from '../../../schemas/record-kinds.js';

/** Camera upkeep (firmware, Wi-Fi, erase, storage recovery, offline LAN streaming), batch registration, floor plans. */
export const CameraUuidRequest = Type.Object({ cameraUuid: NotRef('subject', Ruuid()) });
export const EraseCameraResponse = ResponseOf({});

export const FIRMWARE_UPDATE_STATUSES = [
  'ALREADY_ON_THE_LATEST_FIRMWARE',
  'DEVICE_ON_A_SPECIAL_FIRMWARE_AND_CANNOT_BE_UPDATED',
  'UPDATE_STARTED',
  'UNABLE_TO_REACH_DEVICE',
  'FIRMWARE_UPDATE_ALREADY_IN_PROGESS',
  'DEVICE_NOT_AUTHROIZED',
] as const;
export const UpdateFirmwareResponse = ResponseOf({ status: Field(StringEnum(FIRMWARE_UPDATE_STATUSES)) });

export const UpdateWifiRequest = Type.Object({
  cameraUuid: NotRef('subject', Field(DeviceRef())),
  cameraUuids: NotRef('subject', Field(Type.Array(DeviceRef(), { maxItems: 500 }))),
  ssid: Type.String({ minLength: 1, maxLength: 32, description: 'an 802.11 SSID: 1 to 32 bytes' }),
  password: Field(Type.String({ maxLength: 63, description: 'sent to the camera, never kept' })),
});
export const UpdateWifiResponse = ResponseOf({
  status: Field(Type.Record(Type.String(), Type.Boolean(), { description: 'camera to whether it took the network' })),
});

export const GenerateWifiChangeAuthorizationTokenRequest = Type.Object({
  ssid: Field(Type.String({ maxLength: 32 })),
  perceivedIp: Field(Type.String({ maxLength: 64, description: "the caller's address as it sees it; default the address the request came from" })),
});
export const GenerateWifiChangeAuthorizationTokenResponse = ResponseOf({
  authorizationToken: Field(Type.String({ description: 'base64: what the camera accepts for ten minutes' })),
  userUuid: Field(Ruuid()),
});

export const GetStorageRecoveryFileRequest = Type.Object({ deviceUuid: NotRef('subject', DeviceRef()) });
export const GetStorageRecoveryFileResponse = ResponseOf({ fileContents: Field(Type.String({ description: 'base64' })) });

export const GetOfflineLanStreamingInfoRequest = EmptyRequest;
export const GetOfflineLanStreamingInfoResponse = ResponseOf({
  info: Field(
    Type.Record(Type.String(), Type.Object({ accessToken: Field(Type.String()), lanAddresses: Field(Type.Array(Type.String())) }), {
      description: 'camera facet id to what a viewer on its network needs',
    }),
  ),
});

export const GenerateBatchRegistrationInfoRequest = Type.Object({
  locationUuid: Field(RefUuid('location')),
  policyUuid: Field(RefUuid('cameraPolicy')),
  latitude: Field(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Field(Type.Number({ minimum: -180, maximum: 180 })),
  adminUserPermissionGroups: Field(Type.Array(RefUuid('permissionGroup'), { maxItems: 100 })),
  readOnlyUserPermissionGroups: Field(Type.Array(RefUuid('permissionGroup'), { maxItems: 100 })),
});
export const GenerateBatchRegistrationInfoResponse = ResponseOf({ env: Field(Type.String()), token: Field(Ruuid()) });

export const GetBatchRegistrationUsageRequest = Type.Object({
  token: NotRef('subject', Ruuid()),
  sinceMillis: Field(Type.Integer({ minimum: 0, description: 'epoch ms; default every use' })),
});
export const GetBatchRegistrationUsageResponse = ResponseOf({
  usageList: Field(
    Type.Array(
      Type.Object({
        di: Field(Ruuid({ description: 'the camera registered' })),
        hi: Field(Ruuid({ description: 'the hardware record of the attempt' })),
        rs: Field(Type.String({ description: 'REGISTERED or ALREADY_REGISTERED' })),
        ts: Field(Type.Integer()),
      }),
    ),
  ),
});

const Points = Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 10000 }), { minItems: 2, maxItems: 2 }), { minItems: 4, maxItems: 100 });
export const CalibrateFloorplanProjectionRequest = Type.Object({
  deviceUuid: NotRef('subject', Ruuid()),
  cameraImagePointsPermyriad: Points,
  floorplanImagePointsPermyriad: Points,
});
export const CalibrateFloorplanProjectionResponse = ResponseOf({
  homography: Field(Type.Array(Type.Array(Type.Number()), { description: '3x3, row-major: camera image permyriad to floor plan permyriad' })),
});
