import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import * as windows from './windows.service.js';

const tags = ['Policy'];

/** Each pause operation pauses the list its name says. */
const PAUSES = [
  { noun: 'Device', scope: 'DEVICE', field: 'deviceUuids' },
  { noun: 'Location', scope: 'LOCATION', field: 'locationUuids' },
  { noun: 'ComponentComposite', scope: 'COMPONENT_COMPOSITE', field: 'componentCompositeUuids' },
] as const;

/** Policy pauses (alerts silenced for a window) and addendums (more activities alerting for a window). */
export function policyWindowRoutes(app: ApiApp, deps: Deps): void {
  for (const { noun, scope, field } of PAUSES) {
    operation(
      app,
      {
        path: `/api/policy/pauseAlertPolicyFor${noun}`,
        operationId: `pauseAlertPolicyFor${noun}`,
        summary: `Silence the policy alerts of ${field} for a window`,
        description: `Pauses the ${field} given (the other lists are for the sibling operations); the window starts at scheduledTimestampSec (now when not given).`,
        tags,
        body: schemas.PauseAlertPolicyRequest,
        response: schemas.PolicyEnvelope,
      },
      async (input, ctx) => {
        await windows.pausePolicies(deps, ctx, scope, field, { ...input, targetUuids: input[field] ?? [] });
        return {};
      },
    );
    operation(
      app,
      {
        path: `/api/policy/deletePolicyPauseSettingFor${noun}`,
        operationId: `deletePolicyPauseSettingFor${noun}`,
        summary: `End a pause of a ${noun === 'ComponentComposite' ? 'component composite' : noun.toLowerCase()}'s policy alerts`,
        tags,
        body: schemas.DeleteWindowRequest,
        response: schemas.PolicyEnvelope,
      },
      async (input, ctx) => {
        await windows.deletePause(deps, ctx, scope, input.uuid);
        return {};
      },
    );
  }
  operation(
    app,
    {
      path: '/api/policy/getPolicyPauseSettings',
      operationId: 'getPolicyPauseSettings',
      summary: 'The pauses not yet over, by device, location and component composite',
      tags,
      body: schemas.GetPoliciesRequest,
      response: schemas.GetPolicyPauseSettingsResponse,
    },
    async (_input, ctx) => windows.pauseSettings(deps, ctx),
  );
  operation(
    app,
    {
      path: '/api/policy/createPolicyAddendumsForDevices',
      operationId: 'createPolicyAddendumsForDevices',
      summary: 'Make more activities raise alerts on devices for a window',
      tags,
      body: schemas.CreateAddendumsForDevicesRequest,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await windows.addAddendums(deps, ctx, 'DEVICE', 'deviceUuids', { ...input, targetUuids: input.deviceUuids ?? [] });
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/policy/createPolicyAddendumForLocation',
      operationId: 'createPolicyAddendumForLocation',
      summary: "Make more activities raise alerts on a location's devices for a window",
      tags,
      body: schemas.CreateAddendumForLocationRequest,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await windows.addAddendums(deps, ctx, 'LOCATION', 'locationUuid', { ...input, targetUuids: [input.locationUuid] });
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/policy/deleteDevicePolicyAddendums',
      operationId: 'deleteDevicePolicyAddendums',
      summary: 'Delete device addendums',
      tags,
      body: schemas.DeleteWindowsRequest,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await windows.deleteAddendums(deps, ctx, 'DEVICE', input.uuids);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/policy/deleteLocationPolicyAddendum',
      operationId: 'deleteLocationPolicyAddendum',
      summary: 'Delete a location addendum',
      tags,
      body: schemas.DeleteWindowRequest,
      response: schemas.PolicyEnvelope,
    },
    async (input, ctx) => {
      await windows.deleteAddendums(deps, ctx, 'LOCATION', [input.uuid]);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/policy/getPolicyAddendums',
      operationId: 'getPolicyAddendums',
      summary: 'The addendums not yet over, by device and location',
      tags,
      body: schemas.GetPoliciesRequest,
      response: schemas.GetPolicyAddendumsResponse,
    },
    async (_input, ctx) => windows.addendumSettings(deps, ctx),
  );
}
