import { Type, type TProperties } from 'typebox';
import { EmptyRequest, Field, Flat, MediaUri, Own, ResponseOf, Ruuid } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

const Text = Type.String({ maxLength: 500 });
const Label = Type.String({ minLength: 1, maxLength: 100 });
const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });

const locationProperties = {
  uuid: Field(Ruuid()),
  name: Field(Type.String()),
  tz: Field(Type.String({ description: 'IANA time zone; door schedules run on its wall clock' })),
  address1: Field(Type.String()),
  address2: Field(Type.String()),
  city: Field(Own(Type.String(), "the console's organization view shows it; createLocation and updateLocation take it")),
  postalCode: Field(Type.String()),
  countryCode: Field(Type.String()),
  latitude: Field(Type.Number()),
  longitude: Field(Type.Number()),
  labels: Field(Type.Array(Type.String())),
  policyUuid: Field(Ruuid()),
  floorPlans: Field(Type.Array(Type.Object({ mediaUuid: Field(Ruuid()), imageUrl: Field(MediaUri('the floor plan image on the media host')) }))),
} satisfies TProperties;

/**
 * The reference's LocationType, with the fields Gatehouse keeps; sub-locations one level deep (a location's parent
 * is where it is listed among subLocations).
 */
export const Location = Type.Object({ ...locationProperties, subLocations: Field(Type.Array(Type.Object(locationProperties))) });

/** The editable fields of a location in a request (the reference's LocationType as input). */
const locationInput = {
  uuid: Field(NotRef('ignored', Ruuid())),
  name: Field(Type.String({ minLength: 1, maxLength: 200 })),
  tz: Field(Type.String({ maxLength: 64, description: 'IANA time zone, default UTC' })),
  address1: Field(Text),
  address2: Field(Text),
  city: Field(Text),
  postalCode: Field(Text),
  countryCode: Field(Type.String({ maxLength: 8 })),
  latitude: Field(Latitude),
  longitude: Field(Longitude),
  labels: Field(Type.Array(Label, { maxItems: 100 })),
  policyUuid: Field(NotRef('ignored', Ruuid())),
  floorPlans: Field(Type.Array(Type.Object({}), { maxItems: 0, description: 'not kept: only an empty list is accepted' })),
  subLocations: Field(Type.Array(Type.Object({}), { maxItems: 0, description: 'create sub-locations with parentLocationUuid' })),
};

export const GetLocationsRequest = Type.Object({ subLocationsIncluded: Field(Type.Boolean()) });
export const GetLocationsResponse = ResponseOf({ locations: Field(Type.Array(Location)) });

/** A location the operation acts on, refused as the platform does ("Location <id> not found"). */
const LocationUuid = (description?: string) => RefUuid('location', { notFound: 'Location {id}', ...(description ? { description } : {}) });

export const GetLocationRequest = Type.Object({ locationUuid: LocationUuid(), subLocationsRequired: Field(Type.Boolean()) });
export const GetLocationResponse = ResponseOf({ location: Field(Location) });

export const CreateLocationRequest = Type.Object({
  location: Flat(Type.Object({ ...locationInput, name: Type.String({ minLength: 1, maxLength: 200 }) })),
  parentLocationUuid: Field(LocationUuid()),
});
export const CreateLocationResponse = ResponseOf({ uuid: Field(Ruuid()) });

export const UpdateLocationRequest = Type.Object({ location: Type.Object({ ...locationInput, uuid: LocationUuid() }) });

/** The reference's selective update: `timezoneId`, or `tz.id`, names the new time zone. */
export const SelectiveUpdateLocationRequest = Type.Object({
  ...locationInput,
  locationUuid: LocationUuid(),
  timezoneId: Field(NotRef('external', Type.String({ maxLength: 64 }))),
  tz: Field(
    Type.Object({
      id: Field(NotRef('external', Type.String({ maxLength: 64 }))),
      displayName: Field(Type.String()),
      rawOffset: Field(Type.Integer()),
      dstsavings: Field(Type.Integer()),
    }),
  ),
});

export const DeleteLocationRequest = Type.Object({ uuid: LocationUuid() });

export const LocationLabelRequest = Type.Object({ label: Label, locationIdentifier: LocationUuid('the location uuid') });

export const LocationLabelsRequest = EmptyRequest;
export const LocationLabelsResponse = ResponseOf({ locationLabels: Field(Type.Record(Type.String(), Type.Array(Type.String()))) });

export const LocationEnvelope = ResponseOf({});

export const GeoCodeRequest = Type.Object({ address: Type.String({ minLength: 1, maxLength: 500 }) });
export const GeoCodeResponse = ResponseOf({ latitude: Field(Type.Number()), longitude: Field(Type.Number()) });

export const GetLocationsByGeoRequest = Type.Object({ latitude: Latitude, longitude: Longitude });
export const GetLocationsByGeoResponse = ResponseOf({ locations: Field(Type.Array(Location)) });

export const GetLocationsBySubLocationsHierarchyKeyRequest = Type.Object({
  subLocationsHierarchyKey: Type.Object({
    locationUuids: Type.Array(RefUuid('location'), { minItems: 1, maxItems: 20, description: 'a path from a top-level location down' }),
  }),
});
export const GetLocationsBySubLocationsHierarchyKeyResponse = ResponseOf({ location: Field(Location) });
