/** A user's pause of notifications: all of them, or those of one device, location or component composite. */
export interface NotificationSnoozesTable {
  uuid: string;
  org_uuid: string;
  user_uuid: string;
  /** ALL, DEVICE, LOCATION or COMPONENT_COMPOSITE. */
  scope: string;
  /** The device, location or component composite snoozed; null for ALL. */
  target_uuid: string | null;
  starts_at_ms: number;
  ends_at_ms: number;
  created_at_ms: number;
}

/** A notification sent to a user about a source record (a policy alert): at most one per user and source. */
export interface UserNotificationsTable {
  uuid: string;
  org_uuid: string;
  user_uuid: string;
  source_uuid: string;
  created_at_ms: number;
}

export interface NotificationTables {
  notification_snoozes: NotificationSnoozesTable;
  user_notifications: UserNotificationsTable;
}

// The store's whole-database type (src/store/schema.ts) is the merge of every domain's tables.
declare module '../../store/schema.js' {
  interface DB extends NotificationTables {}
}
