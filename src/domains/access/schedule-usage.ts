import { dbOf, type ReadSource } from '../../store/reader.js';

/** The doors of the organization whose access rules follow the schedule, for the schedules domain's usage check. */
export async function doorsUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<string[]> {
  const rows = await dbOf(source)
    .selectFrom('doors')
    .select('name')
    .where('schedule_uuid', '=', scheduleUuid)
    .where('org_uuid', '=', orgUuid)
    .orderBy('name')
    .execute();
  return rows.map((r) => `door "${r.name}"`);
}
