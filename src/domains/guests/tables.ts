import type { Generated } from 'kysely';

/** A guest of an organization, known by e-mail address (lower case); the record itself is JSON. */
export interface GuestsTable {
  uuid: string;
  org_uuid: string;
  email: string;
  /** The location the guest is expected at. */
  location_uuid: string;
  data: string;
  created_at_ms: number;
}

/** What a guest did (checked in, out, updated), newest last; the record itself is JSON. */
export interface GuestActivitiesTable {
  id: Generated<number>;
  org_uuid: string;
  location_uuid: string | null;
  email: string;
  timestamp_ms: number;
  payload: string;
}

export interface GuestTables {
  guests: GuestsTable;
  guest_activities: GuestActivitiesTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends GuestTables {}
}
