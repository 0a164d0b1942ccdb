import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { ActivityEnum } from '../../../schemas/activities.js';
import { EnvelopeResponse, Field, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { createEventListener, deleteEventListener, eventListeners } from './listeners.service.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const tags = ['Developer'];
const D = '/api/developer';
const Pem = () => Type.Array(Type.String({ maxLength: 20000 }), { maxItems: 64, description: 'PEM text (in parts)' });
const EventListener = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  uri: Field(Type.String()),
  hostname: Field(Type.String()),
  activities: Field(Type.Array(ActivityEnum)),
  deviceUuid: Field(Ruuid()),
  clientCertificate: Field(Type.Array(Type.String())),
  trustedCertificate: Field(Type.Array(Type.String())),
});
const Listeners = ResponseOf({ eventListeners: Field(Type.Array(EventListener)) });

/** A developer's event listeners: URIs the organization's policy alerts are posted to (the webhook deliveries). */
export function eventListenerRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: `${D}/createEventListener`,
      operationId: 'createEventListener',
      summary: 'Register a URI to receive the policy alerts of some activities (none: all), of a device (none: all)',
      tags,
      body: Type.Object({
        eventListner: Field(
          Type.Object({
            activities: Field(Type.Array(ActivityEnum, { maxItems: 200 })),
            deviceUuid: Field(RefUuid('device', 'a device of the organization')),
            hostname: Field(Type.String({ maxLength: 255 })),
            uri: Field(Type.String({ maxLength: 2000 })),
            clientCertificate: Field(Pem()),
            clientKey: Field(Pem()),
            trustedCertificate: Field(Pem()),
            orgUuid: NotRef('callerOrg', Field(Ruuid({ description: "ignored: the caller's organization" }))),
            uuid: NotRef('ignored', Field(Ruuid({ description: 'ignored: the server names the listener' }))),
          }),
        ),
      }),
      response: ResponseOf({ eventListenerUuid: Field(Ruuid()) }),
    },
    async (input, ctx) => ({ eventListenerUuid: await createEventListener(deps, ctx, input.eventListner) }),
  );
  operation(
    app,
    {
      path: `${D}/deleteEventListener`,
      operationId: 'deleteEventListener',
      summary: 'Remove an event listener',
      tags,
      body: Type.Object({ eventListenerUuid: NotRef('subject', Field(Ruuid())) }),
      response: EnvelopeResponse,
    },
    async (input, ctx) => deleteEventListener(deps, ctx, input.eventListenerUuid).then(() => ({})),
  );
  operation(
    app,
    {
      path: `${D}/getAllEventListeners`,
      operationId: 'getAllEventListeners',
      summary: "The organization's event listeners",
      tags,
      body: Type.Object({}),
      response: Listeners,
    },
    async (_input, ctx) => ({ eventListeners: await eventListeners(deps, ctx) }),
  );
  operation(
    app,
    {
      path: `${D}/getEventListenersForDevice`,
      operationId: 'getEventListenersForDevice',
      summary: "The event listeners that hear a device: its own and the organization's for every device",
      tags,
      body: Type.Object({ deviceUuid: NotRef('subject', Field(Ruuid())) }),
      response: Listeners,
    },
    async (input, ctx) => ({ eventListeners: await eventListeners(deps, ctx, input.deviceUuid ?? null) }),
  );
}
