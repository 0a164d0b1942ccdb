import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../http/operation.js';
import { SavePolicyAlertV2Request, SavePolicyAlertV2Response } from './alerts.schemas.js';
import { GetSavedClipsRequest, GetSavedClipsResponse, GetSavedClipsV2Request, GetSavedClipsV2Response } from './clips.schemas.js';
import * as clips from './clips.service.js';

const tags = ['Event'];
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
    },
    async (input, ctx) => ({ savedClipUuid: (await clips.savePolicyAlertAsClip(deps, ctx, input)).uuid }),
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
}
