import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { changeUser } from '../users/service.js';
import { partnerGroupRoutes } from './partner-groups.routes.js';
import * as schemas from './schemas.js';
import * as permissions from './service.js';

const tags = ['Permission'];

/** Roles: permission groups, each user's group, and the caller's own permissions. */
export function permissionRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/permission/getPermissionGroups',
      aliases: ['/api/permission/getPermissionGroupsForOrg'],
      extension: ['/api/permission/getPermissionGroupsForOrg'],
      operationId: 'getPermissionGroups',
      summary: 'List the permission groups of the organization, with their users',
      tags,
      body: schemas.GetPermissionGroupsRequest,
      response: schemas.GetPermissionGroupsResponse,
    },
    async (_input, ctx) => {
      const { groups, membership } = await permissions.listGroups(deps, ctx);
      return { permissionGroups: groups, groupMembership: membership };
    },
  );
  operation(
    app,
    {
      path: '/api/permission/createPermissionGroup',
      operationId: 'createPermissionGroup',
      summary: 'Create a permission group',
      description: 'locationAccessMap (or accessibleLocations, each at ADMIN) limits the group to those locations; neither: every location.',
      tags,
      body: schemas.CreatePermissionGroupRequest,
      response: schemas.CreatePermissionGroupResponse,
    },
    async (input, ctx) => ({ uuid: (await permissions.createGroup(deps, ctx, input.userPermissionGroup)).uuid }),
  );
  operation(
    app,
    {
      path: '/api/permission/updatePermissionGroup',
      operationId: 'updatePermissionGroup',
      summary: 'Change the given fields of a permission group',
      description: "Its users' rights change at once. Refused when it would leave the organization without an administrator.",
      tags,
      body: schemas.UpdatePermissionGroupRequest,
      response: schemas.PermissionEnvelope,
    },
    async (input, ctx) => (await permissions.updateGroup(deps, ctx, input.userPermissionGroup), {}),
  );
  operation(
    app,
    {
      path: '/api/permission/deletePermissionGroup',
      operationId: 'deletePermissionGroup',
      summary: 'Delete a permission group',
      description: 'Refused while users are in it.',
      tags,
      body: schemas.DeletePermissionGroupRequest,
      response: schemas.PermissionEnvelope,
    },
    async (input, ctx) => (await permissions.deleteGroup(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/permission/assignUserToPermissionGroup',
      extension: true,
      operationId: 'assignUserToPermissionGroup',
      summary: 'Put a user in a permission group',
      tags,
      body: schemas.AssignPermissionGroupRequest,
      response: schemas.PermissionEnvelope,
    },
    async (input, ctx) => (await changeUser(deps, ctx, input.userUuid, { permissionGroupUuid: input.groupUuid }), {}),
  );
  operation(
    app,
    {
      path: '/api/permission/getPermissionsForCurrentUser',
      operationId: 'getPermissionsForCurrentUser',
      summary: "The permissions of the key's user",
      tags,
      body: schemas.GetPermissionsForCurrentUserRequest,
      response: schemas.GetPermissionsForCurrentUserResponse,
      permission: { kind: 'self' },
    },
    async (_input, ctx) => permissions.currentPermissions(deps, ctx),
  );
  partnerGroupRoutes(app, deps);
}
