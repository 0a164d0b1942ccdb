import { Type, type TSchema } from 'typebox';
import type { Deps } from '../../../deps.js';
import { operation, type ApiApp } from '../../../edge/operation.js';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef } from '../../../schemas/record-kinds.js';
import { COMPONENT_EVENT_FINDERS, COMPONENT_EVENT_LIMIT, findComponentEvents } from './component-events.service.js';
import { ComponentEvent } from '../schemas.js';
import { componentEventAnswers } from './event-answer.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const UUID_FIELDS = new Set([
  'accessControlledDoorUuid',
  'locationUuid',
  'userUuid',
  'ownerDeviceUuid',
  'credentialUuid',
  'tokenUuid',
  'componentUuid',
  'supportAuthorityUuid',
]);

const bounds = {
  createdAfterMs: Opt(EpochMs('events after this time (exclusive)')),
  createdBeforeMs: Opt(EpochMs('events before this time (exclusive)')),
  limit: Opt(Type.Integer({ minimum: 1, maximum: COMPONENT_EVENT_LIMIT.max, description: `the newest this many; default ${COMPONENT_EVENT_LIMIT.default}` })),
  typeFilter: Opt(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'event types (ComponentEventEnumType names)' })),
};
const Response = ResponseOf({ componentEvents: Field(Type.Array(ComponentEvent)) });

/** What each finder's events are of, for its summary. */
const OF: Record<string, string> = {
  accessControlledDoorUuid: 'an access controlled door',
  locationUuid: 'the doors of a location',
  userUuid: 'a user (badge-ins, remote unlocks)',
  ownerDeviceUuid: 'the doors a controller drives',
  credentialUuid: 'a credential (or guest pass)',
  credentialHexValue: 'a credential hex value as a reader read it',
  credentialValue: 'a decoded credential value',
  correlationId: 'a correlation id (a badge-in and the relay changes it caused)',
  tokenUuid: 'an API key (its remote unlocks)',
  componentUuid: 'a component (in Gatehouse, a door)',
  supportAuthorityUuid: 'a support authority (the API key it acts through)',
};

/** The component event finders of the catalogue, one operation per row of COMPONENT_EVENT_FINDERS. */
export function componentEventRoutes(app: ApiApp, deps: Deps): void {
  for (const finder of COMPONENT_EVENT_FINDERS) {
    const named = NotRef('filter', UUID_FIELDS.has(finder.field) ? Ruuid() : Type.String({ minLength: 1, maxLength: 256 }));
    operation(
      app,
      {
        path: `/api/component/${finder.operationId}`,
        operationId: finder.operationId,
        summary: `Find the component events of ${OF[finder.field]}, newest first`,
        tags: ['AccessControl', 'Component'],
        body: Type.Object({ [finder.field]: named, ...bounds }),
        response: Response,
      },
      async (input, ctx) => ({ componentEvents: componentEventAnswers(await findComponentEvents(deps, ctx, finder, input as Record<string, unknown>)) }),
    );
  }
}
