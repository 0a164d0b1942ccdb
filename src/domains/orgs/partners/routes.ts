import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as partners from './service.js';

const tags = ['Partner'];

/** A partner's client organizations: partner keys only (`x-auth-org` optional). */
export function partnerRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/partner/createPartnerClient',
      operationId: 'createPartnerClient',
      summary: 'Create a client organization, with its first user, granted to the partner',
      tags,
      body: schemas.CreatePartnerClientRequest,
      response: schemas.CreatePartnerClientResponse,
      access: 'partner',
      permission: { functionality: 'CREATE_CLIENT' },
    },
    async (input, ctx) => ({ ...(await partners.createClient(deps, ctx, input)), responseStatus: 'SUCCESS' }),
  );
  operation(
    app,
    {
      path: '/api/partner/deleteClient',
      operationId: 'deletePartnerClient',
      summary: "Withdraw the partner's grant for a client organization",
      description: "The partner's keys and stream sessions lose the client at once; the client organization itself stays.",
      tags,
      body: schemas.DeleteClientRequest,
      response: schemas.PartnerEnvelope,
      access: 'partner',
      permission: { functionality: 'DELETE_CLIENT' },
    },
    async (input, ctx) => (await partners.withdrawClient(deps, ctx, input), {}),
  );
}
