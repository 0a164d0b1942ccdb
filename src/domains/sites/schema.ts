import { Type, type Static, type TProperties } from 'typebox';
import { DEVICE_STATUSES, type DeviceKind } from '../devices/tables.js';
import { VALUE_TYPES } from '../orgs/users/user-metadata.service.js';
import { ACTIVITIES } from '../../schemas/activities.js';
import { PLATFORM_DEVICE_TYPES } from '../../schemas/device-types.js';
import { RMA_STATUSES } from '../internal/logistics.service.js';
import { accessLockdownKinds, siteDoorStateFields } from './access-lockdown.js';

/**
 * The site file: every kind is an optional list, names are unique per kind, and entries refer to each
 * other by name. Unknown fields are refused, so a misspelt field is an error rather than silently ignored.
 * Values that need more than a type check (time zones, MAC addresses, pins, e-mail addresses, intervals,
 * references) are checked in validate.ts.
 */
const Name = Type.String({ minLength: 1, maxLength: 200 });
const Text = Type.String({ maxLength: 500 });
const Entry = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });
const Status = Type.Union(DEVICE_STATUSES.map((s) => Type.Literal(s)));

const deviceFields = {
  name: Name,
  location: Name,
  serialNumber: Type.Optional(Text),
  firmwareVersion: Type.Optional(Text),
  macAddress: Type.Optional(Text),
  connectionStatus: Type.Optional(Status),
  healthStatus: Type.Optional(Status),
};

export const SiteLocation = Entry({
  name: Name,
  /** IANA time zone; UTC when absent. */
  timeZone: Type.Optional(Text),
  monitoringPin: Type.Optional(Text),
  address1: Type.Optional(Text),
  address2: Type.Optional(Text),
  city: Type.Optional(Text),
  postalCode: Type.Optional(Text),
  countryCode: Type.Optional(Text),
  latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
  longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
});

/** A user; `group` names a `permissionGroups` entry (none: the user has full rights). */
export const SiteUser = Entry({
  name: Name,
  email: Type.Optional(Text),
  group: Type.Optional(Name),
  /** Values of custom fields: a `userMetadataTemplates` name to the value, checked against that template. */
  metadata: Type.Optional(Type.Record(Name, Type.String({ maxLength: 1000 }))),
});

/** A custom field of the users (user metadata template): its name, and the kind of value it takes. */
export const SiteUserMetadataTemplate = Entry({
  name: Name,
  scimFieldName: Type.Optional(Text),
  valueType: Type.Optional(Type.Union(VALUE_TYPES.map((t) => Type.Literal(t)))),
  allowedValues: Type.Optional(Type.Array(Type.String({ maxLength: 1000 }))),
  maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
});

/** A role: `functionality` from the platform's list; `locations` (names) limits it to those locations, at ADMIN. */
export const SitePermissionGroup = Entry({
  name: Name,
  description: Type.Optional(Text),
  superAdmin: Type.Optional(Type.Boolean()),
  functionality: Type.Optional(Type.Array(Type.String({ maxLength: 100 }))),
  locations: Type.Optional(Type.Array(Name)),
});
export const SitePerson = Entry({ name: Name });

export const SiteSchedule = Entry({
  name: Name,
  /** Minutes of the week: 0 is Monday 00:00 in the location's time zone, 10080 the end of Sunday. */
  intervals: Type.Array(Entry({ start: Type.Integer(), stop: Type.Integer() })),
  mutable: Type.Optional(Type.Boolean()),
  oneTimeUse: Type.Optional(Type.Boolean()),
});

/** The `kind` of a sensors entry, and the device it creates ('climate' is the environmental sensor's other name). */
export const SENSOR_KINDS = {
  button: 'BUTTON',
  environmental: 'ENVIRONMENTAL_SENSOR',
  climate: 'ENVIRONMENTAL_SENSOR',
  environmentalGateway: 'ENVIRONMENTAL_GATEWAY',
  door: 'DOOR_SENSOR',
  occupancy: 'OCCUPANCY_SENSOR',
  tag: 'BLE_TRACKER',
  badgeReader: 'BADGE_READER',
  keypad: 'KEYPAD',
  doorbell: 'DOORBELL_CAMERA',
} as const satisfies Record<string, DeviceKind>;

export const SiteSensor = Entry({
  ...deviceFields,
  /** One of SENSOR_KINDS' keys (checked in validate.ts, which names them all). */
  kind: Type.String({ maxLength: 64 }),
  /** Alert thresholds of an environmental sensor, by reading: `{co2Ppm: 1500, tempC: 30}`. */
  thresholds: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z][A-Za-z0-9]*$' }), Type.Number(), { additionalProperties: false })),
});

export const SiteDoor = Entry({
  name: Name,
  location: Name,
  lock: Type.Optional(Type.Boolean()),
  schedule: Type.Optional(Name),
  cameras: Type.Optional(Type.Array(Name)),
  /** Names of the users allowed through: seeded as an access grant named "<door> access" that names the door. */
  access: Type.Optional(Type.Array(Name)),
  /** A `doorControllers` entry; when absent, a controller named "<door> Controller" is created for the door. */
  controller: Type.Optional(Name),
  unlockDurationMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 3_600_000 })),
  ...siteDoorStateFields,
  /** Door labels: grants and revocations that name one cover the door. */
  labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 })),
});

