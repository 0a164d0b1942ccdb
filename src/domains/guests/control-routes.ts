import { Type } from 'typebox';
import { hidden, type ControlPlugin } from '../../edge/control-plugin.js';
import { Field, ResponseOf, Ruuid } from '../../schemas/common.js';
import { GuestActivityLog } from './guests.schemas.js';
import { kioskVisit } from './guests.service.js';

const SimulateGuestBody = Type.Object(
  {
    location: Ruuid({ description: "the kiosk's location" }),
    email: Type.String({ minLength: 3, maxLength: 320, description: 'the guest expected there' }),
    checkOut: Type.Optional(Type.Boolean({ description: 'check out (default: check in)' })),
  },
  { additionalProperties: false },
);
const SimulateGuestResponse = ResponseOf({ activity: Field(GuestActivityLog) });

/**
 * The guest kiosk under `/_gatehouse/simulate`: a guest checks in (or, with `--check-out`, out) at a location's
 * kiosk (`gatehouse simulate guest --location L --email E`), through the same service as signInGuest.
 */
export const guestSimulateRoutes: ControlPlugin = (app, deps) => {
  app.post('/guest', { schema: { ...hidden, body: SimulateGuestBody, response: { 200: SimulateGuestResponse } } }, async (request) => ({
    error: false,
    activity: await kioskVisit(deps, { locationUuid: request.body.location, email: request.body.email, checkOut: request.body.checkOut ?? false }),
  }));
};
