import type { Deps } from '../../deps.js';
import { formParts, registerMultipartForm } from '../../edge/multipart-form.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import { ATTACHMENT_LIMITS } from './attachments.js';
import * as s from './schemas.js';
import { openTicket, openTickets, openTicketsV2, processRma, sendFeedback } from './service.js';
import { openTicketWithFile } from './ticket-form.service.js';
import { triageDevice } from './triage.service.js';

const tags = ['Help'];
const mailed = 'Stored, announced on the stream (SUPPORT_TICKET) and e-mailed to GATEHOUSE_SUPPORT_EMAIL when one is set.';

/** Support: tickets, RMAs and feedback the organization sends, its open tickets, and a device's triage. */
export async function supportRoutes(app: ApiApp, deps: Deps): Promise<void> {
  operation(
    app,
    {
      path: '/api/help/feedback',
      operationId: 'sendFeedback',
      summary: 'Send feedback on the product',
      description: mailed,
      tags,
      body: s.SendFeedbackRequest,
      response: s.SentResponse,
    },
    async (input, ctx) => sendFeedback(deps, ctx, input.feedback ?? ''),
  );
  operation(
    app,
    {
      path: '/api/help/ticket',
      operationId: 'createTicket',
      summary: 'Open a support ticket',
      description: mailed,
      tags,
      body: s.CreateTicketRequest,
      response: s.TicketResponse,
    },
    async (input, ctx) => openTicket(deps, ctx, { ...input, kind: 'TICKET', subject: input.subject ?? '', body: input.body ?? '' }),
  );
  operation(
    app,
    {
      path: '/api/help/rma',
      operationId: 'processRMA',
      summary: "Open an RMA (a hardware return) for one of the organization's devices",
      description: `${mailed} The device is named by its serial number (or deviceUuid); getRMAs lists the RMA, with the ticket's id.`,
      tags,
      body: s.ProcessRmaRequest,
      response: s.TicketResponse,
    },
    async (input, ctx) => processRma(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/help/openTickets',
      operationId: 'getOpenTickets',
      summary: "The organization's open support tickets and RMAs, newest first, 25 a page",
      tags,
      body: s.OpenTicketsRequest,
      response: s.OpenTicketsResponse,
    },
    async (input, ctx) => openTickets(deps, ctx, input.pageNumber ?? 1),
  );
  operation(
    app,
    {
      path: '/api/help/openTicketsV2',
      operationId: 'getOpenTicketsV2',
      summary: "The organization's open support tickets and RMAs opened in a window, and the caller's own",
      tags,
      body: s.OpenTicketsV2Request,
      response: s.OpenTicketsV2Response,
    },
    async (input, ctx) => openTicketsV2(deps, ctx, input),
  );
  operation(
    app,
    {
      path: '/api/help/triageDevice',
      operationId: 'triageDevice',
      summary: "Diagnose a device's connection and health from its state and history",
      tags,
      body: s.TriageDeviceRequest,
      response: s.TriageDeviceResponse,
    },
    async (input, ctx) => triageDevice(deps, ctx, input),
  );
  await app.register(async (scope) => {
    const api = scope as ApiApp;
    await registerMultipartForm(api, { fileSize: ATTACHMENT_LIMITS.maxBytes, files: ATTACHMENT_LIMITS.maxFiles });
    operation(
      api,
      {
        path: '/api/help/ticketWithFile',
        operationId: 'createTicketWithFile',
        summary: 'Open a support ticket with a file',
        description: `${mailed} The file is checked by its content and kept with the ticket.`,
        tags,
        consumes: ['multipart/form-data'],
        body: s.TicketForm,
        response: s.TicketResponse,
      },
      async (_input, ctx, request) => openTicketWithFile(deps, ctx, formParts(request)),
    );
  });
}
