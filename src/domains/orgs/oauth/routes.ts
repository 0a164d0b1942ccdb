import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as applications from './service.js';
import { authorizeEndpoints } from './endpoints.js';

const tags = ['OAuth'];
const admin = { kind: 'write', functionality: 'API_ADMINISTRATION' } as const;

/** The organization's OAuth applications (the flow's endpoints are in endpoints.ts, outside API-key authentication). */
export function oauthRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/oauth/submitApplication',
      operationId: 'submitApplication',
      summary: 'Register an OAuth application; its client secret is answered this once',
      tags,
      body: schemas.OAuthApplicationRequest,
      response: schemas.SubmitApplicationResponse,
      permission: admin,
    },
    async (input, ctx) => applications.submitApplication(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/oauth/getApplicationByClientId',
      operationId: 'getApplicationByClientId',
      summary: 'One OAuth application of the organization (never its secret)',
      tags,
      body: schemas.GetApplicationRequest,
      response: schemas.GetApplicationResponse,
    },
    async (input, ctx) => ({ application: await applications.getApplication(deps, ctx, input.clientId) }),
  );
  operation(
    app,
    {
      path: '/api/oauth/getAllApplicationsForOrg',
      operationId: 'getAllApplicationsForOrg',
      summary: "The organization's OAuth applications",
      tags,
      body: schemas.ListApplicationsRequest,
      response: schemas.ListApplicationsResponse,
    },
    async (_input, ctx) => ({ oauthApplications: await applications.listApplications(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/oauth/updateApplication',
      operationId: 'updateApplication',
      summary: "Change an OAuth application's name, contact or redirect URI",
      tags,
      body: schemas.OAuthApplicationRequest,
      response: schemas.ApplicationEnvelope,
      permission: admin,
    },
    async (input, ctx) => (await applications.updateApplication(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/oauth/deleteApplication',
      operationId: 'deleteApplication',
      summary: 'Delete an OAuth application: its codes and tokens stop working at once',
      tags,
      body: schemas.OAuthApplicationRequest,
      response: schemas.ApplicationEnvelope,
      permission: admin,
    },
    async (input, ctx) => (await applications.deleteApplication(deps, ctx, input.clientId), {}),
  );
}

/**
 * The OAuth flow's endpoints: the authorization endpoint (GET /api/oauth/authorize, a consent page, and the
 * form's POST), the token endpoint at the path the platform's CLI calls (POST /oauth/token) and the CLI's
 * sign-in URL (GET /login). Registered outside the API-key hook: the consent page signs its user in itself,
 * the token endpoint authenticates the client by its secret.
 */
export function oauthEndpointRoutes(app: FastifyInstance, deps: Deps): void {
  const endpoints = authorizeEndpoints(deps);
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.route({
    method: 'GET',
    url: '/api/oauth/authorize',
    schema: {
      operationId: 'authorize',
      summary: 'The authorization endpoint: a consent page, then a redirect with an authorization code (PKCE S256)',
      tags,
      querystring: schemas.AuthorizeQuery,
      produces: ['text/html'],
      response: {
        200: { description: 'The consent page (HTML)', content: { 'text/html': { schema: { type: 'string' } } } },
        302: { description: 'To the redirect URI, with the code (or the error) and the state', type: 'null' },
        400: {
          description: 'An unknown client or a redirect URI other than the registered one (HTML)',
          content: { 'text/html': { schema: { type: 'string' } } },
        },
      },
    },
    handler: (request, reply) => endpoints.authorizePage(request, reply),
  });
  app.route({
    method: 'POST',
    url: '/api/oauth/authorize',
    schema: { hide: true },
    handler: (request, reply) => endpoints.consent(request, reply),
  });
  app.route({ method: 'POST', url: '/oauth/token', schema: { hide: true }, handler: (request, reply) => endpoints.token(request, reply) });
  app.route({ method: 'GET', url: '/login', schema: { hide: true }, handler: (request, reply) => endpoints.cliLogin(request, reply) });
}
