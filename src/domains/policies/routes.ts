import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import * as policies from './service.js';

const tags = ['Policy'];

/** One family of policies: create, update, delete and get, under the catalogue's names. */
function policyFamilyRoutes(
  app: ApiApp,
  deps: Deps,
  family: {
    entity: 'CAMERA_POLICY' | 'DOOR_POLICY' | 'ACCESS_CONTROLLED_DOOR_POLICY';
    noun: string;
    what: string;
    create: typeof schemas.CreateDoorPolicyRequest | typeof schemas.CreateCameraPolicyRequest;
    update: typeof schemas.UpdateDoorPolicyRequest | typeof schemas.UpdateCameraPolicyRequest;
    list: typeof schemas.GetCameraPoliciesResponse | typeof schemas.GetDoorPoliciesResponse | typeof schemas.GetAccessControlledDoorPoliciesResponse;
  },
): void {
  const { entity, noun, what } = family;
  operation(
    app,
    {
      path: `/api/policy/create${noun}Policy`,
      operationId: `create${noun}Policy`,
      summary: `Create a ${what} policy`,
      description: 'Every schedule named must be one of the organization; answers the new policy uuid.',
      tags,
      body: family.create,
      response: schemas.CreatePolicyResponse,
    },
    async (input, ctx) => ({ policyUuid: await policies.createPolicy(deps, ctx, entity, input.policy) }),
  );
  operation(
    app,
    {
      path: `/api/policy/update${noun}Policy`,
      operationId: `update${noun}Policy`,
      summary: `Update a ${what} policy`,
      description: 'Sets the name and the scheduled triggers when given.',
      tags,
      body: family.update,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await policies.updatePolicy(deps, ctx, entity, input.policy as typeof input.policy & { uuid: string });
      return {};
    },
  );
  operation(
    app,
    {
      path: `/api/policy/delete${noun}Policy`,
      operationId: `delete${noun}Policy`,
      summary: `Delete a ${what} policy`,
      tags,
      body: schemas.DeletePolicyRequest,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await policies.deletePolicy(deps, ctx, entity, input.policyUuid);
      return {};
    },
  );
  operation(
    app,
    {
      path: `/api/policy/get${noun}Policies`,
      operationId: `get${noun}Policies`,
      summary: `The organization's ${what} policies`,
      tags,
      body: schemas.GetPoliciesRequest,
      response: family.list,
    },
    // The family's answer type is tied to its response schema by PolicyAnswer; the union of families is not.
    async (_input, ctx) => ({ policies: (await policies.getPolicies(deps, ctx, entity)) as never }),
  );
}

/** Camera, door and access-controlled door policies, and the policies that use a schedule. */
export function policyRoutes(app: ApiApp, deps: Deps): void {
  policyFamilyRoutes(app, deps, {
    entity: 'CAMERA_POLICY',
    noun: 'Camera',
    what: 'camera',
    create: schemas.CreateCameraPolicyRequest,
    update: schemas.UpdateCameraPolicyRequest,
    list: schemas.GetCameraPoliciesResponse,
  });
  policyFamilyRoutes(app, deps, {
    entity: 'DOOR_POLICY',
    noun: 'Door',
    what: 'door',
    create: schemas.CreateDoorPolicyRequest,
    update: schemas.UpdateDoorPolicyRequest,
    list: schemas.GetDoorPoliciesResponse,
  });
  policyFamilyRoutes(app, deps, {
    entity: 'ACCESS_CONTROLLED_DOOR_POLICY',
    noun: 'AccessControlledDoor',
    what: 'access controlled door',
    create: schemas.CreateAccessControlledDoorPolicyRequest,
    update: schemas.UpdateAccessControlledDoorPolicyRequest,
    list: schemas.GetAccessControlledDoorPoliciesResponse,
  });
  operation(
    app,
    {
      path: '/api/policy/getPoliciesUsingSchedule',
      operationId: 'getPoliciesUsingSchedule',
      summary: 'The policies that use a schedule',
      description: 'Camera, door and access controlled door policies naming the schedule; the other families are empty lists.',
      tags,
      body: schemas.GetPoliciesUsingScheduleRequest,
      response: schemas.GetPoliciesUsingScheduleResponse,
    },
    async (input, ctx) => policies.getPoliciesUsingSchedule(deps, ctx, input.scheduleUuid),
  );
}
