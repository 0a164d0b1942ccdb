import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as tokens from './service.js';

const tags = ['Integrations'];
const admin = { kind: 'write', functionality: 'API_ADMINISTRATION' } as const;

/** API tokens and API-token applications (the partner's own listing and revocation are in partner-clients). */
export function apiTokenRoutes(app: ApiApp, deps: Deps): void {
  const submitSpec = { summary: 'Ask for an API token: a new API key (CERT: bound to a client certificate signed for the CSR), answered this once', tags };
  operation(
    app,
    {
      ...submitSpec,
      path: '/api/integrations/submitApiTokenApplication',
      operationId: 'submitApiTokenApplicationDep',
      body: schemas.SubmitApplicationRequest,
      response: schemas.SubmitApplicationResponse,
      permission: admin,
    },
    async (input, ctx) => tokens.submitApplication(deps, ctx, input),
  );
  operation(
    app,
    {
      ...submitSpec,
      path: '/api/integrations/org/submitApiTokenApplication',
      operationId: 'submitApiTokenApplication',
      body: schemas.SubmitOrgApplicationRequest,
      response: schemas.SubmitApplicationResponse,
      permission: admin,
      platformSource: 'newer',
    },
    async (input, ctx) => tokens.submitApplication(deps, ctx, input),
  );
  operation(
    app,
    {
      ...submitSpec,
      path: '/api/partner/submitApiTokenApplication',
      operationId: 'partner_submitApiTokenApplication',
      body: schemas.SubmitPartnerApplicationRequest,
      response: schemas.SubmitApplicationResponse,
      access: 'partner',
      permission: { functionality: 'API_ADMINISTRATION' },
      platformSource: 'newer',
    },
    async (input, ctx) => tokens.submitApplication(deps, ctx, input, true),
  );
  operation(
    app,
    {
      path: '/api/integrations/org/getApiTokens',
      operationId: 'getApiTokens',
      aliases: ['/api/integrations/getApiTokens'],
      summary: "The organization's working API tokens (never a key itself)",
      tags,
      body: schemas.GetApiTokensRequest,
      response: schemas.GetApiTokensResponse,
    },
    async (input, ctx) => ({ apiTokens: await tokens.listTokens(deps, ctx, input.optionalFilter) }),
  );
  operation(
    app,
    {
      path: '/api/integrations/getApiTokenApplications',
      operationId: 'getApiTokenApplicationsDep',
      summary: 'The working API tokens that an API-token application made',
      tags,
      body: schemas.GetApplicationsRequest,
      response: schemas.GetApplicationsResponse,
    },
    async (_input, ctx) => ({ applications: await tokens.listApplications(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/integrations/org/revokeApiToken',
      operationId: 'revokeApiToken',
      aliases: ['/api/integrations/revokeApiToken'],
      summary: "Revoke one of the organization's API tokens: it stops working at once",
      tags,
      body: schemas.RevokeApiTokenRequest,
      response: schemas.ApiTokenEnvelope,
      permission: admin,
    },
    async (input, ctx) => (await tokens.revokeToken(deps, ctx, input.tokenUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/integrations/validateToken',
      operationId: 'validateTokenDep',
      summary: 'Whether the credentials of the call (API key or OAuth access token) work',
      tags,
      body: schemas.ValidateTokenRequest,
      response: schemas.ApiTokenEnvelope,
      permission: { kind: 'self' },
    },
    async () => ({}),
  );
}
