import type { ReadSource } from '../../store/reader.js';

/**
 * "Who uses this schedule?": each domain whose records refer to schedules (doors, rules, ...) provides a
 * check, listed in the composition root (`deps.scheduleUsage`, src/app.ts), so that the schedules domain can
 * refuse to delete a schedule in use without importing those domains. A check answers how its records that
 * use the schedule are named, e.g. `door "Front Door"`.
 */
export type ScheduleUsageCheck = (source: ReadSource, orgUuid: string, scheduleUuid: string) => Promise<string[]>;

/** Every record of the organization that uses the schedule, as the checks name them. */
export async function scheduleUsers(checks: readonly ScheduleUsageCheck[], source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<string[]> {
  const users: string[] = [];
  for (const check of checks) users.push(...(await check(source, orgUuid, scheduleUuid)));
  return users;
}

declare module '../../deps.js' {
  interface Deps {
    /** The checks that tell whether a schedule is in use (doors, rules): deleting it is then refused. */
    scheduleUsage: readonly ScheduleUsageCheck[];
  }
}
