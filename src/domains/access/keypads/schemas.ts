import { Type } from 'typebox';
import { Field, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { Floor, Latitude, Longitude, Name } from '../../devices/cameras/camera-details.schemas.js';
import { KeypadConfig } from '../../devices/sensors/schemas.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** Keypads (issue 19): reads by location, updates, unregistering and claiming; shapes from the catalogue. */
export const GetKeypadsForLocationRequest = Type.Object({ locationUuid: NotRef('handler', Ruuid()) });
export const GetKeypadsForLocationResponse = ResponseOf({ keypads: Field(Type.Array(KeypadConfig)) });

const Text = (maxLength: number) => Field(Type.String({ maxLength }));
export const UpdateKeypadRequest = Type.Object({
  keypadUuid: NotRef('handler', Ruuid()),
  name: Field(Name),
  locationUuid: Field(NotRef('handler', Ruuid())),
  floorNumber: Field(Floor),
  latitude: Field(Latitude),
  longitude: Field(Longitude),
  armCountdownSecs: Field(Type.Integer({ minimum: 0, maximum: 600, description: 'seconds between arming and armed' })),
  buildingAdminPhoneNumber: Field(Type.String({ pattern: '^\\+?[0-9 ()-]{3,30}$' })),
  showCallBuildingAdmin: Field(Type.Boolean()),
  additionalFeaturesDisabled: Field(Type.Boolean()),
  logoUuid: Field(NotRef('handler', Ruuid())),
  videoWallUuid: Field(NotRef('handler', Ruuid({ description: 'a video wall of the organization' }))),
  qualifiedAddress: Field(
    Type.Object({
      addressline1: Text(200),
      addressLine2: Text(200),
      locality: Text(200),
      administrativeArea: Text(200),
      postalCode: Text(32),
      regionCode: Text(8),
    }),
  ),
  timeZoneId: NotRef('external', Text(64)),
  locationName: Text(200),
  subLocationsHierarchyKey: Field(Type.Object({ locationUuids: Field(NotRef('handler', Type.Array(Ruuid(), { maxItems: 20 }))) })),
});
export const KeypadRequest = Type.Object({ keypadUuid: NotRef('handler', Ruuid()) });
export const ClaimKeypadActivationTokenRequest = Type.Object({
  activationToken: Type.String({ minLength: 4, maxLength: 64, description: 'the token the keypad shows' }),
  locationUuid: RefUuid('location', { notFound: true }),
  name: Name,
});

/** `gatehouse simulate keypad-activation`: without --token the keypad asks for one; with it, whether it was claimed. */
export const SimulateKeypadActivationBody = Type.Object(
  {
    platform: Type.Optional(StringEnum(['ANDROID', 'IOS'] as const)),
    ipAddress: Type.Optional(Type.String({ maxLength: 64 })),
    token: Type.Optional(Type.String({ minLength: 4, maxLength: 64, description: 'the token to ask about' })),
  },
  { additionalProperties: false },
);
export const SimulateKeypadActivationResponse = ResponseOf({
  activationToken: Type.Optional(Type.String()),
  expiresAtMs: Type.Optional(Type.Integer()),
  claimed: Type.Optional(Type.Boolean()),
  expired: Type.Optional(Type.Boolean()),
  keypadUuid: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
