import { Type, type Static, type TSchema } from 'typebox';
import { DeviceRef, EmptyRequest, EpochMs, FacetId, Field, MediaUri, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Shared live video streams and shared video walls: key-less links to cameras' live video (issue 19). */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const STREAM_TYPES = ['USER', 'ALARM_MONITORING', 'DICE', 'LUMEO', 'INFORMACAST', 'RAPIDSOS', 'UNKNOWN'] as const;
export type StreamType = (typeof STREAM_TYPES)[number];
export const StreamTypeEnum = () => StringEnum(STREAM_TYPES, 'who the stream is for (default USER)');

/** The longest a link may be set to last; without an expiry it lasts until it is deleted. */
export const LIVE_SHARE_EXPIRY = { maximumSec: 366 * 86_400 } as const;
const ExpirationTimeSecs = () =>
  Type.Integer({ minimum: 1, maximum: LIVE_SHARE_EXPIRY.maximumSec, description: 'seconds from now until the link stops working (default: never)' });
const Password = () =>
  Type.String({ maxLength: 128, description: 'the password the link asks for (x-share-password header); kept as a digest, never returned' });
const ScheduleUuid = () => Ruuid({ description: 'not supported: a link limited to a schedule is refused' });

const linkFields = {
  expirationTimeSecs: Opt(ExpirationTimeSecs()),
  invertSchedule: Opt(Type.Boolean()),
  password: Opt(Password()),
  scheduleUuid: Opt(NotRef('handler', ScheduleUuid())),
  vodEnabled: Opt(Type.Boolean({ description: 'kept; the link serves live video only' })),
};
const streamFields = {
  ...linkFields,
  audioGatewayUuid: Opt(NotRef('handler', DeviceRef({ description: 'kept; the simulated cameras have no audio' }))),
  name: Opt(Type.String({ maxLength: 256 })),
  streamType: Opt(StreamTypeEnum()),
};

export const CreateSharedLiveVideoStreamRequest = Type.Object({
  cameraUuid: NotRef('handler', DeviceRef({ description: 'the camera (uuid or facet id)' })),
  ...streamFields,
  includeAudio: Opt(Type.Boolean({ description: 'kept; the simulated cameras have no audio' })),
  ssoProtected: Opt(Type.Boolean({ description: 'not supported: a link behind single sign-on is refused' })),
});
export type CreateSharedLiveVideoStreamRequest = Static<typeof CreateSharedLiveVideoStreamRequest>;

export const CreateDoorbellSharedLiveVideoStreamRequest = Type.Object({
  doorbellCameraUuid: NotRef('handler', DeviceRef({ description: 'the doorbell camera (uuid or facet id)' })),
  ...streamFields,
  streamType: StreamTypeEnum(),
  vodEnabled: Type.Boolean({ description: 'kept; the link serves live video only' }),
});

export const CreateSharedLiveVideoStreamResponse = ResponseOf({
  sharedLiveVideoStreamUuid: Field(Ruuid()),
  sharedLiveVideoStreamUrl: Field(MediaUri("the link's page on the media host")),
  sharedLiveM3U8StreamUrl: Field(MediaUri('the live HLS playlist on the media host')),
});

/** A shared live video stream (the reference's Camera_SharedLiveVideoStreamWS). */
export const SharedLiveVideoStream = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    cameraUuid: Field(FacetId()),
    deviceUuid: Field(FacetId()),
    name: Field(Type.String()),
    streamType: Field(StreamTypeEnum()),
    timestampMs: Field(EpochMs('when the link was made')),
    expirationTime: Field(Type.Integer({ description: 'epoch seconds when the link stops working; null: never' })),
    passwordProtected: Field(Type.Boolean()),
    ssoProtected: Field(Type.Boolean()),
    sharedLiveVideoStreamUrl: Field(MediaUri("the link's page on the media host")),
    sharedLiveM3U8StreamUrl: Field(MediaUri('the live HLS playlist on the media host')),
    vodEnabled: Field(Type.Boolean()),
    hideOverlay: Field(Type.Boolean()),
    audioGatewayUuid: Field(FacetId()),
    audioPushToTalkEnabled: Field(Type.Boolean()),
    scheduleUuid: Field(Ruuid()),
    invertSchedule: Field(Type.Boolean()),
    unscheduledMessage: Field(Type.String()),
    sharedWithMonitoringService: Field(Type.Boolean()),
  },
  { description: 'Shared live video stream' },
);
export type SharedLiveVideoStreamRecord = Static<typeof SharedLiveVideoStream>;

export const FindSharedLiveVideoStreamsRequest = Type.Object({ cameraUuid: NotRef('handler', DeviceRef()) });
export const FindDoorbellSharedLiveVideoStreamsRequest = Type.Object({ doorbellCameraUuid: NotRef('handler', DeviceRef()) });
export const FindAllSharedLiveVideoStreamsRequest = EmptyRequest;
export const FindSharedLiveVideoStreamsResponse = ResponseOf({ sharedLiveVideoStreams: Field(Type.Array(SharedLiveVideoStream)) });

export const DeleteSharedLiveVideoStreamRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'the shared live video stream' })),
  cameraUuid: Opt(NotRef('handler', DeviceRef({ description: 'its camera, when given: the link must be of it' }))),
});

export const CreateSharedVideoWallRequest = Type.Object({ videoWallUuid: NotRef('handler', Ruuid()), ...linkFields });
export type CreateSharedVideoWallRequest = Static<typeof CreateSharedVideoWallRequest>;
export const CreateSharedVideoWallResponse = ResponseOf({
  sharedLiveVideoStreamUuid: Field(Ruuid({ description: 'the shared video wall' })),
  sharedLiveVideoStreamUrl: Field(MediaUri("the link's page on the media host: the wall's cameras and their live playlists")),
});

/** A shared video wall (the reference's Camera_SharedVideoWallWS). */
export const SharedVideoWall = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    videoWallUuid: Field(Ruuid()),
    sharedVideoWallUrl: Field(MediaUri("the link's page on the media host")),
    timestampMs: Field(EpochMs('when the link was made')),
    expirationTime: Field(Type.Integer({ description: 'epoch seconds when the link stops working; null: never' })),
    passwordProtected: Field(Type.Boolean()),
    vodEnabled: Field(Type.Boolean()),
    hideOverlay: Field(Type.Boolean()),
    scheduleUuid: Field(Ruuid()),
    invertSchedule: Field(Type.Boolean()),
    unscheduledMessage: Field(Type.String()),
    permissionGroupUuid: Field(Ruuid()),
    deviceScheduleMap: Field(Type.Record(Type.String(), Type.Unknown())),
  },
  { description: 'Shared video wall' },
);
export type SharedVideoWallRecord = Static<typeof SharedVideoWall>;

export const FindSharedVideoWallsRequest = Type.Object({ videoWallUuid: NotRef('handler', Ruuid()) });
export const FindSharedVideoWallsResponse = ResponseOf({ sharedVideoWalls: Field(Type.Array(SharedVideoWall)) });

export const DeleteSharedVideoWallRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'the shared video wall' })),
  videoWallUuid: Opt(NotRef('handler', Ruuid({ description: 'its video wall, when given: the link must be of it' }))),
});
