import { Type, type Static, type TSchema } from 'typebox';
import { DeviceRef, EmptyRequest, EpochMs, FacetId, Field, MediaUri, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { StreamTypeEnum } from './schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Raw HTTP streams: a camera's live video as one continuous MPEG-TS over HTTP, at a secret path of the media host (issue 19). */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const CreateRawHttpStreamRequest = Type.Object({
  deviceUuid: NotRef('handler', DeviceRef({ description: 'the camera (uuid or facet id)' })),
  rawStreamName: Opt(Type.String({ maxLength: 256 })),
  streamType: Opt(StreamTypeEnum()),
});
export const CreateRawHttpStreamResponse = ResponseOf({
  lanVideoUrl: Field(MediaUri('the stream on the media host, with its secret: this answer is the only one that shows it')),
  lanVideoLowResUrl: Field(MediaUri('the low-resolution stream, with its secret')),
  lanAudioUrl: Field(Type.String({ description: 'null: the simulated cameras have no audio' })),
});

/** A raw HTTP stream (the reference's LanSpecificRawStreamType); its secret is masked. */
export const RawHttpStream = Type.Object(
  {
    orgUuid: Field(Ruuid()),
    deviceUuid: Field(FacetId()),
    deviceType: Field(StringEnum(['CAMERA'] as const)),
    name: Field(Type.String()),
    streamType: Field(StreamTypeEnum()),
    customPathPart: Field(Type.String({ description: "the stream's path on the media host" })),
    createdAtMs: Field(EpochMs()),
    createdBy: Field(Type.String({ description: 'the user (or, for a key without one, the API key) that made it' })),
    videoPath: Field(Type.String()),
    videoLowResPath: Field(Type.String()),
    audioPath: Field(Type.String()),
    lanVideoUrl: Field(MediaUri('the stream, its secret masked')),
    lanVideoLowResUrl: Field(MediaUri('the low-resolution stream, its secret masked')),
    lanAudioUrl: Field(Type.String()),
  },
  { description: 'Raw HTTP stream' },
);
export type RawHttpStreamRecord = Static<typeof RawHttpStream>;

export const FindAllRawHttpStreamsRequest = EmptyRequest;
export const GetRawHttpStreamsRequest = Type.Object({ deviceUuid: NotRef('handler', DeviceRef()) });
export const RawHttpStreamsResponse = ResponseOf({ rawHttpStreams: Field(Type.Array(RawHttpStream)) });

export const DeleteRawHttpStreamRequest = Type.Object({
  deviceUuid: NotRef('handler', DeviceRef({ description: 'the camera' })),
  customPathPart: Type.String({ minLength: 1, maxLength: 64, description: "the stream's path" }),
});
