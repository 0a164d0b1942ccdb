import { Type, type Static, type TSchema } from 'typebox';
import { TIMELAPSE_FORMATS } from '../../../footage/render-timelapse.js';
import { DeviceRef, EmptyRequest, EpochMs, FacetId, Field, MediaUri, Nullable, Own, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ExpirationTimeSecs, Password } from '../shared-clip-groups/schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Timelapses (issue 19): cameras' footage over a span, sampled into a short video, and the links that share them. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** What a timelapse may be: its video's length and frame rate, its cameras, and how far back the footage is kept. */
export const TIMELAPSE = { defaultVideoSec: 10, maxVideoSec: 60, fps: 10, width: 640, height: 360, maxCameras: 16, retentionMs: 30 * 86_400_000 } as const;

export const TIMELAPSE_STATES = ['INITIATED', 'INPROGRESS', 'COMPLETE', 'FAILED'] as const;
const ClipFormat = () => StringEnum(TIMELAPSE_FORMATS, 'MPEG: an MP4 (H.264); GIF: an animated GIF');

export const GenerateTimelapseClipRequest = Type.Object({
  // Cameras by uuid or facet id: its handler finds each in the organization, with the platform's answer for an unknown one.
  deviceUuids: NotRef(
    'handler',
    Type.Array(DeviceRef(), {
      minItems: 1,
      maxItems: TIMELAPSE.maxCameras,
      description: 'the cameras; each gets a section of the video, in this order',
    }),
  ),
  startTime: Type.Integer({ minimum: 0, description: 'epoch ms: the start of the span (at most 30 days back)' }),
  stopTime: Type.Integer({ minimum: 0, description: 'epoch ms: the end of the span (not after now)' }),
  title: Opt(Type.String({ maxLength: 256 })),
  videoDuration: Opt(
    Type.Integer({
      minimum: 1,
      maximum: TIMELAPSE.maxVideoSec,
      description: `seconds of video (default ${TIMELAPSE.defaultVideoSec}), at ${TIMELAPSE.fps} frames a second, shared between the cameras`,
    }),
  ),
  videoFormat: Opt(ClipFormat()),
  drawCameraDetails: Opt(Type.Boolean({ description: "burn in the camera's name (default true)" })),
  drawTimestamp: Opt(Type.Boolean({ description: 'burn in the sampled time (default true)' })),
  skipNights: Opt(Type.Boolean({ description: "leave out 20:00 to 06:00 in the camera location's time zone" })),
  skipWeekends: Opt(Type.Boolean({ description: "leave out Saturdays and Sundays in the camera location's time zone" })),
});
export type GenerateTimelapseClipRequest = Static<typeof GenerateTimelapseClipRequest>;
export const GenerateTimelapseClipResponse = ResponseOf({ clipUuid: Field(Ruuid()) });

const Sources = () => Type.Array(Type.Object({ deviceUuid: Field(FacetId()) }));

/** A timelapse (the reference's TimelapseClipType). */
export const TimelapseClip = Type.Object(
  {
    clipUuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    title: Field(Type.String()),
    clipCreationTime: Field(EpochMs()),
    clipDuration: Field(Type.Integer({ description: 'seconds of video' })),
    clipFormat: Field(ClipFormat()),
    videoStartTime: Field(EpochMs('start of the span')),
    videoStopTime: Field(EpochMs('end of the span')),
    sources: Field(Sources()),
    status: Field(
      Type.Object({
        percentComplete: Field(Type.Integer({ minimum: 0, maximum: 100 })),
        state: Field(StringEnum(TIMELAPSE_STATES, 'INITIATED, INPROGRESS while it is rendered and stored, then COMPLETE (or FAILED)')),
      }),
    ),
    drawCameraDetails: Field(Type.Boolean()),
    drawTimestamp: Field(Type.Boolean()),
    drawWatermark: Field(Type.Boolean()),
    skipNights: Field(Type.Boolean()),
    skipWeekends: Field(Type.Boolean()),
    skipNonBusinessHours: Field(Type.Boolean()),
    shared: Field(Type.Boolean({ description: 'a shared timelapse group holds it' })),
    passwordDigest: Field(Type.String({ description: 'never returned: null' })),
    videoUrl: Field(
      Own(MediaUri('the video on the media host, once COMPLETE (an API key or federated token opens it)'), 'the one way to fetch the rendered timelapse'),
    ),
  },
  { description: 'Timelapse clip' },
);
export type TimelapseClipRecord = Static<typeof TimelapseClip>;

