import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as schemas from './schemas.js';
import * as sso from './service.js';

const tags = ['Org'];
const auth = { kind: 'write', functionality: 'AUTH_ADMINISTRATION' } as const;

/** SAML registrations and SCIM provisioning: settings records (Gatehouse signs no one in). */
export function ssoRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/org/getSAMLSettings',
      operationId: 'getSAMLSettings',
      summary: "The organization's (first) SAML registration",
      tags,
      body: schemas.GetSamlSettingsRequest,
      response: schemas.GetSamlSettingsResponse,
    },
    async (_input, ctx) => ({ samlSettings: (await sso.listSaml(deps, ctx.orgUuid))[0] ?? null }),
  );
  operation(
    app,
    {
      path: '/api/org/getSAMLSettingsV2',
      operationId: 'getSAMLSettingsV2',
      summary: "The organization's SAML registrations",
      tags,
      body: schemas.GetSamlSettingsRequest,
      response: schemas.GetSamlSettingsV2Response,
    },
    async (_input, ctx) => ({ samlSettings: await sso.listSaml(deps, ctx.orgUuid) }),
  );
  operation(
    app,
    {
      path: '/api/org/updateSAMLSettings',
      operationId: 'updateSAMLSettings',
      summary: 'Change a SAML registration (kept and answered)',
      description: "Its team name becomes the organization's (unique across organizations); its metadata must be SAML metadata XML.",
      tags,
      body: schemas.UpdateSamlSettingsRequest,
      response: schemas.SsoEnvelope,
      permission: auth,
    },
    async (input, ctx) => (await sso.updateSaml(deps, ctx, input.samlSettings), {}),
  );
  operation(
    app,
    {
      path: '/api/org/updateSAMLSettingsV2',
      operationId: 'updateSAMLSettingsV2',
      summary: "Replace the organization's SAML registrations (kept and answered)",
      tags,
      body: schemas.UpdateSamlSettingsV2Request,
      response: schemas.SsoEnvelope,
      permission: auth,
    },
    async (input, ctx) => (await sso.replaceSaml(deps, ctx, input.samlSettings), {}),
  );
  operation(
    app,
    {
      path: '/api/org/findSCIMSettingsForOrg',
      operationId: 'findSCIMSettingsForOrg',
      summary: 'The SCIM provisioning settings (never the token)',
      tags,
      body: schemas.FindScimSettingsRequest,
      response: schemas.FindScimSettingsResponse,
    },
    // Never set up: left out (the catalogue's record is not nullable).
    async (_input, ctx) => {
      const scimSettings = await sso.findScim(deps, ctx.orgUuid);
      return scimSettings ? { scimSettings } : {};
    },
  );
  operation(
    app,
    {
      path: '/api/org/getScimDisplayInfo',
      operationId: 'getScimDisplayInfo',
      summary: 'The SCIM base URLs to give an identity provider',
      description: "Null until the organization's SCIM access is set up; built from the address the request reached.",
      tags,
      body: schemas.GetScimDisplayInfoRequest,
      response: schemas.GetScimDisplayInfoResponse,
    },
    async (_input, ctx, request) => sso.scimDisplayInfo(deps, ctx.orgUuid, `${request.protocol}://${request.host}`),
  );
  operation(
    app,
    {
      path: '/api/org/setupSCIMAccessForOrg',
      operationId: 'setupSCIMAccessForOrg',
      summary: 'Set SCIM provisioning up: its settings, and a token answered this once',
      tags,
      body: schemas.ScimSettingsRequest,
      response: schemas.SetupScimResponse,
      permission: auth,
    },
    async (input, ctx) => sso.setupScim(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/org/updateSCIMSettingsForOrg',
      operationId: 'updateSCIMSettingsForOrg',
      summary: 'Change the SCIM provisioning settings',
      tags,
      body: schemas.ScimSettingsRequest,
      response: schemas.SsoEnvelope,
      permission: auth,
    },
    async (input, ctx) => (await sso.updateScim(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/revokeSCIMAccessForOrg',
      operationId: 'revokeSCIMAccessForOrg',
      summary: 'End SCIM provisioning: its token and settings',
      tags,
      body: schemas.RevokeScimRequest,
      response: schemas.SsoEnvelope,
      permission: auth,
    },
    async (_input, ctx) => (await sso.revokeScim(deps, ctx), {}),
  );
}
