/**
 * Org-scoped configuration records that no query looks inside (policies, plans, templates, settings, ...):
 * one row per record, its kind and organization indexed, the record itself as JSON (src/records/org-records.ts).
 */
export interface OrgRecordsTable {
  uuid: string;
  org_uuid: string;
  /** The record's kind: the stream entity it is announced as (CAMERA_POLICY, LOCKDOWN_PLAN, ...). */
  kind: string;
  /** The record's name, when it has one: lists are ordered by it and finders match on it. */
  name: string | null;
  /** A second key that finders filter on (the location, device or user the record belongs to), when it has one. */
  owner_uuid: string | null;
  data: string;
  created_at_ms: number;
  updated_at_ms: number;
}

export interface RecordTables {
  org_records: OrgRecordsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../store/schema.js' {
  interface DB extends RecordTables {}
}
