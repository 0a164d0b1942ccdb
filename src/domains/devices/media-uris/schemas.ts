import { Type } from 'typebox';
import { Alias, DeviceRef, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Camera media: URLs on the media host, exact frames and the federated session token (issue 19). */
const Strings = Type.Array(Type.String());

// The MCP calls it as camera/getCameraMediaUris with deviceUuid.
export const GetCameraMediaUrisRequest = Type.Object({ cameraUuid: NotRef('handler', Alias(Ruuid(), ['deviceUuid'])) });
export const GetCameraMediaUrisResponse = ResponseOf({
  wanLiveH264Uri: Field(Type.String()),
  wanLiveM3u8Uri: Field(Type.String()),
  wanLiveMpdUri: Field(Type.String()),
  wanVodH264UriTemplate: Field(Type.String()),
  wanVodM3u8UriTemplate: Field(Type.String()),
  wanVodMpdUriTemplate: Field(Type.String()),
  lanLiveH264Uris: Field(Strings),
  lanLiveM3u8Uris: Field(Strings),
  lanLiveMpdUris: Field(Strings),
  lanVodM3u8UrisTemplates: Field(Strings),
  lanVodMpdUrisTemplates: Field(Strings),
  lanCheckUrls: Field(Strings),
});

export const GetExactFrameUriRequest = Type.Object({
  cameraUuid: NotRef('handler', Ruuid()),
  timestampMs: Type.Integer({ minimum: 0 }),
  downscaleFactor: Field(Type.Integer({ minimum: 1, maximum: 16, description: 'the frame is 1920x1080 divided by this (default 1)' })),
  jpgQuality: Field(Type.Integer({ minimum: 1, maximum: 100, description: 'JPEG quality (default 80)' })),
});
const Permyriad = (what: string) => Field(Type.Integer({ minimum: 0, maximum: 10000, description: `${what}, permyriad of the frame` }));
/** video/getExactFrameData (the platform's newer spec; its MCP): the frame itself, optionally a part of it. */
export const GetExactFrameDataRequest = Type.Object({
  ...GetExactFrameUriRequest.properties,
  permyriadCropX: Permyriad('left edge of the part (default 0)'),
  permyriadCropY: Permyriad('top edge of the part (default 0)'),
  permyriadCropWidth: Permyriad('width of the part (default to the right edge)'),
  permyriadCropHeight: Permyriad('height of the part (default to the bottom edge)'),
});
export const GetExactFrameDataResponse = ResponseOf({
  frameData: Field(Type.String({ description: 'the JPEG, base64' })),
  responseMessage: Field(Type.String()),
});
export const GetExactFrameUriResponse = ResponseOf({ frameUri: Field(Type.String()), responseMessage: Field(Type.String()) });

export const GenerateFederatedSessionTokenRequest = Type.Object({
  domain: Field(Type.String({ maxLength: 253 })),
  durationSec: Field(Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600, description: 'seconds the token is good for (default 3600)' })),
});
/** The reference answers the token alone (no envelope fields are listed); `error: false` is added as elsewhere. */
export const GenerateFederatedSessionTokenResponse = ResponseOf({ federatedSessionToken: Field(Type.String()) });

/** doorbellcamera/getMediaUris (the platform's newer spec; react's direct mode): a camera's URIs plus its live audio. */
export const GetDoorbellCameraMediaUrisRequest = Type.Object({ deviceUuid: NotRef('handler', Alias(Ruuid(), ['doorbellCameraUuid', 'cameraUuid'])) });
export const GetDoorbellCameraMediaUrisResponse = ResponseOf({
  ...GetCameraMediaUrisResponse.properties,
  wanLiveOpusUri: Field(Type.String()),
  lanLiveOpusUris: Field(Strings),
});

export const GetBulkMediaDeviceDetailsRequest = Type.Object({
  devices: NotRef('subject', Type.Array(DeviceRef(), { minItems: 1, maxItems: 200, description: 'cameras or doorbell cameras, by uuid or facet id' })),
});
const MediaDeviceDetails = Type.Object({
  ...GetCameraMediaUrisResponse.properties,
  deviceFacetUuid: Field(Type.String()),
  deviceType: Field(Type.String()),
  hwVariation: Field(Type.String()),
  name: Field(Type.String()),
  region: Field(Type.String()),
  timezone: Field(
    Type.Object({ id: Field(Type.String()), displayName: Field(Type.String()), rawOffset: Field(Type.Integer()), dstsavings: Field(Type.Integer()) }),
  ),
  uri: Field(Type.String()),
  audioGateways: Field(Strings),
});
export const GetBulkMediaDeviceDetailsResponse = ResponseOf({
  mediaDeviceDetails: Field(Type.Record(Type.String(), MediaDeviceDetails, { description: 'the device as named in the request to its details' })),
});

export const GetNearbyFeedsRequest = Type.Object({
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
  width: Field(Type.Integer({ minimum: 1, maximum: 50_000, description: 'the search radius in metres; default 1000' })),
});
export const GetNearbyFeedsResponse = ResponseOf({ streamUrls: Field(Strings) });
