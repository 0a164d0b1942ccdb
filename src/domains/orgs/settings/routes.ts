import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { clientOrgView } from '../partners/client-org.service.js';
import * as schemas from './schemas.js';
import * as settings from './service.js';
import { temporaryOrgToken } from '../service.js';

const tags = ['Org'];

/** The organization's own settings: profile, sign-in, firmware and the yes/no policies; features; temporary tokens. */
export function orgSettingsRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/org/updateOrg',
      operationId: 'updateOrg',
      summary: 'Change the organization record',
      description: 'A team name another organization holds answers teamNameUniquenessConstraintFailure and changes nothing.',
      tags,
      body: schemas.UpdateOrgRequest,
      response: schemas.UpdateOrgResponse,
    },
    async (input, ctx) => settings.updateOrgRecord(deps, ctx, input.org),
  );
  operation(
    app,
    {
      path: '/api/org/updateGeneralSettings',
      operationId: 'updateGeneralSettings',
      summary: "Change the organization's name, contacts, player and session settings",
      description: 'The account owner must be a user of the organization.',
      tags,
      body: schemas.UpdateGeneralSettingsRequest,
      response: schemas.OrgEnvelope,
    },
    async (input, ctx) => (await settings.updateGeneralSettings(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/updateMFASettings',
      operationId: 'updateMFASettings',
      summary: 'Change the multi-factor sign-in settings (kept and answered: Gatehouse has no interactive sign-in)',
      tags,
      body: schemas.UpdateMFASettingsRequest,
      response: schemas.OrgResponse,
    },
    async (input, ctx) => ({
      org: await settings.updateSettings(deps, ctx, settings.givenSettings(input, ['mfaEnabled', 'v3AuthNumDaysSkip2FAForTrustedDevices'])),
    }),
  );
  operation(
    app,
    {
      path: '/api/org/updateFirmwareSettings',
      operationId: 'updateFirmwareSettings',
      summary: 'Change the firmware update window (kept and answered: Gatehouse updates no firmware)',
      tags,
      body: schemas.UpdateFirmwareSettingsRequest,
      response: schemas.OrgEnvelope,
    },
    async (input, ctx) => (await settings.updateFirmwareSettings(deps, ctx, input), {}),
  );
  for (const [path, operationId, field, summary] of schemas.ORG_POLICIES) {
    operation(
      app,
      { path, operationId, summary: `${summary} (kept and answered)`, tags, body: schemas.policyRequest(field), response: schemas.OrgEnvelope },
      async (input, ctx) => (await settings.updateSettings(deps, ctx, { [field]: (input as Record<string, boolean>)[field] }), {}),
    );
  }
  operation(
    app,
    {
      path: '/api/org/findIfTeamNameAvailable',
      operationId: 'findIfTeamNameAvailable',
      summary: 'Whether no other organization has this team name',
      tags,
      body: schemas.FindIfTeamNameAvailableRequest,
      response: schemas.FindIfTeamNameAvailableResponse,
    },
    async (input, ctx) => ({ available: await settings.findIfTeamNameAvailable(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/org/getClientOrg',
      operationId: 'getClientOrg',
      summary: 'A client organization of the partner, with what the partner may do there',
      tags,
      body: schemas.GetClientOrgRequest,
      response: schemas.GetClientOrgResponse,
      access: 'partner',
      permission: { kind: 'read' },
    },
    async (input, ctx) => clientOrgView(deps, ctx, input.orgUuid),
  );
  operation(
    app,
    {
      path: '/api/org/getTemporaryOrgToken',
      operationId: 'getTemporaryOrgToken',
      summary: 'A short-lived API key of the caller',
      description: 'It acts as the calling key does (same user, same kind, same rights) and stops working after 10 minutes.',
      tags,
      body: schemas.GetTemporaryOrgTokenRequest,
      response: schemas.GetTemporaryOrgTokenResponse,
      permission: { kind: 'self' },
    },
    async (_input, ctx) => ({ tempOrgToken: await temporaryOrgToken(deps, ctx) }),
  );
}