export const GetTimelapseClipsRequest = EmptyRequest;
export const GetTimelapseClipsResponse = ResponseOf({ timelapseClips: Field(Type.Array(TimelapseClip)) });

export const GetTimelapseMetadataRequest = Type.Object({ deviceUuidList: NotRef('handler', Type.Array(DeviceRef(), { minItems: 1, maxItems: 500 })) });
export const GetTimelapseMetadataResponse = ResponseOf({
  earliestTimestampMap: Field(
    Type.Record(Type.String(), Type.String(), { description: 'each camera as named: the epoch ms (as text) of its earliest footage kept' }),
  ),
});

const TimelapseUuids = (description: string) => Type.Array(Ruuid(), { minItems: 1, maxItems: 100, description });
export const DeleteTimelapseClipsRequest = Type.Object({ clipUuids: NotRef('handler', TimelapseUuids('the timelapses: all of them are deleted, or none')) });
export const ShareTimelapseClipsRequest = Type.Object({ clipUuids: NotRef('handler', TimelapseUuids('the timelapses: each gets a link of its own')) });
export const ShareTimelapseClipsResponse = ResponseOf({
  shareUrlMap: Field(Type.Record(Type.String(), Type.String(), { description: 'timelapse uuid to its link' })),
});

export const CreateSharedTimelapseGroupRequest = Type.Object({
  timelapseUuids: NotRef('handler', TimelapseUuids('the timelapses the link shares')),
  title: Opt(Type.String({ maxLength: 256 })),
  expirationTimeSecs: Opt(ExpirationTimeSecs()),
  plaintextPassword: Opt(Password()),
});
export type CreateSharedTimelapseGroupRequest = Static<typeof CreateSharedTimelapseGroupRequest>;
export const SharedTimelapseLinkResponse = ResponseOf({
  uuid: Field(Ruuid()),
  shareUrl: Field(MediaUri('the link on the media host')),
});

/** A shared timelapse group (the reference's SharedTimelapseGroupWrapperType). */
export const SharedTimelapseGroup = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    title: Field(Type.String()),
    createdAtMillis: Field(EpochMs()),
    expirationTimeSecs: Field(Type.Integer()),
    isSecured: Field(Type.Boolean({ description: 'the link asks for a password' })),
    sharedTimelapses: Field(
      Type.Array(
        Type.Object({
          uuid: Field(Ruuid()),
          clipDuration: Field(Type.Integer()),
          clipFormat: Field(ClipFormat()),
          sources: Field(Sources()),
          videoStartTime: Field(EpochMs()),
          videoStopTime: Field(EpochMs()),
        }),
      ),
    ),
  },
  { description: 'Shared timelapse group' },
);
export type SharedTimelapseGroupRecord = Static<typeof SharedTimelapseGroup>;

export const GetSharedTimelapseGroupsRequest = EmptyRequest;
export const GetSharedTimelapseGroupsResponse = ResponseOf({ sharedTimelapses: Field(Type.Array(SharedTimelapseGroup)) });

export const UpdateSharedTimelapseGroupRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'the shared timelapse group' })),
  title: Opt(Type.String({ maxLength: 256 })),
  titleUpdate: Opt(Type.Boolean({ description: 'change the title (also implied by a title given)' })),
  descriptionUpdate: Opt(Type.Boolean({ description: 'ignored: the request carries no description' })),
  expirationTimeSecs: Opt(ExpirationTimeSecs()),
  expirationTimeUpdate: Opt(Type.Boolean({ description: 'change the expiry (also implied by an expirationTimeSecs given)' })),
  plaintextPassword: Opt(Password()),
  passwordUpdate: Opt(Type.Boolean({ description: 'change the password: to plaintextPassword, or none when it is empty or absent' })),
});
export type UpdateSharedTimelapseGroupRequest = Static<typeof UpdateSharedTimelapseGroupRequest>;

export const SharedTimelapseGroupUuidRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
