import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as groups from './service.js';

const tags = ['AccessControl'];
const path = (operationId: string) => `/api/accesscontrol/${operationId}`;

/** Access control groups and their members. */
export function accessGroupRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: path('createAccessControlGroup'),
      operationId: 'createAccessControlGroup',
      summary: 'Create an access control group',
      description: 'Names are unique in the organization whatever their case.',
      tags,
      body: s.CreateAccessControlGroupRequest,
      response: s.CreateAccessControlGroupResponse,
    },
    async (input, ctx) => groups.createGroup(deps, ctx, input),
  );
  operation(
    app,
    {
      path: path('updateAccessControlGroup'),
      operationId: 'updateAccessControlGroup',
      summary: 'Rename an access control group or change its description',
      tags,
      body: s.UpdateAccessControlGroupRequest,
      response: s.UpdateAccessControlGroupResponse,
    },
    async (input, ctx) => ({ group: await groups.updateGroup(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: path('deleteAccessControlGroup'),
      operationId: 'deleteAccessControlGroup',
      summary: 'Delete an access control group (refused while a grant or revocation names it)',
      tags,
      body: s.DeleteAccessControlGroupRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await groups.deleteGroup(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: path('findAccessControlGroupsByOrg'),
      operationId: 'findAccessControlGroupsByOrg',
      summary: 'Find the access control groups of the organization, by name',
      tags,
      body: s.FindAccessControlGroupsByOrgRequest,
      response: s.GroupsResponse,
    },
    async (_input, ctx) => ({ groups: await groups.listGroups(deps, ctx) }),
  );
  operation(
    app,
    {
      path: path('findAccessControlGroupsByNamePrefix'),
      operationId: 'findAccessControlGroupsByNamePrefix',
      summary: 'Find the access control groups whose name starts with a prefix (case aside)',
      tags,
      body: s.FindAccessControlGroupsByNamePrefixRequest,
      response: s.GroupsResponse,
    },
    async (input, ctx) => ({ groups: await groups.listGroups(deps, ctx, { namePrefix: input.groupNamePrefix }) }),
  );
  operation(
    app,
    {
      path: path('findAccessControlGroupByExactName'),
      operationId: 'findAccessControlGroupByExactName',
      summary: 'Find the access control group with exactly this name',
      tags,
      body: s.FindAccessControlGroupByExactNameRequest,
      response: s.FindAccessControlGroupByExactNameResponse,
    },
    async (input, ctx) => ({ group: await groups.findGroupByExactName(deps, ctx, input.groupName) }),
  );
  operation(
    app,
    {
      path: path('findAccessControlGroupsByUserMembership'),
      operationId: 'findAccessControlGroupsByUserMembership',
      summary: 'Find the access control groups a user is in',
      tags,
      body: s.FindAccessControlGroupsByUserMembershipRequest,
      response: s.GroupsResponse,
    },
    async (input, ctx) => ({ groups: await groups.listGroups(deps, ctx, { memberUuid: input.userUuid }) }),
  );
  operation(
    app,
    {
      path: path('findAccessControlGroupMembershipsByUser'),
      operationId: 'findAccessControlGroupMembershipsByUser',
      summary: "Find a user's access control group memberships",
      tags,
      body: s.FindAccessControlGroupMembershipsByUserRequest,
      response: s.FindAccessControlGroupMembershipsByUserResponse,
    },
    async (input, ctx) => ({ userGroupMemberships: await groups.listMembershipsOfUser(deps, ctx, input.userUuid) }),
  );
  operation(
    app,
    {
      path: path('findAllUsersForAccessControlGroup'),
      operationId: 'findAllUsersForAccessControlGroup',
      summary: 'Find the members of an access control group',
      tags,
      body: s.FindAllUsersForAccessControlGroupRequest,
      response: s.MembersResponse,
    },
    async (input, ctx) => ({ groupMembers: await groups.listMembers(deps, ctx, input.groupUuid) }),
  );
  operation(
    app,
    {
      path: path('addUsersToAccessControlGroup'),
      operationId: 'addUsersToAccessControlGroup',
      summary: 'Add users to an access control group; answers every member after the change',
      tags,
      body: s.GroupUsersRequest,
      response: s.MembersResponse,
    },
    async (input, ctx) => ({ groupMembers: await groups.addUsersToGroup(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: path('removeUsersFromAccessControlGroup'),
      operationId: 'removeUsersFromAccessControlGroup',
      summary: 'Remove users from an access control group (users not in it are passed over)',
      tags,
      body: s.GroupUsersRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await groups.removeUsersFromGroup(deps, ctx, input), {}),
  );
}
