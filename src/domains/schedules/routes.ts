import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import * as schedules from './service.js';
import type { ScheduleStrategy, ScheduleTimes } from './strategies.js';

const tags = ['Policy'];
const scheduleTags = ['Schedule'];

/** What a create request carries besides the common fields, read into the strategy's times. */
type TimesOf = (schedule: Record<string, unknown>) => ScheduleTimes;

/** The four kinds of schedule: their create and find operations, and how a request's schedule gives its times. */
const KINDS: Array<{
  kind: string;
  strategy: ScheduleStrategy;
  create:
    | typeof schemas.CreateWeeklyScheduleRequest
    | typeof schemas.CreateAbsoluteScheduleRequest
    | typeof schemas.CreateRelativeScheduleRequest
    | typeof schemas.CreateDateTimeScheduleRequest;
  found:
    | typeof schemas.FindWeeklyScheduleResponse
    | typeof schemas.FindAbsoluteScheduleResponse
    | typeof schemas.FindRelativeScheduleResponse
    | typeof schemas.FindDateTimeScheduleResponse;
  times: TimesOf;
  what: string;
}> = [
  {
    kind: 'Weekly',
    strategy: 'WEEKLY_REPEATING_MINUTES',
    create: schemas.CreateWeeklyScheduleRequest,
    found: schemas.FindWeeklyScheduleResponse,
    times: (s) => ({ strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: (s.intervalList as never) ?? [] }),
    what: 'minutes of the week (0 = Monday 00:00 at the location), every week',
  },
  {
    kind: 'Absolute',
    strategy: 'ABSOLUTE_SECONDS',
    create: schemas.CreateAbsoluteScheduleRequest,
    found: schemas.FindAbsoluteScheduleResponse,
    times: (s) => ({ strategy: 'ABSOLUTE_SECONDS', intervalList: (s.intervalList as never) ?? [] }),
    what: 'fixed spans of epoch seconds ({b, e}, end exclusive)',
  },
  {
    kind: 'Relative',
    strategy: 'REALTIME_RELATIVE_SECONDS',
    create: schemas.CreateRelativeScheduleRequest,
    found: schemas.FindRelativeScheduleResponse,
    times: (s) => ({ strategy: 'REALTIME_RELATIVE_SECONDS', pastSeconds: s.pastSeconds as number }),
    what: 'the last pastSeconds before now',
  },
  {
    kind: 'RelativeDateTimeIntervals',
    strategy: 'RELATIVE_DATETIME_INTERVALS',
    create: schemas.CreateDateTimeScheduleRequest,
    found: schemas.FindDateTimeScheduleResponse,
    times: (s) => ({ strategy: 'RELATIVE_DATETIME_INTERVALS', intervals: (s.intervals as never) ?? [] }),
    what: 'fixed spans of wall-clock date-times at the location of what follows it',
  },
];

/** The schedules that door access, policies and rules follow: the weekly ones of /api/policy and all four kinds of /api/schedule. */
export function scheduleRoutes(app: ApiApp, deps: Deps): void {
  operation(
    app,
    {
      path: '/api/policy/createSchedule',
      operationId: 'createSchedule',
      summary: 'Create a weekly schedule',
      tags,
      body: schemas.CreateScheduleRequest,
      response: schemas.CreateScheduleResponse,
    },
    async (input, ctx) => ({
      scheduleUuid: (
        await schedules.addSchedule(deps, ctx, input.schedule, { strategy: 'WEEKLY_REPEATING_MINUTES', intervalList: input.schedule.intervalList })
      ).uuid,
    }),
  );
  operation(
    app,
    {
      path: '/api/policy/updateSchedule',
      operationId: 'updateSchedule',
      summary: 'Update a schedule',
      description: 'Changes the fields given. Intervals: 0 <= start < stop <= 10080, no overlaps. A schedule with mutable false is refused.',
      tags,
      body: schemas.UpdateScheduleRequest,
      response: schemas.UpdateScheduleResponse,
    },
    async (input, ctx) => {
      await schedules.updateSchedule(deps, ctx, input.schedule);
      return {};
    },
  );
  operation(
    app,
    {
      path: '/api/policy/findSchedules',
      operationId: 'findSchedules',
      summary: 'Find the weekly schedules of the organization',
      tags,
      body: schemas.FindSchedulesRequest,
      response: schemas.FindSchedulesResponse,
    },
    async (_input, ctx) => ({ schedules: await schedules.findSchedules(deps, ctx) }),
  );
  for (const path of ['/api/policy/deleteSchedule', '/api/schedule/deleteSchedule'])
    operation(
      app,
      {
        path,
        operationId: path.startsWith('/api/policy') ? 'deleteSchedule' : 'deleteScheduleV2',
        summary: 'Delete a schedule',
        description: 'Refused while a door, a rule or a policy uses the schedule, and for a schedule with mutable false.',
        tags: path.startsWith('/api/policy') ? tags : scheduleTags,
        body: schemas.DeleteScheduleRequest,
        response: schemas.DeleteScheduleResponse,
      },
      async (input, ctx) => {
        await schedules.deleteSchedule(deps, ctx, input.scheduleUuid);
        return {};
      },
    );

  for (const { kind, strategy, create, found, times, what } of KINDS) {
    operation(
      app,
      {
        path: `/api/schedule/create${kind}Schedule`,
        operationId: `create${kind}Schedule`,
        summary: `Create a ${strategy} schedule: ${what}`,
        tags: scheduleTags,
        body: create,
        response: schemas.CreateScheduleResponse,
      },
      async (input, ctx) => ({ scheduleUuid: (await schedules.addSchedule(deps, ctx, input.schedule, times(input.schedule))).uuid }),
    );
    operation(
      app,
      {
        path: `/api/schedule/find${kind}Schedule`,
        operationId: `find${kind}Schedule`,
        summary: `Find a ${strategy} schedule by uuid`,
        tags: scheduleTags,
        body: schemas.FindScheduleRequest,
        response: found,
      },
      async (input, ctx) => ({ schedule: await schedules.findScheduleOfStrategy(deps, ctx, input.uuid, strategy) }),
    );
  }
  operation(
    app,
    {
      path: '/api/schedule/getSchedules',
      operationId: 'getSchedules',
      summary: 'Every schedule of the organization, one list per strategy',
      tags: scheduleTags,
      body: schemas.FindSchedulesRequest,
      response: schemas.GetSchedulesResponse,
    },
    async (_input, ctx) => schedules.schedulesByStrategy(deps, ctx),
  );
  operation(
    app,
    {
      path: '/api/schedule/getScheduleData',
      operationId: 'getScheduleData',
      summary: 'The weekly schedules with the doors, access grants, policies, rules and locations that follow each',
      tags: scheduleTags,
      body: schemas.FindSchedulesRequest,
      response: schemas.GetScheduleDataResponse,
    },
    async (_input, ctx) => ({ weeklyScheduleData: await schedules.weeklyScheduleData(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/schedule/getScheduleDataV2',
      operationId: 'getScheduleDataV2',
      summary: 'One weekly schedule with the records that follow it',
      tags: scheduleTags,
      body: schemas.GetScheduleDataV2Request,
      response: schemas.GetScheduleDataV2Response,
    },
    async (input, ctx) => ({ weeklyScheduleData: (await schedules.weeklyScheduleData(deps, ctx, input.scheduleUuid))[0] }),
  );
}
