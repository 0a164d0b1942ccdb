import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import { auditFeed } from './service.js';

const tags = ['Report'];

/** The audit feed: the trail every write leaves (src/bus/write.ts), newest first, paged by cursor. */
export function auditRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/report/getAuditFeed',
      operationId: 'getAuditFeed',
      summary: 'The audit trail of the organization, newest first',
      tags,
      body: schemas.GetAuditFeedRequest,
      response: schemas.GetAuditFeedResponse,
    },
    async (input, ctx) => auditFeed(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/report/getAuditFeedForPrincipal',
      extension: true,
      operationId: 'getAuditFeedForPrincipal',
      summary: 'The audit events of one principal (a user, or a partner organization)',
      tags,
      body: schemas.GetAuditFeedForPrincipalRequest,
      response: schemas.GetAuditFeedResponse,
    },
    async (input, ctx) => auditFeed(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/report/getAuditFeedForTarget',
      extension: true,
      operationId: 'getAuditFeedForTarget',
      summary: 'The audit events of one record',
      tags,
      body: schemas.GetAuditFeedForTargetRequest,
      response: schemas.GetAuditFeedResponse,
    },
    async (input, ctx) => auditFeed(deps, ctx, input),
  );
}
