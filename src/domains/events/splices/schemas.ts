import { Type, type Static } from 'typebox';
import { DeviceRef, EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { MetaDataLocation } from '../alerts/schemas.js';
import { ClipAccessSettings } from '../clips/schemas.js';
import { CLIP_STATUSES, CLIP_VISIBILITIES } from '../tables.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Splices: saved clips rendered from a camera's footage over a time range (/api/video/splice*). */
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));
const Start = () => Type.Integer({ minimum: 0, description: 'epoch ms of the start of the footage' });
const Duration = () => Type.Integer({ minimum: 1, description: 'seconds of footage: at most getMaxSpliceDuration' });
/** A camera: its RUUID or a facet of it (`<RUUID>.v0`). */
const Camera = () => DeviceRef({ description: 'a camera uuid, or its facet id' });
const Cameras = () => Type.Array(Camera(), { minItems: 1, maxItems: 16, description: 'cameras, one clip each' });
const Title = () => Opt(Type.String({ maxLength: 256 }));
const Description = () => Opt(Type.String({ maxLength: 4096 }));
const AnyMap = () => Opt(Type.Record(Type.String(), Type.Unknown()));

export const SpliceRequest = Type.Object({ deviceUuid: NotRef('handler', Ruuid()), startTime: Start(), duration: Duration() });
export const SpliceV2Request = Type.Object({
  deviceUuids: NotRef('handler', Cameras()),
  startTimeMillis: Start(),
  durationSec: Duration(),
  title: Title(),
  description: Description(),
  fisheyePresentationMap: AnyMap(),
});
export const SpliceV3Request = Type.Object({
  deviceUuids: NotRef('handler', Cameras()),
  startTimeMillis: Start(),
  durationSec: Duration(),
  title: Title(),
  description: Description(),
  accessSettings: Opt(ClipAccessSettings),
  clipVisibility: Opt(StringEnum(CLIP_VISIBILITIES, 'the visibility when accessSettings gives none')),
  alteredViewMap: AnyMap(),
  integrationUploadMap: AnyMap(),
  audioIncluded: Opt(Type.Boolean()),
  saveToConsole: Opt(Type.Boolean()),
  sendToSharedStorage: Opt(Type.Boolean()),
  sendToUserStorage: Opt(Type.Boolean()),
});
export type SpliceV3Request = Static<typeof SpliceV3Request>;
export const SpliceResponse = ResponseOf({ clipUuid: Field(Ruuid()) });
export const SpliceV3Response = ResponseOf({ clipUuid: Field(Ruuid()), clipUuidList: Field(Type.Array(Ruuid())) });

export const CancelSpliceRequest = Type.Object({ clipUuid: NotRef('handler', Ruuid()), deviceUuid: Opt(NotRef('handler', Ruuid())) });
export const CancelSpliceV2Request = Type.Object({
  clipUuid: Opt(NotRef('handler', Ruuid())),
  clipUuidList: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 100 }))),
  deviceUuids: Opt(NotRef('handler', Type.Array(Camera(), { maxItems: 100, description: 'only the clips of these cameras' }))),
});
export type CancelSpliceV2Request = Static<typeof CancelSpliceV2Request>;
export const RetrySpliceRequest = Type.Object({ clipUuid: NotRef('handler', Ruuid()) });

export const GetMaxSpliceDurationResponse = ResponseOf({ maxDuration: Field(Type.Integer({ description: 'seconds' })) });

/** A splice in progress (the reference's SplicedClipType). */
export const SplicedClip = Type.Object(
  {
    clipUuid: Ruuid(),
    transactionUuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    userUuid: Field(Ruuid()),
    deviceUuid: Field(FacetId()),
    devicePresentationOrder: Field(Type.Array(FacetId())),
    status: Field(StringEnum(CLIP_STATUSES)),
    statusUpdatedAtMs: Field(EpochMs()),
    startTime: Field(EpochMs('start of the footage')),
    timestampMs: Field(EpochMs('when the splice was asked for')),
    duration: Field(Type.Integer({ description: 'seconds' })),
    title: Field(Type.String()),
    description: Field(Type.String()),
    accessSettings: Field(ClipAccessSettings),
    clipTargetLocation: Field(MetaDataLocation),
    metadataBucketRegion: Field(Type.String()),
    totalSegments: Field(Type.Integer({ description: 'steps of the render' })),
    segmentsUploaded: Field(Type.Integer({ description: 'steps done' })),
    saveClip: Field(Type.Boolean()),
    saveFrame: Field(Type.Boolean()),
    deleted: Field(Type.Boolean()),
    consoleDelete: Field(Type.Boolean()),
    analyzeClip: Field(Type.Boolean()),
    isPolicyEvent: Field(Type.Boolean()),
    sendToSharedStorage: Field(Type.Boolean()),
    integrationUploadList: Field(Type.Array(Type.String())),
  },
  { description: 'Spliced clip' },
);
export const GetSplicedClipsInProgressResponse = ResponseOf({ splicedClips: Field(Type.Array(SplicedClip)) });

export const SpliceFrameRequest = Type.Object({
  deviceUuid: NotRef('handler', Camera()),
  timestampMs: Type.Integer({ minimum: 0, description: 'epoch ms of the frame (not after now)' }),
});
export const SpliceFrameResponse = ResponseOf({
  clipUuid: Field(Ruuid({ description: 'the saved clip that holds the frame (a JPEG at its clipLocationV2 once COMPLETE)' })),
  region: Field(Type.String({ description: "where the frame's media is kept" })),
});
