export interface SchedulesTable {
  uuid: string;
  org_uuid: string;
  name: string;
  /** JSON array of {minuteOfWeekStart, minuteOfWeekStop} (see week-minutes.ts for the convention). */
  intervals: string;
  mutable: number;
  one_time_use: number;
  strategy: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface ScheduleTables {
  schedules: SchedulesTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends ScheduleTables {}
}
