import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { ResponseOf } from '../../../schemas/common.js';
import * as s from './schemas.js';
import * as keypads from './service.js';

/** Keypads: by location, updated, unregistered, and claimed by their activation token (issue 19). */
export function keypadRoutes(app: ApiApp, deps: Deps): void {
  const tags = ['Keypad'];
  operation(
    app,
    {
      path: '/api/keypad/getKeypadsForLocation',
      operationId: 'getKeypadsForLocation',
      summary: 'The keypads of a location',
      tags,
      body: s.GetKeypadsForLocationRequest,
      response: s.GetKeypadsForLocationResponse,
    },
    async (input, ctx) => ({ keypads: await keypads.getKeypadsForLocation(deps, ctx, input.locationUuid) }),
  );
  operation(
    app,
    {
      path: '/api/keypad/updateKeypad',
      operationId: 'updateKeypad',
      summary: "Sets a keypad's details and settings",
      tags,
      body: s.UpdateKeypadRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await keypads.updateKeypad(deps, ctx, input);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/keypad/unregisterKeypad',
      operationId: 'unregisterKeypad',
      summary: 'Removes a keypad from the organization',
      tags,
      body: s.KeypadRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await keypads.unregisterKeypad(deps, ctx, input.keypadUuid);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/keypad/claimKeypadActivationToken',
      operationId: 'claimKeypadActivationToken',
      summary: 'Makes the keypad showing the token a keypad of the organization, at a location',
      tags,
      body: s.ClaimKeypadActivationTokenRequest,
      response: ResponseOf({}),
    },
    async (input, ctx) => {
      await keypads.claimKeypadActivationToken(deps, ctx, input);
      return {};
    },
  );
}
