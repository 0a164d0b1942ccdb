import { dbOf, type ReadSource } from '../../store/reader.js';
import * as store from './store.js';

/** The doors of the organization whose access rules follow the schedule, for the schedules domain's usage check. */
export async function doorsUsingSchedule(source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<string[]> {
  return (await store.listDoorNamesUsingSchedule(dbOf(source), orgUuid, scheduleUuid)).map((name) => `door "${name}"`);
}
