import { Type } from 'typebox';
import { DeviceRef, Field, ResponseOf } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Audio gateway media: URLs on the media host (issue 19); shapes from the reference catalogue. */
const Strings = Type.Array(Type.String());

export const GetAudioGatewayMediaUrisRequest = Type.Object({ gatewayUuid: NotRef('handler', DeviceRef()) });
export const GetAudioGatewayMediaUrisResponse = ResponseOf({
  wanLiveOpusUri: Field(Type.String()),
  wanLiveMpdUri: Field(Type.String()),
  wanVodMpdUriTemplate: Field(Type.String()),
  lanLiveOpusUris: Field(Strings),
  lanLiveMpdUris: Field(Strings),
  lanVodMpdUrisTemplates: Field(Strings),
  lanCheckUrls: Field(Strings),
});
