import { Type, type TSchema } from 'typebox';
import { EmptyRequest, Field, ResponseOf, Ruuid, StringEnum } from '../../schemas/common.js';
import { MAX_EPOCH_SECONDS, MAX_PAST_SECONDS, SCHEDULE_STRATEGIES } from './strategies.js';
import { NotRef, RefUuid } from '../../schemas/record-kinds.js';

/** The reference's ScheduleStrategyEnum; each create operation takes the one its name says. */
const ScheduleStrategy = StringEnum(SCHEDULE_STRATEGIES);

/** A minute-of-week interval (start inclusive, stop exclusive); ranges and overlaps are the service's rules. */
const WeeklyMinuteInterval = Type.Object({
  minuteOfWeekStart: Type.Integer({ description: 'minute of the week, 0 = Monday 00:00 on the location wall clock' }),
  minuteOfWeekStop: Type.Integer({ description: 'exclusive, at most 10080' }),
});

const MAX_INTERVALS = 500;
const Name = Type.String({ minLength: 1, maxLength: 200 });
/** A schedule the operation acts on, refused as the platform words it ("Schedule not found"). */
const ScheduleUuid = RefUuid('schedule', { notFound: true });

/** The common fields of a schedule in a request (nullable like the reference's; null means "not given"). */
const scheduleFields = {
  orgUuid: Field(NotRef('callerOrg', Ruuid())),
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
  schedule: Type.Object({ ...scheduleFields, uuid: Field(NotRef('subject', Ruuid())), name: Name, intervalList: IntervalList }),
});
export const CreateScheduleResponse = ResponseOf({ scheduleUuid: Field(Ruuid()) });

export const UpdateScheduleRequest = Type.Object({
  schedule: Type.Object({ ...scheduleFields, uuid: ScheduleUuid, name: Field(Name), intervalList: Field(IntervalList) }),
});
export const UpdateScheduleResponse = ResponseOf({});

export const FindSchedulesRequest = EmptyRequest;
export const FindSchedulesResponse = ResponseOf({ schedules: Field(Type.Array(Schedule)) });

export const DeleteScheduleRequest = Type.Object({ scheduleUuid: ScheduleUuid });
export const DeleteScheduleResponse = ResponseOf({});

/** An absolute interval in epoch seconds (`b` inclusive, `e` exclusive). */
const SecondsInterval = Type.Object({
  b: Type.Integer({ description: 'start, epoch seconds (inclusive)', minimum: 0, maximum: MAX_EPOCH_SECONDS }),
  e: Type.Integer({ description: 'end, epoch seconds (exclusive)', minimum: 0, maximum: MAX_EPOCH_SECONDS }),
});
/** A wall-clock interval at the location. */
const LocalDateTimeInterval = Type.Object({
  localStartDateTime: Type.String({ description: 'yyyy-MM-ddTHH:mm:ss on the location wall clock (inclusive)', maxLength: 32 }),
  localEndDateTime: Type.String({ description: 'yyyy-MM-ddTHH:mm:ss on the location wall clock (exclusive)', maxLength: 32 }),
});

/** The common fields of a schedule as answered. */
const answered = {
  uuid: Field(Ruuid()),
  orgUuid: Field(Ruuid()),
  name: Field(Type.String()),
  mutable: Field(Type.Boolean()),
  oneTimeUse: Field(Type.Boolean()),
  strategy: Field(ScheduleStrategy),
};
export const AbsoluteSchedule = Type.Object({ ...answered, intervalList: Field(Type.Array(SecondsInterval)) });
export const RelativeSchedule = Type.Object({ ...answered, pastSeconds: Field(Type.Integer()) });
export const DateTimeSchedule = Type.Object({ ...answered, intervals: Field(Type.Array(LocalDateTimeInterval)) });

/** A create request: the schedule's common fields (a name), and its strategy's times. */
const createOf = <T extends Record<string, TSchema>>(times: T) =>
  Type.Object({ schedule: Type.Object({ ...scheduleFields, uuid: Field(NotRef('subject', Ruuid())), name: Name, ...times }) });
export const CreateWeeklyScheduleRequest = createOf({ intervalList: Field(IntervalList) });
export const CreateAbsoluteScheduleRequest = createOf({ intervalList: Field(Type.Array(SecondsInterval, { maxItems: MAX_INTERVALS })) });
export const CreateRelativeScheduleRequest = createOf({
  pastSeconds: Type.Integer({ minimum: 1, maximum: MAX_PAST_SECONDS, description: 'the seconds before now it covers' }),
});
export const CreateDateTimeScheduleRequest = createOf({ intervals: Field(Type.Array(LocalDateTimeInterval, { maxItems: MAX_INTERVALS })) });

export const FindScheduleRequest = Type.Object({ uuid: ScheduleUuid });
export const FindWeeklyScheduleResponse = ResponseOf({ schedule: Field(Schedule) });
export const FindAbsoluteScheduleResponse = ResponseOf({ schedule: Field(AbsoluteSchedule) });
export const FindRelativeScheduleResponse = ResponseOf({ schedule: Field(RelativeSchedule) });
export const FindDateTimeScheduleResponse = ResponseOf({ schedule: Field(DateTimeSchedule) });

export const GetSchedulesResponse = ResponseOf({
  weeklySchedules: Field(Type.Array(Schedule)),
  absoluteSchedules: Field(Type.Array(AbsoluteSchedule)),
  relativeSchedules: Field(Type.Array(RelativeSchedule)),
  relativeDatetimeSchedules: Field(Type.Array(DateTimeSchedule)),
});

const Uuids = Field(Type.Array(Type.String()));
/** A weekly schedule with the records that follow it (the reference's WeeklyRepeatingScheduleDataType). */
const WeeklyScheduleData = Type.Object({
  ...Schedule.properties,
  accessGrantUuids: Uuids,
  alarmMonitoringUuids: Uuids,
  alertPolicyUuids: Uuids,
  customEventUuids: Uuids,
  doorSettingUuids: Uuids,
  ruleUuids: Uuids,
  sharedStreamUuids: Uuids,
  locationsUsedIn: Uuids,
});
export const GetScheduleDataResponse = ResponseOf({ weeklyScheduleData: Field(Type.Array(WeeklyScheduleData)) });
export const GetScheduleDataV2Request = Type.Object({ scheduleUuid: ScheduleUuid });
export const GetScheduleDataV2Response = ResponseOf({ weeklyScheduleData: Field(WeeklyScheduleData) });
