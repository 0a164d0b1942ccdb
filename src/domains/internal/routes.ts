import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { SendShipmentShippedEmailRequest, ShipmentEmailResponse } from './schemas.js';
import { sendShipmentShippedEmail } from './shipment-email.service.js';

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
}
