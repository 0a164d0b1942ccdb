import type { ReadSource } from '../../store/reader.js';

/** The kinds of record that follow a schedule, as getScheduleData lists them. */
export type ScheduleUseKind = 'door' | 'accessRule' | 'alertPolicy' | 'rule' | 'cloudArchiving' | 'customEvent';

/** One record that follows a schedule: what it is, its uuid, how it is named in messages, and its location if it has one. */
export interface ScheduleUse {
  kind: ScheduleUseKind;
  uuid: string;
  /** How a message names it, e.g. `door "Front Door"`. */
  label: string;
  locationUuid?: string | null;
}

/**
 * "Who uses this schedule?": each domain whose records refer to schedules (doors, rules, ...) provides a
 * check, listed in the composition root (`deps.scheduleUsage`, src/open-deps.ts), so that the schedules domain
 * can refuse to delete a schedule in use, and list what follows it, without importing those domains.
 */
export type ScheduleUsageCheck = (source: ReadSource, orgUuid: string, scheduleUuid: string) => Promise<ScheduleUse[]>;

/** Every record of the organization that uses the schedule. */
export async function scheduleUses(checks: readonly ScheduleUsageCheck[], source: ReadSource, orgUuid: string, scheduleUuid: string): Promise<ScheduleUse[]> {
  const uses: ScheduleUse[] = [];
  for (const check of checks) uses.push(...(await check(source, orgUuid, scheduleUuid)));
  return uses;
}

/**
 * The usage lists of the platform's WeeklyRepeatingScheduleDataType (custom events are the prompts that run on
 * a schedule). Gatehouse's alarm monitoring and shared streams do not follow schedules: their lists are empty.
 */
export function usageLists(uses: readonly ScheduleUse[]) {
  const of = (kind: ScheduleUseKind) => [...new Set(uses.filter((u) => u.kind === kind).map((u) => u.uuid))];
  return {
    accessGrantUuids: of('accessRule'),
    alarmMonitoringUuids: [] as string[],
    alertPolicyUuids: of('alertPolicy'),
    customEventUuids: of('customEvent'),
    doorSettingUuids: of('door'),
    ruleUuids: of('rule'),
    sharedStreamUuids: [] as string[],
    locationsUsedIn: [...new Set(uses.flatMap((u) => (u.locationUuid ? [u.locationUuid] : [])))],
  };
}

declare module '../../deps.js' {
  interface Deps {
    /** The checks that tell whether a schedule is in use (doors, rules): deleting it is then refused. */
    scheduleUsage: readonly ScheduleUsageCheck[];
  }
}
