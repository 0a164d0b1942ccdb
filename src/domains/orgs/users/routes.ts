import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import { userExtraRoutes } from './user-extras.routes.js';
import * as users from './service.js';

const tags = ['User'];

/** The organization's users, and who the caller is. */
export function userRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/user/getUsersInOrg',
      operationId: 'getUsersInOrg',
      summary: 'List the users of the organization',
      tags,
      body: schemas.GetUsersInOrgRequest,
      response: schemas.GetUsersInOrgResponse,
    },
    async (_input, ctx) => {
      const list = await users.listUsers(deps, ctx);
      const userPermissions = list
        .filter((u) => u.permissionGroupUuid)
        .map((u) => ({ userUuid: u.uuid, orgUuid: u.orgUuid, groupUuid: u.permissionGroupUuid }));
      return { users: list, userPermissions };
    },
  );
  operation(
    app,
    {
      path: '/api/user/getUser',
      extension: true,
      operationId: 'getUser',
      summary: 'Get a user by uuid',
      tags,
      body: schemas.UserUuidRequest,
      response: schemas.UserResponse,
    },
    async (input, ctx) => ({ user: await users.getUser(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/user/findUserByEmail',
      extension: true,
      operationId: 'findUserByEmail',
      summary: 'Find a user by e-mail address',
      tags,
      body: schemas.FindUserByEmailRequest,
      response: schemas.UserResponse,
    },
    async (input, ctx) => ({ user: await users.findUserByEmail(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/customer/getCurrentUser',
      extension: true,
      operationId: 'getCurrentUser',
      summary: 'The user the API key acts as',
      tags: ['Customer'],
      body: schemas.CurrentUserRequest,
      response: schemas.UserResponse,
      permission: { kind: 'self' },
    },
    async (_input, ctx) => ({ user: await users.currentUser(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/user/createUser',
      operationId: 'createUser',
      summary: 'Create a user',
      description: 'The e-mail address is unique in the organization. Without permissionGroupUuid the user has full rights.',
      tags,
      body: schemas.CreateUserRequest,
      response: schemas.CreateUserResponse,
    },
    async (input, ctx) => ({ userUuid: (await users.addUser(deps, ctx, input)).uuid, responseStatus: 'SUCCESS' }),
  );
  for (const [path, operationId, deprecated] of [
    ['/api/user/updateUserSelective', 'updateUserSelective', undefined],
    ['/api/user/updateUser', 'updateUser', { successor: '/api/user/updateUserSelective' }],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        summary: 'Change the given fields of a user (name, permission group)',
        tags,
        body: schemas.UpdateUserRequest,
        response: schemas.UserEnvelope,
        deprecated,
      },
      async (input, ctx) => (await users.changeUser(deps, ctx, input.userUuid, input), {}),
    );
  }
  operation(
    app,
    {
      path: '/api/user/assignEmailToUser',
      operationId: 'assignEmailToUser',
      summary: "Change a user's e-mail address",
      tags,
      body: schemas.AssignEmailToUserRequest,
      response: schemas.UserEnvelope,
    },
    async (input, ctx) => (await users.changeUser(deps, ctx, input.userUuid, { email: input.emailToAssign }), {}),
  );
  operation(
    app,
    {
      path: '/api/user/deleteUser',
      operationId: 'deleteUser',
      summary: 'Delete a user',
      description:
        "Ends the user's API keys (their stream sessions close) and revokes their access credentials, in one transaction. Refused for the last administrator.",
      tags,
      body: schemas.UserUuidRequest,
      response: schemas.UserEnvelope,
    },
    async (input, ctx) => (await users.deleteUser(deps, ctx, input), {}),
  );
  userExtraRoutes(app, deps);
}
