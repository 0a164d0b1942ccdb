import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid } from '../../../schemas/common.js';
import type { FinderField, RuleFinder } from './finders.js';
import { NotRef, type RecordKind, type RefOptions, RefUuid } from '../../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const MAX_REFS = 1000;
const Label = (description: string) => Type.String({ minLength: 1, maxLength: 100, description });
/** Ids of a kind, each refused as the rule's checks word it (`Door <id> not found`). */
const Refs = (kind: RecordKind, notFound: RefOptions['notFound'], description: string) =>
  Type.Array(RefUuid(kind, { notFound }), { maxItems: MAX_REFS, uniqueItems: true, description });
const Labels = Type.Array(Label('a door label'), {
  maxItems: MAX_REFS,
  uniqueItems: true,
  description: 'door labels: the rule covers the doors that carry one',
});

/** The lists a grant or revocation names, as requests send them and answers carry them. */
const lists = {
  userUuids: Refs('user', 'User {id}', 'users the rule applies to'),
  groupUuids: Refs('accessGroup', 'Access control group {id}', 'access control groups whose members the rule applies to'),
  accessControlledDoorUuids: Refs('door', 'Door {id}', 'doors it covers (none of doors, landings and labels: every door of its location)'),
  // Any device of the organization here; that it is a landing at the rule's location, the service checks.
  accessControlledElevatorLandingUuids: Refs('device', 'Elevator landing {id}', 'elevator landings it covers'),
  // A label is a door's tag (text), not a record: one no door carries covers no door.
  doorLabelIds: NotRef('handler', Labels),
};

/** A grant or revocation as create and update take it (sortKey and storedInS3 of the catalogue are ignored). */
export const AccessRuleInput = Type.Object({
  uuid: Opt(NotRef('subject', Ruuid({ description: 'update: the rule to replace' }))),
  orgUuid: Opt(NotRef('callerOrg', Ruuid())),
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  locationUuid: Opt(RefUuid('location', { description: 'where the rule stands (required to create)', notFound: 'Location {id}' })),
  scheduleUuid: Opt(RefUuid('schedule', { description: 'when the rule holds, on the location’s wall clock; none: at all times', notFound: 'Schedule {id}' })),
  ...Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, Opt(v)])),
  createdAtMillis: Opt(EpochMs()),
  updatedAtMillis: Opt(EpochMs()),
});

export const AccessRule = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  locationUuid: Field(Ruuid()),
  scheduleUuid: Field(Ruuid()),
  ...Object.fromEntries(Object.entries(lists).map(([k, v]) => [k, Field(v)])),
  createdAtMillis: Field(EpochMs()),
  updatedAtMillis: Field(EpochMs()),
});

/** The request and response schemas of one kind (grant or revocation), under the catalogue's field names. */
export function ruleSchemas(names: { one: string; many: string; uuid: string }) {
  const one = (schema: TSchema) => ResponseOf({ [names.one]: Field(schema) });
  return {
    write: Type.Object({ [names.one]: AccessRuleInput }),
    written: one(AccessRule),
    byUuid: Type.Object({ [names.uuid]: NotRef('subject', Ruuid()) }),
    deleted: ResponseOf({}),
    list: ResponseOf({ [names.many]: Field(Type.Array(AccessRule)) }),
  };
}

const FINDER_FIELDS: Record<FinderField, TSchema> = {
  locationUuid: RefUuid('location', { notFound: 'Location {id}' }),
  userUuid: RefUuid('user', { notFound: 'User {id}' }),
  groupUuid: RefUuid('accessGroup', { notFound: 'Access control group {id}' }),
  accessControlledDoorUuid: RefUuid('door', { notFound: true }),
  // Any device here; that it is a landing, the finder checks.
  accessControlledElevatorLandingUuid: RefUuid('device', { notFound: 'Access controlled elevator landing' }),
  doorLabelId: NotRef('handler', Label('the door label')),
};

/** A finder's request: its fields, each required. */
export const finderRequest = (finder: RuleFinder) => Type.Object(Object.fromEntries(finder.fields.map((f) => [f, FINDER_FIELDS[f]])));
