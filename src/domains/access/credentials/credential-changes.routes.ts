import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as changes from './credential-changes.service.js';
import * as s from './credential-changes.schemas.js';
import { credentialAnswer, credentialAnswers, credentialsByUser } from './model.js';
import { credentialHistory } from './credential-history.service.js';
import { CREDENTIAL_CREATORS, CREDENTIAL_DETAILS, CREDENTIAL_UPDATERS, credentialValueOf, type CreatorFields } from './credential-types.js';
import { createCredential } from './service.js';

const tags = ['AccessControl'];
const path = (operationId: string) => `/api/accesscontrol/${operationId}`;

/**
 * Credentials beyond create-by-hex and the workflow (routes.ts): the type-specific creators, updates and
 * detail reads (one table, credential-types.ts), assignment, notes, the by-users finder, deleting an
 * unassigned card, and the credential history.
 */
export function credentialChangeRoutes(app: ApiApp, deps: Deps): void {
  for (const creator of CREDENTIAL_CREATORS) {
    operation(
      app,
      {
        path: path(creator.operationId),
        operationId: creator.operationId,
        summary: creator.summary,
        tags,
        body: s.CREATOR_REQUESTS[creator.fields],
        response: s.CredentialResponse,
      },
      async (input, ctx) => {
        const fields = input as CreatorFields & changes.WindowAndHolder;
        const { type, hexValue } = credentialValueOf(creator, fields);
        return { credential: credentialAnswer(await createCredential(deps, ctx, { ...fields, credentialType: type, hexValue })) };
      },
    );
  }
  for (const { operationId, types, what } of CREDENTIAL_UPDATERS) {
    operation(
      app,
      {
        path: path(operationId),
        operationId,
        summary: `Change the validity window of a ${what} credential`,
        tags,
        body: s.UpdateCredentialWindowRequest,
        response: s.CredentialResponse,
      },
      async (input, ctx) => ({ credential: credentialAnswer(await changes.updateCredentialWindow(deps, ctx, types, what, input)) }),
    );
  }
  for (const { operationId, types, what } of CREDENTIAL_DETAILS) {
    operation(
      app,
      { path: path(operationId), operationId, summary: `Get a ${what} credential`, tags, body: s.CredentialUuidRequest, response: s.CredentialResponse },
      async (input, ctx) => ({ credential: credentialAnswer(await changes.credentialDetails(deps, ctx, types, what, input.credentialUuid)) }),
    );
  }
  operation(
    app,
    {
      path: path('assignAccessControlCredential'),
      operationId: 'assignAccessControlCredential',
      summary: 'Assign the unassigned credential holding a hex value to a user',
      tags,
      body: s.AssignAccessControlCredentialRequest,
      response: s.CredentialResponse,
    },
    async (input, ctx) => ({ credential: credentialAnswer(await changes.assignCredential(deps, ctx, input)) }),
  );
  operation(
    app,
    {
      path: path('updateAccessControlCredentialNote'),
      operationId: 'updateAccessControlCredentialNote',
      summary: "Change a credential's note (empty: none)",
      tags,
      body: s.UpdateAccessControlCredentialNoteRequest,
      response: s.CredentialResponse,
    },
    async (input, ctx) => ({ credential: credentialAnswer(await changes.updateCredentialNote(deps, ctx, input)) }),
  );
  operation(
    app,
    {
      path: path('deleteUnassignedAccessControlCredential'),
      operationId: 'deleteUnassignedAccessControlCredential',
      summary: 'Delete the unassigned credential holding a hex value',
      tags,
      body: s.DeleteUnassignedAccessControlCredentialRequest,
      response: s.EmptyResponse,
    },
    async (input, ctx) => (await changes.deleteUnassignedCredential(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: path('findAccessControlCredentialByUsers'),
      operationId: 'findAccessControlCredentialByUsers',
      summary: "Find several users' credentials, by user",
      tags,
      body: s.FindAccessControlCredentialByUsersRequest,
      response: s.FindAccessControlCredentialByUsersResponse,
    },
    async (input, ctx) => ({ userCredentialsMap: credentialsByUser(await changes.findCredentialsByUsers(deps, ctx, input)) }),
  );
  const histories = [
    ['findCredentialHistoryByCredentialHexValue', 'of a hex value', s.FindCredentialHistoryByCredentialHexValueRequest],
    ['findCredentialHistoryByCredentialValue', 'of a type and decoded value', s.FindCredentialHistoryByCredentialValueRequest],
    ['findCredentialHistoryByUser', 'of a user', s.FindCredentialHistoryByUserRequest],
  ] as const;
  for (const [operationId, of, body] of histories) {
    operation(
      app,
      {
        path: path(operationId),
        operationId,
        summary: `Every state of the credentials ${of}, newest first`,
        description: 'One entry per lifecycle change (created, assigned, noted, re-dated, suspended, revoked, deleted), each the credential as it then stood.',
        tags,
        body,
        response: s.CredentialsResponse,
      },
      async (input, ctx) => ({ credentials: credentialAnswers(await credentialHistory(deps, ctx, input, input.filter)) }),
    );
  }
}
