import { Type, type TSchema } from 'typebox';
import { EpochMs, Field, Nullable, ResponseOf, Ruuid, StringEnum } from '../../../schemas/common.js';
import { NotRef, RefUuid } from '../../../schemas/record-kinds.js';

/** A request field that may be left out or sent as null. */
const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const DoorState = StringEnum(['UNLOCKED', 'ACCESS_CONTROLLED'] as const);
// Dates and date-times are checked by the service, which names the field and the form expected.
const LocalDate = Type.String({ maxLength: 10, description: "YYYY-MM-DD on the wall clock of the doors' location" });
const LocalDateTime = Type.String({ maxLength: 19, description: 'YYYY-MM-DDTHH:mm[:ss], local, inclusive' });
const Interval = Type.Object({ localStartDateTime: LocalDateTime, localEndDateTime: LocalDateTime, state: DoorState });
// Locations to their doors: the doors are resolved at the edge; that each stands at its key's location, by the service.
const DoorMap = NotRef(
  'handler',
  Type.Record(Type.String({ pattern: '^[A-Za-z0-9_-]{22}$' }), Type.Array(RefUuid('door', { notFound: 'Door {id}' }), { maxItems: 1000 }), {
    additionalProperties: false,
  }),
);

export const DoorScheduleException = Type.Object(
  {
    uuid: Field(Ruuid()),
    orgUuid: Field(Ruuid()),
    name: Field(Type.String()),
    description: Field(Type.String()),
    locationUuid: Field(Ruuid()),
    doorUuids: Field(Type.Array(Ruuid())),
    locationToDoorsMap: Field(Type.Record(Type.String(), Type.Array(Ruuid()))),
    localStartDate: Field(Type.String()),
    localEndDate: Field(Type.String()),
    defaultState: Field(DoorState),
    intervals: Field(Type.Array(Type.Object({ localStartDateTime: Field(Type.String()), localEndDateTime: Field(Type.String()), state: Field(DoorState) }))),
    createdAtMillis: Field(EpochMs()),
    updatedAtMillis: Field(EpochMs()),
  },
  { description: "A door schedule exception: for its local dates it overrides its doors' schedules" },
);

const exceptionFields = {
  name: Opt(Type.String({ minLength: 1, maxLength: 200 })),
  description: Opt(Type.String({ maxLength: 1000 })),
  locationUuid: Opt(RefUuid('location', { notFound: true })),
  doorUuids: Opt(Type.Array(RefUuid('door', { notFound: 'Door {id}' }), { maxItems: 1000 })),
  locationToDoorsMap: Opt(DoorMap),
  localStartDate: Opt(LocalDate),
  localEndDate: Opt(LocalDate),
  defaultState: Opt(DoorState),
  intervals: Opt(Type.Array(Interval, { maxItems: 100 })),
  uuid: Opt(NotRef('subject', Ruuid({ description: 'the exception to update' }))),
};
const ExceptionResponse = ResponseOf({ exception: Field(DoorScheduleException) });
const ExceptionsResponse = ResponseOf({ exceptions: Field(Type.Array(DoorScheduleException)) });
const DateRangeFilter = Type.Object(
  {
    localStartDateRangeStart: Opt(Type.String({ maxLength: 40 })),
    localStartDateRangeEnd: Opt(Type.String({ maxLength: 40 })),
    localEndDateRangeStart: Opt(Type.String({ maxLength: 40 })),
    localEndDateRangeEnd: Opt(Type.String({ maxLength: 40 })),
  },
  { description: "bounds (inclusive, dates or date-times) on the exceptions' first and last dates" },
);

export const CreateExceptionRequest = Type.Object({
  exception: Type.Object({ ...exceptionFields, name: Type.String({ minLength: 1, maxLength: 200 }), localStartDate: LocalDate, localEndDate: LocalDate }),
});
export const UpdateExceptionRequest = Type.Object({ exception: Type.Object({ ...exceptionFields, uuid: NotRef('subject', Ruuid()) }) });
export const UpdateExceptionResponse = ResponseOf({
  exception: Field(DoorScheduleException),
  expiredACDLicensesDoorUuids: Field(Type.Array(Ruuid())),
  unassignedACDLicensesDoorUuids: Field(Type.Array(Ruuid())),
});
export const ExceptionUuidRequest = Type.Object({ exceptionUuid: NotRef('handler', Ruuid()) });
export const ExceptionAnswer = ExceptionResponse;
export const DeleteExceptionResponse = ResponseOf({});
export const FindExceptionsRequest = Type.Object({ dateRangeFilter: Opt(DateRangeFilter) });
export const FindExceptionsForDoorRequest = Type.Object({ doorUuid: RefUuid('door', { notFound: true }), dateRangeFilter: Opt(DateRangeFilter) });
export const FindExceptionsForLocationRequest = Type.Object({ locationUuid: RefUuid('location', { notFound: true }), dateRangeFilter: Opt(DateRangeFilter) });
export const FindExceptionsResponse = ExceptionsResponse;
