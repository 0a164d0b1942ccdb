import type { Deps } from '../../../deps.js';
import { JsonFields, operation, type ApiApp } from '../../../edge/operation.js';
import * as credentials from './service.js';
import { credentialAnswer, credentialAnswers } from './model.js';
import { findDoorEvents } from '../door-events/service.js';
import { storedEventAnswers, storedEventAnswersJson } from '../door-events/event-answer.js';
import { unlockAccessControlledDoor } from '../doors/relay.service.js';
import * as s from '../schemas.js';

const CREDENTIALS = ['AccessControl'];
const DOORS = ['AccessControl', 'Component'];

/** Access control: credentials, doors, unlocks and door event history. */
export function accessRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/accesscontrol/createAccessControlCredentialByHexValueAndType',
      operationId: 'createAccessControlCredentialByHexValueAndType',
      summary: 'Create access control credential by hex value and type',
      description: 'Creates a credential from a hex value and a type, for example to import a badge seen in an unauthorized badge event.',
      tags: CREDENTIALS,
      body: s.CreateAccessControlCredentialByHexValueAndTypeRequest,
      response: s.CreateAccessControlCredentialByHexValueAndTypeResponse,
    },
    async (input, ctx) => ({ credential: credentialAnswer(await credentials.createCredential(deps, ctx, input)) }),
  );
  operation(
    app,
    {
      path: '/api/accesscontrol/findAccessControlCredentialByOrg',
      operationId: 'findAccessControlCredentialByOrg',
      summary: 'Find access control credentials by org',
      tags: CREDENTIALS,
      body: s.FindAccessControlCredentialByOrgRequest,
      response: s.FindAccessControlCredentialByOrgResponse,
    },
    async (input, ctx) => ({ credentials: credentialAnswers(await credentials.findCredentials(deps, ctx, { filter: input.filter })) }),
  );
  operation(
    app,
    {
      path: '/api/accesscontrol/findAccessControlCredentialByUser',
      operationId: 'findAccessControlCredentialByUser',
      summary: 'Find access control credentials by user',
      tags: CREDENTIALS,
      body: s.FindAccessControlCredentialByUserRequest,
      response: s.FindAccessControlCredentialByUserResponse,
    },
    async (input, ctx) => ({ credentials: credentialAnswers(await credentials.findCredentials(deps, ctx, input)) }),
  );
  const transitions = [
    ['revoke', 'Revoke access control credential: final, and releases its value for another credential'],
    ['suspend', 'Suspend an active access control credential'],
    ['unsuspend', 'Unsuspend a suspended access control credential'],
  ] as const;
  for (const [transition, summary] of transitions) {
    operation(
      app,
      {
        path: `/api/accesscontrol/${transition}AccessControlCredential`,
        operationId: `${transition}AccessControlCredential`,
        summary,
        tags: CREDENTIALS,
        body: s.CredentialTransitionRequest,
        response: s.CredentialTransitionResponse,
      },
      async (input, ctx) => ({ credential: credentialAnswer(await credentials.transitionCredential(deps, ctx, transition, input)) }),
    );
  }
  operation(
    app,
    {
      path: '/api/accesscontrol/deleteAccessControlCredential',
      operationId: 'deleteAccessControlCredential',
      summary: 'Delete access control credential (revoking keeps its history)',
      tags: CREDENTIALS,
      body: s.DeleteAccessControlCredentialRequest,
      response: s.DeleteAccessControlCredentialResponse,
    },
    async (input, ctx) => (await credentials.deleteCredential(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/accesscontrol/unlockAccessControlledDoor',
      operationId: 'unlockAccessControlledDoor',
      summary: 'Unlock access controlled door',
      description:
        'Answers type SUCCESS, or type ERROR with errorType DOOR_NOT_CONFIGURED_WITH_LOCK or FAILED_SENDING_ACU_UNLOCK_REQUEST (controller offline).',
      tags: DOORS,
      body: s.UnlockAccessControlledDoorRequest,
      response: s.UnlockAccessControlledDoorResponse,
    },
    async (input, ctx) => unlockResponse(await unlockAccessControlledDoor(deps, ctx, input)),
  );
  operation(
    app,
    {
      path: '/api/component/findPaginatedComponentEventsByAccessControlledDoor',
      operationId: 'findPaginatedComponentEventsByAccessControlledDoor',
      summary: 'Retrieve the component events of an access controlled door, a page at a time',
      description: 'Newest first unless reverseSearch; createdAfterMs and createdBeforeMs are exclusive; pages never skip or repeat an event.',
      tags: DOORS,
      body: s.FindPaginatedComponentEventsByAccessControlledDoorRequest,
      response: s.FindPaginatedComponentEventsByAccessControlledDoorResponse,
    },
    // A caller limited to some locations gets records, which the permission hook filters; any other the JSON text.
    async (input, ctx, request) => {
      const { componentEvents, lastEvaluatedKey } = await findDoorEvents(deps, ctx, input);
      return request.locationScope
        ? { componentEvents: storedEventAnswers(componentEvents), lastEvaluatedKey }
        : new JsonFields({ componentEvents: storedEventAnswersJson(componentEvents), lastEvaluatedKey: JSON.stringify(lastEvaluatedKey) });
    },
  );
}

/** A failed unlock is a failure of the call too: `error: true` beside `type: ERROR`. */
const unlockResponse = (result: Awaited<ReturnType<typeof unlockAccessControlledDoor>>) => ({ ...result, error: result.type === 'ERROR' });
