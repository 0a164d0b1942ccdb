import { Type, type TSchema } from 'typebox';
import { Field, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefMap, RefUuid } from '../../../schemas/record-kinds.js';
import { DoorInfo, Secret, enabling } from '../schemas.js';

/*
 * The vocabulary the partner table (catalogue.ts) writes its settings in: each field of a partner's settings
 * is one of these types, so that the table stays one line per field and the engine knows, from the type alone,
 * which fields are secrets and which name records of the organization.
 */

const Text = () => Type.String({ maxLength: 2000 });
const Key = () => Type.String({ maxLength: 200 });
/** Camera ids: any string is read, one that is not a camera of the organization is answered in failedGuids and left out. */
const Cameras = () =>
  NotRef('handler', Type.Array(Type.String({ maxLength: 100 }), { maxItems: 500, description: "camera RUUIDs; another organization's are left out" }));
/** A nested record of the partner (a panel, a console, a restaurant...): kept as sent. */
const PartnerRecord = () => Type.Record(Type.String(), Type.Unknown(), { description: "a partner's record, kept as sent" });

export const FIELD_TYPES = {
  bool: () => Type.Boolean(),
  int: () => Type.Integer(),
  number: () => Type.Number(),
  text: Text,
  /** A URL Gatehouse calls (the customer's own instance of the partner): http(s), under the outbound policy. */
  url: () => Type.String({ maxLength: 2000, description: 'http(s) URL of the partner instance Gatehouse calls' }),
  /** A credential: sealed at rest, answered masked (****abcd), its masked form sent back keeps it. */
  secret: () => Secret("a credential of the partner's system"),
  /** An incoming-webhook URL, a credential too: answered by its host only. */
  secretUrl: () => Secret('an incoming-webhook URL'),
  /** An id the partner's system gives (a business, a tenant, a folder, a channel): nothing of Gatehouse's. */
  partnerId: () => NotRef('external', Text()),
  /** A device of the organization (refused when it is not one). */
  device: () => RefUuid('device'),
  /** A user of the organization (refused when it is not one). */
  user: () => RefUuid('user'),
  texts: () => Type.Array(Text(), { maxItems: 500 }),
  textMap: () => Type.Record(Key(), Text()),
  intMap: () => Type.Record(Key(), Type.Integer()),
  cameras: Cameras,
  /** A partner door id to the cameras at it. */
  cameraMap: () => Type.Record(Key(), Cameras()),
  /** A partner door id to its door (cameras and location checked against the organization). */
  doors: () => Type.Record(Key(), DoorInfo),
  locations: () => Type.Array(RefUuid('location'), { maxItems: 500 }),
  /** A partner id to a location of the organization (refused when it is not one). */
  locationMap: () => Type.Record(Key(), RefUuid('location')),
  /*
   * Settings by location: keys are locations of the organization (refused when not one), values of the catalogue's
   * types: a number, a text, texts, the partner's records (kept as sent), an emergency contact, a prompt theme.
   */
  intByLocation: () => RefMap('location', Type.Integer()),
  textByLocation: () => RefMap('location', Text()),
  textsByLocation: () => RefMap('location', Type.Array(Text(), { maxItems: 500 })),
  recordsByLocation: () => RefMap('location', Type.Array(PartnerRecord(), { maxItems: 500 })),
  contactByLocation: () => RefMap('location', Type.Object({ name: Text(), phoneNumber: Text() })),
  promptThemeByLocation: () => RefMap('location', StringEnum(['THREAT', 'HUMAN'] as const)),
  object: PartnerRecord,
  /** Partner records by their ids. */
  records: () => Type.Record(Key(), PartnerRecord()),
} as const satisfies Record<string, () => TSchema>;
export type FieldType = keyof typeof FIELD_TYPES;

export const SECRET_TYPES: ReadonlySet<FieldType> = new Set(['secret', 'secretUrl']);

/**
 * Fields of the V2 settings types that the server keeps itself: read in a request (the platform's clients send
 * back what they read) and never taken from it.
 */
export const serverKept = {
  integration: Field(Type.String({ maxLength: 100 })),
  integrationAuditMap: Field(Type.Record(Type.String(), Type.Unknown(), { description: 'kept by the server: ignored in a request' })),
  orgUuid: Field(NotRef('callerOrg', Type.String({ maxLength: 100 }))),
  userUuid: Field(NotRef('ignored', Type.String({ maxLength: 100 }))),
  tokenValid: Field(Type.Boolean({ description: 'whether the partner accepted the credentials at the last check (null: not checked); kept by the server' })),
  misconfiguredDoors: Field(Type.Array(Type.String(), { description: 'door names assigned to more than one location; kept by the server' })),
  doorsValidated: Field(Type.Boolean({ description: 'kept by the server' })),
};

/** The fields a partner's settings declare, as TypeBox properties (each nullable and optional). */
export function fieldProperties(fields: Readonly<Record<string, FieldType>>): Record<string, TSchema> {
  return Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, Field(FIELD_TYPES[type]())]));
}

/** A partner's settings object as sent and as answered: its fields, the enabling fields and the server-kept ones. */
export function settingsSchema(fields: Readonly<Record<string, FieldType>>) {
  return Type.Object({ ...enabling, ...serverKept, ...fieldProperties(fields) });
}
