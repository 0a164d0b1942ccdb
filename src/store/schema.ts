import type { AuditLogTable, ChangeEventsTable, ChangePositionsTable, SecretKeyChecksTable, StoreIdentityTable } from './change-tables.js';

/**
 * The whole database, as Kysely types it. The store declares its own tables here; each domain (and the outbox
 * and the org records) merges its tables into this interface from its own `tables.ts`, so that the store
 * imports nothing from the layers above it.
 */
export interface DB {
  audit_log: AuditLogTable;
  change_events: ChangeEventsTable;
  change_positions: ChangePositionsTable;
  store_identity: StoreIdentityTable;
  secret_key_checks: SecretKeyChecksTable;
}
