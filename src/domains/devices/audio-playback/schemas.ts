import { Type } from 'typebox';
import { DeviceRef, EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { AUDIO_TEXT_LIMITS } from './service.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const AudioUpload = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  displayName: Field(Type.String()),
  description: Field(Type.String()),
  audioPlaintext: Field(Type.String()),
  audioSSML: Field(Type.String()),
  voiceId: Field(Type.String()),
  durationMs: Field(Type.Integer()),
  mutable: Field(Type.Boolean()),
  s3ObjectKey: Field(Type.String({ description: "the clip's path on the media host (Ogg Opus)" })),
});

export const UploadAudioTextRequest = Type.Object({
  audioPlaintext: Field(Type.String({ maxLength: AUDIO_TEXT_LIMITS.maxChars })),
  audioSSML: Field(Type.String({ maxLength: AUDIO_TEXT_LIMITS.maxChars * 2 })),
  displayName: Field(Type.String({ maxLength: 200 })),
  description: Field(Type.String({ maxLength: 2000 })),
  voiceId: NotRef('external', Field(Type.String({ maxLength: 64 }))),
});
export const UploadAudioTextResponse = ResponseOf({
  uuid: Field(Ruuid()),
  invalidSSML: Field(Type.Boolean()),
  synthesisFailure: Field(Type.Boolean()),
  encodingFailure: Field(Type.Boolean()),
});

export const GetAudioUploadMetadataForOrgRequest = EmptyRequest;
export const GetAudioUploadMetadataForOrgResponse = ResponseOf({ audioUploadMetadata: Field(Type.Array(AudioUpload)) });

export const UpdateAudioUploadMetadataRequest = Type.Object({
  audioUploadUuid: NotRef('subject', Ruuid()),
  newDisplayName: Field(Type.String({ maxLength: 200 })),
  newDescription: Field(Type.String({ maxLength: 2000 })),
});
export const DeleteAudioUploadMetadataRequest = Type.Object({ audioUploadUuid: NotRef('subject', Ruuid()) });
export const AudioEnvelope = ResponseOf({});

export const PlayAudioUploadRequest = Type.Object({
  audioUploadUuid: NotRef('handler', Ruuid()),
  audioGatewayUuids: NotRef('handler', Type.Array(DeviceRef(), { minItems: 1, maxItems: 200 })),
  playCount: Field(Type.Integer({ minimum: 1, maximum: 100, description: 'default 1' })),
  loopDurationSec: Field(Type.Integer({ minimum: 1, maximum: 86_400, description: 'loop the clip this long instead' })),
});
export const PlayAudioUploadResponse = ResponseOf({ success: Field(Type.Boolean({ description: 'every gateway took it (an offline one cannot)' })) });

export const CancelLoopingAudioPlaybackRequest = Type.Object({ audioDevices: NotRef('handler', Type.Array(DeviceRef(), { minItems: 1, maxItems: 200 })) });
export const CancelLoopingAudioPlaybackResponse = ResponseOf({
  successMap: Field(Type.Record(Type.String(), Type.Boolean(), { description: 'device to whether a looping clip was stopped' })),
});
