import type { ScheduleUse } from '../schedules/schedule-usage.js';
import { dbOf, type ReadSource } from '../../store/reader.js';
import * as store from './store.js';

/** The doors of the organization whose access rules follow the schedule, for the schedules domain's usage check. */
export async function doorsUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  return (await store.listDoorsUsingSchedule(dbOf(source), orgUuid, scheduleUuid)).map((d) => ({
    kind: 'door',
    uuid: d.uuid,
    label: `door "${d.name}"`,
    locationUuid: d.location_uuid,
  }));
}
