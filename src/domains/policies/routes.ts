import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import * as policies from './service.js';
import type { PolicyEntity } from './service.js';
import type { PolicyInput } from './schemas.js';

const tags = ['Policy'];

/** The families, by the noun of their operations (`create<Noun>Policy`), with their stream entity. */
const FAMILIES: Array<{ noun: keyof typeof schemas.FAMILY_SCHEMAS; entity: PolicyEntity; what: string }> = [
  { noun: 'Camera', entity: 'CAMERA_POLICY', what: 'camera' },
  { noun: 'Door', entity: 'DOOR_POLICY', what: 'door' },
  { noun: 'AccessControlledDoor', entity: 'ACCESS_CONTROLLED_DOOR_POLICY', what: 'access controlled door' },
  { noun: 'Audio', entity: 'AUDIO_POLICY', what: 'audio' },
  { noun: 'Climate', entity: 'CLIMATE_POLICY', what: 'climate' },
  { noun: 'Occupancy', entity: 'OCCUPANCY_POLICY', what: 'occupancy' },
  { noun: 'Proximity', entity: 'PROXIMITY_POLICY', what: 'proximity' },
  { noun: 'VideoIntercom', entity: 'VIDEO_INTERCOM_POLICY', what: 'video intercom' },
];

/** Every family of policies (create, update, delete and get, under the catalogue's names), and the policies that use a schedule. */
export function policyRoutes(app: ApiApp, deps: Deps): void {
  for (const { noun, entity, what } of FAMILIES) {
    const family = schemas.FAMILY_SCHEMAS[noun];
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
      async (input, ctx) => ({ policyUuid: await policies.createPolicy(deps, ctx, entity, input.policy as PolicyInput) }),
    );
    operation(
      app,
      {
        path: `/api/policy/update${noun}Policy`,
        operationId: `update${noun}Policy`,
        summary: `Update a ${what} policy`,
        description: "Sets the name and the scheduled triggers (and the family's other fields) when given.",
        tags,
        body: family.update,
        response: schemas.PolicyEnvelope,
      },
      async (input, ctx) => {
        await policies.updatePolicy(deps, ctx, entity, input.policy as PolicyInput & { uuid: string });
        return {};
      },
    );
    operation(
      app,
      {
        path: `/api/policy/delete${noun}Policy`,
        operationId: `delete${noun}Policy`,
        summary: `Delete a ${what} policy`,
        description: 'Refused while a device of the family follows it.',
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
      // Each family's answer is its list schema's; the union of families is not tied to it by type.
      async (_input, ctx) => ({ policies: (await policies.getPolicies(deps, ctx, entity)) as never }),
    );
  }
  operation(
    app,
    {
      path: '/api/policy/getPoliciesUsingSchedule',
      operationId: 'getPoliciesUsingSchedule',
      summary: 'The policies that use a schedule',
      description: 'The policies of every family that name the schedule.',
      tags,
      body: schemas.GetPoliciesUsingScheduleRequest,
      response: schemas.GetPoliciesUsingScheduleResponse,
    },
    async (input, ctx) => policies.getPoliciesUsingSchedule(deps, ctx, input.scheduleUuid),
  );
}
