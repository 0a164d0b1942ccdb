import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EnvelopeResponse } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as groups from './service.js';

const tags = ['Event'];
const manage = { functionality: 'CLIP_MANAGEMENT' } as const;
/**
 * The catalogue has these operations' schemas (Event_groups_*) but no paths; the platform's MCP server calls
 * getClipGroupsForOrg, so that path is the platform's. The other four paths are named after their schemas as
 * the other clip operations are, not yet seen in public material: Gatehouse marks them as its own until they are.
 */
const NAMED_AFTER_SCHEMA = 'The path is named after the catalogue schema (not yet seen in the platform’s public material).';

/** Clip groups: the organization's folders of saved clips. */
export function clipGroupRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/event/createClipGroup',
      operationId: 'createClipGroup',
      summary: 'Make a folder of saved clips',
      description: `Each of uuids names a saved clip of the organization (eventUuid) or the alert it was saved from (alertUuid). ${NAMED_AFTER_SCHEMA}`,
      tags,
      body: s.CreateClipGroupRequest,
      response: s.CreateClipGroupResponse,
      permission: manage,
      extension: true,
    },
    async (input, ctx) => groups.createClipGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getClipGroupsForOrg',
      operationId: 'getClipGroupsForOrg',
      summary: "The organization's clip groups, newest first, with their clips",
      description: "The platform's newer public spec (not in its catalogue). clipGroups repeats the groups as uuid, name and clipCount.",
      tags,
      body: s.GetClipGroupsForOrgRequest,
      response: s.GetClipGroupsForOrgResponse,
    },
    async (input, ctx) => groups.getClipGroupsForOrg(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/event/getClipGroupDetails',
      operationId: 'getClipGroupDetails',
      summary: 'A clip group with the details of its clips',
      description: NAMED_AFTER_SCHEMA,
      tags,
      body: s.ClipGroupUuidRequest,
      response: s.GetClipGroupDetailsResponse,
      extension: true,
    },
    async (input, ctx) => ({ group: await groups.getClipGroupDetails(deps, ctx, input.uuid) }),
  );
  operation(
    app,
    {
      path: '/api/event/updateClipGroup',
      operationId: 'updateClipGroup',
      summary: "Change a clip group's title, description or clips",
      description: `uuids, when given, is the whole list of clips from now on (empty: none). ${NAMED_AFTER_SCHEMA}`,
      tags,
      body: s.UpdateClipGroupRequest,
      response: EnvelopeResponse,
      permission: manage,
      extension: true,
    },
    async (input, ctx) => {
      await groups.updateClipGroup(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/event/deleteClipGroup',
      operationId: 'deleteClipGroup',
      summary: 'Delete a clip group (its clips stay)',
      description: NAMED_AFTER_SCHEMA,
      tags,
      body: s.ClipGroupUuidRequest,
      response: EnvelopeResponse,
      permission: manage,
      extension: true,
    },
    async (input, ctx) => {
      await groups.deleteClipGroup(deps, ctx, input.uuid);
      return {};
    },
  );
}
