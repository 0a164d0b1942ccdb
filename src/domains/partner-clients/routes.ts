import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as clients from './service.js';
import * as schemas from './schemas.js';
import { partnerTokens, revokePartnerToken } from '../orgs/partners/partner-tokens.service.js';
import { availableHardware, listDeals, registerCameraToClient, registerDeal } from './hardware.service.js';

const tags = ['Partner'];
const access = 'partner';

/** A partner's view and care of its clients: devices, health, shipments, customizations, device moves; its own keys. */
export function partnerClientRoutes(app: ApiApp, deps: Deps): void {
  // The platform's CLI resolves `--partner-org <name>` through getPartnerClientsV2 (partnerClients[].name, .orgUuid).
  for (const [path, operationId, aliases] of [
    ['/api/partner/getClientsV2', 'getPartnerClientsV2', ['/api/partner/getPartnerClientsV2']],
    ['/api/partner/getClients', 'getPartnerClients', []],
  ] as const) {
    operation(
      app,
      {
        path,
        operationId,
        aliases: [...aliases],
        extension: [...aliases],
        summary: 'List the client organizations the partner has grants for',
        tags: ['Partner'],
        body: schemas.GetClientsRequest,
        response: schemas.GetClientsResponse,
        access: 'partner',
      },
      async (_input, ctx) => {
        const list = await clients.listClients(deps, ctx);
        return { clients: list, partnerClients: list };
      },
    );
  }
  operation(
    app,
    {
      path: '/api/partner/getClientDevices',
      operationId: 'getClientDevices',
      summary: "A client's devices, each with whether it can move to another client",
      tags,
      body: schemas.ClientOrgRequest,
      response: schemas.GetClientDevicesResponse,
      access,
    },
    async (input, ctx) => ({ devices: await clients.clientDevices(deps, ctx, input.orgUuid) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getListOfAllClientDevices',
      operationId: 'getListOfAllClientDevices',
      summary: 'Every device of every client',
      tags,
      body: schemas.AllClientDevicesRequest,
      response: schemas.AllClientDevicesResponse,
      access,
    },
    async (_input, ctx) => ({ listOfAllClientDevices: await clients.allClientDevices(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getClientStatusMap',
      operationId: 'getPartnerClientsStatusMap',
      summary: 'Per client, its devices by type: all, connected, operational (healthy)',
      tags,
      body: schemas.StatusMapRequest,
      response: schemas.StatusMapResponse,
      access,
    },
    async (_input, ctx) => ({ clientDeviceStatusMap: await clients.clientStatusMap(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getClientSummaryInfo',
      operationId: 'getClientSummaryInfo',
      summary: "A client's account owner, devices, locations and recent alerts",
      tags,
      body: schemas.ClientSummaryRequest,
      response: schemas.ClientSummaryResponse,
      access,
    },
    async (input, ctx) => clients.clientSummary(deps, ctx, input.clientOrgUuid),
  );
  operation(
    app,
    {
      path: '/api/partner/customizeClient',
      operationId: 'customizeClient',
      summary: "Set a client's customizations (kept and answered)",
      tags,
      body: schemas.CustomizeClientRequest,
      response: schemas.CustomizationsResponse,
      access,
    },
    async (input, ctx) => ({ customizations: await clients.customizeClient(deps, ctx, input.clientOrgUuid, input.customizations) }),
  );
  operation(
    app,
    {
      path: '/api/partner/customizeClientDevice',
      operationId: 'customizeClientDevice',
      summary: "Change the settings of a client's camera, and the client's customizations",
      tags,
      body: schemas.CustomizeClientDeviceRequest,
      response: schemas.CustomizationsResponse,
      access,
    },
    async (input, ctx) => ({ customizations: await clients.customizeClientDevice(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/partner/reassignDeviceOrg',
      operationId: 'reassignDeviceOrg',
      summary: "Move devices, by serial number, from one of the partner's clients to another",
      description: "Announced on both organizations' streams (DELETE and CREATE); a device used by a door stays.",
      tags,
      body: schemas.ReassignRequest,
      response: schemas.ReassignResponse,
      access,
      permission: { functionality: 'REMOTE_REGISTER_DEVICE' },
    },
    async (input, ctx) => ({ statuses: await clients.reassignDevices(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/partner/updateSendLicenseExpirationEmail',
      operationId: 'updateManuallySendLicenseExpirationEmail',
      summary: "Whether the partner sends a client's licence expiration e-mails itself (kept and answered)",
      tags,
      body: schemas.SendLicenseEmailRequest,
      response: schemas.PartnerClientEnvelope,
      access,
      permission: { functionality: 'LICENSE_ADMINISTRATION' },
    },
    async (input, ctx) => (await clients.setSendLicenseEmail(deps, ctx, input.orgUuid, input.manuallySendLicenseExpirationEmail), {}),
  );
  operation(
    app,
    {
      path: '/api/partner/getShipments',
      operationId: 'PartnerGetShipments',
      summary: "The shipments of the partner's clients",
      tags,
      body: schemas.ShipmentsRequest,
      response: schemas.ShipmentsResponse,
      access,
    },
    async (input, ctx) => ({ customerShipmentList: await clients.partnerShipments(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getApiTokens',
      operationId: 'partner_getApiTokens',
      summary: "The partner's working API keys (never a key itself)",
      tags,
      body: schemas.TokensRequest,
      response: schemas.TokensResponse,
      access,
    },
    async (_input, ctx) => ({ apiTokens: await partnerTokens(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getApiTokenApplications',
      operationId: 'partner_getApiTokenApplications',
      summary: 'The applications (API keys) acting for the partner',
      tags,
      body: schemas.TokensRequest,
      response: schemas.ApplicationsResponse,
      access,
    },
    async (_input, ctx) => ({ applications: await partnerTokens(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/partner/revokeApiToken',
      operationId: 'partner_revokeApiToken',
      summary: "Revoke one of the partner's API keys: it stops working at once and its stream sessions close",
      tags,
      body: schemas.RevokeTokenRequest,
      response: schemas.PartnerClientEnvelope,
      access,
      permission: { functionality: 'API_ADMINISTRATION' },
    },
    async (input, ctx) => (await revokePartnerToken(deps, ctx, input.tokenUuid), {}),
  );
  operation(
    app,
    {
      path: '/api/partner/getListOfAvailableHardware',
      operationId: 'getListOfControlledHardware',
      summary: "The partner's hardware that no client has yet",
      description: 'A site file seeded into the partner organization adds to it (partnerHardware).',
      tags,
      body: schemas.AvailableHardwareRequest,
      response: schemas.AvailableHardwareResponse,
      access,
    },
    async (_input, ctx) => ({ controlledHardwareList: await availableHardware(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/partner/registerCameraToClient',
      operationId: 'registerCameraToClient',
      summary: "Register a camera of the partner's available hardware to one of its clients",
      description: "The camera becomes a device of the client (announced on the client's stream) and leaves the available hardware.",
      tags,
      body: schemas.RegisterCameraRequest,
      response: schemas.PartnerClientEnvelope,
      access,
      permission: { functionality: 'REMOTE_REGISTER_DEVICE' },
    },
    async (input, ctx) => (await registerCameraToClient(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/partner/registerDeal',
      operationId: 'registerDeal',
      summary: "Register a deal (kept, and listed by getDeals); answers the partner's clients",
      tags,
      body: schemas.RegisterDealRequest,
      response: schemas.RegisterDealResponse,
      access,
    },
    async (input, ctx) => ({ clients: await registerDeal(deps, ctx, input.details) }),
  );
  operation(
    app,
    {
      path: '/api/partner/getDeals',
      operationId: 'getPartnerDeals',
      summary: 'The deals the partner registered, newest first',
      extension: true,
      tags,
      body: schemas.AvailableHardwareRequest,
      response: schemas.GetDealsResponse,
      access,
    },
    async (_input, ctx) => ({ deals: await listDeals(deps, ctx) }),
  );
}
