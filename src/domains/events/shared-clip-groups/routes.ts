import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as groups from './service.js';

const tags = ['Event'];
const manage = { functionality: 'CLIP_MANAGEMENT' } as const;
const LINK =
  'The shareUrl is a path on the media host that answers without an API key (the x-share-password header carries a password, when set) until the group expires (then 410); once the group is deleted, 404.';

/** Shared clip groups: links to saved clips for people without an API key. */
export function sharedClipGroupRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/createSharedClipGroupV3',
      operationId: 'createSharedClipGroupV3',
      summary: 'Share saved clips through a link that expires',
      description: LINK,
      tags,
      body: s.CreateSharedClipGroupRequest,
      response: s.ShareLinkResponse,
      permission: manage,
    },
    async (input, ctx) => groups.createSharedClipGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getSharedClipGroupsV2',
      operationId: 'getSharedClipGroupsV2',
      summary: "The organization's shared clip groups, newest first",
      tags,
      body: s.GetSharedClipGroupsRequest,
      response: s.GetSharedClipGroupsResponse,
    },
    async (input, ctx) => ({ sharedClipGroups: await groups.getSharedClipGroups(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/event/getSharedClipGroupDetails',
      operationId: 'getSharedClipGroupDetails',
      summary: 'A shared clip group with the details of its clips',
      tags,
      body: s.SharedClipGroupUuidRequest,
      response: s.GetSharedClipGroupDetailsResponse,
    },
    async (input, ctx) => ({ sharedClipGroup: await groups.getSharedClipGroupDetails(deps, ctx, input.uuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/updateSharedClipGroupV2',
      operationId: 'updateSharedClipGroupV2',
      summary: "Change a shared clip group's title, description, expiry or password",
      description: 'expirationTimeSecs counts from the creation of the group; an empty plaintextPassword removes the password. The link stays the same.',
      tags,
      body: s.UpdateSharedClipGroupRequest,
      response: s.ShareLinkResponse,
      permission: manage,
    },
    async (input, ctx) => groups.updateSharedClipGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/deleteSharedClipGroupV2',
      operationId: 'deleteSharedClipGroupV2',
      summary: 'Delete a shared clip group: its link answers 404 (the clips stay)',
      tags,
      body: s.SharedClipGroupUuidRequest,
      response: EnvelopeResponse,
      permission: manage,
    },
    async (input, ctx) => {
      await groups.deleteSharedClipGroup(deps, ctx, input.uuid);
      return {};
    },
  );
}
