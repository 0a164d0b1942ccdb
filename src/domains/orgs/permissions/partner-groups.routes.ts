import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './partner-groups.schemas.js';
import * as groups from './partner-groups.service.js';

const tags = ['Permission'];
const admin = { functionality: 'USER_ADMINISTRATION' } as const;

/** Partner permission groups: what a partner's users may do as the partner and in each client. Partner keys only. */
export function partnerGroupRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/permission/getPartnerPermissionGroups',
      operationId: 'getPartnerPermissionGroups',
      summary: "The partner's permission groups, with their users",
      tags,
      body: schemas.GetPartnerGroupsRequest,
      response: schemas.GetPartnerGroupsResponse,
      access: 'partner',
    },
    async (_input, ctx) => {
      const { groups: list, membership } = await groups.listPartnerGroups(deps, ctx);
      return { permissionGroups: list, groupMembership: membership };
    },
  );
  operation(
    app,
    {
      path: '/api/permission/createPartnerPermissionGroup',
      operationId: 'createPartnerPermissionGroup',
      summary: 'Create a partner permission group',
      description:
        'clientPermissionMap limits the group to the clients it lists (DEFAULT: clientFunctionalityList there; CUSTOM: the client group named in clientAssignablePermissionGroupsMap); empty: every client, by DEFAULT.',
      tags,
      body: schemas.CreatePartnerGroupRequest,
      response: schemas.CreatePartnerGroupResponse,
      access: 'partner',
      permission: admin,
    },
    async (input, ctx) => ({ uuid: (await groups.createPartnerGroup(deps, ctx, input.partnerPermissionGroup)).uuid }),
  );
  operation(
    app,
    {
      path: '/api/permission/updatePartnerPermissionGroup',
      operationId: 'updatePartnerPermissionGroup',
      summary: 'Change the given fields of a partner permission group',
      description: "Its users' rights change at once. Refused when it would leave the partner without a partner administrator.",
      tags,
      body: schemas.UpdatePartnerGroupRequest,
      response: schemas.PartnerGroupEnvelope,
      access: 'partner',
      permission: admin,
    },
    async (input, ctx) => (await groups.updatePartnerGroup(deps, ctx, input.partnerPermissionGroup), {}),
  );
  operation(
    app,
    {
      path: '/api/permission/deletePartnerPermissionGroup',
      operationId: 'deletePartnerPermissionGroup',
      summary: 'Delete a partner permission group',
      description: 'Refused while users are in it.',
      tags,
      body: schemas.DeletePartnerGroupRequest,
      response: schemas.PartnerGroupEnvelope,
      access: 'partner',
      permission: admin,
    },
    async (input, ctx) => (await groups.deletePartnerGroup(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/permission/getPermissionsForCurrentPartner',
      operationId: 'getPermissionsForCurrentPartner',
      summary: "The partner permissions of the partner key's user",
      tags,
      body: schemas.CurrentPartnerRequest,
      response: schemas.CurrentPartnerResponse,
      access: 'partner',
      permission: { kind: 'self' },
    },
    async (_input, ctx) => groups.currentPartnerPermissions(deps, ctx),
  );
}
