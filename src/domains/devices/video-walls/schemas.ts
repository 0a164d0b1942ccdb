import { Type } from 'typebox';
import { EmptyRequest, FacetId, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';

export const MAX_WALL_DEVICES = 100;

/** The specification's VideoWall, as answered (the reference's Camera_VideoWallSummaryType). */
export const VideoWall = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  displayName: Field(Type.String()),
  deviceList: Field(Type.Array(FacetId())),
  ownerUserUuid: Field(Ruuid()),
  othersCanEdit: Field(Type.Boolean()),
  shared: Field(Type.Boolean()),
  settings: Field(Type.Record(Type.String(), Type.Unknown())),
});

/** A video wall in a request: nullable like the reference's, null meaning "not given"; entries are checked by the service. */
const wallFields = {
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
  ownerUserUuid: Field(NotRef('handler', Ruuid())),
  deviceList: Field(Type.Array(Type.String({ maxLength: 64 }), { maxItems: MAX_WALL_DEVICES, description: 'device facet ids of cameras: <camera uuid>.v0' })),
  othersCanEdit: Field(Type.Boolean()),
  shared: Field(Type.Boolean()),
  settings: Field(Type.Record(Type.String(), Type.Unknown())),
};
const DisplayName = Type.String({ minLength: 1, maxLength: 200 });

export const CreateVideoWallRequest = Type.Object({
  videoWall: Type.Object({ ...wallFields, uuid: Field(NotRef('subject', Ruuid())), displayName: DisplayName }),
});
export const CreateVideoWallResponse = ResponseOf({ uuid: Field(Ruuid()) });

export const UpdateVideoWallsRequest = Type.Object({
  videoWall: Type.Object({ ...wallFields, uuid: NotRef('subject', Ruuid()), displayName: Field(DisplayName) }),
});
export const UpdateVideoWallsResponse = ResponseOf({});

export const GetVideoWallsRequest = EmptyRequest;
export const GetVideoWallsResponse = ResponseOf({
  videoWalls: Field(Type.Array(VideoWall)),
  userNameMap: Field(Type.Record(Type.String(), Type.String(), { description: 'owner user uuid to name' })),
});

export const DeleteVideoWallRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
export const DeleteVideoWallResponse = ResponseOf({});
