import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as groups from './shared-timelapse-groups.service.js';
import * as s from './schemas.js';
import * as timelapses from './service.js';

const tags = ['Video'];
/** Timelapses are clips: making, sharing and deleting them takes the clip-management right. */
const manage = { functionality: 'CLIP_MANAGEMENT' } as const;
const LINK =
  'The shareUrl is a path on the media host that answers without an API key (the x-share-password header carries a password, when set) until the group expires (then 410); once the group is deleted, 404.';

/** Timelapses and the links that share them (issue 19). */
export function timelapseRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/video/generateTimelapseClip',
      operationId: 'generateTimelapseClip',
      summary: "Make a timelapse of cameras' footage over a span",
      description: `Frames are sampled evenly across the span (without its nights or weekends when asked), each showing the camera's name and the sampled time; ${s.TIMELAPSE.fps} frames a second, ${s.TIMELAPSE.width}x${s.TIMELAPSE.height}. The timelapse starts INITIATED and is rendered (INPROGRESS, then COMPLETE, each a change on the stream); its videoUrl then serves the MP4 or GIF.`,
      tags,
      body: s.GenerateTimelapseClipRequest,
      response: s.GenerateTimelapseClipResponse,
      permission: manage,
    },
    async (input, ctx) => ({ clipUuid: await timelapses.generateTimelapse(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/video/getTimelapseClips',
      operationId: 'getTimelapseClips',
      summary: "The organization's timelapses, newest first, with their progress",
      tags,
      body: s.GetTimelapseClipsRequest,
      response: s.GetTimelapseClipsResponse,
    },
    async (_input, ctx) => ({ timelapseClips: await timelapses.getTimelapseClips(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/video/getTimelapseMetadata',
      operationId: 'getTimelapseMetadata',
      summary: 'The earliest footage a timelapse of each camera may start from',
      tags,
      body: s.GetTimelapseMetadataRequest,
      response: s.GetTimelapseMetadataResponse,
    },
    async (input, ctx) => ({ earliestTimestampMap: await timelapses.getTimelapseMetadata(deps, ctx, input.deviceUuidList) }),
  );
  operation(
    app,
    {
      path: '/api/video/deleteTimelapseClips',
      operationId: 'deleteTimelapseClips',
      summary: 'Delete timelapses and their media',
      description: 'All of them or none; their videos leave the media host (their paths answer 404) and the links that shared them no longer list them.',
      tags,
      body: s.DeleteTimelapseClipsRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await timelapses.deleteTimelapses(deps, ctx, input.clipUuids);
      return {};
    },
  );
  sharedTimelapseRoutes(app, deps);
}

function sharedTimelapseRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/video/shareTimelapseClips',
      operationId: 'shareTimelapseClips',
      summary: 'Share timelapses, a link each (deprecated: use createSharedTimelapseGroup)',
      description: `Each link is a shared timelapse group of one timelapse, with the default expiry. ${LINK}`,
      tags,
      deprecated: { successor: '/api/video/createSharedTimelapseGroup' },
      body: s.ShareTimelapseClipsRequest,
      response: s.ShareTimelapseClipsResponse,
      permission: manage,
    },
    async (input, ctx) => ({ shareUrlMap: await groups.shareTimelapses(deps, ctx, input.clipUuids) }),
  );
  operation(
    app,
    {
      path: '/api/video/createSharedTimelapseGroup',
      operationId: 'createSharedTimelapseGroup',
      summary: 'Share timelapses through one link that expires',
      description: LINK,
      tags,
      body: s.CreateSharedTimelapseGroupRequest,
      response: s.SharedTimelapseLinkResponse,
      permission: manage,
    },
    async (input, ctx) => groups.createSharedTimelapseGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/video/getSharedTimelapseGroups',
      operationId: 'getSharedTimelapseGroups',
      summary: "The organization's shared timelapse groups, newest first",
      tags,
      body: s.GetSharedTimelapseGroupsRequest,
      response: s.GetSharedTimelapseGroupsResponse,
    },
    async (_input, ctx) => ({ sharedTimelapses: await groups.getSharedTimelapseGroups(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/video/updateSharedTimelapseGroup',
      operationId: 'updateSharedTimelapseGroup',
      summary: "Change a shared timelapse group's title, expiry or password",
      description:
        'Each field changes when its flag says so (or, without a flag, when it is given); expirationTimeSecs counts from the creation of the group; a password changed to nothing is removed. The link stays the same.',
      tags,
      body: s.UpdateSharedTimelapseGroupRequest,
      response: s.SharedTimelapseLinkResponse,
      permission: manage,
    },
    async (input, ctx) => groups.updateSharedTimelapseGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/video/deleteSharedTimelapseGroup',
      operationId: 'deleteSharedTimelapseGroup',
      summary: 'Delete a shared timelapse group: its link answers 404 (the timelapses stay)',
      tags,
      body: s.SharedTimelapseGroupUuidRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await groups.deleteSharedTimelapseGroup(deps, ctx, input.uuid);
      return {};
    },
  );
}
