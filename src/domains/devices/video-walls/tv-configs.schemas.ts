import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

const TvConfig = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  limitedVideoWallUuids: Field(Type.Array(Ruuid())),
});

export const GetTvOsConfigRequest = Type.Object({ uuid: NotRef('subject', Ruuid({ description: "the TV's id" })) });
export const GetTvOsConfigResponse = ResponseOf({ config: Field(TvConfig) });

export const GetTvOsConfigsForOrgRequest = EmptyRequest;
export const GetTvOsConfigsForOrgResponse = ResponseOf({ configs: Field(Type.Array(TvConfig)) });

export const UpdateTvOsConfigRequest = Type.Object({
  config: Type.Object({
    uuid: NotRef('created', Ruuid({ description: "the TV's id; its config is made on the first update" })),
    orgUuid: NotRef('callerOrg', Field(Ruuid())),
    limitedVideoWallUuids: NotRef('handler', Field(Type.Array(Ruuid(), { maxItems: 200, description: 'the video walls the TV may show; empty: every wall' }))),
  }),
});
export const UpdateTvOsConfigResponse = ResponseOf({});
