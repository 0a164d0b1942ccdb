import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, MediaUri, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';
import { MetaDataLocation } from '../alerts/schemas.js';
import { CLIP_STATUSES, CLIP_VISIBILITIES } from '../tables.js';

const str = () => Field(Type.String());
const bool = () => Field(Type.Boolean());
const anyMap = () => Field(Type.Record(Type.String(), Type.Unknown()));

/** Who may see a clip. */
export const ClipAccessSettings = Type.Object({
  allowedRoles: Field(Type.Array(RefUuid('permissionGroup'), { maxItems: 100 })),
  allowedUsers: Field(Type.Array(RefUuid('user'), { maxItems: 100 })),
  visibility: Field(StringEnum(CLIP_VISIBILITIES)),
});
export type ClipAccessSettings = Static<typeof ClipAccessSettings>;

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
        "INITIATING on creation, UPLOADING while the media host receives the video (for a splice: while the camera's footage is rendered), RENDERING while a splice's MP4 is stored, COMPLETE once it is stored with sha256Hex and byteCount, FAILED when the upload or render broke off (or the splice was cancelled)",
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
    clipLocationV2: Field(MediaUri('the video on the media host')),
    thumbnailLocationV2: Field(MediaUri('the thumbnail on the media host')),
    accessSettings: Field(ClipAccessSettings),
    alterMap: anyMap(),
    deviceIntervalMap: anyMap(),
    deviceUuidMap: anyMap(),
    fisheyeMap: anyMap(),
    analyzed: bool(),
    consoleDelete: bool(),
    isMonitoringClip: bool(),
    isVendorClip: bool(),
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

/** A saved clip with the progress of its video (the reference's SavedClipWithProgressType). */
export const SavedClipWithProgress = Type.Object(
  {
    ...SavedClip.properties,
    percentComplete: Field(Type.Integer({ minimum: 0, maximum: 100 })),
    currentOperation: Field(Type.String({ description: 'what is happening to the video now' })),
    lastUpdatedSec: Field(Type.Integer({ description: 'epoch seconds of the last change of the clip' })),
  },
  { description: 'Saved clip with progress' },
);
export type SavedClipWithProgressRecord = SavedClipRecord & { percentComplete: number; currentOperation: string; lastUpdatedSec: number };

/** A saved clip with the details of its footage (the reference's SavedClipWithDetailsType). */
export const SavedClipWithDetails = Type.Object(
  {
    ...SavedClip.properties,
    boundingBoxes: Field(Type.Array(Type.Unknown(), { description: 'objects seen in the clip (the simulated footage has none)' })),
    seekPoints: Field(Type.Array(Type.Unknown(), { description: 'points of interest in the clip (the simulated footage has none)' })),
  },
  { description: 'Saved clip with details' },
);

export const CLIP_SORT_FIELDS = ['timestampMs', 'createdAtMs'] as const;
export type ClipSortField = (typeof CLIP_SORT_FIELDS)[number];
export const CLIP_PROGRESS_PAGE = { default: 100, minimum: 1, maximum: 200 } as const;
const RuuidList = () => Type.Optional(Nullable(Type.Array(Ruuid(), { maxItems: 500 })));

export const GetClipsWithProgressRequest = Type.Object({
  pageSize: Type.Integer({
    minimum: CLIP_PROGRESS_PAGE.minimum,
    maximum: CLIP_PROGRESS_PAGE.maximum,
    default: CLIP_PROGRESS_PAGE.default,
    description: `clips per page, ${CLIP_PROGRESS_PAGE.minimum} to ${CLIP_PROGRESS_PAGE.maximum}`,
  }),
  pageToken: Opt(Type.String({ maxLength: 200, description: "the previous page's pageToken; absent for the first page" })),
  deviceUuidFilters: NotRef('filter', RuuidList()),
  locationUuidFilters: NotRef('filter', RuuidList()),
  searchFilter: Opt(Type.String({ maxLength: 200, description: 'words the title or description contains (case-insensitive)' })),
  sortField: Opt(StringEnum(CLIP_SORT_FIELDS, 'the order of the clips (default timestampMs)')),
  sortOrder: Opt(StringEnum(['ASC', 'DESC'] as const, 'default DESC: newest first')),
  timestampFilterField: Opt(StringEnum(CLIP_SORT_FIELDS, 'the time timestampMsAfter and timestampMsBefore bound (default timestampMs)')),
  timestampMsAfter: Opt(Type.Integer({ minimum: 0, description: 'clips at or after' })),
  timestampMsBefore: Opt(Type.Integer({ minimum: 0, description: 'clips before' })),
  excludeAlertMonitoringClips: Opt(Type.Boolean()),
  filterByPrivate: Opt(Type.Boolean({ description: 'only PRIVATE clips' })),
});
export type GetClipsWithProgressRequest = Static<typeof GetClipsWithProgressRequest>;
export const GetClipsWithProgressResponse = ResponseOf({
  savedClips: Field(Type.Array(SavedClipWithProgress)),
  pageToken: Field(Type.String({ description: 'pass for the next page; null when this page is the last' })),
});

export const ClipUuidRequest = Type.Object({ clipUuid: NotRef('handler', Ruuid()) });
export const GetClipWithProgressResponse = ResponseOf({ clip: Field(SavedClipWithProgress) });
export const GetSavedClipDetailsResponse = ResponseOf({ savedClip: Field(SavedClipWithDetails) });

export const SavedClipUuidRequest = Type.Object({ savedClipUuid: NotRef('handler', Ruuid()) });
export const UpdateSavedClipRequest = Type.Object({
  savedClipUuid: NotRef('handler', Ruuid()),
  title: Opt(Type.String({ minLength: 1, maxLength: 256 })),
  description: Opt(Type.String({ maxLength: 4096 })),
  accessSettings: Opt(ClipAccessSettings),
});
export type UpdateSavedClipRequest = Static<typeof UpdateSavedClipRequest>;

export const GetSavedClipCountRequest = Type.Object({
  deviceFilter: NotRef('filter', RuuidList()),
  locationFilter: NotRef('filter', RuuidList()),
  startTimeMs: Opt(Type.Integer({ minimum: 0, description: 'clips whose footage starts at or after' })),
  endTimeMs: Opt(Type.Integer({ minimum: 0, description: 'clips whose footage starts before' })),
});
export type GetSavedClipCountRequest = Static<typeof GetSavedClipCountRequest>;
export const GetSavedClipCountResponse = ResponseOf({
  count: Field(Type.Integer()),
  privateCount: Field(Type.Integer({ description: 'of which PRIVATE' })),
});

export const GetSavedClipsByExternalTransactionIdRequest = Type.Object({
  externalTransactionId: NotRef('external', Type.String({ minLength: 1, maxLength: 256 })),
});

export const UnSavePolicyAlertV2Request = Type.Object({
  alertUuid: NotRef('handler', Ruuid({ description: 'a saved policy alert' })),
  savedClipUuid: Opt(NotRef('handler', Ruuid({ description: 'the clip saved from it to delete (default: every clip saved from it)' }))),
});
