import { Type, type Static, type TSchema } from 'typebox';
import { EpochMs, FacetId, Field, Nullable, Own, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** A licence plate as given: letters, digits, spaces and dashes; kept upper case without spaces and dashes. */
export const PlateInput = Type.String({
  minLength: 1,
  maxLength: 24,
  pattern: '^[A-Za-z0-9 -]+$',
  description: 'licence plate; compared upper case, without spaces and dashes',
});
const Label = Type.String({ minLength: 1, maxLength: 100 });

export const SaveVehicleRequest = Type.Object({
  vehicleLicensePlate: PlateInput,
  name: Opt(Type.String({ maxLength: 200 })),
  alert: Opt(Type.Boolean({ description: 'on the watch list: a read of the plate raises a LICENSEPLATE_ALERT policy alert' })),
  trust: Opt(Type.Boolean({ description: 'trusted: never alerts, even when on the watch list' })),
  thumbnailS3Key: Opt(Type.String({ maxLength: 500 })),
  createdAtMillis: Opt(Type.Integer({ minimum: 0 })),
});
export type SaveVehicleRequest = Static<typeof SaveVehicleRequest>;

export const VehicleV2 = Type.Object({
  orgUuid: Field(Ruuid()),
  licensePlate: Field(Type.String()),
  name: Field(Type.String()),
  alert: Field(Type.Boolean()),
  trust: Field(Type.Boolean()),
  thumbnailS3Key: Field(Type.String()),
  createdAtMillis: Field(EpochMs()),
});
/** A saved vehicle with its labels: the stream's VEHICLE carries them, answers leave them to getVehicleLabelsForOrg. */
export type VehicleRecord = Static<typeof VehicleV2> & { labels: string[] };
export const SaveVehicleResponse = ResponseOf({});
export const GetVehiclesResponse = ResponseOf({ vehicles: Field(Type.Array(VehicleV2)) });

export const DeleteVehicleRequest = Type.Object({ vehicleLicensePlate: PlateInput });
export const VehicleLabelRequest = Type.Object({ vehicleLicensePlate: PlateInput, label: Label });
export const GetVehicleLabelsForOrgResponse = ResponseOf({
  vehicleLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()), { description: 'labels by licence plate' })),
});

export const VehicleEvent = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  deviceUuid: Field(FacetId()),
  locationUuid: Field(Ruuid()),
  eventTimestamp: Field(EpochMs()),
  vehicleLicensePlate: Field(Type.String()),
  name: Field(Type.String({ description: "the saved vehicle's name, when the plate is saved" })),
  matchingLicensePlates: Field(Type.Array(Type.String())),
  partialLicensePlates: Field(Type.Array(Type.String())),
  imageS3Key: Field(Type.String()),
  thumbnailS3Key: Field(Type.String()),
  readLicensePlate: Field(
    Own(
      Type.String({ description: 'the plate the camera read, when the read was associated with another saved vehicle' }),
      'associateEventsToVehicle files a read under another plate: the plate the camera read is kept',
    ),
  ),
  confidence: Field(
    Own(
      Type.Number({ minimum: 0, maximum: 1, description: 'how sure the camera was of the read; null for reads kept before it was' }),
      'the platform MCP server reads it (client-calls.md)',
    ),
  ),
});
/**
 * A read as answered, and as the stream carries it: its DELETE, when the read is reported as a misread, says when
 * (`reportedAtMs`); the lists never answer a reported read, so their answers leave it out.
 */
export type VehicleEventRecord = Static<typeof VehicleEvent> & { reportedAtMs: number | null };

