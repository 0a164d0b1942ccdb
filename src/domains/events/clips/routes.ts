import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { SavePolicyAlertV2Request, SavePolicyAlertV2Response } from '../alerts/schemas.js';
import * as s from './schemas.js';
import { GetSavedClipsRequest, GetSavedClipsResponse, GetSavedClipsV2Request, GetSavedClipsV2Response } from './schemas.js';
import * as clips from './service.js';
import * as saved from './saved-clips.service.js';
import { EnvelopeResponse } from '../../../schemas/common.js';

const tags = ['Event'];
/** Changing a clip takes the clip-management right (a read-only user gets 403). */
const manage = { functionality: 'CLIP_MANAGEMENT' } as const;
const GET_SAVED_CLIPS_V2 = '/api/event/getSavedClipsV2';
/** The newest clips the deprecated operation answers, as one page. */
const LEGACY_CLIP_COUNT = 1000;

export function clipRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/savePolicyAlertV2',
      operationId: 'savePolicyAlertV2',
      summary: 'Save a policy alert as a saved clip',
      description:
        "Creates a clip (INITIATING) of the alert's camera over the alert's time and marks the alert saved; the camera then uploads the video to the media host.",
      tags,
      body: SavePolicyAlertV2Request,
      response: SavePolicyAlertV2Response,
      permission: manage,
    },
    async (input, ctx) => clips.savePolicyAlertAsClip(deps, ctx, input).then(() => ({})),
  );
  operation(
    app,
    {
      path: GET_SAVED_CLIPS_V2,
      operationId: 'getSavedClipsV2',
      summary: 'Get saved clips, a page at a time',
      tags,
      body: GetSavedClipsV2Request,
      response: GetSavedClipsV2Response,
    },
    async (input, ctx) => clips.getSavedClipsPage(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getSavedClips',
      operationId: 'getSavedClips',
      summary: 'Get saved clips (deprecated: use getSavedClipsV2)',
      description: `Answers the newest ${LEGACY_CLIP_COUNT} clips, with a warningMsg naming the successor.`,
      tags,
      deprecated: { successor: GET_SAVED_CLIPS_V2 },
      body: GetSavedClipsRequest,
      response: GetSavedClipsResponse,
    },
    async (_input, ctx) => ({
      savedClips: (await clips.getSavedClipsPage(deps, ctx, { maxPageSize: LEGACY_CLIP_COUNT })).savedClips,
      warningMsg: `getSavedClips is deprecated: use ${GET_SAVED_CLIPS_V2}, which pages (maxPageSize, pageTimestampMs); this answers at most the newest ${LEGACY_CLIP_COUNT} clips`,
    }),
  );
  operation(
    app,
    {
      path: '/api/event/unSavePolicyAlertV2',
      operationId: 'unSavePolicyAlertV2',
      summary: 'Unsave a policy alert: its saved clip is deleted (deprecated: use deleteSavedClip)',
      description: 'The alert is no longer saved (it expires again, as a new alert would) and its clip and the media go.',
      tags,
      deprecated: { successor: '/api/event/deleteSavedClip' },
      body: s.UnSavePolicyAlertV2Request,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await saved.unsavePolicyAlert(deps, ctx, input);
      return {};
    },
  );
  savedClipWorkflowRoutes(app, deps);
}

/** The saved-clip workflow: clips with the progress of their video, details, updates, deletion, counts. */
function savedClipWorkflowRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/getClipsWithProgress',
      operationId: 'getClipsWithProgress',
      summary: 'Get saved clips with the progress of their video, a page at a time',
      description: 'Newest first unless sortOrder says ASC; pageToken continues where the last page ended (no gaps or repeats).',
      tags,
      body: s.GetClipsWithProgressRequest,
      response: s.GetClipsWithProgressResponse,
    },
    async (input, ctx) => saved.getClipsWithProgress(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getExpiringClipsForOrg',
      operationId: 'getExpiringClipsForOrg',
      summary: 'Get the saved clips whose retention ends within a week, a page at a time',
      description: `A saved clip is kept ${saved.CLIP_RETENTION_MS / 86_400_000} days after it was made; this lists those within ${saved.CLIP_EXPIRY_WARNING_MS / 86_400_000} days of the end.`,
      tags,
      body: s.GetClipsWithProgressRequest,
      response: s.GetClipsWithProgressResponse,
    },
    async (input, ctx) => saved.getClipsWithProgress(deps, ctx, input, true),
  );
  operation(
    app,
    {
      path: '/api/event/getClipWithProgress',
      operationId: 'getClipWithProgress',
      summary: 'Get a saved clip with the progress of its video',
      tags,
      body: s.ClipUuidRequest,
      response: s.GetClipWithProgressResponse,
    },
    async (input, ctx) => ({ clip: await saved.getClipWithProgress(deps, ctx, input.clipUuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/getSavedClipDetails',
      operationId: 'getSavedClipDetails',
      summary: 'Get a saved clip with its details',
      tags,
      body: s.ClipUuidRequest,
      response: s.GetSavedClipDetailsResponse,
    },
    async (input, ctx) => ({ savedClip: await saved.getSavedClipDetails(deps, ctx, input.clipUuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/updateSavedClip',
      operationId: 'updateSavedClip',
      summary: "Update a saved clip's title, description or access settings",
      tags,
      body: s.UpdateSavedClipRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await saved.updateSavedClip(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/event/deleteSavedClip',
      operationId: 'deleteSavedClip',
      summary: 'Delete a saved clip and its media',
      description: 'The video and thumbnail leave the media host: their URLs answer 404.',
      tags,
      body: s.SavedClipUuidRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await saved.deleteSavedClip(deps, ctx, input.savedClipUuid);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/event/getSavedClipCount',
      operationId: 'getSavedClipCount',
      summary: 'Count saved clips, and the private ones among them',
      tags,
      body: s.GetSavedClipCountRequest,
      response: s.GetSavedClipCountResponse,
    },
    async (input, ctx) => saved.getSavedClipCount(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getSavedClipsByExternalTransactionId',
      operationId: 'getSavedClipsByExternalTransactionId',
      summary: 'Get the saved clips of an external transaction id',
      tags,
      body: s.GetSavedClipsByExternalTransactionIdRequest,
      response: GetSavedClipsResponse,
    },
    async (input, ctx) => ({ savedClips: await saved.getSavedClipsByExternalTransactionId(deps, ctx, input.externalTransactionId) }),
  );
}
