import { Type, type Static } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { ClipRef, GetSharedClipGroupsRequest, SharedClip, SharedClipWithDetails } from '../shared-clip-groups/schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Clip groups: an organization's folders of saved clips (a clip may sit in several; the clips stay when a group goes). */
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));

export const CLIP_GROUP_LIMITS = { clips: 500, title: 256, description: 4096 } as const;
const Title = () => Type.String({ maxLength: CLIP_GROUP_LIMITS.title });
const Description = () => Type.String({ maxLength: CLIP_GROUP_LIMITS.description });
const ClipRefs = (description: string) => Type.Array(ClipRef, { maxItems: CLIP_GROUP_LIMITS.clips, description });

export const CreateClipGroupRequest = Type.Object({
  title: Opt(Title()),
  description: Opt(Description()),
  uuids: Opt(NotRef('handler', ClipRefs('the saved clips the group holds, in this order (each once)'))),
});
export type CreateClipGroupRequest = Static<typeof CreateClipGroupRequest>;
export const CreateClipGroupResponse = ResponseOf({ uuid: Field(Ruuid()) });

export const UpdateClipGroupRequest = Type.Object({
  uuid: NotRef('subject', Ruuid({ description: 'the clip group' })),
  title: Opt(Title()),
  description: Opt(Description()),
  uuids: Opt(NotRef('handler', ClipRefs('when given: the clips the group holds from now on, in this order (empty: none)'))),
});
export type UpdateClipGroupRequest = Static<typeof UpdateClipGroupRequest>;

export const ClipGroupUuidRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
/** The same creation-time filter as the shared clip groups' list. */
export const GetClipGroupsForOrgRequest = GetSharedClipGroupsRequest;

const groupFields = {
  uuid: Ruuid(),
  orgUuid: Field(Ruuid()),
  title: Field(Type.String()),
  description: Field(Type.String()),
  createdAtMillis: Field(EpochMs()),
  clipCount: Field(Type.Integer({ description: 'how many saved clips the group holds (a Gatehouse addition)' })),
};
export const ClipGroup = Type.Object({ ...groupFields, clips: Field(Type.Array(SharedClip)) }, { description: 'Clip group' });
export type ClipGroupRecord = Static<typeof ClipGroup>;
export const ClipGroupWithDetails = Type.Object(
  { ...groupFields, clips: Field(Type.Array(SharedClipWithDetails)) },
  { description: 'Clip group with details' },
);

/** A group as the platform's MCP server reads the list: its uuid, its name (the title) and how many clips it holds. */
const ClipGroupSummary = Type.Object({ uuid: Ruuid(), name: Field(Type.String()), clipCount: Type.Integer() });
export const GetClipGroupsForOrgResponse = ResponseOf({
  groups: Field(Type.Array(ClipGroup)),
  clipGroups: Field(Type.Array(ClipGroupSummary, { description: 'the same groups, as uuid, name and clipCount (a Gatehouse addition)' })),
});
export const GetClipGroupDetailsResponse = ResponseOf({ group: Field(ClipGroupWithDetails) });
