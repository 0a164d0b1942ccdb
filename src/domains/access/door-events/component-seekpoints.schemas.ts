import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { ComponentSeekPoint, CustomSeekpointList, DurationSec, StartSec } from '../../timeline/seekpoints.schemas.js';
import { COMPONENT_EVENT_LIMIT } from './component-events.service.js';
import { DOOR_EVENT_TYPES } from './service.js';
import { ComponentEventFields } from '../schemas.js';
import { NotRef } from '../../../schemas/record-kinds.js';

/** Request and response schemas of the doors' timeline reads (component seekpoints) and the video intercom's events. */

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
export const componentSpan = {
  startTimeSecEpochExclusive: StartSec('start of the span, epoch seconds (exclusive)'),
  durationSec: DurationSec(),
};

/** A finder's request: the id it names (resolved by the finder, with the platform's words for an unknown one) and the span. */
export const ComponentSeekpointsRequest = (field: string) => Type.Object({ [field]: Opt(NotRef('handler', Ruuid())), ...componentSpan });
export const ComponentSeekpointsResponse = ResponseOf({ seekpoints: Field(Type.Array(ComponentSeekPoint)) });

export const FindComponentSeekPointsByAccessControlledDoorsRequest = Type.Object({
  accessControlledDoorUuidList: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 100 }))),
  sortResponse: Opt(Type.Boolean({ description: 'in time order (default: door by door, as named)' })),
  ...componentSpan,
});

export const FindComponentSeekPointsForDoorbellCameraRequest = Type.Object({ doorbellCameraUuid: Opt(NotRef('handler', Ruuid())), ...componentSpan });

export const CreateAccessControlledDoorSeekpointsRequest = Type.Object({ doorUuid: Opt(NotRef('handler', Ruuid())), seekPoints: Opt(CustomSeekpointList) });
export const CreateAccessControlledDoorSeekpointsResponse = ResponseOf({ successMsg: Field(Type.String()) });

/** A door's event or a video intercom's press (a DoorbellEvent, which names its component). */
export const IntercomEvent = Type.Object({
  ...ComponentEventFields,
  type: Field(StringEnum([...DOOR_EVENT_TYPES, 'DoorbellEvent'])),
  componentUuid: Field(Ruuid({ description: 'the video intercom, for its presses' })),
});

export const FindComponentEventsForVideoIntercomRequest = Type.Object({
  videoIntercomUuid: NotRef('handler', Ruuid()),
  accessControlledDoorUuid: Opt(NotRef('handler', Ruuid({ description: 'the door whose events join the presses' }))),
  createdAfterMs: Opt(EpochMs('events after this time (exclusive)')),
  createdBeforeMs: Opt(EpochMs('events before this time (exclusive)')),
  limit: Opt(Type.Integer({ minimum: 1, maximum: COMPONENT_EVENT_LIMIT.max, description: `the newest this many; default ${COMPONENT_EVENT_LIMIT.default}` })),
  typeFilter: Opt(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'event types (ComponentEventEnumType names)' })),
});
export const FindComponentEventsForVideoIntercomResponse = ResponseOf({ componentEvents: Field(Type.Array(IntercomEvent)) });