export const VEHICLE_EVENT_PAGE = { default: 100, maximum: 1000 } as const;
const DeviceRef = Type.Union([FacetId(), Ruuid()]);
export const GetVehicleEventsRequest = Type.Object({
  deviceUuidFilter: Opt(NotRef('filter', Type.Array(DeviceRef, { maxItems: 500 }))),
  locationUuidFilter: Opt(NotRef('filter', Type.Array(Ruuid(), { maxItems: 500 }))),
  startTimeMs: Opt(Type.Integer({ description: 'inclusive' })),
  endTimeMs: Opt(Type.Integer({ description: 'exclusive' })),
  licensePlateExactQuery: Opt(Type.Array(PlateInput, { maxItems: 100 })),
  licensePlateFuzzyQuery: Opt(PlateInput),
  nameQuery: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100, description: "saved vehicles' names (exact, case-insensitive)" })),
  vehicleLabelQuery: Opt(Type.Array(Label, { maxItems: 100, description: 'saved vehicles carrying any of these labels' })),
  unnamedQuery: Opt(Type.Boolean({ description: 'only plates that no saved vehicle names' })),
  lastEventTimestamp: Opt(Type.Integer({ description: 'pagination cursor (with lastUuid): the last event of the previous page (Gatehouse addition)' })),
  lastUuid: Opt(NotRef('cursor', Ruuid())),
  maxResults: Opt(Type.Integer({ minimum: 1, maximum: VEHICLE_EVENT_PAGE.maximum, description: `default ${VEHICLE_EVENT_PAGE.default} (Gatehouse addition)` })),
});
export type GetVehicleEventsRequest = Static<typeof GetVehicleEventsRequest>;
export const GetVehicleEventsResponse = ResponseOf({ events: Field(Type.Array(VehicleEvent)) });

export const SearchLicensePlatesRequest = Type.Object({
  licensePlate: PlateInput,
  fuzzy: Opt(Type.Boolean({ description: 'also plates within an edit distance: 1 up to 5 characters, 2 beyond' })),
  forcedFuzziness: Opt(Type.Integer({ minimum: 0, maximum: 3, description: 'the edit distance of a fuzzy search' })),
  deviceUuids: Opt(NotRef('handler', Type.Array(DeviceRef, { maxItems: 500 }))),
  startTime: Opt(Type.Integer({ description: 'inclusive' })),
  endTime: Opt(Type.Integer({ description: 'exclusive' })),
});
export type SearchLicensePlatesRequest = Static<typeof SearchLicensePlatesRequest>;
export const VehicleEventSearchHit = Type.Object({
  ...VehicleEvent.properties,
  searchMatchedTerm: Field(Type.String({ description: 'the plate that matched' })),
  searchMatchedType: Field(Type.String({ description: 'EXACT or FUZZY' })),
});
const { uuid, deviceUuid, locationUuid, eventTimestamp, vehicleLicensePlate, confidence } = VehicleEvent.properties;
export const SearchLicensePlatesResponse = ResponseOf({
  vehicleEvents: Field(Type.Array(VehicleEventSearchHit)),
  licensePlateEvents: Field(
    Own(
      Type.Array(Type.Object({ uuid, deviceUuid, locationUuid, eventTimestamp, vehicleLicensePlate, confidence }), {
        description: 'the same reads, in short, as the platform MCP server reads them',
      }),
      'the platform MCP server reads it (client-calls.md)',
    ),
  ),
});

/** The most reads a "recent" list answers (newest first), and its default range. */
export const RECENT_VEHICLE_EVENTS = { max: 1000, defaultRangeMs: 7 * 86_400_000 } as const;
const recentRange = {
  startTimeMs: Opt(Type.Integer({ description: `inclusive; default ${RECENT_VEHICLE_EVENTS.defaultRangeMs / 86_400_000} days before the end` })),
  endTimeMs: Opt(Type.Integer({ description: 'exclusive; default now' })),
};
export const GetRecentVehicleEventsRequest = Type.Object({ deviceUuids: Opt(NotRef('handler', Type.Array(DeviceRef, { maxItems: 500 }))), ...recentRange });
export const GetRecentVehicleEventsByLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), ...recentRange });
export const GetRecentVehicleEventsForVehicleRequest = Type.Object({ licensePlate: PlateInput, ...recentRange });
export type RecentVehicleEventsQuery = Static<typeof GetRecentVehicleEventsRequest> &
  Partial<Static<typeof GetRecentVehicleEventsByLocationRequest>> &
  Partial<Static<typeof GetRecentVehicleEventsForVehicleRequest>>;

export const ReportVehicleEventRequest = Type.Object({ eventUuid: NotRef('handler', Ruuid()) });
export const ReportVehicleEventResponse = ResponseOf({
  collectedMediaForTraining: Field(Type.Boolean({ description: 'always false: Gatehouse keeps no images of plate reads to collect' })),
});
export const AssociateEventsToVehicleRequest = Type.Object({
  eventUuids: NotRef('handler', Type.Array(Ruuid(), { minItems: 1, maxItems: 1000 })),
  vehicleLicensePlate: PlateInput,
});
