import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import * as registrations from './service.js';

const tags = ['Org'];
const permission = { functionality: 'REMOTE_REGISTER_DEVICE' } as const;
const reading = { kind: 'read', functionality: 'REMOTE_REGISTER_DEVICE' } as const;

/** Shipments of hardware claimed by their tokens, and the pending registrations of their units. */
export function registrationRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/org/peekShipmentRegistrationToken',
      operationId: 'peekShipmentRegistrationToken',
      summary: "The units a shipment registration token's shipment holds, without claiming it",
      description: 'An unknown token answers NOT_FOUND; a claimed one, that it has been claimed.',
      tags,
      permission: reading,
      body: s.PeekShipmentRegistrationTokenRequest,
      response: s.PeekShipmentRegistrationTokenResponse,
    },
    async (input) => ({ hardwareUuidList: await registrations.peekShipment(deps, input.tokenUuid) }),
  );
  operation(
    app,
    {
      path: '/api/org/claimShipmentRegistrationToken',
      operationId: 'claimShipmentRegistrationToken',
      summary: "Claim a shipment's units for the organization, once",
      description:
        'Every unit of the shipment becomes hardware of the organization; each claim gives its unit a pending registration (name, location, camera policy), ' +
        'applied when the unit comes online. A claim naming no unit of the shipment changes nothing; a second claim of the token is refused.',
      tags,
      permission,
      body: s.ClaimShipmentRegistrationTokenRequest,
      response: s.RegistrationEnvelope,
    },
    async (input, ctx) => (await registrations.claimShipmentToken(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/claimActivationToken',
      operationId: 'claimActivationToken',
      summary: "Claim a shipment's units by its token, each with a pending registration under the name given",
      description:
        'The name is numbered when the shipment holds more than one unit. The permission group, when given, must be one of the organization; ' +
        'Gatehouse keeps no per-device grant with it. A second claim of the token is refused.',
      tags,
      permission,
      body: s.ClaimActivationTokenRequest,
      response: s.RegistrationEnvelope,
    },
    async (input, ctx) => (await registrations.claimActivationToken(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/createPendingRegistration',
      operationId: 'createPendingRegistration',
      summary: 'Give a unit of the organization a pending registration, applied when it comes online',
      description:
        'The unit is named by its serial number; its Wi-Fi key is kept sealed and never answered. A unit registered already, or pending already, is refused.',
      tags,
      permission,
      body: s.CreatePendingRegistrationRequest,
      response: s.RegistrationEnvelope,
    },
    async (input, ctx) => (await registrations.createPendingRegistration(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/updatePendingRegistration',
      operationId: 'updatePendingRegistration',
      summary: "Change a unit's pending registration",
      description: 'The fields given change; those left out or null keep their value.',
      tags,
      permission,
      body: s.UpdatePendingRegistrationRequest,
      response: s.RegistrationEnvelope,
    },
    async (input, ctx) => (await registrations.updatePendingRegistration(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/removePendingRegistration',
      operationId: 'removePendingRegistration',
      summary: "Remove a unit's pending registration",
      description: "The unit stays the organization's, available for another pending registration.",
      tags,
      permission,
      body: s.RemovePendingRegistrationRequest,
      response: s.RegistrationEnvelope,
    },
    async (input, ctx) => (await registrations.removePendingRegistration(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: '/api/org/findAllHardwareWithPendingRegistration',
      operationId: 'findAllHardwareWithPendingRegistration',
      summary: "The organization's units waiting to come online with a pending registration",
      tags,
      permission: reading,
      body: s.FindHardwareRequest,
      response: s.FindAllHardwareWithPendingRegistrationResponse,
    },
    async (_input, ctx) => {
      const hardware = await registrations.listWaitingHardware(deps, ctx.orgUuid, true);
      return {
        hardwareList: hardware,
        hardwareWithPendingRegistrationInfoList: hardware.map((h) => ({ hardware: h, hwUuid: h.uuid, pendingRegistrationInfo: h.pendingRegistrationInfo })),
      };
    },
  );
  operation(
    app,
    {
      path: '/api/org/findHardwareAvailableForPendingRegistration',
      operationId: 'findHardwareAvailableForPendingRegistration',
      summary: "The organization's units waiting to come online without a pending registration",
      tags,
      permission: reading,
      body: s.FindHardwareRequest,
      response: s.FindHardwareAvailableForPendingRegistrationResponse,
    },
    async (_input, ctx) => ({ hardwareList: await registrations.listWaitingHardware(deps, ctx.orgUuid, false) }),
  );
}
