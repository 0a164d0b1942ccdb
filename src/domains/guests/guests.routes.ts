import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as s from './guests.schemas.js';
import { createGuest, deleteGuest, findActivities, getGuest, listGuests, signGuest, updateGuest } from './guests.service.js';

const tags = ['Guest Management'];
const base = '/api/guestmanagement';

/** Guest management: guests (named by e-mail address), their check-ins and check-outs, and the activity log. */
export function guestRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${base}/createGuest`,
      operationId: 'createGuest',
      summary: 'Create a guest (no invitation is sent)',
      tags,
      body: s.CreateGuestRequest,
      response: s.GuestEnvelope,
    },
    async (input, ctx) => (await createGuest(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: `${base}/updateGuest`,
      operationId: 'updateGuest',
      summary: 'Update a guest named by e-mail address (recorded as UPDATED_INFO)',
      tags,
      body: s.UpdateGuestRequest,
      response: s.GuestEnvelope,
    },
    async (input, ctx) => (await updateGuest(deps, ctx, input), {}),
  );
  operation(
    app,
    {
      path: `${base}/getGuest`,
      operationId: 'getGuest',
      summary: 'Get a guest by e-mail address',
      tags,
      body: s.GuestByEmailRequest,
      response: s.GetGuestResponse,
    },
    async (input, ctx) => ({ guest: await getGuest(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/getAllGuestsByOrg`,
      operationId: 'getAllGuestsByOrg',
      summary: "Get the organization's guests",
      tags,
      body: s.GetAllGuestsByOrgRequest,
      response: s.GetAllGuestsResponse,
    },
    async (_input, ctx) => ({ allGuests: await listGuests(deps, ctx) }),
  );
  operation(
    app,
    {
      path: `${base}/deleteGuest`,
      operationId: 'deleteGuest',
      summary: 'Delete a guest by e-mail address',
      tags,
      body: s.GuestByEmailRequest,
      response: s.GuestEnvelope,
    },
    async (input, ctx) => (await deleteGuest(deps, ctx, input), {}),
  );
  for (const [name, checkOut] of [
    ['signInGuest', false],
    ['signOutGuest', true],
  ] as const) {
    operation(
      app,
      {
        path: `${base}/${name}`,
        operationId: name,
        summary: checkOut ? 'Check a guest out of a location' : 'Check a guest in at a location (within its access window)',
        tags,
        body: s.GuestCheckinRequest,
        response: s.GuestEnvelope,
      },
      async (input, ctx) => (await signGuest(deps, ctx, input, checkOut), {}),
    );
  }
  operation(
    app,
    {
      path: `${base}/getActivitiesForLocation`,
      operationId: 'getActivitiesForLocation',
      summary: "A location's guest activity, newest first",
      tags,
      body: s.GetActivitiesForLocationRequest,
      response: s.GuestActivitiesResponse,
    },
    async (input, ctx) => ({ guestActivities: await findActivities(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/getGuestActivityLogs`,
      operationId: 'getGuestActivityLogs',
      summary: "The organization's guest activity, newest first",
      tags,
      body: s.GetGuestActivityLogsRequest,
      response: s.GuestActivitiesResponse,
    },
    async (input, ctx) => ({ guestActivities: await findActivities(deps, ctx, input) }),
  );
  operation(
    app,
    {
      path: `${base}/getActivitiesForGuest`,
      operationId: 'getActivitiesForGuest',
      summary: "A guest's activity, newest first",
      tags,
      body: s.GetActivitiesForGuestRequest,
      response: s.GuestActivitiesResponse,
    },
    async (input, ctx) => ({ guestActivities: await findActivities(deps, ctx, input) }),
  );
}
