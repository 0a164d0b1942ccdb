import { Type, type Static } from 'typebox';
import { EpochMs, Field, MediaUri, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { MetaDataLocation } from '../alerts/schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Shared clip groups: links to saved clips that the media host serves without an API key until they expire. */
const Opt = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));

export const SHARE_EXPIRY = { defaultSec: 7 * 86_400, maximumSec: 30 * 86_400 } as const;
/** A share link's expiry and password, as the clip and timelapse groups take them. */
export const ExpirationTimeSecs = () =>
  Type.Integer({
    minimum: 1,
    maximum: SHARE_EXPIRY.maximumSec,
    description: `seconds from the group's creation until its link stops working (default ${SHARE_EXPIRY.defaultSec})`,
  });
export const Password = () => Type.String({ maxLength: 128, description: 'a password the link asks for (x-share-password header); empty: none' });

/** A saved clip, named directly (eventUuid) or by the policy alert it was saved from (alertUuid): the clip groups take them too. */
export const ClipRef = Type.Object({
  eventUuid: Opt(NotRef('handler', Ruuid({ description: 'a saved clip' }))),
  alertUuid: Opt(NotRef('handler', Ruuid({ description: 'a policy alert saved as a clip: its clip' }))),
});
export type ClipRef = Static<typeof ClipRef>;

export const CreateSharedClipGroupRequest = Type.Object({
  uuids: NotRef('handler', Type.Array(ClipRef, { minItems: 1, maxItems: 100 })),
  title: Opt(Type.String({ maxLength: 256 })),
  expirationTimeSecs: Opt(ExpirationTimeSecs()),
  plaintextPassword: Opt(Password()),
});
export type CreateSharedClipGroupRequest = Static<typeof CreateSharedClipGroupRequest>;
export const ShareLinkResponse = ResponseOf({
  uuid: Field(Ruuid()),
  shareUrl: Field(MediaUri('the link on the media host')),
});

export const UpdateSharedClipGroupRequest = Type.Object({
  sharedClipUuid: NotRef('handler', Ruuid({ description: 'the shared clip group' })),
  title: Opt(Type.String({ maxLength: 256 })),
  description: Opt(Type.String({ maxLength: 4096 })),
  expirationTimeSecs: Opt(ExpirationTimeSecs()),
  plaintextPassword: Opt(Password()),
});
export type UpdateSharedClipGroupRequest = Static<typeof UpdateSharedClipGroupRequest>;

export const SharedClipGroupUuidRequest = Type.Object({ uuid: NotRef('subject', Ruuid()) });
export const GetSharedClipGroupsRequest = Type.Object({
  createdAfterMs: Opt(Type.Integer({ minimum: 0, description: 'groups created at or after' })),
  createdBeforeMs: Opt(Type.Integer({ minimum: 0, description: 'groups created before' })),
});

const sharedClipFields = {
  uuid: Ruuid(),
  startTime: Field(EpochMs('start of the footage')),
  durationSec: Field(Type.Integer()),
  clipLocation: Field(MetaDataLocation),
  thumbnailLocation: Field(MetaDataLocation),
  deviceUuidMap: Field(Type.Record(Type.String(), Type.Unknown())),
};
/** A clip of a group (shared or not), and the same with its details. */
export const SharedClip = Type.Object(sharedClipFields);
export const SharedClipWithDetails = Type.Object({
  ...sharedClipFields,
  description: Field(Type.String()),
  boundingBoxes: Field(Type.Array(Type.Unknown())),
  seekPoints: Field(Type.Array(Type.Unknown())),
});
const groupFields = {
  uuid: Ruuid(),
  orgUuid: Field(Ruuid()),
  title: Field(Type.String()),
  description: Field(Type.String()),
  createdAtMillis: Field(EpochMs()),
  expirationTimeSecs: Field(Type.Integer()),
};
export const SharedClipGroup = Type.Object(
  {
    ...groupFields,
    isSecured: Field(Type.Boolean({ description: 'the link asks for a password' })),
    sharedClips: Field(Type.Array(SharedClip)),
  },
  { description: 'Shared clip group' },
);
export type SharedClipGroupRecord = Static<typeof SharedClipGroup>;
export const SharedClipGroupWithDetails = Type.Object(
  {
    ...groupFields,
    sharedClips: Field(Type.Array(SharedClipWithDetails)),
  },
  { description: 'Shared clip group with details' },
);
export const GetSharedClipGroupsResponse = ResponseOf({ sharedClipGroups: Field(Type.Array(SharedClipGroup)) });
export const GetSharedClipGroupDetailsResponse = ResponseOf({ sharedClipGroup: Field(SharedClipGroupWithDetails) });
