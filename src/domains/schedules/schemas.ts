import { Type } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid } from '../../schemas/common.js';

/** The reference's ScheduleStrategyEnum: every value is accepted by the schema, only the weekly one by the service. */
const ScheduleStrategy = Type.Enum(['WEEKLY_REPEATING_MINUTES', 'ABSOLUTE_SECONDS', 'REALTIME_RELATIVE_SECONDS', 'RELATIVE_DATETIME_INTERVALS']);

/** A minute-of-week interval (start inclusive, stop exclusive); ranges and overlaps are the service's rules. */
const WeeklyMinuteInterval = Type.Object({
  minuteOfWeekStart: Type.Integer({ description: 'minute of the week, 0 = Monday 00:00 on the location wall clock' }),
  minuteOfWeekStop: Type.Integer({ description: 'exclusive, at most 10080' }),
});

const MAX_INTERVALS = 500;
const Name = Type.String({ minLength: 1, maxLength: 200 });

/** The common fields of a schedule in a request (nullable like the reference's; null means "not given"). */
const scheduleFields = {
  orgUuid: Field(Ruuid()),
  mutable: Field(Type.Boolean()),
  oneTimeUse: Field(Type.Boolean()),
  strategy: Field(ScheduleStrategy),
};
const IntervalList = Type.Array(WeeklyMinuteInterval, { maxItems: MAX_INTERVALS });

/** The specification's Schedule (the reference's WeeklyRepeatingScheduleType), as answered. */
export const Schedule = Type.Object({
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  intervalList: Field(Type.Array(WeeklyMinuteInterval)),
  mutable: Field(Type.Boolean()),
  oneTimeUse: Field(Type.Boolean()),
  strategy: Field(Type.String()),
});

export const CreateScheduleRequest = Type.Object({
  schedule: Type.Object({ ...scheduleFields, uuid: Field(Ruuid()), name: Name, intervalList: IntervalList }),
});
export const CreateScheduleResponse = ResponseOf({ scheduleUuid: Field(Ruuid()) });

export const UpdateScheduleRequest = Type.Object({
  schedule: Type.Object({ ...scheduleFields, uuid: Ruuid(), name: Field(Name), intervalList: Field(IntervalList) }),
});
export const UpdateScheduleResponse = ResponseOf({});

export const FindSchedulesRequest = EmptyRequest;
export const FindSchedulesResponse = ResponseOf({ schedules: Field(Type.Array(Schedule)) });

export const DeleteScheduleRequest = Type.Object({ scheduleUuid: Ruuid() });
export const DeleteScheduleResponse = ResponseOf({});
