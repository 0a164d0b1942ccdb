import type { Deps } from '../../deps.js';
import { operation, type ApiApp } from '../../edge/operation.js';
import * as schemas from './schemas.js';
import * as schedules from './service.js';

const tags = ['Policy'];

/** The weekly schedules that door access and rules follow. */
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
    async (input, ctx) => ({ scheduleUuid: (await schedules.addSchedule(deps, ctx, input.schedule)).uuid }),
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
      summary: 'Find all schedules of the organization',
      tags,
      body: schemas.FindSchedulesRequest,
      response: schemas.FindSchedulesResponse,
    },
    async (_input, ctx) => ({ schedules: await schedules.findSchedules(deps, ctx) }),
  );
  operation(
    app,
    {
      path: '/api/policy/deleteSchedule',
      operationId: 'deleteSchedule',
      summary: 'Delete a schedule',
      description: 'Refused while a door, a rule or a policy uses the schedule, and for a schedule with mutable false.',
      tags,
      body: schemas.DeleteScheduleRequest,
      response: schemas.DeleteScheduleResponse,
    },
    async (input, ctx) => {
      await schedules.deleteSchedule(deps, ctx, input.scheduleUuid);
      return {};
    },
  );
}
