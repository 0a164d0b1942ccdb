import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import * as s from './schemas.js';
import { createGuestPass, deleteGuestPass, findGuestPasses, GUEST_PASS_TRANSITIONS, transitionGuestPass } from './service.js';

const tags = ['AccessControl'];
const base = '/api/accesscontrol/guestpass';
const SUMMARIES: Record<keyof typeof GUEST_PASS_TRANSITIONS, string> = {
  expire: 'Expire a guest pass: its access ends for good, its record stays',
  suspend: 'Suspend an active guest pass',
  unsuspend: 'Unsuspend a suspended guest pass',
};

/** Guest passes: time-limited credentials of guests at the doors they name. */
export function guestPassRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${base}/createGuestPass`,
      operationId: 'createGuestPass',
      summary: 'Create a guest pass for doors of a location',
      description: 'Presented at a reader (simulate badge --hex <value>) it admits at its doors from passStartTimeMs to passEndTimeMs.',
      tags,
      body: s.CreateGuestPassRequest,
      response: s.CreateGuestPassResponse,
      extension: true,
    },
    async (input, ctx) => createGuestPass(deps, ctx, input),
  );
  operation(
    app,
    {
      path: `${base}/findGuestPasses`,
      operationId: 'findGuestPasses',
      summary: "Find the organization's guest passes by start time",
      tags,
      body: s.FindGuestPassesRequest,
      response: s.FindGuestPassesResponse,
    },
    async (input, ctx) => findGuestPasses(deps, ctx, input),
  );
  for (const transition of Object.keys(GUEST_PASS_TRANSITIONS) as Array<keyof typeof GUEST_PASS_TRANSITIONS>) {
    operation(
      app,
      {
        path: `${base}/${transition}GuestPass`,
        operationId: `${transition}GuestPass`,
        summary: SUMMARIES[transition],
        tags,
        body: s.GuestPassUuidRequest,
        response: s.GuestPassResponse,
      },
      async (input, ctx) => ({ guestPass: await transitionGuestPass(deps, ctx, transition, input) }),
    );
  }
  operation(
    app,
    {
      path: `${base}/deleteGuestPass`,
      operationId: 'deleteGuestPass',
      summary: 'Delete a guest pass and its record',
      tags,
      body: s.GuestPassUuidRequest,
      response: s.DeleteGuestPassResponse,
    },
    async (input, ctx) => (await deleteGuestPass(deps, ctx, input), {}),
  );
}
