import { Type, type Static, type TSchema } from 'typebox';
import { FacetId, Nullable, Ruuid } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
/** Epoch milliseconds a date can hold (JavaScript's Date ends at 8.64e15). */
const Ms = (description: string) => Opt(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description }));
const Actions = Type.Array(Type.String({ minLength: 3, maxLength: 100, description: '<ENTITY>_<ACTION>, e.g. LOCATION_CREATE' }), { maxItems: 100 });

/** The exports whose range is `startInterval` and `endInterval`. */
export const ExportIntervalRequest = Type.Object({
  startInterval: Ms('start of the range (inclusive); absent: from the first record'),
  endInterval: Ms('end of the range (exclusive); absent: to the last record'),
});
export type ExportIntervalRequest = Static<typeof ExportIntervalRequest>;

export const ExportAuditRequest = Type.Object({
  startInterval: Ms('start of the range (exclusive)'),
  endInterval: Ms('end of the range (exclusive)'),
  includeActions: Opt(Actions),
  excludeActions: Opt(Actions),
});
export type ExportAuditRequest = Static<typeof ExportAuditRequest>;

export const ExportMotionEventsRequest = Type.Object({
  deviceUuid: RefUuid('device', { notFound: 'Device {id}' }),
  createdAfterMs: Ms('start of the range (inclusive)'),
  createdBeforeMs: Ms('end of the range (exclusive)'),
});
export type ExportMotionEventsRequest = Static<typeof ExportMotionEventsRequest>;

export const ExportVehicleEventsRequest = Type.Object({
  deviceUuids: Opt(NotRef('handler', Type.Array(Type.Union([FacetId(), Ruuid()]), { maxItems: 500 }))),
  interval: Opt(Type.Object({ startMs: Ms('start (inclusive)'), endMs: Ms('end (exclusive)') })),
  plateNumbers: Opt(Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { maxItems: 100 })),
  fuzzy: Opt(Type.Boolean({ description: 'match the first plate number approximately (a plate read with one character wrong)' })),
  labels: Opt(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'saved vehicles carrying any of these labels' })),
});
export type ExportVehicleEventsRequest = Static<typeof ExportVehicleEventsRequest>;

export const ExportInventoryRequest = Type.Object({
  deviceUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 1000, description: 'absent or empty: every device' }))),
  cameraUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 1000, deprecated: true }))),
});
export type ExportInventoryRequest = Static<typeof ExportInventoryRequest>;

export const ExportUsersRequest = Type.Object({
  userUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 1000, description: 'absent or empty: every user' }))),
});
export type ExportUsersRequest = Static<typeof ExportUsersRequest>;

const sensorRange = {
  createdAfterMs: Ms('start of the range (inclusive)'),
  createdBeforeMs: Ms('end of the range (exclusive)'),
};
export const ExportSensorEventsRequest = Type.Object({
  sensorUuid: NotRef('handler', Ruuid({ description: 'the sensor whose events are exported' })),
  ...sensorRange,
});
export type ExportSensorEventsRequest = Static<typeof ExportSensorEventsRequest>;
export const ExportGatewayEventsRequest = Type.Object({ deviceUuid: NotRef('handler', Ruuid({ description: 'the environmental gateway' })), ...sensorRange });
export type ExportGatewayEventsRequest = Static<typeof ExportGatewayEventsRequest>;
export const ExportProximityEventsRequest = Type.Object({
  tagUuid: NotRef('handler', Ruuid({ description: 'the proximity tag' })),
  ...sensorRange,
  createBeforeMs: Ms('the older spelling of createdBeforeMs'),
});
export type ExportProximityEventsRequest = Static<typeof ExportProximityEventsRequest>;

export const UPTIME_GRANULARITIES = ['NANOSECONDS', 'MICROSECONDS', 'MILLISECONDS', 'SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export const ExportUptimeRequest = Type.Object({
  deviceUuids: Opt(
    NotRef(
      'handler',
      Type.Array(Type.Union([FacetId(), Ruuid()]), { maxItems: 500, description: 'cameras; absent or empty (with cameraUuids): every camera' }),
    ),
  ),
  cameraUuids: Opt(NotRef('handler', Type.Array(Ruuid(), { maxItems: 500, deprecated: true }))),
  startDateTime: Opt(Type.String({ maxLength: 40, description: 'ISO 8601 instant, start of the range (inclusive); required' })),
  endDateTime: Opt(Type.String({ maxLength: 40, description: 'ISO 8601 instant, end of the range (exclusive); required' })),
  granularity: Opt(
    Type.Union(
      UPTIME_GRANULARITIES.map((g) => Type.Literal(g)),
      { description: 'the length of a row (UTC): MINUTES, HOURS (default) or DAYS' },
    ),
  ),
});
export type ExportUptimeRequest = Static<typeof ExportUptimeRequest>;
