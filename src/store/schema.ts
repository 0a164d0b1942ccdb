import type { AuditLogTable, OrgTables } from '../domains/orgs/tables.js';
import type { ChangeEventsTable } from './change-tables.js';

/** The whole database: each domain declares its own tables, composed here. */
export interface DB extends OrgTables {
  audit_log: AuditLogTable;
  change_events: ChangeEventsTable;
}
