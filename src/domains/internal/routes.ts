import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { SendShipmentShippedEmailRequest, ShipmentEmailResponse } from './schemas.js';
import { sendShipmentShippedEmail } from './shipment-email.service.js';
import * as logistics from './logistics.schemas.js';
import * as rmas from './logistics.service.js';

export function internalRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/internal/sendShipmentShippedEmail',
      operationId: 'sendShipmentShippedEmail',
      extension: true,
      summary: 'Send shipment shipped email (internal)',
      description:
        'Internal keys only. Sends the "shipped" e-mail of the sales opportunity\'s shipment through the configured SMTP server, once: ' +
        'later calls answer the recorded outcome. UNKNOWN for an opportunity without a shipment.',
      tags: ['Internal'],
      access: 'internal',
      body: SendShipmentShippedEmailRequest,
      response: ShipmentEmailResponse,
    },
    async (input, ctx) => sendShipmentShippedEmail(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/logistics/getRMAs',
      operationId: 'getRMAs',
      summary: "The organization's hardware returns (RMAs)",
      tags: ['Logistics'],
      body: logistics.GetRmasRequest,
      response: logistics.GetRmasResponse,
    },
    async (_input, ctx) => ({ rmaList: await rmas.getRmas(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/logistics/getWarrantyApprovedRMAs',
      operationId: 'getWarrantyApprovedRMAs',
      summary: 'The support tickets of the RMAs approved under warranty',
      tags: ['Logistics'],
      body: logistics.GetWarrantyApprovedRmasRequest,
      response: logistics.GetWarrantyApprovedRmasResponse,
    },
    async (_input, ctx) => ({ zendeskTickets: await rmas.getWarrantyApprovedRmaTickets(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/logistics/getShipments',
      operationId: 'getShipments',
      summary: "The organization's hardware shipments between two instants",
      tags: ['Logistics'],
      body: logistics.GetShipmentsRequest,
      response: logistics.GetShipmentsResponse,
    },
    async (input, ctx) => ({ customerShipmentList: await rmas.getShipments(deps, ctx, input) }),
  );
}
