import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EmptyRequest, EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as splices from './service.js';

const tags = ['Video'];
const manage = { functionality: 'CLIP_MANAGEMENT' } as const;
const SPLICE_V3 = '/api/video/spliceV3';
const CANCEL_V2 = '/api/video/cancelSpliceV2';
const IN_PROGRESS = '/api/video/getSplicedClipsInProgress';
const RENDERED =
  "Each clip starts INITIATING and is rendered from the camera's simulated footage (UPLOADING, RENDERING, then COMPLETE, each a change on the stream).";

/** Splices: saved clips rendered from cameras' footage over a time range. */
export function spliceRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/video/splice',
      operationId: 'splice',
      summary: "Save a clip of a camera's footage (deprecated: use spliceV3)",
      description: RENDERED,
      tags,
      deprecated: { successor: SPLICE_V3 },
      body: s.SpliceRequest,
      response: s.SpliceResponse,
      permission: manage,
    },
    async (input, ctx) => {
      const [clip] = await splices.splice(deps, ctx, { cameras: [input.deviceUuid], startMs: input.startTime, durationSec: input.duration });
      return { clipUuid: clip.uuid };
    },
  );
  operation(
    app,
    {
      path: '/api/video/spliceV2',
      operationId: 'spliceV2',
      summary: "Save a clip of cameras' footage (deprecated: use spliceV3)",
      description: RENDERED,
      tags,
      deprecated: { successor: SPLICE_V3 },
      body: s.SpliceV2Request,
      response: s.SpliceResponse,
      permission: manage,
    },
    async (input, ctx) => {
      const [clip] = await splices.splice(deps, ctx, {
        cameras: input.deviceUuids,
        startMs: input.startTimeMillis,
        durationSec: input.durationSec,
        title: input.title,
        description: input.description,
        fisheyeMap: input.fisheyePresentationMap,
      });
      return { clipUuid: clip.uuid };
    },
  );
  operation(
    app,
    {
      path: SPLICE_V3,
      operationId: 'spliceV3',
      summary: "Save clips of cameras' footage over a time range, one per camera",
      description: `${RENDERED} Refused beyond getMaxSpliceDuration.`,
      tags,
      body: s.SpliceV3Request,
      response: s.SpliceV3Response,
      permission: manage,
    },
    async (input, ctx) => {
      const visibility = input.accessSettings?.visibility ?? input.clipVisibility ?? null;
      const clips = await splices.splice(deps, ctx, {
        cameras: input.deviceUuids,
        startMs: input.startTimeMillis,
        durationSec: input.durationSec,
        title: input.title,
        description: input.description,
        accessSettings: visibility ? { ...input.accessSettings, visibility } : input.accessSettings,
      });
      return { clipUuid: clips[0].uuid, clipUuidList: clips.map((c) => c.uuid) };
    },
  );
  operation(
    app,
    {
      path: '/api/video/spliceFrame',
      operationId: 'spliceFrame',
      summary: "Save a camera's frame at an instant",
      description:
        "A saved clip (no duration) starts INITIATING and the camera's JPEG frame is rendered (UPLOADING, RENDERING, then COMPLETE, each a change on the stream); its clipLocationV2 serves the JPEG.",
      tags,
      body: s.SpliceFrameRequest,
      response: s.SpliceFrameResponse,
      permission: manage,
    },
    async (input, ctx) => ({
      clipUuid: (await splices.spliceFrame(deps, ctx, { camera: input.deviceUuid, atMs: input.timestampMs })).uuid,
      region: deps.config.region,
    }),
  );
  operation(
    app,
    {
      path: '/api/video/getMaxSpliceDuration',
      operationId: 'getMaxSpliceDuration',
      summary: 'The longest splice, in seconds',
      tags,
      body: EmptyRequest,
      response: s.GetMaxSpliceDurationResponse,
    },
    async () => ({ maxDuration: splices.MAX_SPLICE_DURATION_SEC }),
  );
  for (const [path, operationId, deprecated] of [
    [IN_PROGRESS, 'getSplicedClipsInProgress', false],
    ['/api/event/getSplicedClipsInProgress', 'DEPRECATED_getSplicedClipsInProgress', true],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary: deprecated ? 'Splices not complete yet (deprecated: use /api/video/getSplicedClipsInProgress)' : 'Splices not complete yet',
        description: 'Splices INITIATING, UPLOADING, RENDERING or FAILED (retrySplice starts a failed one again), newest first.',
        tags: deprecated ? ['Event'] : tags,
        ...(deprecated ? { deprecated: { successor: IN_PROGRESS } } : {}),
        body: EmptyRequest,
        response: s.GetSplicedClipsInProgressResponse,
        permission: { kind: 'read' },
      },
      async (_input, ctx) => ({ splicedClips: await splices.getSplicedClipsInProgress(deps, ctx) }),
    );
  }
  operation(
    app,
    {
      path: '/api/video/cancelSplice',
      operationId: 'cancelSplice',
      summary: 'Cancel a splice in progress (deprecated: use cancelSpliceV2)',
      description: 'The splice becomes FAILED; retrySplice starts it again.',
      tags,
      deprecated: { successor: CANCEL_V2 },
      body: s.CancelSpliceRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await splices.cancelSplices(deps, ctx, [input.clipUuid], input.deviceUuid ? [input.deviceUuid] : null);
      return {};
    },
  );
  operation(
    app,
    {
      path: CANCEL_V2,
      operationId: 'cancelSpliceV2',
      summary: 'Cancel splices in progress',
      description: 'Each named splice becomes FAILED (all or none); deviceUuids limits them to those cameras. retrySplice starts one again.',
      tags,
      body: s.CancelSpliceV2Request,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await splices.cancelSplices(deps, ctx, [...(input.clipUuid ? [input.clipUuid] : []), ...(input.clipUuidList ?? [])], input.deviceUuids);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/video/retrySplice',
      operationId: 'retrySplice',
      summary: 'Start a failed (or cancelled) splice again',
      tags,
      body: s.RetrySpliceRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await splices.retrySplice(deps, ctx, input.clipUuid);
      return {};
    },
  );
}
