import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, ResponseOf, Ruuid } from '../../schemas/common.js';
import { MetaDataLocation, StringEnum } from './alerts.schemas.js';
import { CLIP_STATUSES } from './tables.js';

const str = () => Field(Type.String());
const bool = () => Field(Type.Boolean());
const anyMap = () => Field(Type.Record(Type.String(), Type.Unknown()));

/** A saved clip (the reference's SavedClipV2Type, with the specification's fields). */
export const SavedClip = Type.Object(
  {
    uuid: Ruuid(),
    orgUuid: Field(Ruuid()),
    userUuid: Field(Ruuid()),
    sourceAlertUuid: Field(Ruuid({ description: 'the policy alert the clip was saved from' })),
    status: Field(
      StringEnum(
        CLIP_STATUSES,
        'INITIATING on creation, UPLOADING while the media host receives the video, COMPLETE once it is stored with sha256Hex and byteCount, FAILED when the upload broke off',
      ),
    ),
    deviceUuid: Field(FacetId()),
    deviceUuids: Field(Type.Array(FacetId())),
    devicePresentationOrder: Field(Type.Array(FacetId())),
    timestampMs: Field(EpochMs('start of the footage')),
    durationSec: Field(Type.Integer()),
    createdAtMs: Field(EpochMs()),
    title: str(),
    description: str(),
    externalTransactionId: str(),
    sha256Hex: Field(Type.String({ description: 'SHA-256 of the stored video, hex' })),
    byteCount: Field(Type.Integer({ description: 'size of the stored video in bytes' })),
    clipLocation: Field(MetaDataLocation),
    thumbnailLocation: Field(MetaDataLocation),
    clipLocationV2: Field(Type.String({ description: 'path of the video on the media host' })),
    thumbnailLocationV2: Field(Type.String({ description: 'path of the thumbnail on the media host' })),
    accessSettings: Field(
      Type.Object({
        allowedRoles: Field(Type.Array(Ruuid())),
        allowedUsers: Field(Type.Array(Ruuid())),
        visibility: Field(StringEnum(['PRIVATE', 'ROLE_RESTRICTED', 'ORG_WIDE'])),
      }),
    ),
    alterMap: anyMap(),
    deviceIntervalMap: anyMap(),
    deviceUuidMap: anyMap(),
    fisheyeMap: anyMap(),
    analyzed: bool(),
    consoleDelete: bool(),
    isMonitoringClip: bool(),
    isVendorClip: bool(),
    placeholder: bool(),
    sendToSharedStorage: bool(),
    fisheyeHardware: str(),
    integrationUploadList: Field(Type.Array(Type.String())),
    mountingDirection: Field(StringEnum(['DOWN', 'UP', 'SIDEWAYS', 'UNKNOWN'])),
    videoResolution: Field(Type.Object({ height: Field(Type.Integer()), width: Field(Type.Integer()) })),
  },
  { description: 'Saved clip' },
);
export type SavedClipRecord = Omit<Static<typeof SavedClip>, 'uuid' | 'orgUuid' | 'status' | 'timestampMs'> & {
  uuid: string;
  orgUuid: string;
  status: (typeof CLIP_STATUSES)[number];
  timestampMs: number;
};

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const CLIP_PAGE = { default: 100, maximum: 1000 } as const;

export const GetSavedClipsV2Request = Type.Object({
  maxPageSize: Opt(
    Type.Integer({ minimum: 1, maximum: CLIP_PAGE.maximum, description: `clips per page: default ${CLIP_PAGE.default}, maximum ${CLIP_PAGE.maximum}` }),
  ),
  pageTimestampMs: Opt(
    Type.Integer({
      description:
        "the previous page's lastEvaluatedTimestampMs: the page holds clips strictly older. Clips run newest first, and a page never splits the clips of one timestamp (it may hold fewer than maxPageSize, or, when more than maxPageSize clips share a timestamp, all of them)",
    }),
  ),
});
export type GetSavedClipsV2Request = Static<typeof GetSavedClipsV2Request>;
export const GetSavedClipsV2Response = ResponseOf({
  savedClips: Field(Type.Array(SavedClip)),
  lastEvaluatedTimestampMs: Field(EpochMs('pass as pageTimestampMs for the next page; null when this page is the last')),
});

export const GetSavedClipsRequest = Type.Object({}, { description: '{} (fields are ignored)' });
export const GetSavedClipsResponse = ResponseOf({ savedClips: Field(Type.Array(SavedClip)) });