/** A camera: its policy (a `cameraPolicies` name), and what the camera reports of itself (model, LAN addresses). */
export const SiteCamera = Entry({
  ...deviceFields,
  policy: Type.Optional(Name),
  hwVariation: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]{1,64}$' })),
  lanAddresses: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 16 })),
});

/**
 * A camera policy: during each of its schedules, the activities that raise policy alerts (a camera names it
 * with `policy`; a camera without one raises every alert).
 */
export const SiteCameraPolicy = Entry({
  name: Name,
  schedules: Type.Array(Entry({ schedule: Name, activities: Type.Array(Type.Union(ACTIVITIES.map((a) => Type.Literal(a))), { minItems: 1 }) }), {
    minItems: 1,
  }),
});

/** An access control group: `members` names users. */
export const SiteAccessGroup = Entry({ name: Name, description: Type.Optional(Text), location: Type.Optional(Name), members: Type.Optional(Type.Array(Name)) });

/**
 * A location access grant (or revocation): who (users, groups), where (the location, and optionally doors,
 * elevator landings and door labels; none: every door of the location) and when (a schedule; none: always).
 */
export const SiteAccessRule = Entry({
  name: Name,
  location: Name,
  users: Type.Optional(Type.Array(Name)),
  groups: Type.Optional(Type.Array(Name)),
  doors: Type.Optional(Type.Array(Name)),
  elevatorLandings: Type.Optional(Type.Array(Name)),
  doorLabels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }))),
  schedule: Type.Optional(Name),
});

export const SiteElevatorLanding = Entry({ ...deviceFields, floor: Type.Integer({ minimum: -200, maximum: 500 }) });
export const SiteDiscovery = Entry({ macAddress: Text, assignments: Type.Optional(Type.Integer({ minimum: 0 })) });
export const SiteShipment = Entry({
  crmOppId: Name,
  email: Text,
  trackingIdentifier: Type.Optional(Text),
  items: Type.Optional(Type.Array(Entry({ name: Name, quantity: Type.Integer({ minimum: 1 }) }))),
});

/** Hardware in a partner's inventory (the file is seeded into the partner organization), known by its serial number. */
export const SitePartnerHardware = Entry({
  serialNumber: Type.String({ minLength: 1, maxLength: 64 }),
  macAddress: Type.Optional(Text),
  deviceType: Type.Optional(Type.Union(PLATFORM_DEVICE_TYPES.map((t) => Type.Literal(t)))),
  deviceModel: Type.Optional(Type.String({ pattern: '^[A-Z0-9_]{1,32}$' })),
});

/** A hardware return of the organization (getRMAs), known by its subject; `camera` names a camera of the file. */
export const SiteRma = Entry({
  name: Name,
  camera: Type.Optional(Name),
  status: Type.Optional(Type.Union(RMA_STATUSES.map((v) => Type.Literal(v)))),
  description: Type.Optional(Text),
  zendeskTicket: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  warrantyApproved: Type.Optional(Type.Boolean()),
});

export const SiteFile = Entry({
  locations: Type.Optional(Type.Array(SiteLocation)),
  permissionGroups: Type.Optional(Type.Array(SitePermissionGroup)),
  userMetadataTemplates: Type.Optional(Type.Array(SiteUserMetadataTemplate)),
  users: Type.Optional(Type.Array(SiteUser)),
  people: Type.Optional(Type.Array(SitePerson)),
  schedules: Type.Optional(Type.Array(SiteSchedule)),
  cameraPolicies: Type.Optional(Type.Array(SiteCameraPolicy)),
  cameras: Type.Optional(Type.Array(SiteCamera)),
  sensors: Type.Optional(Type.Array(SiteSensor)),
  doorControllers: Type.Optional(Type.Array(Entry(deviceFields))),
  doors: Type.Optional(Type.Array(SiteDoor)),
  audioGateways: Type.Optional(Type.Array(Entry(deviceFields))),
  elevatorLandings: Type.Optional(Type.Array(SiteElevatorLanding)),
  relays: Type.Optional(Type.Array(Entry(deviceFields))),
  nvrs: Type.Optional(Type.Array(Entry(deviceFields))),
  thirdPartyCameraDiscoveries: Type.Optional(Type.Array(SiteDiscovery)),
  shipments: Type.Optional(Type.Array(SiteShipment)),
  rmas: Type.Optional(Type.Array(SiteRma)),
  partnerHardware: Type.Optional(Type.Array(SitePartnerHardware)),
  accessGroups: Type.Optional(Type.Array(SiteAccessGroup)),
  accessGrants: Type.Optional(Type.Array(SiteAccessRule)),
  accessRevocations: Type.Optional(Type.Array(SiteAccessRule)),
  ...accessLockdownKinds,
});
export type SiteFile = Static<typeof SiteFile>;
export type SiteKind = keyof SiteFile;

/** What seeding answers: the UUIDs it created, by kind and name (shipments by crmOppId, discoveries by MAC). */
export type SeedResult = Partial<Record<SiteKind, Record<string, string>>>;
